package faults

import (
	"context"
	"fmt"
	"slices"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"go.temporal.io/api/enums/v1"
	temporalclient "go.temporal.io/sdk/client"
)

// A send run's first slice is a local activity inside its first workflow task (SendV3,
// send.LocalSliceSize): no activity of its own that Temporal would retry after a heartbeat
// timeout. The worker is frozen (SIGSTOP) while single sends arrive, so Temporal hands
// their runs' first workflow tasks to its pending polls, then killed and started again:
// the tasks time out, the next worker runs them, local slice included, and every send
// lands in its inbox exactly once. (A worker dying inside the local activity itself
// recovers the same way; DeliverBatch writes nothing twice when run again, see
// TestDeliverIsIdempotentAndKeepsRequestsIndependent.)
func TestWorkerKilledHoldingRunsFirstWorkflowTasks(t *testing.T) {
	slow(t)
	const sends = 20
	s, c := newProcStack(t)
	worker := s.Start("worker")
	warm := c.send(inlineSend("warm-up", 1, nil))
	s.Eventually(time.Minute, "the warm-up send's inbox row", func() bool {
		return s.Count("SELECT count(*) FROM notifications WHERE request_id = $1", warm) == 1
	})

	if err := syscall.Kill(worker.Pid(), syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	ids := make([]string, sends)
	for i := range ids {
		ids[i] = c.send(fmt.Appendf(nil, `{"notification":{"title":"code %d"},"sendTo":{"recipients":["r%d"]}}`, i, i))
	}
	// Runs whose first workflow task the frozen worker took (started, never completed).
	taken := func() []string {
		rows, _ := s.Local.DB.Pool.Query(context.Background(), "SELECT DISTINCT workflow_id FROM notification_requests WHERE id = ANY($1::uuid[]) AND workflow_id IS NOT NULL", ids)
		runs, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			t.Fatal(err)
		}
		return slices.DeleteFunc(runs, func(wf string) bool {
			return firstTaskEvents(t, s.Local.Temporal, wf)[enums.EVENT_TYPE_WORKFLOW_TASK_STARTED] == 0
		})
	}
	var held []string
	s.Eventually(time.Minute, "the frozen worker to hold a run's first workflow task", func() bool {
		held = taken()
		return len(held) > 0
	})
	worker.Kill()
	killed := time.Now()
	worker.Restart()

	s.Eventually(2*time.Minute, "every send's inbox row", func() bool {
		return s.Count("SELECT count(*) FROM notifications WHERE request_id = ANY($1::uuid[])", ids) >= sends
	})
	recovered := time.Since(killed)
	time.Sleep(time.Second) // late duplicates
	rows := s.Count("SELECT count(*) FROM notifications WHERE request_id = ANY($1::uuid[])", ids)
	distinct := s.Count("SELECT count(DISTINCT request_id) FROM notifications WHERE request_id = ANY($1::uuid[])", ids)
	logged := s.Count("SELECT count(*) FROM message_logs WHERE request_id = ANY($1::uuid[]) AND channel = 'inApp' AND status = 'delivered'", ids)
	timedOut := 0
	for _, wf := range held {
		ev := firstTaskEvents(t, s.Local.Temporal, wf)
		if ev[enums.EVENT_TYPE_WORKFLOW_TASK_TIMED_OUT] > 0 && ev[enums.EVENT_TYPE_MARKER_RECORDED] > 0 {
			timedOut++
		}
	}
	t.Logf("%d sends while the worker was frozen; it held the first workflow task of %d runs when killed; all in %s after the kill; inbox rows %d (distinct %d), in-app log rows %d; runs whose first task timed out and whose local slice ran after: %d",
		sends, len(held), recovered.Round(100*time.Millisecond), rows, distinct, logged, timedOut)
	if rows != sends || distinct != sends || logged != sends {
		t.Errorf("%d inbox rows for %d requests and %d in-app log rows, want exactly %d each", rows, distinct, logged, sends)
	}
	if timedOut != len(held) {
		t.Errorf("%d of the %d runs held by the killed worker show its first task timed out and then the local slice's marker: the kill tested nothing", timedOut, len(held))
	}
	if t.Failed() {
		t.Logf("worker log:\n%s", tail(worker.Log()))
	}
}

// firstTaskEvents counts the event types of a run's history up to its first local
// activity marker (included), or the whole history when it has none yet.
func firstTaskEvents(t *testing.T, tc temporalclient.Client, wf string) map[enums.EventType]int {
	t.Helper()
	out := map[enums.EventType]int{}
	it := tc.GetWorkflowHistory(context.Background(), wf, "", false, enums.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	for it.HasNext() {
		ev, err := it.Next()
		if err != nil {
			return out
		}
		out[ev.GetEventType()]++
		if ev.GetEventType() == enums.EVENT_TYPE_MARKER_RECORDED {
			break
		}
	}
	return out
}
