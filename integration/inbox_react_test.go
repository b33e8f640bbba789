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

	"github.com/heraldhq/herald/internal/testkit/stacktest"
)

// The React package (web/inbox/react) in a real browser: its example app, built with React
// 19 and with React 18 in development mode (StrictMode double-mounts), is served from
// another origin than Herald; the Playwright tests in web/inbox/react/test/browser drive it
// in Debian's Chromium against this stack. `make test-web` runs it.

// reactDir is the npm package of the React components.
var reactDir = filepath.Join("..", "web", "inbox", "react")

func TestInboxReactInChromium(t *testing.T) {
	browserTools(t, widgetDir) // the headless client's dependencies (socket.io-client)
	chromium := browserTools(t, reactDir)

	// The example app builds while the stack starts (`make test-web` has built the package and
	// checked its budget; the example imports the sources).
	built := make(chan error, 1)
	go func() {
		var out []byte
		for _, args := range [][]string{{"npm", "run", "build:example"}} {
			cmd := exec.Command(args[0], args[1:]...)
			cmd.Dir = reactDir
			b, err := cmd.CombinedOutput()
			out = append(out, b...)
			if err != nil {
				built <- fmt.Errorf("%s: %v\n%s", strings.Join(args, " "), err, out)
				return
			}
		}
		t.Logf("build:\n%s", out)
		built <- nil
	}()

	e := realtimeEnv(t, stacktest.Options{Temporal: true})
	if err := <-built; err != nil {
		t.Fatal(err)
	}

	mux := http.NewServeMux()
	for _, v := range []string{"18", "19"} {
		dir := filepath.Join(reactDir, "example", "dist-"+v)
		mux.Handle("/r"+v+"/", http.StripPrefix("/r"+v+"/", http.FileServer(http.Dir(dir))))
	}
	// How many realtime connections Herald holds: StrictMode must not open two.
	mux.HandleFunc("/realtime-connections", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, e.Stack.Realtime.Hub.Connections())
	})
	mux.HandleFunc("/avatar.svg", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "image/svg+xml")
		_, _ = w.Write([]byte(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 36 36"><rect width="36" height="36" fill="#f59e0b"/><text x="18" y="24" font-size="16" text-anchor="middle" fill="#fff" font-family="sans-serif">S</text></svg>`))
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
	host := httptest.NewServer(mux)
	t.Cleanup(host.Close)
	pageURL := strings.Replace(host.URL, "127.0.0.1", "localhost", 1)
	ctx := context.Background()
	if err := e.Stack.Apps.SetAllowedOrigins(ctx, e.App.AppID, []string{pageURL}); err != nil {
		t.Fatal(err)
	}
	// The preferences view's journey: a critical category and workflow (locked, with the
	// reason) and a workflow a user may turn off.
	if _, err := e.Stack.Categories.Create(ctx, e.App.AppID, []byte(`{"identifier":"security","name":"Security","critical":true}`)); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Stack.DB.Pool.Exec(ctx, `INSERT INTO flows (app_id, identifier, name, draft, published_version, critical) VALUES
		($1, 'weekly-digest', 'Weekly digest', '{"steps":[]}', 1, false), ($1, 'otp', 'Sign-in code', '{"steps":[]}', 1, true)`, e.App.AppID); err != nil {
		t.Fatal(err)
	}

	args := []string{"playwright", "test"}
	if grep := os.Getenv("HERALD_REACT_GREP"); grep != "" {
		args = append(args, "--grep", grep)
	}
	cmd := exec.Command("npx", args...)
	cmd.Dir = reactDir
	cmd.Env = append(os.Environ(),
		"HERALD_URL="+e.BaseURL, "PAGE_URL="+pageURL, "HERALD_CHROMIUM="+chromium,
		"HERALD_API_KEY="+e.App.APIKey, "HERALD_API_SECRET="+e.App.APISecret,
	)
	out, err := cmd.CombinedOutput()
	t.Logf("npx playwright test:\n%s", out)
	if err != nil {
		t.Fatalf("the browser tests failed: %v", err)
	}
}
