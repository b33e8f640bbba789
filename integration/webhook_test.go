package integration

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/heraldhq/herald/internal/delivery/channels"
	"github.com/heraldhq/herald/internal/platform/config"
	"github.com/heraldhq/herald/internal/providers/webhook"
	"github.com/heraldhq/herald/internal/testkit/stacktest"
)

const hookSecret = "whsec-0123456789abcdef"

// receiver is a webhook endpoint that answers per recipient from a script (then 200) and
// records every request with the time it arrived.
type receiver struct {
	t       *testing.T
	mu      sync.Mutex
	script  map[string][]int
	got     map[string][]received
	badSigs int
	srv     *httptest.Server
}

type received struct {
	at      time.Time
	payload webhook.Payload
	header  http.Header
}

func newReceiver(t *testing.T, script map[string][]int) *receiver {
	r := &receiver{t: t, script: script, got: map[string][]received{}}
	r.srv = httptest.NewServer(http.HandlerFunc(r.serve))
	t.Cleanup(r.srv.Close)
	return r
}

func (r *receiver) serve(w http.ResponseWriter, req *http.Request) {
	body, _ := io.ReadAll(req.Body)
	var p webhook.Payload
	_ = json.Unmarshal(body, &p)
	r.mu.Lock()
	defer r.mu.Unlock()
	if webhook.Verify(hookSecret, req.Header, body, time.Now()) != nil {
		r.badSigs++
	}
	user := p.Recipient.Identifier
	r.got[user] = append(r.got[user], received{at: time.Now(), payload: p, header: req.Header.Clone()})
	status := 200
	if s := r.script[user]; len(s) > 0 {
		status, r.script[user] = s[0], s[1:]
	}
	if status == 429 {
		w.Header().Set("Retry-After", "2")
	}
	w.WriteHeader(status)
	_, _ = fmt.Fprintf(w, `{"answer":%d}`, status)
}

func (r *receiver) requests(user string) []received {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]received(nil), r.got[user]...)
}

func TestWebhookDeliveryFaultsAndCallbacks(t *testing.T) {
	e := stacktest.New(t, stacktest.Options{Temporal: true})
	rcv := newReceiver(t, map[string][]int{
		"flaky":   {500, 503},
		"refused": {400},
		"limited": {429},
	})
	inst := webhookInstance(t, e, rcv.srv.URL+"/hooks/herald", hookSecret)
	req := sendNotification(t, e, `{
		"notification": {"title": "Invoice ready", "message": "Invoice 7 is ready", "url": "https://example.com/i/7"},
		"sendTo": {"recipients": ["ok", "flaky", "refused", "limited"]},
		"data": {"invoice": 7},
		"override": {"channels": ["webhook"]}
	}`)
	logs := waitForLogs(t, e, req, "ok/webhook", "flaky/webhook", "refused/webhook", "limited/webhook")

	if rcv.badSigs != 0 {
		t.Errorf("%d deliveries with a bad signature", rcv.badSigs)
	}
	ok := rcv.requests("ok")
	if len(ok) != 1 {
		t.Fatalf("ok got %d requests", len(ok))
	}
	p := ok[0].payload
	if p.Title != "Invoice ready" || p.Message != "Invoice 7 is ready" || p.URL != "https://example.com/i/7" || string(p.Data) != `{"invoice":7}` ||
		p.RequestID != req || p.IdempotencyKey != req+":ok:webhook" || ok[0].header.Get(webhook.HeaderMessageID) != logs["ok/webhook"].ProviderMessageID {
		t.Errorf("payload %+v, headers %v", p, ok[0].header)
	}
	// Failing twice then succeeding delivers once, after three attempts, all logged.
	if n := len(rcv.requests("flaky")); n != 3 {
		t.Errorf("flaky got %d requests, want 3", n)
	}
	if l := logs["flaky/webhook"]; l.Status != "sent" || l.Attempts != 3 {
		t.Errorf("flaky log %+v", l)
	}
	// A 400 fails without a retry.
	if n := len(rcv.requests("refused")); n != 1 {
		t.Errorf("refused got %d requests, want 1", n)
	}
	if l := logs["refused/webhook"]; l.Status != "failed" || l.Attempts != 1 || l.Error == "" {
		t.Errorf("refused log %+v", l)
	}
	// A 429 waits its Retry-After (2 s) before the next attempt.
	lim := rcv.requests("limited")
	if len(lim) != 2 || lim[1].at.Sub(lim[0].at) < 2*time.Second {
		t.Errorf("limited: %d requests, gap %v", len(lim), gapOf(lim))
	}
	if l := logs["limited/webhook"]; l.Status != "sent" || l.Attempts != 2 {
		t.Errorf("limited log %+v", l)
	}
	t.Logf("provider faults: 500,503 then 200 → %s after %d attempts; 400 → %s after %d attempt; 429 (Retry-After 2) → %s after %d attempts, %s apart",
		logs["flaky/webhook"].Status, logs["flaky/webhook"].Attempts, logs["refused/webhook"].Status, logs["refused/webhook"].Attempts,
		logs["limited/webhook"].Status, logs["limited/webhook"].Attempts, gapOf(lim).Round(time.Millisecond))

	// The endpoint reports delivery back, signed with the same secret.
	callback := fmt.Sprintf("/v1/providerInstances/%d/callback", inst.ID)
	event := fmt.Sprintf(`{"id":%q,"status":"delivered"}`, logs["ok/webhook"].ProviderMessageID)
	res := e.Do("POST", callback, event, signed(event))
	if res.Status != 200 || res.Map(t)["updated"] != float64(1) {
		t.Fatalf("callback: %d %s", res.Status, res.Body)
	}
	if l := messageLogs(t, e, req)["ok/webhook"]; l.Status != "delivered" {
		t.Errorf("after callback: %+v", l)
	}
	// Status only moves forward; a wrong signature, an unknown instance, or a provider
	// without callbacks is refused.
	clicked := fmt.Sprintf(`[{"id":%q,"status":"clicked"},{"id":%q,"status":"delivered"}]`, logs["ok/webhook"].ProviderMessageID, logs["ok/webhook"].ProviderMessageID)
	if res := e.Do("PUT", callback, clicked, signed(clicked)); res.Status != 200 {
		t.Errorf("second callback: %d %s", res.Status, res.Body)
	}
	if l := messageLogs(t, e, req)["ok/webhook"]; l.Status != "clicked" {
		t.Errorf("after clicked then delivered: %+v", l)
	}
	bad := signed(event)
	bad[webhook.HeaderSignature] = "v1=00"
	if res := e.Do("POST", callback, event, bad); res.Status != 401 {
		t.Errorf("bad signature: %d %s", res.Status, res.Body)
	}
	if res := e.Do("POST", "/v1/providerInstances/999999/callback", event, signed(event)); res.Status != 404 {
		t.Errorf("unknown instance: %d %s", res.Status, res.Body)
	}
	if res := e.Do("POST", callback, `{"id":"x","status":"exploded"}`, signed(`{"id":"x","status":"exploded"}`)); res.Status != 400 ||
		string(res.Body) != `{"status":"error","message":["each event needs an id and a status among delivered, bounced, opened, clicked, failed"]}` {
		t.Errorf("bad event: %d %s", res.Status, res.Body)
	}
	// Another app's instance (even with the same secret) cannot touch this app's messages.
	other := e.NewApp("other")
	cfg, _ := json.Marshal(map[string]any{"url": rcv.srv.URL, "secret": hookSecret})
	theirs, err := e.Stack.Channels.CreateInstance(context.Background(), other.AppID, "webhook", channels.InstanceInput{Provider: "webhook", Config: cfg})
	if err != nil {
		t.Fatal(err)
	}
	bounced := fmt.Sprintf(`{"id":%q,"status":"bounced"}`, logs["ok/webhook"].ProviderMessageID)
	res = e.Do("POST", fmt.Sprintf("/v1/providerInstances/%d/callback", theirs.ID), bounced, signed(bounced))
	if res.Status != 200 || res.Map(t)["updated"] != float64(0) || messageLogs(t, e, req)["ok/webhook"].Status != "clicked" {
		t.Errorf("another app's callback changed the log: %d %s", res.Status, res.Body)
	}
}

