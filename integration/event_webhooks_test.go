package integration

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	heraldsdk "github.com/heraldhq/herald/sdk/go"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/heraldhq/herald/internal/platform/config"
	"github.com/heraldhq/herald/internal/testkit/stacktest"
	"github.com/heraldhq/herald/internal/webhooks"
)

// hookRequest is one request an event webhook endpoint received.
type hookRequest struct {
	path    string
	header  http.Header
	body    []byte
	event   webhooks.Body
	status  int
	arrived time.Time
}

// hookServer is a real HTTP server standing for customers' endpoints: each path answers
// from its script (then 200); "hang" in a script waits past Herald's timeout, then 200.
type hookServer struct {
	mu     sync.Mutex
	script map[string][]string
	got    []hookRequest
	srv    *httptest.Server
}

func newHookServer(t *testing.T, script map[string][]string) *hookServer {
	h := &hookServer{script: script}
	h.srv = httptest.NewServer(http.HandlerFunc(h.serve))
	t.Cleanup(h.srv.Close)
	return h
}

func (h *hookServer) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	h.mu.Lock()
	step := "200"
	if s := h.script[r.URL.Path]; len(s) > 0 {
		step, h.script[r.URL.Path] = s[0], s[1:]
	}
	req := hookRequest{path: r.URL.Path, header: r.Header.Clone(), body: body, arrived: time.Now()}
	_ = json.Unmarshal(body, &req.event)
	h.mu.Unlock()
	status := 200
	switch step {
	case "hang":
		select {
		case <-r.Context().Done():
		case <-time.After(3 * time.Second):
		}
		status = 0
	case "503-retry-after":
		w.Header().Set("Retry-After", "1")
		status = 503
	case "500":
		status = 500
	}
	req.status = status
	h.mu.Lock()
	h.got = append(h.got, req)
	h.mu.Unlock()
	if status == 0 {
		return
	}
	w.WriteHeader(status)
	_, _ = fmt.Fprintf(w, `{"answer":%d,"padding":%q}`, status, strings.Repeat("x", 2000))
}

// requests returns what path received, in arrival order.
func (h *hookServer) requests(path string) []hookRequest {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []hookRequest
	for _, r := range h.got {
		if r.path == path {
			out = append(out, r)
		}
	}
	return out
}

// acknowledged returns the webhook-ids path answered 2xx, in order.
func (h *hookServer) acknowledged(path string) []string {
	var ids []string
	for _, r := range h.requests(path) {
		if r.status >= 200 && r.status < 300 {
			ids = append(ids, r.header.Get("webhook-id"))
		}
	}
	return ids
}

// verifyWithStandardWebhooks checks requests with the official standardwebhooks npm package
// (integration/webhookverify) and returns its verdict per request.
func verifyWithStandardWebhooks(t *testing.T, secret string, reqs []hookRequest) []string {
	t.Helper()
	dir, _ := filepath.Abs("webhookverify")
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "standardwebhooks")); err != nil {
		if os.Getenv("HERALD_REQUIRE_INTEGRATION") != "" {
			t.Fatalf("run `npm ci` in integration/webhookverify: %v", err)
		}
		t.Skip("integration/webhookverify has no node_modules (npm ci)")
	}
	type in struct {
		Headers map[string]string `json:"headers"`
		Body    string            `json:"body"`
	}
	payload := struct {
		Secret   string `json:"secret"`
		Requests []in   `json:"requests"`
	}{Secret: secret}
	for _, r := range reqs {
		h := map[string]string{}
		for _, k := range []string{"webhook-id", "webhook-timestamp", "webhook-signature"} {
			h[k] = r.header.Get(k)
		}
		payload.Requests = append(payload.Requests, in{Headers: h, Body: string(r.body)})
	}
	b, _ := json.Marshal(payload)
	cmd := exec.Command("node", "verify.mjs")
	cmd.Dir = dir
	cmd.Stdin = bytes.NewReader(b)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("node verify.mjs: %v: %s", err, out)
	}
	return strings.Split(strings.TrimSpace(string(out)), "\n")
}

func createEndpoint(t *testing.T, e *stacktest.Env, body map[string]any) webhooks.WithSecret {
	t.Helper()
	b, _ := json.Marshal(body)
	ep, err := e.Stack.Webhooks.Create(context.Background(), e.App.AppID, b)
	if err != nil {
		t.Fatal(err)
	}
	return ep
}

