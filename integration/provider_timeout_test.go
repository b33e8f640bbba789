package integration

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/heraldhq/herald/internal/delivery/channels"
	"github.com/heraldhq/herald/internal/providers/webhook"
	"github.com/heraldhq/herald/internal/testkit/stacktest"
)

// A provider that does not answer within the instance's timeout is retried: the message
// log counts the attempt that timed out, and the next one delivers (issue 11, scenario 5: timeouts;
// TestWebhookDeliveryFaultsAndCallbacks covers 500s, 429 with Retry-After and 400).
func TestProviderTimeoutIsRetried(t *testing.T) {
	e := stacktest.New(t, stacktest.Options{Temporal: true})
	var mu sync.Mutex
	var arrivals []time.Time
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		body, _ := io.ReadAll(req.Body)
		var p webhook.Payload
		_ = json.Unmarshal(body, &p)
		mu.Lock()
		arrivals = append(arrivals, time.Now())
		first := len(arrivals) == 1
		mu.Unlock()
		if first {
			// Hang past the instance's 1 s timeout: Herald gives up on this attempt.
			select {
			case <-release:
			case <-time.After(5 * time.Second):
			}
		}
		w.WriteHeader(200)
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(release) }) // runs first: the hung handler returns, then the server closes
	cfg, _ := json.Marshal(map[string]any{"url": srv.URL + "/hooks", "secret": hookSecret, "timeoutSeconds": 1})
	if _, err := e.Stack.Channels.CreateInstance(t.Context(), e.App.AppID, "webhook", channels.InstanceInput{Provider: "webhook", Name: "slow hook", Config: cfg}); err != nil {
		t.Fatal(err)
	}
	req := sendNotification(t, e, `{"notification":{"title":"Slow"},"sendTo":{"recipients":["sloth"]},"override":{"channels":["webhook"]}}`)
	l := waitForLogs(t, e, req, "sloth/webhook")["sloth/webhook"]
	mu.Lock()
	got := append([]time.Time(nil), arrivals...)
	mu.Unlock()
	if l.Status != "sent" || l.Attempts != 2 || len(got) != 2 {
		t.Fatalf("log %+v after %d requests; want sent on the second attempt", l, len(got))
	}
	t.Logf("provider hung past its 1 s timeout: the message log counts 2 attempts; the second was sent %s after the first", got[1].Sub(got[0]).Round(10*time.Millisecond))
}
