package faults

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/heraldhq/herald/internal/delivery/pipeline"
)

// shutdownLimit is the processes' HERALD_SHUTDOWN_TIMEOUT (the default) plus slack for
// the process to wind down: past it the test calls the shutdown hung.
const shutdownLimit = 15*time.Second + 5*time.Second

// Scenario 7, worker: SIGTERM in the middle of a large in-app send. The worker stops
// taking work, lets the running DeliverBatch write what it has decided and hand the rest
// back, and exits 0; nothing it ran is retried (no activity was cut off), and the
// worker started again completes the send with exactly one row per recipient.
func TestWorkerStopsGracefullyOnSIGTERM(t *testing.T) {
	slow(t)
	// Five slices of pipeline.DefaultBatchSize: the signal goes in the second, third or
	// fourth, never the last, whose whole slice the stopping call writes (the stop is
	// checked between requests, and this send is one), so nothing would be handed back.
	const recipients = 5 * pipeline.DefaultBatchSize
	s, c := newProcStack(t)
	worker := s.Start("worker")
	req := c.send(inlineSend("Quarterly report", recipients, nil))
	rows := func() int { return s.Count("SELECT count(*) FROM notifications WHERE request_id = $1", req) }
	s.Eventually(2*time.Minute, "a DeliverBatch just started on a slice before the last", func() bool {
		n := rows()
		return n >= 2000 && n <= recipients-2*pipeline.DefaultBatchSize &&
			activityStartedWithin(t, s, req, "DeliverBatch", 40*time.Millisecond, 150*time.Millisecond)
	})
	took, err := worker.Terminate(shutdownLimit)
	atStop := rows()
	if err != nil {
		t.Fatalf("worker exit after SIGTERM: %v\n%s", err, tail(worker.Log()))
	}
	// Stopped means stopped: nothing more is written until a worker runs again.
	time.Sleep(2 * time.Second)
	if n := rows(); n != atStop {
		t.Errorf("%d inbox rows written after the worker exited", n-atStop)
	}
	worker.Restart()
	s.Eventually(3*time.Minute, "the request to complete", func() bool {
		return s.Count("SELECT count(*) FROM notification_requests WHERE id = $1 AND status = 'completed'", req) == 1
	})
	total := rows()
	distinct := s.Count("SELECT count(DISTINCT user_id) FROM notifications WHERE request_id = $1", req)
	retried, _ := retriedActivities(t, s, req)
	t.Logf("worker exited with status 0 %s after SIGTERM, with %d of %d inbox rows written; after a restart: %d rows (%d distinct), activities retried %d",
		took.Round(10*time.Millisecond), atStop, recipients, total, distinct, retried)
	if total != recipients || distinct != recipients {
		t.Errorf("%d inbox rows for %d distinct users, want exactly %d", total, distinct, recipients)
	}
	if retried != 0 {
		t.Errorf("%d activities were retried: the shutdown cut them off", retried)
	}
	if atStop >= recipients {
		t.Errorf("the SIGTERM came after the send had finished (%d rows): nothing was tested", atStop)
	}
}

// Scenario 7, API: SIGTERM while eight senders keep posting and large sends are being
// handled. The process exits 0 within the shutdown timeout; every request the server had
// taken up is answered (a large send in flight gets its 202); a request that fails is one
// the server never took up (refused, or reset in the accept queue when the listener
// closed), so nothing is stored under its Idempotency-Key and the client may simply
// retry; and every send answered 202 is delivered once the API runs again (its outbox
// relay starts what the stopped one had not).
func TestAPIStopsGracefullyOnSIGTERM(t *testing.T) {
	slow(t)
	s, c, api := newProcStackAPI(t)
	s.Start("worker")
	l := startLoad(c, 8, false)
	time.Sleep(2 * time.Second)

	// Large sends take the server a while to validate and store: some are in its hands
	// when the signal comes.
	const bigSends = 3
	big := inlineSend("Large send", 5000, nil)
	bigs := make(chan loadResult, bigSends)
	for i := range bigSends {
		go func() {
			r := loadResult{phase: "large", at: time.Now(), key: fmt.Sprintf("large-%d", i)}
			var out []byte
			r.status, out, r.err = c.do("POST", "/v3/notifications", big, map[string]string{"Idempotency-Key": r.key})
			r.took, r.body = time.Since(r.at), string(out)
			var acc struct{ RequestID string }
			_ = json.Unmarshal(out, &acc)
			r.request = acc.RequestID
			bigs <- r
		}()
	}
	time.Sleep(10 * time.Millisecond)
	l.phase("shutdown")
	term := time.Now()
	took, err := api.Terminate(shutdownLimit)
	if err != nil {
		t.Fatalf("api exit after SIGTERM: %v\n%s", err, tail(api.Log()))
	}
	l.phase("stopped")
	time.Sleep(500 * time.Millisecond)
	results := l.stop()
	for range bigSends {
		results = append(results, <-bigs)
	}

	counts := map[string]int{}
	var accepted, failedKeys []string
	answeredDuring := 0
	for _, r := range results {
		counts[r.phase+" "+statusKey(r)]++
		switch {
		case r.status == 202:
			accepted = append(accepted, r.request)
			if r.at.Before(term) && r.at.Add(r.took).After(term) {
				answeredDuring++
			}
		case r.err != nil:
			failedKeys = append(failedKeys, r.key)
		default:
			t.Errorf("%s: status %d: %s", r.phase, r.status, r.body)
		}
	}
	// A failed request was never taken up: nothing is stored under its key.
	if n := s.Count("SELECT count(*) FROM notification_requests WHERE idempotency_key = ANY($1::text[])", failedKeys); n != 0 {
		t.Errorf("%d of the %d failed sends were stored although their client got no answer", n, len(failedKeys))
	}
	api.Restart()
	wait := s.Eventually(2*time.Minute, "every accepted send completed", func() bool {
		return s.Count("SELECT count(*) FROM notification_requests WHERE id = ANY($1::uuid[]) AND status = 'completed'", accepted) == len(accepted)
	})
	t.Logf("api exited with status 0 %s after SIGTERM; sends in flight at the signal and answered 202: %d; failed sends (never taken up, none stored): %d",
		took.Round(10*time.Millisecond), answeredDuring, len(failedKeys))
	t.Logf("statuses by phase: %s", formatCounts(counts))
	t.Logf("all %d accepted sends completed after the restart (the last %s after it)", len(accepted), wait.Round(100*time.Millisecond))
	if answeredDuring == 0 {
		t.Errorf("no send was in flight at the signal: nothing was tested")
	}
}

func statusKey(r loadResult) string {
	switch {
	case errors.Is(r.err, syscall.ECONNREFUSED):
		return "connection refused"
	case r.err != nil:
		return "error: " + firstLine(r.err)
	}
	return strconv.Itoa(r.status)
}