func signed(body string) stacktest.Headers {
	ts := strconv.FormatInt(time.Now().Unix(), 10)
	return stacktest.Headers{webhook.HeaderTimestamp: ts, webhook.HeaderSignature: webhook.Sign(hookSecret, ts, []byte(body))}
}

func gapOf(rs []received) time.Duration {
	if len(rs) < 2 {
		return 0
	}
	return rs[1].at.Sub(rs[0].at)
}

// Tenants choose webhook URLs: one aimed at an internal address is refused at save, and
// one that turns internal later (DNS changed; simulated by rewriting the stored row) is
// refused at delivery (permanently, visible in the message log) unless the operator
// allow-listed the host.
func TestWebhooksCannotReachInternalAddresses(t *testing.T) {
	e := stacktest.New(t, stacktest.Options{Temporal: true, Configure: func(c *config.Config) { c.PrivateHosts = nil }})
	rcv := newReceiver(t, nil)
	cfg, _ := json.Marshal(map[string]any{"url": rcv.srv.URL + "/hooks/herald", "secret": hookSecret})
	if _, err := e.Stack.Channels.CreateInstance(context.Background(), e.App.AppID, "webhook", channels.InstanceInput{Provider: "webhook", Config: cfg}); err == nil ||
		!strings.Contains(err.Error(), "HERALD_PRIVATE_HOSTS") {
		t.Fatalf("saving an internal webhook URL: %v", err)
	}
	inst := webhookInstance(t, e, "https://hooks.herald.example/in", hookSecret)
	sql(t, e, `UPDATE provider_instances SET config = jsonb_set(config, '{url}', to_jsonb($1::text)), updated_at = now() WHERE id = $2`, rcv.srv.URL+"/hooks/herald", inst.ID)
	req := sendNotification(t, e, `{"notification":{"title":"x"},"sendTo":{"recipients":["ok"]},"override":{"channels":["webhook"]}}`)
	l := waitForLogs(t, e, req, "ok/webhook")["ok/webhook"]
	if l.Status != "failed" || !strings.Contains(l.Error, "not public") || !strings.Contains(l.Error, "HERALD_PRIVATE_HOSTS") || l.Attempts != 1 {
		t.Errorf("log %+v, want a permanent failure naming the internal address", l)
	}
	if n := len(rcv.requests("ok")); n != 0 {
		t.Errorf("the internal receiver got %d requests", n)
	}
}