// Event webhooks end to end: inbox changes through the developer API become signed
// requests to a real HTTP server, verified by the official library; 500s and timeouts are
// retried with the same webhook-id; an ordered endpoint gets its events in order even when
// the first one fails; an endpoint that keeps failing is disabled with an audit entry; one
// event is resent and everything since a time replayed, with their ids.
func TestEventWebhooksEndToEnd(t *testing.T) {
	e := stacktest.New(t, stacktest.Options{Temporal: true, Configure: func(c *config.Config) {
		c.Webhooks.RetryBase, c.Webhooks.RetryMaxWait = 200*time.Millisecond, time.Second
		c.Webhooks.PollInterval, c.Webhooks.Timeout = 100*time.Millisecond, time.Second
		c.Webhooks.DisableAfter, c.Webhooks.DisableAfterPeriod = 3, 0
	}})
	// The app belongs to a client, whose audit log records the auto-disable.
	sql(t, e, `WITH c AS (INSERT INTO clients (name) VALUES ('Acme') RETURNING id) UPDATE apps SET client_id = (SELECT id FROM c) WHERE id = $1`, e.App.AppID)
	hooks := newHookServer(t, map[string][]string{
		"/flaky":   {"500", "hang", "500"},
		"/ordered": {"503-retry-after"},
		"/dead":    {"500", "500", "500", "500", "500", "500"},
	})
	read := []string{"notification.read"}
	all := createEndpoint(t, e, map[string]any{"url": hooks.srv.URL + "/all", "eventTypes": webhooks.EventTypes})
	createEndpoint(t, e, map[string]any{"url": hooks.srv.URL + "/flaky", "eventTypes": read})
	createEndpoint(t, e, map[string]any{"url": hooks.srv.URL + "/ordered", "eventTypes": read, "ordered": true})
	dead := createEndpoint(t, e, map[string]any{"url": hooks.srv.URL + "/dead", "eventTypes": read})
	createEndpoint(t, e, map[string]any{"url": hooks.srv.URL + "/email-only", "eventTypes": webhooks.EventTypes,
		"filter": map[string]any{"channels": []string{"email"}}})
	// Another app's endpoint hears nothing of this app.
	other := e.NewApp("other")
	b, _ := json.Marshal(map[string]any{"url": hooks.srv.URL + "/other-app", "eventTypes": webhooks.EventTypes})
	if _, err := e.Stack.Webhooks.Create(context.Background(), other.AppID, b); err != nil {
		t.Fatal(err)
	}

	for i := range 3 {
		sendNotification(t, e, fmt.Sprintf(`{"notification": {"title": "n%d", "message": "m"}, "sendTo": {"recipients": ["alice"]}}`, i))
	}
	e.Eventually(60*time.Second, "three inbox items", func() bool { return inbox(t, e, "alice").Pagination.TotalCount == 3 })
	if res := e.Do("POST", "/v3/notifications/markAllNotificationsAsRead", nil, e.UserHeaders("alice")); res.Status >= 300 {
		t.Fatalf("mark all read: %d %s", res.Status, res.Body)
	}

	e.Eventually(60*time.Second, "flaky and ordered endpoints acknowledged three reads", func() bool {
		return len(hooks.acknowledged("/flaky")) == 3 && len(hooks.acknowledged("/ordered")) == 3
	})
	e.Eventually(60*time.Second, "the failing endpoint disabled", func() bool {
		got, err := e.Stack.Webhooks.Get(context.Background(), e.App.AppID, dead.ID)
		return err == nil && !got.Enabled && got.DisabledReason == "failures"
	})

	// Every request to /all: message.sent and message.delivered of the in-app rows, and the
	// reads; each verified by the official library.
	allReqs := hooks.requests("/all")
	e.Eventually(30*time.Second, "all events at /all", func() bool {
		allReqs = hooks.requests("/all")
		return countType(allReqs, "notification.read") == 3 && countType(allReqs, "message.sent")+countType(allReqs, "message.delivered") >= 3
	})
	for i, v := range verifyWithStandardWebhooks(t, all.Secret, allReqs) {
		if !strings.HasPrefix(v, "ok ") {
			t.Errorf("request %d (%s) failed the official verification: %s", i, allReqs[i].body, v)
		}
	}
	// A wrong secret fails it (the check can fail).
	if v := verifyWithStandardWebhooks(t, webhooks.NewSecret(), allReqs[:1]); !strings.HasPrefix(v[0], "fail") {
		t.Errorf("a wrong secret verified: %s", v[0])
	}
	// Herald's Go SDK verifies the same requests, and refuses them under another secret.
	for i, r := range allReqs {
		if err := heraldsdk.VerifyWebhook(all.Secret, r.header, r.body); err != nil {
			t.Errorf("request %d failed the Go SDK's verification: %v", i, err)
		}
	}
	if err := heraldsdk.VerifyWebhook(webhooks.NewSecret(), allReqs[0].header, allReqs[0].body); err == nil {
		t.Error("the Go SDK verified a request under another secret")
	}
	var data struct {
		NotificationID int64  `json:"notificationId"`
		UserIdentifier string `json:"userIdentifier"`
		ReadAt         string `json:"readAt"`
	}
	for _, r := range allReqs {
		if r.event.Type == "notification.read" {
			if err := json.Unmarshal(r.event.Data, &data); err != nil || data.UserIdentifier != "alice" || data.ReadAt == "" || data.NotificationID == 0 {
				t.Errorf("read event %s", r.body)
			}
		}
	}

	// Retries keep the webhook-id: /flaky saw 500, a timeout and 500 across the three events,
	// and each event has one id however often it came.
	flaky := hooks.requests("/flaky")
	if len(flaky) != 6 {
		t.Errorf("/flaky got %d requests, want 6 (3 failed attempts, 3 acknowledged)", len(flaky))
	}
	bodies := map[string]string{}
	for _, r := range flaky {
		id := r.header.Get("webhook-id")
		if prev, ok := bodies[id]; ok && prev != string(r.body) {
			t.Errorf("webhook-id %s carried two bodies", id)
		}
		bodies[id] = string(r.body)
	}
	if len(bodies) != 3 {
		t.Errorf("/flaky saw %d distinct ids, want 3", len(bodies))
	}
	// Nothing is lost: the log of /flaky says three succeeded.
	page, err := e.Stack.Webhooks.Deliveries(context.Background(), e.App.AppID, 0, "succeeded", 0, 200)
	if err != nil {
		t.Fatal(err)
	}
	if len(page.Data) == 0 || page.Data[0].LastLatencyMs == nil || len(page.Data[0].LastResponse) != 1024 {
		t.Errorf("delivery log %+v", page.Data[:min(1, len(page.Data))])
	}

	// Ordered: the first event failed (503, Retry-After 1) and the later ones waited for it.
	ordered := hooks.requests("/ordered")
	if len(ordered) != 4 || ordered[0].header.Get("webhook-id") != ordered[1].header.Get("webhook-id") {
		t.Fatalf("/ordered: %d requests %v", len(ordered), ids(ordered))
	}
	if gap := ordered[1].arrived.Sub(ordered[0].arrived); gap < time.Second {
		t.Errorf("Retry-After 1 not honoured: retried after %v", gap)
	}
	var order []int64
	for _, r := range ordered[1:] {
		_ = json.Unmarshal(r.event.Data, &data)
		order = append(order, data.NotificationID)
	}
	if !slices.IsSorted(order) {
		t.Errorf("/ordered received notifications %v out of order", order)
	}

	// Auto-disable recorded in the client's audit log.
	var n int
	if err := e.Stack.DB.Pool.QueryRow(context.Background(),
		`SELECT count(*) FROM audit_events WHERE action = 'webhook.auto_disabled' AND target_id = $1`, fmt.Sprint(dead.ID)).Scan(&n); err != nil || n != 1 {
		t.Errorf("audit entries of the auto-disable: %d %v", n, err)
	}
	if got := hooks.requests("/dead"); len(got) != 3 {
		dl, _ := e.Stack.Webhooks.Deliveries(context.Background(), e.App.AppID, dead.ID, "", 0, 20)
		t.Errorf("/dead got %d requests %v, want 3 (disabled after 3 failures); log %+v", len(got), ids(got), dl)
	}
	// Filters and tenants: no in-app event reached the email-only endpoint or the other app.
	if n := len(hooks.requests("/email-only")) + len(hooks.requests("/other-app")); n != 0 {
		t.Errorf("%d requests reached filtered-out or other-app endpoints", n)
	}

	// Resend one event and replay everything since the start: same ids again.
	log, err := e.Stack.Webhooks.Deliveries(context.Background(), e.App.AppID, all.ID, "", 0, 200)
	if err != nil || len(log.Data) == 0 {
		t.Fatalf("log of /all: %v", err)
	}
	before := len(hooks.acknowledged("/all"))
	first := log.Data[len(log.Data)-1]
	if _, err := e.Stack.Webhooks.Resend(context.Background(), e.App.AppID, all.ID, first.ID); err != nil {
		t.Fatal(err)
	}
	e.Eventually(30*time.Second, "the resent event recorded", func() bool {
		p, err := e.Stack.Webhooks.Deliveries(context.Background(), e.App.AppID, all.ID, "pending", 0, 10)
		return err == nil && len(p.Data) == 0 && len(hooks.acknowledged("/all")) == before+1
	})
	if acks := hooks.acknowledged("/all"); acks[len(acks)-1] != first.MessageID {
		t.Errorf("resent id %s, want %s", acks[len(acks)-1], first.MessageID)
	}
	queued, err := e.Stack.Webhooks.Replay(context.Background(), e.App.AppID, all.ID, first.CreatedAt)
	if err != nil || int(queued) != len(log.Data) {
		t.Fatalf("replay queued %d of %d: %v", queued, len(log.Data), err)
	}
	e.Eventually(30*time.Second, "the replayed events", func() bool { return len(hooks.acknowledged("/all")) == before+1+len(log.Data) })
	replayed := hooks.acknowledged("/all")[before+1:]
	want := make([]string, len(log.Data))
	for i, d := range log.Data {
		want[i] = d.MessageID
	}
	slices.Sort(replayed)
	slices.Sort(want)
	if !slices.Equal(replayed, want) {
		t.Errorf("replayed ids %v, want %v", replayed, want)
	}
}

func countType(reqs []hookRequest, typ string) int {
	n := 0
	for _, r := range reqs {
		if r.event.Type == typ && r.status == 200 {
			n++
		}
	}
	return n
}

func ids(reqs []hookRequest) []string {
	out := make([]string, len(reqs))
	for i, r := range reqs {
		out[i] = r.header.Get("webhook-id")
	}
	return out
}
