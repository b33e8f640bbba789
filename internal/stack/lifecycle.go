package stack

import (
	"context"
	"errors"
	"fmt"
	"time"

	"go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"

	"github.com/heraldhq/herald/activities"
	"github.com/heraldhq/herald/internal/lifecycle/erasure"
	"github.com/heraldhq/herald/internal/lifecycle/export"
	"github.com/heraldhq/herald/internal/lifecycle/retention"
	wfretention "github.com/heraldhq/herald/workflows/retention"
)

// LifecycleServices are the data lifecycle of issue 33: erasure and export of an app's
// user, and retention (internal/lifecycle).
type LifecycleServices struct {
	Erasure   *erasure.Service
	Export    *export.Service
	Retention *retention.Service
	Purger    *retention.Purger
}

// openLifecycle builds the lifecycle services (after the console's: they write its audit log).
func (s *Stack) openLifecycle() {
	histories := &erasure.Histories{Client: s.Temporal, Namespace: s.Cfg.TemporalNamespace}
	s.Erasure = erasure.NewService(s.DB, histories, s.Audit, s.Log.With("component", "erasure"))
	s.Export = export.NewService(s.DB, s.Audit)
	s.Retention = retention.NewService(s.DB)
	s.Purger = &retention.Purger{DB: s.DB, Batch: s.Cfg.Retention.Batch, Pause: s.Cfg.Retention.Pause}
}

// retentionActivities back the purge workflow.
func (s *Stack) retentionActivities() *activities.Retention {
	return &activities.Retention{Purger: s.Purger}
}

// EnsureRetentionSchedule creates (or updates) the Temporal Schedule that starts the
// retention purge every HERALD_RETENTION_INTERVAL, or deletes it when the interval is 0.
// Every worker process calls it at start-up; the schedule is one per task queue, so the
// processes agree on it. Overlapping runs are skipped: a purge that takes longer than the
// interval is never doubled.
func (s *Stack) EnsureRetentionSchedule(ctx context.Context) error {
	id := wfretention.ScheduleID(s.Cfg.TaskQueue)
	h := s.Temporal.ScheduleClient().GetHandle(ctx, id)
	every := s.Cfg.Retention.Interval
	if every <= 0 {
		err := h.Delete(ctx)
		var nf *serviceerror.NotFound
		if err != nil && !errors.As(err, &nf) {
			return fmt.Errorf("delete retention schedule: %w", err)
		}
		return nil
	}
	spec := client.ScheduleSpec{Intervals: []client.ScheduleIntervalSpec{{Every: every}}}
	action := &client.ScheduleWorkflowAction{
		ID: wfretention.WorkflowID(s.Cfg.TaskQueue), Workflow: wfretention.WorkflowName, TaskQueue: s.Cfg.TaskQueue,
		Args:                     []any{wfretention.Input{}},
		WorkflowExecutionTimeout: 24 * time.Hour,
		StaticSummary:            "Retention purge: delete every app's data older than its retention",
	}
	_, err := s.Temporal.ScheduleClient().Create(ctx, client.ScheduleOptions{
		ID: id, Spec: spec, Action: action, Overlap: enums.SCHEDULE_OVERLAP_POLICY_SKIP,
	})
	if !errors.Is(err, temporal.ErrScheduleAlreadyRunning) {
		if err != nil {
			return fmt.Errorf("create retention schedule: %w", err)
		}
		return nil
	}
	return h.Update(ctx, client.ScheduleUpdateOptions{DoUpdate: func(in client.ScheduleUpdateInput) (*client.ScheduleUpdate, error) {
		sc := in.Description.Schedule
		sc.Spec = &spec
		sc.Action = action
		if sc.Policy == nil {
			sc.Policy = &client.SchedulePolicies{}
		}
		sc.Policy.Overlap = enums.SCHEDULE_OVERLAP_POLICY_SKIP
		return &client.ScheduleUpdate{Schedule: &sc}, nil
	}})
}

// ensureRetentionSchedule retries EnsureRetentionSchedule until it succeeds or ctx ends.
func (s *Stack) ensureRetentionSchedule(ctx context.Context) {
	wait := time.Second
	for {
		rctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		err := s.EnsureRetentionSchedule(rctx)
		cancel()
		if err == nil {
			return
		}
		s.Log.Warn("retention schedule not ensured yet; retrying", "retryIn", wait, "error", err)
		select {
		case <-ctx.Done():
			return
		case <-time.After(wait):
		}
		wait = min(2*wait, time.Minute)
	}
}
