package integration

import (
	"context"
	"fmt"
	"html/template"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/heraldhq/herald/internal/audience/userjwt"
	"github.com/heraldhq/herald/internal/console/apps"
	"github.com/heraldhq/herald/internal/testkit/stacktest"
)

// The inbox widget in a real browser: a page served from another origin than Herald holds
// only the script tag and the element; the Playwright tests in web/inbox/test/browser
// drive it in Debian's Chromium against this stack (API + worker + relay on the Temporal
// dev server + Postgres). `make test-web` runs this test alone.

// widgetDir is the npm package of the widget.
var widgetDir = filepath.Join("..", "web", "inbox")

// browserTools finds Chromium, node and npx, or skips (fails under
// HERALD_REQUIRE_INTEGRATION: `make test` must run these tests), and installs the npm
// packages of dir (web/inbox or web/console) when missing. They run only with
// HERALD_WEB_TESTS set, so `make test` runs them once, from `make test-web`.
func browserTools(t *testing.T, dir string) string {
	t.Helper()
	if os.Getenv("HERALD_WEB_TESTS") == "" {
		t.Skip("the widget's browser tests run with HERALD_WEB_TESTS=1: make test-web (make test calls it)")
	}
	chromium := os.Getenv("HERALD_CHROMIUM")
	if chromium == "" {
		chromium = "/usr/bin/chromium"
	}
	missing := ""
	if _, err := os.Stat(chromium); err != nil {
		missing = chromium + " (apt-get install chromium)"
	}
	for _, tool := range []string{"node", "npx"} {
		if _, err := exec.LookPath(tool); err != nil {
			missing = tool
		}
	}
	if missing != "" {
		if os.Getenv("HERALD_REQUIRE_INTEGRATION") != "" {
			t.Fatalf("the browser tests need %s", missing)
		}
		t.Skipf("skipping the browser tests: %s is missing", missing)
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "@playwright", "test")); err != nil {
		cmd := exec.Command("npm", "ci", "--no-audit", "--no-fund", "--loglevel=error")
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("npm ci in %s: %v\n%s", dir, err, out)
		}
	}
	return chromium
}

