package integration

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/heraldhq/herald/internal/testkit/stacktest"
)

func countRows(t *testing.T, e *stacktest.Env, q string, args ...any) int {
	t.Helper()
	var n int
	if err := e.Stack.DB.Pool.QueryRow(context.Background(), q, args...).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// Temporal down: sends are still accepted; when it is back the relay starts them and nothing
// is lost (issue 11, scenario 3).
func TestTemporalOutageLosesNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("fault test")
	}
	srv := stacktest.StartTemporal(t, "")
	addr := srv.Address
	e := stacktest.New(t, stacktest.Options{TemporalAddress: addr})
	srv.Kill()

	const sends = 200
	for i := range sends {
		res := e.Do("POST", "/v3/notifications", fmt.Sprintf(`{"notification":{"title":"during outage"},"sendTo":{"recipients":["user-%d"]}}`, i), e.AppHeaders())
		if res.Status != 202 {
			t.Fatalf("send %d during the outage: %d %s", i, res.Status, res.Body)
		}
	}
	if n := countRows(t, e, "SELECT count(*) FROM notification_requests WHERE status = 'accepted'"); n != sends {
		t.Fatalf("%d requests wait in the outbox, want %d", n, sends)
	}
	restarted := stacktest.StartTemporal(t, addr)
	back := time.Now()
	e.Eventually(60*time.Second, "every send delivered after Temporal came back", func() bool {
		return countRows(t, e, "SELECT count(*) FROM notifications") == sends
	})
	t.Logf("all %d sends delivered %s after Temporal came back", sends, time.Since(back).Round(100*time.Millisecond))
	_ = restarted
	if n := countRows(t, e, "SELECT count(*) FROM notification_requests WHERE status <> 'completed'"); n != 0 {
		t.Errorf("%d requests not completed", n)
	}
}

// 50 concurrent identical sends with one Idempotency-Key make one request and one delivery
// per recipient; the same key with another body is refused (issue 11, scenario 6).
func TestConcurrentIdempotentSends(t *testing.T) {
	e := stacktest.New(t, stacktest.Options{Temporal: true})
	h := e.AppHeaders()
	h["Idempotency-Key"] = "invoice-2026-11"
	body := `{"notification":{"title":"Invoice ready"},"sendTo":{"recipients":["ann","ben"]}}`
	ids := make([]string, 50)
	var wg sync.WaitGroup
	for i := range ids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res := e.Do("POST", "/v3/notifications", body, h)
			if res.Status == 202 {
				ids[i], _ = res.Map(t)["requestId"].(string)
			} else {
				t.Errorf("send %d: %d %s", i, res.Status, res.Body)
			}
		}()
	}
	wg.Wait()
	for i, id := range ids {
		if id == "" || id != ids[0] {
			t.Fatalf("send %d got requestId %q, want %q like the first", i, id, ids[0])
		}
	}
	e.Eventually(30*time.Second, "delivery", func() bool {
		return countRows(t, e, "SELECT count(*) FROM notification_requests WHERE status = 'completed'") == 1
	})
	if n := countRows(t, e, "SELECT count(*) FROM notification_requests"); n != 1 {
		t.Errorf("%d requests stored, want 1", n)
	}
	if n := countRows(t, e, "SELECT count(*) FROM notifications"); n != 2 {
		t.Errorf("%d inbox rows, want one per recipient (2)", n)
	}
	res := e.Do("POST", "/v3/notifications", `{"notification":{"title":"Other"},"sendTo":{"recipients":["ann"]}}`, h)
	if res.Status != 422 {
		t.Errorf("same key, different body: %d", res.Status)
	}
	t.Logf("50 concurrent identical sends with one Idempotency-Key: 1 requestId, %d request row, %d inbox rows for 2 recipients; same key with another body: %d",
		countRows(t, e, "SELECT count(*) FROM notification_requests"), countRows(t, e, "SELECT count(*) FROM notifications"), res.Status)
}
