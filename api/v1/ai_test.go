package v1_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/heraldhq/herald/internal/platform/config"
)

// chatFake is a local OpenAI-compatible chat completions endpoint: it answers with the
// queued contents in turn and records each request.
type chatFake struct {
	*httptest.Server
	mu       sync.Mutex
	answers  []string
	requests []map[string]any
	auth     []string
}

func newChatFake(t *testing.T, answers ...string) *chatFake {
	f := &chatFake{answers: answers}
	f.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.mu.Lock()
		defer f.mu.Unlock()
		if r.URL.Path != "/v1/chat/completions" || r.Method != "POST" {
			http.NotFound(w, r)
			return
		}
		var req map[string]any
		b, _ := io.ReadAll(r.Body)
		_ = json.Unmarshal(b, &req)
		f.requests = append(f.requests, req)
		f.auth = append(f.auth, r.Header.Get("Authorization"))
		content := f.answers[0]
		if len(f.answers) > 1 {
			f.answers = f.answers[1:]
		}
		_ = json.NewEncoder(w).Encode(map[string]any{"id": "chatcmpl-1", "object": "chat.completion",
			"choices": []any{map[string]any{"index": 0, "message": map[string]any{"role": "assistant", "content": content}, "finish_reason": "stop"}}})
	}))
	t.Cleanup(f.Close)
	return f
}

func withAI(f *chatFake) func(*config.Config) {
	return func(c *config.Config) {
		c.Ops.AIBaseURL, c.Ops.AIAPIKey, c.Ops.AIModel = f.URL+"/v1", "sk-ai-test", "test-model"
	}
}

func TestAssistantDraftsValidatedTemplates(t *testing.T) {
	good := `{"subject":"Welcome, {{firstName}}!","html":"<p>Hi {{firstName}},</p>{{#if plan}}<p>You are on {{plan}}.</p>{{/if}}","text":"Hi {{firstName}}"}`
	f := newChatFake(t, "```json\n"+`{"subject":"Welcome {{firstName","html":"<p>Hi</p>"}`+"\n```", good)
	e := newEnv(t, withAI(f))
	a := e.tenant(t, "writer@example.com")
	var st struct {
		Configured bool
		Channels   []string
	}
	must(t, e.Do("GET", "/v1/ai", nil, bearer(a.tok)), 200, "status").JSON(t, &st)
	if !st.Configured || len(st.Channels) != 10 || st.Channels[1] != "email" {
		t.Errorf("status %+v", st)
	}
	// Any member may ask, a viewer too; the status names no endpoint, model or key.
	viewer := e.member(t, a.tok, a.client, "aistatus@example.com", "viewer")
	if body := string(must(t, e.Do("GET", "/v1/ai", nil, bearer(viewer)), 200, "viewer status").Body); !strings.Contains(body, `"configured":true`) ||
		strings.Contains(body, f.URL) || strings.Contains(body, "test-model") || strings.Contains(body, "sk-ai-test") {
		t.Errorf("viewer status %s", body)
	}
	wantError(t, e.Do("GET", "/v1/ai", nil, nil), 401, "sign in first: send the access token as Authorization: Bearer <token>")
	res := must(t, e.Do("POST", "/v1/ai", map[string]string{"prompt": "A welcome email for new users", "channel": "email"}, bearer(a.tok)), 201, "draft")
	var d struct {
		Channel string
		Content map[string]string
		Model   string
	}
	res.JSON(t, &d)
	if d.Channel != "email" || d.Model != "test-model" || d.Content["subject"] != "Welcome, {{firstName}}!" || !strings.Contains(d.Content["html"], "{{/if}}") {
		t.Errorf("draft %+v", d)
	}
	// The first answer was refused and sent back with the problem found in it.
	if len(f.requests) != 2 {
		t.Fatalf("%d calls to the endpoint, want 2", len(f.requests))
	}
	first := f.requests[0]
	msgs := first["messages"].([]any)
	if first["model"] != "test-model" || f.auth[0] != "Bearer sk-ai-test" || msgs[1].(map[string]any)["content"] != "A welcome email for new users" ||
		!strings.Contains(msgs[0].(map[string]any)["content"].(string), `"subject"`) {
		t.Errorf("first request %v", first)
	}
	retry := f.requests[1]["messages"].([]any)
	if last := retry[len(retry)-1].(map[string]any)["content"].(string); !strings.Contains(last, "subject: {{ at offset 8 is never closed") {
		t.Errorf("retry message %q", last)
	}
}

func TestAssistantRefusesInvalidDraftsAndBadRequests(t *testing.T) {
	f := newChatFake(t, `{"text":"Hello {{#each items}}{{name}}"}`)
	e := newEnv(t, withAI(f))
	a := e.tenant(t, "writer2@example.com")
	wantError(t, e.Do("POST", "/v1/ai", map[string]string{"prompt": "Order shipped", "channel": "sms"}, bearer(a.tok)), 503,
		"the assistant did not produce a valid sms template (text: {{#each}} is never closed); try again or rephrase the prompt")

	wantMessages(t, e.Do("POST", "/v1/ai", `{}`, bearer(a.tok)), "prompt should not be empty", "channel should not be empty")
	wantMessages(t, e.Do("POST", "/v1/ai", `{"prompt":1,"channel":"fax"}`, bearer(a.tok)), "prompt must be a string",
		"channel must be one of discord, email, inApp, mobilePush, msTeams, slack, sms, webPush, webhook, whatsapp")
	wantMessages(t, e.Do("POST", "/v1/ai", map[string]string{"prompt": strings.Repeat("x", 4001), "channel": "sms"}, bearer(a.tok)), "prompt must be at most 4000 characters")
	wantError(t, e.Do("POST", "/v1/ai", map[string]string{"prompt": "x", "channel": "sms"}, nil), 401, "sign in first: send the access token as Authorization: Bearer <token>")
	viewer := e.member(t, a.tok, a.client, "aiview@example.com", "viewer")
	wantError(t, e.Do("POST", "/v1/ai", map[string]string{"prompt": "x", "channel": "sms"}, bearer(viewer)), 403,
		"drafting templates needs the developer role (or higher) on a client")
	if len(f.requests) != 2 {
		t.Errorf("%d calls to the endpoint, want 2 (refused requests call nothing)", len(f.requests))
	}
}

func TestAssistantWithoutConfiguration(t *testing.T) {
	e := newEnv(t)
	a := e.tenant(t, "noai@example.com")
	if body := string(must(t, e.Do("GET", "/v1/ai", nil, bearer(a.tok)), 200, "status").Body); body != `{"channels":[],"configured":false}` {
		t.Errorf("status %s", body)
	}
	wantError(t, e.Do("POST", "/v1/ai", map[string]string{"prompt": "x", "channel": "inApp"}, bearer(a.tok)), 503,
		"the assistant is not configured on this installation: set HERALD_AI_BASE_URL and HERALD_AI_MODEL (and HERALD_AI_API_KEY) to an OpenAI-compatible chat completions endpoint")
}
