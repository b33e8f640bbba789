package realtimetest

import (
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// RawPolling is an Engine.IO long-polling client speaking payloads by hand, for what the
// stock client hides: overlapping polls, oversized or malformed bodies, a client that stops
// polling.
type RawPolling struct {
	t testing.TB
	// URL is the session's endpoint (with its sid).
	URL string
	SID string
	// Open is the open packet's payload.
	Open map[string]any
	// frames holds frames received but not returned yet.
	frames []string
}

// pollClient bounds each request by WaitTimeout, against a hang: a poll itself waits up to
// a ping interval by design.
var pollClient = &http.Client{Timeout: WaitTimeout}

// OpenPolling opens a long-polling session on baseURL with extra query parameters and
// reads the open packet.
func OpenPolling(t testing.TB, baseURL string, query url.Values) *RawPolling {
	t.Helper()
	q := url.Values{"EIO": {"4"}, "transport": {"polling"}}
	for k, v := range query {
		q[k] = v
	}
	status, body := do(t, http.MethodGet, baseURL+"/socket.io/?"+q.Encode(), "")
	p := &RawPolling{t: t}
	if status != 200 || !strings.HasPrefix(body, "0") || json.Unmarshal([]byte(body[1:]), &p.Open) != nil {
		t.Fatalf("expected the open packet, got %d %q", status, body)
	}
	p.SID, _ = p.Open["sid"].(string)
	q.Set("sid", p.SID)
	p.URL = baseURL + "/socket.io/?" + q.Encode()
	return p
}

func do(t testing.TB, method, u, body string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(method, u, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "text/plain;charset=UTF-8")
	}
	res, err := pollClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, u, err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatalf("%s %s: reading the body: %v", method, u, err)
	}
	return res.StatusCode, string(b)
}

// Get polls once and returns the answer as it came.
func (p *RawPolling) Get() (int, string) {
	p.t.Helper()
	return do(p.t, http.MethodGet, p.URL, "")
}

// Post sends a payload and returns the answer.
func (p *RawPolling) Post(payload string) (int, string) {
	p.t.Helper()
	return do(p.t, http.MethodPost, p.URL, payload)
}

// Send posts a payload, failing unless the server answers 200 "ok".
func (p *RawPolling) Send(payload string) {
	p.t.Helper()
	if status, body := p.Post(payload); status != 200 || body != "ok" {
		p.t.Fatalf("POST %q: %d %s", payload, status, body)
	}
}

// Poll polls once, failing on anything but 200, and returns the payload's frames.
func (p *RawPolling) Poll() []string {
	p.t.Helper()
	status, body := p.Get()
	if status != 200 {
		p.t.Fatalf("poll: %d %s", status, body)
	}
	return strings.Split(body, "\x1e")
}

// Next returns the next frame that is not a ping or a noop, answering pings.
func (p *RawPolling) Next() string {
	p.t.Helper()
	for {
		for len(p.frames) > 0 {
			f := p.frames[0]
			p.frames = p.frames[1:]
			switch f {
			case "2":
				p.Send("3")
			case "6":
			default:
				return f
			}
		}
		p.frames = p.Poll()
	}
}
