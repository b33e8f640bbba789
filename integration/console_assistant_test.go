package integration

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/heraldhq/herald/internal/platform/config"
	"github.com/heraldhq/herald/internal/testkit/stacktest"
	webconsole "github.com/heraldhq/herald/web/console"
)

// TestConsoleAssistantInChromium: the template editor's "Draft with the assistant", whose
// journeys are those of web/console/test/browser/assistant.spec.ts. Two stacks of their own:
// one without the assistant (the control is absent), one with it pointed at a fake
// OpenAI-compatible chat completions endpoint (the third-party service), which answers each
// channel's fields, or, asked for something "broken", a draft the server refuses.
func TestConsoleAssistantInChromium(t *testing.T) {
	chromium := browserTools(t, consoleDir)
	if _, err := fs.Stat(webconsole.Files(), "index.html"); err != nil {
		t.Fatal("the console is not built into this test binary: run `make console` first (make test-web does)")
	}
	var calls atomic.Int64
	ai := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Messages []struct{ Role, Content string }
		}
		if r.URL.Path != "/v1/chat/completions" || json.NewDecoder(r.Body).Decode(&req) != nil || len(req.Messages) < 2 {
			http.NotFound(w, r)
			return
		}
		calls.Add(1)
		answer := `{"text":"Your order {{orderId}} is on its way."}`
		switch {
		case strings.Contains(req.Messages[1].Content, "broken"):
			answer = `{"text":"Hi {{name"}` // refused by the server, twice
		case strings.Contains(req.Messages[0].Content, "for the email channel"):
			answer = `{"subject":"Your order {{orderId}} shipped","html":"<p>Hi {{firstName}}, your order is on its way.</p>","text":"Hi {{firstName}}, your order is on its way."}`
		}
		_ = json.NewEncoder(w).Encode(map[string]any{"choices": []any{map[string]any{"index": 0,
			"message": map[string]string{"role": "assistant", "content": answer}, "finish_reason": "stop"}}})
	}))
	t.Cleanup(ai.Close)

	for _, s := range []struct {
		grep      string
		configure func(*config.Config)
	}{
		{"assistant: not configured", func(*config.Config) {}},
		{"assistant: drafts", func(c *config.Config) {
			c.Ops.AIBaseURL, c.Ops.AIAPIKey, c.Ops.AIModel = ai.URL+"/v1", "sk-test", "fake-model"
		}},
	} {
		e, con := stacktest.NewWithConsole(t, stacktest.Options{Configure: s.configure})
		owner := con.User("writer@example.com", consolePassword)
		client := con.Client(owner.AccessToken, "Acme")
		app := con.App(owner.AccessToken, client, "Shop")
		e.Must(e.Do("POST", fmt.Sprintf("/v1/apps/%v/templates", app["id"]), map[string]string{"name": "Order shipped", "identifier": "order-shipped"},
			stacktest.Bearer(owner.AccessToken)), 201, "template")

		cmd := exec.Command("npx", "playwright", "test", "--grep", s.grep)
		cmd.Dir = consoleDir
		cmd.Env = append(os.Environ(), "HERALD_URL="+e.BaseURL, "HERALD_CHROMIUM="+chromium, "CONSOLE_PASSWORD="+consolePassword,
			"ASSISTANT_EMAIL="+owner.Email, fmt.Sprintf("ASSISTANT_APP_ID=%v", app["id"]), "SCREENSHOTS="+os.Getenv("HERALD_CONSOLE_SCREENSHOTS"))
		out, err := cmd.CombinedOutput()
		t.Logf("npx playwright test --grep %q:\n%s", s.grep, out)
		if err != nil {
			t.Fatalf("the console's assistant journeys (%s) failed: %v", s.grep, err)
		}
		if !strings.Contains(string(out), "1 passed") {
			t.Fatalf("the journey %q did not run", s.grep)
		}
	}
	if calls.Load() != 4 {
		t.Errorf("%d calls to the assistant's endpoint, want 4 (email, sms, and a refused sms draft sent back once)", calls.Load())
	}
}