// hostPage is the customer's page: the script tag and the element, nothing else but a
// token callback in secure mode. The bell sits at the right of a top bar, or (Pos) at its
// left edge, or at the left of a bar fixed to the bottom of the window.
var hostPage = template.Must(template.New("page").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Customer app</title><link rel="icon" href="data:,">
<style>body{margin:0;font-family:system-ui,sans-serif;background:{{if eq .Theme "dark"}}#111827;color:#f9fafb{{else}}#f9fafb;color:#111827{{end}}}
nav{display:flex;justify-content:space-between;align-items:center;padding:12px 24px;border-bottom:1px solid #8883}
nav.left{justify-content:flex-start;gap:12px;padding-left:4px}
nav.bottom-left{position:fixed;left:0;right:0;bottom:0;justify-content:flex-start;gap:12px;padding-left:4px;border-top:1px solid #8883}</style>
<script type="module" src="{{.Herald}}/widget/herald-inbox.js"></script>
</head><body><nav class="{{.Pos}}">{{if ne .Pos "right"}}{{template "inbox" .}}<strong>Acme</strong>{{else}}<strong>Acme</strong>
{{template "inbox" .}}{{end}}
</nav>
{{if .Token}}<script>
document.querySelector("herald-inbox").refreshUserToken = () => fetch("/token?user={{.User}}").then((r) => r.text());
</script>{{end}}
</body></html>{{define "inbox"}}<herald-inbox api-key="{{.APIKey}}" {{if .Token}}user-token="{{.Token}}"{{else}}user-id="{{.User}}"{{end}} base-url="{{.Herald}}" theme="{{.Theme}}" locale="en"{{if .Toasts}} toasts{{end}}></herald-inbox>{{end}}`))

func TestInboxWidgetInChromium(t *testing.T) {
	chromium := browserTools(t, widgetDir)
	e := realtimeEnv(t, stacktest.Options{Temporal: true})
	ctx := context.Background()

	secure := e.NewApp("secure")
	if _, _, err := e.Stack.Apps.GenerateRSAKey(ctx, secure.AppID); err != nil {
		t.Fatal(err)
	}
	key, err := e.Stack.Apps.RSAPrivateKey(ctx, secure.AppID)
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Stack.Apps.SetSecureAuth(ctx, secure.AppID, true); err != nil {
		t.Fatal(err)
	}

	mux := http.NewServeMux()
	// /inbox.html?user=alice[&theme=dark][&secure=1][&pos=left|bottom-left][&toasts=1]
	mux.HandleFunc("/inbox.html", func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		data := map[string]string{"Herald": e.BaseURL, "APIKey": e.App.APIKey, "User": q.Get("user"), "Theme": q.Get("theme"), "Pos": "right", "Toasts": q.Get("toasts")}
		if data["Theme"] == "" {
			data["Theme"] = "light"
		}
		if p := q.Get("pos"); p == "left" || p == "bottom-left" {
			data["Pos"] = p
		}
		if q.Get("secure") != "" {
			tok, err := userjwt.Mint(key, secure.APIKey, q.Get("user"), time.Hour, time.Now())
			if err != nil {
				http.Error(w, err.Error(), 500)
				return
			}
			data["APIKey"], data["Token"] = secure.APIKey, tok
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_ = hostPage.Execute(w, data)
	})
	// The host app's backend mints its users' tokens (secure mode).
	mux.HandleFunc("/token", func(w http.ResponseWriter, r *http.Request) {
		tok, err := userjwt.Mint(key, secure.APIKey, r.URL.Query().Get("user"), time.Hour, time.Now())
		if err != nil {
			http.Error(w, err.Error(), 500)
			return
		}
		_, _ = w.Write([]byte(tok))
	})
	mux.HandleFunc("/avatar.svg", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "image/svg+xml")
		_, _ = w.Write([]byte(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 36 36"><rect width="36" height="36" fill="#f59e0b"/><text x="18" y="24" font-size="16" text-anchor="middle" fill="#fff" font-family="sans-serif">A</text></svg>`))
	})
	mux.HandleFunc("/landing/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, `<!doctype html><html><head><title>Landing</title><link rel="icon" href="data:,"></head><body><h1>Landed on %s</h1></body></html>`, template.HTMLEscapeString(r.URL.Path))
	})
	// /snooze-due?id=… brings a snoozed notification's time to now: the relay's waker (the
	// real one) brings it back within a second.
	mux.HandleFunc("/snooze-due", func(w http.ResponseWriter, r *http.Request) {
		tag, err := e.Stack.DB.Pool.Exec(r.Context(), `UPDATE notifications SET snoozed_until = now() - interval '1 second'
			WHERE id = $1 AND app_id = $2 AND snoozed_until IS NOT NULL`, r.URL.Query().Get("id"), e.App.AppID)
		if err != nil || tag.RowsAffected() != 1 {
			http.Error(w, fmt.Sprint("not snoozed: ", err), 409)
			return
		}
		fmt.Fprint(w, "ok")
	})
	// /old-inbox-row?user=…&title=…&url=…[&blocks=…][&n=…] writes an inbox row (n of them,
	// titled "<title> <i>") of the main app as delivery
	// did before links were checked (a javascript: url in a row from an older Herald, or one
	// written by hand): the widget must still refuse to follow it.
	mux.HandleFunc("/old-inbox-row", func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		var id int64
		err := e.Stack.DB.Pool.QueryRow(r.Context(), `
			WITH u AS (INSERT INTO users (app_id, identifier, profile) VALUES ($1, $2, '{}')
				ON CONFLICT (app_id, identifier) DO UPDATE SET updated_at = now() RETURNING id)
			INSERT INTO notifications (app_id, user_id, request_id, title, message, url, blocks)
			SELECT $1, u.id, gen_random_uuid(), $3 || CASE WHEN $6::int > 1 THEN ' ' || i ELSE '' END, 'old row', $4, COALESCE(NULLIF($5, '')::jsonb, '[]')
			FROM u, generate_series(1, GREATEST($6::int, 1)) AS i RETURNING id`,
			e.App.AppID, q.Get("user"), q.Get("title"), q.Get("url"), q.Get("blocks"), min(max(atoiOr(q.Get("n"), 1), 1), 5000)).Scan(&id)
		if err != nil {
			http.Error(w, err.Error(), 500)
			return
		}
		fmt.Fprint(w, id)
	})
	host := httptest.NewServer(mux)
	t.Cleanup(host.Close)
	// Another origin than Herald's: another port (and another host name).
	pageURL := strings.Replace(host.URL, "127.0.0.1", "localhost", 1)
	for _, app := range []apps.Credentials{e.App, secure} {
		if err := e.Stack.Apps.SetAllowedOrigins(ctx, app.AppID, []string{pageURL}); err != nil {
			t.Fatal(err)
		}
	}

	// The preference panel's journey: a critical category and workflow (locked, with the
	// reason) and a workflow a user may turn off.
	if _, err := e.Stack.Categories.Create(ctx, e.App.AppID, []byte(`{"identifier":"security","name":"Security","critical":true}`)); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Stack.DB.Pool.Exec(ctx, `INSERT INTO flows (app_id, identifier, name, draft, published_version, critical) VALUES
		($1, 'weekly-digest', 'Weekly digest', '{"steps":[]}', 1, false), ($1, 'otp', 'Sign-in code', '{"steps":[]}', 1, true)`, e.App.AppID); err != nil {
		t.Fatal(err)
	}

	args := []string{"playwright", "test"}
	if grep := os.Getenv("HERALD_WIDGET_GREP"); grep != "" {
		args = append(args, "--grep", grep)
	}
	cmd := exec.Command("npx", args...)
	cmd.Dir = widgetDir
	cmd.Env = append(os.Environ(),
		"HERALD_URL="+e.BaseURL, "PAGE_URL="+pageURL, "HERALD_CHROMIUM="+chromium,
		"HERALD_API_KEY="+e.App.APIKey, "HERALD_API_SECRET="+e.App.APISecret,
		"HERALD_SECURE_API_KEY="+secure.APIKey, "HERALD_SECURE_API_SECRET="+secure.APISecret,
		"HERALD_WIDGET_SCREENSHOTS="+os.Getenv("HERALD_WIDGET_SCREENSHOTS"),
	)
	out, err := cmd.CombinedOutput()
	t.Logf("npx playwright test:\n%s", out)
	if err != nil {
		t.Fatalf("the browser tests failed: %v", err)
	}
}

