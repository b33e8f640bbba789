package faults

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/heraldhq/herald/internal/delivery/channels"
	"github.com/heraldhq/herald/internal/providers/webhook"
)

// Issue 28, item 5 with real processes: the app's plan allows 3 provider calls at a time;
// two worker processes share that limit (leases in Postgres) against a slow endpoint, one
// is SIGKILLed while it has calls in flight and started again, and every message is
// delivered. The killed worker's leases do not shrink the app's capacity: the retried
// messages renew their own (one lease per message), and any other lease ends with its TTL.
// At most the calls in flight at the kill are delivered twice (the limit bounds them).
func TestPlanCallLimitHoldsAcrossWorkersAndAKill(t *testing.T) {
	slow(t)
	const recipients, limit = 40, 3
	s, c := newProcStack(t)
	s.Env = append(s.Env, `HERALD_PLANS=[{"id":"free","name":"Free","maxProviderCalls":3}]`)
	var mu sync.Mutex
	inFlight, peak := 0, 0
	calls := map[string]int{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := r.Header.Get(webhook.HeaderMessageID)
		mu.Lock()
		calls[id]++
		inFlight++
		peak = max(peak, inFlight)
		mu.Unlock()
		select {
		case <-time.After(400 * time.Millisecond):
		case <-r.Context().Done():
		}
		mu.Lock()
		inFlight--
		mu.Unlock()
	}))
	t.Cleanup(srv.Close)
	cfg, _ := json.Marshal(map[string]any{"url": srv.URL, "secret": "0123456789abcdef0123"})
	if _, err := s.Local.Channels.CreateInstance(context.Background(), c.creds.AppID, "webhook", channels.InstanceInput{Provider: "webhook", Name: "slow", Config: cfg}); err != nil {
		t.Fatal(err)
	}
	first := s.Start("worker")
	second := s.Start("worker")
	t.Cleanup(func() {
		if t.Failed() {
			for _, p := range []string{first.Log(), second.Log()} {
				for _, l := range strings.Split(p, "\n") {
					if strings.Contains(l, "level=WARN") || strings.Contains(l, "level=ERROR") {
						t.Log(l)
					}
				}
			}
		}
	})
	body, _ := json.Marshal(map[string]any{
		"notification": map[string]any{"title": "Limited"},
		"override":     map[string]any{"channels": []string{"webhook"}},
		"sendTo":       map[string]any{"recipients": emailRecipients(recipients)},
	})
	req := c.send(body)
	sent := func() int {
		return s.Count("SELECT count(*) FROM message_logs WHERE request_id = $1 AND status = 'sent'", req)
	}
	s.Eventually(2*time.Minute, "a few messages sent, calls in flight", func() bool {
		mu.Lock()
		defer mu.Unlock()
		return sent() >= 5 && inFlight > 0
	})
	first.Kill()
	killedAt := sent()
	first.Restart()
	took := s.Eventually(5*time.Minute, "every message sent", func() bool { return sent() == recipients })
	retried := s.Count("SELECT count(*) FROM message_logs WHERE request_id = $1 AND attempts > 1", req)
	mu.Lock()
	defer mu.Unlock()
	duplicates := 0
	for _, n := range calls {
		duplicates += n - 1
	}
	t.Logf("%d webhooks of 400 ms at %d calls at a time over 2 workers, one SIGKILLed with %d sent: all sent %s after the kill (peak %d in flight, %d duplicates, %d messages claimed more than once)",
		recipients, limit, killedAt, took.Round(100*time.Millisecond), peak, duplicates, retried)
	if len(calls) != recipients {
		t.Errorf("the endpoint saw %d messages, want %d", len(calls), recipients)
	}
	// The killed worker's calls may still be open at the endpoint when their retries
	// start elsewhere, so the peak may pass the limit by those (at most the limit).
	if peak > 2*limit {
		t.Errorf("%d calls in flight at once; the plan allows %d (plus at most %d abandoned by the kill)", peak, limit, limit)
	}
	if duplicates > limit {
		t.Errorf("%d messages delivered twice; at most the %d in flight at the kill may be", duplicates, limit)
	}
}
