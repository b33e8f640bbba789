package faults

import (
	"context"
	"testing"
	"time"

	"github.com/heraldhq/herald/internal/testkit/dbtest"
	"github.com/heraldhq/herald/internal/testkit/proctest"
	"github.com/heraldhq/herald/internal/testkit/stacktest"
)

// newProcStack prepares processes on a fresh database and the shared Temporal dev server,
// with an app, and starts the API.
func newProcStack(t *testing.T) (*proctest.Stack, *client) {
	s, c, _ := newProcStackAPI(t)
	return s, c
}

// newProcStackAPI is newProcStack that also returns the API process.
func newProcStackAPI(t *testing.T) (*proctest.Stack, *client, *proctest.Proc) {
	t.Helper()
	s := proctest.New(t, dbtest.URL(t), stacktest.SharedTemporal(t).Address)
	creds, err := s.Local.Apps.Create(context.Background(), "faults")
	if err != nil {
		t.Fatal(err)
	}
	api := s.Start("api")
	return s, newClient(t, s, creds, 30*time.Second), api
}

// Scenario 1: the worker is killed with SIGKILL in the middle of a 20,000-recipient in-app
// send and started again; the send completes with exactly one inbox row per recipient.
func TestWorkerKilledMidInAppSend(t *testing.T) {
	slow(t)
	const recipients = 20000
	s, c := newProcStack(t)
	worker := s.Start("worker")

	start := time.Now()
	req := c.send(inlineSend("Big announcement", recipients, nil))
	rows := func() int { return s.Count("SELECT count(*) FROM notifications WHERE request_id = $1", req) }
	s.Eventually(2*time.Minute, "4,000 inbox rows and a DeliverBatch just started", func() bool {
		return rows() >= 4000 && activityJustStarted(t, s, req, "DeliverBatch")
	})
	worker.Kill()
	killed := time.Now()
	atKill := rows()
	worker.Restart()

	s.Eventually(3*time.Minute, "the request to complete", func() bool {
		return s.Count("SELECT count(*) FROM notification_requests WHERE id = $1 AND status = 'completed'", req) == 1
	})
	recovered := time.Since(killed)
	total := rows()
	distinct := s.Count("SELECT count(DISTINCT user_id) FROM notifications WHERE request_id = $1", req)
	logged := s.Count("SELECT count(*) FROM message_logs WHERE request_id = $1 AND channel = 'inApp' AND status = 'delivered'", req)
	delivered := s.Count("SELECT delivered_count FROM notification_requests WHERE id = $1", req)
	retried, attempts := retriedActivities(t, s, req)
	t.Logf("worker SIGKILLed with %d of %d inbox rows written; restarted at once; request completed %s after the kill (%s in all)",
		atKill, recipients, recovered.Round(100*time.Millisecond), time.Since(start).Round(100*time.Millisecond))
	t.Logf("inbox rows %d (distinct recipients %d, duplicates %d); in-app log rows %d; delivered_count %d; activities retried after the kill %d (up to attempt %d)",
		total, distinct, total-distinct, logged, delivered, retried, attempts)
	if total != recipients || distinct != recipients {
		t.Errorf("%d inbox rows for %d distinct users, want exactly %d", total, distinct, recipients)
	}
	if logged != recipients {
		t.Errorf("%d in-app message log rows, want %d", logged, recipients)
	}
	if delivered != recipients {
		t.Errorf("delivered_count %d, want %d", delivered, recipients)
	}
	if atKill >= recipients || retried == 0 {
		t.Errorf("the kill cut no activity short (%d rows at the kill, %d retried): nothing was tested", atKill, retried)
	}
	if t.Failed() {
		t.Logf("worker log:\n%s", tail(worker.Log()))
	}
}
