package api

import (
	"io"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/gofiber/fiber/v2"
)

func consoleApp(files fstest.MapFS) *fiber.App {
	app := fiber.New()
	app.Get("/v1/health", func(c *fiber.Ctx) error { return c.SendString("ok") })
	NewConsole(files).Register(app)
	return app
}

func consoleGet(t *testing.T, app *fiber.App, method, path string) (int, map[string]string, string) {
	t.Helper()
	res, err := app.Test(httptest.NewRequest(method, path, nil))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(res.Body)
	h := map[string]string{}
	for _, k := range []string{"Content-Type", "Cache-Control", "Content-Security-Policy", "X-Frame-Options"} {
		h[k] = res.Header.Get(k)
	}
	return res.StatusCode, h, string(b)
}

// TestConsoleServesDeepLinksAssetsAndLeavesTheAPIAlone: deep links get index.html with the
// CSP and no caching; hashed assets are immutable; API paths and missing files are 404s.
func TestConsoleServesDeepLinksAssetsAndLeavesTheAPIAlone(t *testing.T) {
	app := consoleApp(fstest.MapFS{
		"index.html":           {Data: []byte("<!doctype html><title>console</title>")},
		"assets/index-abc1.js": {Data: []byte("console.log(1)")},
		"favicon.svg":          {Data: []byte("<svg/>")},
	})
	for _, p := range []string{"/", "/apps/3/templates", "/signin?x=1", "/verify"} {
		st, h, body := consoleGet(t, app, "GET", p)
		if st != 200 || !strings.Contains(body, "<title>console</title>") || !strings.HasPrefix(h["Content-Type"], "text/html") {
			t.Errorf("%s: %d %v %q", p, st, h, body)
		}
		if !strings.Contains(h["Content-Security-Policy"], "script-src 'self'") || !strings.Contains(h["Content-Security-Policy"], "frame-ancestors 'none'") || h["Cache-Control"] != "no-cache" || h["X-Frame-Options"] != "DENY" {
			t.Errorf("%s headers: %v", p, h)
		}
	}
	st, h, body := consoleGet(t, app, "GET", "/assets/index-abc1.js")
	if st != 200 || body != "console.log(1)" || h["Cache-Control"] != "public, max-age=31536000, immutable" || !strings.Contains(h["Content-Type"], "javascript") {
		t.Errorf("asset: %d %v %q", st, h, body)
	}
	if st, h, _ := consoleGet(t, app, "GET", "/favicon.svg"); st != 200 || h["Cache-Control"] != "no-cache" {
		t.Errorf("favicon: %d %v", st, h)
	}
	for _, p := range []string{"/assets/missing.js", "/v1/nope", "/v3/x", "/widget/nope.js", "/robots.txt", "/assets/../../assets.go"} {
		if st, _, body := consoleGet(t, app, "GET", p); st != 404 || strings.Contains(body, "console") {
			t.Errorf("%s: %d %q", p, st, body)
		}
	}
	if st, _, body := consoleGet(t, app, "GET", "/v1/health"); st != 200 || body != "ok" {
		t.Errorf("the API route lost to the console: %d %q", st, body)
	}
	if st, _, _ := consoleGet(t, app, "POST", "/apps/3"); st != 404 && st != 405 {
		t.Errorf("POST to a console path: %d", st)
	}
}

// TestConsolePlaceholderWithoutABuild: a binary built without Node serves a page saying
// how to build the console.
func TestConsolePlaceholderWithoutABuild(t *testing.T) {
	app := consoleApp(fstest.MapFS{".keep": {Data: nil}})
	st, _, body := consoleGet(t, app, "GET", "/apps/1")
	if st != 200 || !strings.Contains(body, "make build") {
		t.Errorf("%d %q", st, body)
	}
}

// TestConsoleKeepsTheAPIsMethodNotAllowed: a GET on an API path registered for another
// method still gets the router's 405, not the console.
func TestConsoleKeepsTheAPIsMethodNotAllowed(t *testing.T) {
	app := fiber.New()
	app.Post("/v1/auth", func(c *fiber.Ctx) error { return c.SendString("ok") })
	NewConsole(fstest.MapFS{"index.html": {Data: []byte("console")}}).Register(app)
	if st, _, body := consoleGet(t, app, "GET", "/v1/auth"); st != 405 || strings.Contains(body, "console") {
		t.Errorf("GET /v1/auth: %d %q", st, body)
	}
}
