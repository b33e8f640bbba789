package faults

import (
	"context"
	"testing"
	"time"

	"go.temporal.io/api/enums/v1"
	sdkclient "go.temporal.io/sdk/client"

	"github.com/heraldhq/herald/internal/testkit/dbtest"
	"github.com/heraldhq/herald/internal/testkit/proctest"
	"github.com/heraldhq/herald/internal/testkit/stacktest"
	wfretention "github.com/heraldhq/herald/workflows/retention"
)

// The worker is killed with SIGKILL in the middle of a retention purge (60,000 expired
// inbox items, 500 per statement with a pause, so it takes a while) and started again: the
// purge activity times out on its heartbeat, runs again on the new process, and the run
// completes with every expired row gone and every live one kept.
func TestWorkerKilledMidRetentionPurge(t *testing.T) {
	slow(t)
	const expired, live = 60_000, 1_000
	s := proctest.New(t, dbtest.URL(t), stacktest.SharedTemporal(t).Address)
	s.Env = append(s.Env, "HERALD_RETENTION_BATCH=500", "HERALD_RETENTION_PAUSE=50ms")
	ctx := context.Background()
	creds, err := s.Local.Apps.Create(ctx, "purge")
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		`INSERT INTO users (app_id, identifier) SELECT id, 'u' || g FROM apps, generate_series(1, 100) g WHERE api_key = $1`,
		`INSERT INTO notifications (app_id, user_id, request_id, source_key, title, created_at, read_at)
		 SELECT u.app_id, u.id, gen_random_uuid(), 'old-' || g, 'old', now() - interval '200 days', now() - interval '199 days'
		 FROM users u JOIN apps a ON a.id = u.app_id, generate_series(1, 600) g WHERE a.api_key = $1`,
		`INSERT INTO notifications (app_id, user_id, request_id, source_key, title, created_at)
		 SELECT u.app_id, u.id, gen_random_uuid(), 'new-' || g, 'new', now() - interval '1 day'
		 FROM users u JOIN apps a ON a.id = u.app_id, generate_series(1, 10) g WHERE a.api_key = $1`,
	} {
		if _, err := s.Local.DB.Pool.Exec(ctx, q, creds.APIKey); err != nil {
			t.Fatal(err)
		}
	}
	old := func() int { return s.Count("SELECT count(*) FROM notifications WHERE source_key LIKE 'old-%'") }
	worker := s.Start("worker")
	h := s.Local.Temporal.ScheduleClient().GetHandle(ctx, wfretention.ScheduleID(s.Cfg.TaskQueue))
	s.Eventually(time.Minute, "the worker to ensure the retention schedule", func() bool { _, err := h.Describe(ctx); return err == nil })
	if err := h.Trigger(ctx, sdkclient.ScheduleTriggerOptions{}); err != nil {
		t.Fatal(err)
	}
	s.Eventually(time.Minute, "a tenth of the expired rows gone", func() bool { return old() <= expired*9/10 })
	worker.Kill()
	killed := time.Now()
	atKill := old()
	worker.Restart()

	var run string
	s.Eventually(time.Minute, "the purge run", func() bool {
		d, err := h.Describe(ctx)
		if err != nil || len(d.Info.RecentActions) == 0 {
			return false
		}
		run = d.Info.RecentActions[len(d.Info.RecentActions)-1].StartWorkflowResult.WorkflowID
		return true
	})
	var purged map[string]int64
	wctx, cancel := context.WithTimeout(ctx, 4*time.Minute)
	defer cancel()
	if err := s.Local.Temporal.GetWorkflow(wctx, run, "").Get(wctx, &purged); err != nil {
		t.Fatalf("purge run %s: %v\nworker log:\n%s", run, err, tail(worker.Log()))
	}
	retried := 0
	it := s.Local.Temporal.GetWorkflowHistory(ctx, run, "", false, enums.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	for it.HasNext() {
		ev, err := it.Next()
		if err != nil {
			t.Fatal(err)
		}
		if a := ev.GetActivityTaskStartedEventAttributes(); a != nil && a.GetAttempt() > 1 {
			retried++
			t.Logf("activity retried (attempt %d) after: %v", a.GetAttempt(), a.GetLastFailure().GetMessage())
		}
	}
	left, kept := old(), s.Count("SELECT count(*) FROM notifications WHERE source_key LIKE 'new-%'")
	t.Logf("worker SIGKILLed with %d of %d expired rows left; run completed %s after the kill; result %v; expired left %d, live kept %d, activities retried %d",
		atKill, expired, time.Since(killed).Round(100*time.Millisecond), purged, left, kept, retried)
	if left != 0 || kept != live {
		t.Errorf("after the purge: %d expired rows left (want 0), %d live rows (want %d)", left, kept, live)
	}
	if atKill == 0 || retried == 0 {
		t.Errorf("the kill cut no purge short (%d rows left at the kill, %d activities retried): nothing was tested", atKill, retried)
	}
}