// The committed widget bundle (embedded in the Go binary) must be what the sources build:
// the same files (the entry, its chunks, the service worker) with the same bytes.
func TestCommittedWidgetBundleIsFresh(t *testing.T) {
	browserTools(t, widgetDir)
	dist := filepath.Join(widgetDir, "dist", "widget")
	read := func() map[string]string {
		entries, err := os.ReadDir(dist)
		if err != nil {
			t.Fatal(err)
		}
		files := map[string]string{}
		for _, e := range entries {
			b, err := os.ReadFile(filepath.Join(dist, e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			files[e.Name()] = string(b)
		}
		return files
	}
	before := read()
	cmd := exec.Command("node", "build.mjs")
	cmd.Dir = widgetDir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("npm run build: %v\n%s", err, out)
	}
	now := read()
	for f, b := range now {
		if old, ok := before[f]; !ok || old != b {
			t.Errorf("web/inbox/dist/widget/%s is stale or missing: run `make widget` and commit dist/widget", f)
		}
	}
	for f := range before {
		if _, ok := now[f]; !ok {
			t.Errorf("web/inbox/dist/widget/%s is no longer built: run `make widget` and commit dist/widget", f)
		}
	}
}

// atoiOr parses s, or returns def.
func atoiOr(s string, def int) int {
	var n int
	if _, err := fmt.Sscan(s, &n); err != nil {
		return def
	}
	return n
}
