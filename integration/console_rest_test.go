package integration

import (
	"encoding/json"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"sync/atomic"
	"testing"

	"github.com/heraldhq/herald/internal/platform/config"
	"github.com/heraldhq/herald/internal/testkit/stacktest"
	webconsole "github.com/heraldhq/herald/web/console"
)

// consoleRestConfig is the configuration the journeys of web/console/test/browser/rest.spec.ts
// need from TestConsoleInChromium's stack: a Temporal Web UI, so the message logs link each
// message to its run.
func consoleRestConfig(c *config.Config) {
	c.TemporalUIURL = consoleTemporalUI
}

// consoleTemporalUI is the Temporal Web UI the console links to (never opened by the tests).
const consoleTemporalUI = "https://temporal-ui.example.com"

// TestConsoleCodeHostInChromium: sign-in with a code host from the console's sign-in page,
// against a fake GitHub-compatible code host (the third-party service): the button sends
// the browser to the code host, which sends it back to the console's /auth/codehost with a
// code, and the console completes the sign-in. Its own stack, because the button changes the
// sign-in page every other journey uses. The journeys are those of rest.spec.ts titled
// "code host".
func TestConsoleCodeHostInChromium(t *testing.T) {
	chromium := browserTools(t, consoleDir)
	if _, err := fs.Stat(webconsole.Files(), "index.html"); err != nil {
		t.Fatal("the console is not built into this test binary: run `make console` first (make test-web does)")
	}
	var consoleBase atomic.Value
	mux := http.NewServeMux()
	// The authorization page: the user agrees at once and is sent back with a code.
	mux.HandleFunc("GET /login/oauth/authorize", func(w http.ResponseWriter, r *http.Request) {
		back := consoleBase.Load().(string) + "/auth/codehost?code=good-code&state=" + url.QueryEscape(r.URL.Query().Get("state"))
		http.Redirect(w, r, back, http.StatusFound)
	})
	mux.HandleFunc("POST /login/oauth/access_token", func(w http.ResponseWriter, r *http.Request) {
		_ = r.ParseForm()
		if r.PostForm.Get("code") != "good-code" {
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]string{"access_token": "gho_token", "token_type": "bearer"})
	})
	mux.HandleFunc("GET /api/user", func(w http.ResponseWriter, r *http.Request) {
		_ = json.NewEncoder(w).Encode(map[string]any{"id": 4242, "login": "octocat", "name": "Octo Cat"})
	})
	mux.HandleFunc("GET /api/user/emails", func(w http.ResponseWriter, r *http.Request) {
		_ = json.NewEncoder(w).Encode([]map[string]any{{"email": "octo@example.com", "primary": true, "verified": true}})
	})
	codeHost := httptest.NewServer(mux)
	t.Cleanup(codeHost.Close)

	e, _ := stacktest.NewWithConsole(t, stacktest.Options{Configure: func(c *config.Config) {
		c.Console.CodeHostName, c.Console.CodeHostClientID, c.Console.CodeHostClientSecret = "github", "cid", "csecret"
		c.Console.CodeHostAuthURL = codeHost.URL + "/login/oauth/authorize"
		c.Console.CodeHostTokenURL = codeHost.URL + "/login/oauth/access_token"
		c.Console.CodeHostAPIURL = codeHost.URL + "/api"
		c.Console.CodeHostRedirectURL = "http://console.invalid/auth/codehost"
	}})
	consoleBase.Store(e.BaseURL)

	cmd := exec.Command("npx", "playwright", "test", "--grep", "code host")
	cmd.Dir = consoleDir
	cmd.Env = append(os.Environ(), "HERALD_URL="+e.BaseURL, "HERALD_CHROMIUM="+chromium, "CONSOLE_PASSWORD="+consolePassword,
		"CODEHOST_EMAIL=octo@example.com", "SCREENSHOTS="+os.Getenv("HERALD_CONSOLE_SCREENSHOTS"))
	out, err := cmd.CombinedOutput()
	t.Logf("npx playwright test:\n%s", out)
	if err != nil {
		t.Fatalf("the console's code-host journeys failed: %v", err)
	}
}
