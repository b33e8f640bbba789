package faults

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/heraldhq/herald/internal/testkit/dbtest"
	"github.com/heraldhq/herald/internal/testkit/proctest"
	"github.com/heraldhq/herald/internal/testkit/stacktest"
)

// Event webhooks survive a worker SIGKILL in the middle of a request: the endpoint holds the
// first request open, the worker is killed while it waits, and after the restart every
// event is acknowledged, the interrupted one with the same webhook-id, none lost.
func TestWorkerKilledMidWebhookDelivery(t *testing.T) {
	slow(t)
	s := proctest.New(t, dbtest.URL(t), stacktest.SharedTemporal(t).Address)
	s.Env = append(s.Env, "HERALD_WEBHOOK_TIMEOUT=5s", "HERALD_WEBHOOK_POLL_INTERVAL=200ms", "HERALD_WEBHOOK_RETRY_BASE=200ms")
	creds, err := s.Local.Apps.Create(context.Background(), "faults")
	if err != nil {
		t.Fatal(err)
	}
	s.Start("api")
	c := newClient(t, s, creds, 30*time.Second)
	var mu sync.Mutex
	var got []string // webhook-ids acknowledged, in order
	var first string
	hold := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		id := r.Header.Get("webhook-id")
		mu.Lock()
		held := first == ""
		if held {
			first = id
		}
		mu.Unlock()
		if held {
			select { // the worker dies while this request waits
			case <-hold:
			case <-r.Context().Done():
			}
			return
		}
		mu.Lock()
		got = append(got, id)
		mu.Unlock()
		w.WriteHeader(204)
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(hold) })
	body, _ := json.Marshal(map[string]any{"url": srv.URL + "/hook", "eventTypes": []string{"message.delivered"}, "ordered": true})
	if _, err := s.Local.Webhooks.Create(context.Background(), c.creds.AppID, body); err != nil {
		t.Fatal(err)
	}
	worker := s.Start("worker")
	const events = 5
	for i := range events {
		c.send([]byte(fmt.Sprintf(`{"notification": {"title": "n%d", "message": "m"}, "sendTo": {"recipients": ["alice"]}}`, i)))
	}
	s.Eventually(2*time.Minute, "the first delivery to be in flight", func() bool {
		mu.Lock()
		defer mu.Unlock()
		return first != ""
	})
	worker.Kill()
	killed := time.Now()
	worker.Restart()
	s.Eventually(3*time.Minute, "every event acknowledged", func() bool {
		return s.Count("SELECT count(*) FROM webhook_deliveries WHERE app_id = $1 AND status = 'succeeded'", c.creds.AppID) == events
	})
	mu.Lock()
	acked := slices.Clone(got)
	mu.Unlock()
	t.Logf("worker SIGKILLed with a request in flight; all %d events acknowledged %s after the kill", events, time.Since(killed).Round(100*time.Millisecond))
	if len(acked) == 0 || acked[0] != first {
		t.Errorf("the interrupted event %s was not delivered again first with its id (ordered endpoint; acknowledged %v)", first, acked)
	}
	distinct := slices.Clone(acked)
	slices.Sort(distinct)
	if len(slices.Compact(distinct)) != events {
		t.Errorf("acknowledged %v: want %d distinct ids", acked, events)
	}
	if n := s.Count("SELECT count(*) FROM webhook_deliveries WHERE app_id = $1", c.creds.AppID); n != events {
		t.Errorf("%d delivery rows, want %d", n, events)
	}
	if t.Failed() {
		t.Logf("worker log:\n%s", tail(worker.Log()))
	}
}
