package send

import (
	"context"
	"errors"
	"testing"

	"github.com/google/uuid"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/workflow"
)

func newEnv(t *testing.T) *testsuite.TestWorkflowEnvironment {
	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	env.RegisterWorkflowWithOptions(Workflow, workflow.RegisterOptions{Name: WorkflowName})
	return env
}

// fakeDeliver advances each cursor by step recipients out of total.
func fakeDeliver(total, step int, calls *int) func(context.Context, DeliverInput) (DeliverResult, error) {
	return func(_ context.Context, in DeliverInput) (DeliverResult, error) {
		*calls++
		var out DeliverResult
		for _, c := range in.Cursors {
			next := min(c.Offset+step, total)
			out.Delivered += next - c.Offset
			if next < total {
				out.Pending = append(out.Pending, Cursor{RequestID: c.RequestID, Offset: next})
			}
		}
		return out, nil
	}
}

func TestWorkflowDeliversUntilNothingIsPending(t *testing.T) {
	env := newEnv(t)
	calls := 0
	env.RegisterActivityWithOptions(fakeDeliver(2500, 1000, &calls), activity.RegisterOptions{Name: DeliverActivityName})
	env.ExecuteWorkflow(WorkflowName, NewInput([]uuid.UUID{uuid.New(), uuid.New()}))
	if !env.IsWorkflowCompleted() || env.GetWorkflowError() != nil {
		t.Fatalf("workflow did not complete: %v", env.GetWorkflowError())
	}
	if calls != 3 {
		t.Errorf("deliver called %d times, want 3 (1000+1000+500 per request)", calls)
	}
}

func TestWorkflowContinuesAsNewOnLargeAudiences(t *testing.T) {
	env := newEnv(t)
	calls := 0
	env.RegisterActivityWithOptions(fakeDeliver(1_000_000, 1000, &calls), activity.RegisterOptions{Name: DeliverActivityName})
	env.ExecuteWorkflow(WorkflowName, NewInput([]uuid.UUID{uuid.New()}))
	var can *workflow.ContinueAsNewError
	if !errors.As(env.GetWorkflowError(), &can) {
		t.Fatalf("want continue-as-new, got %v", env.GetWorkflowError())
	}
	if calls != maxBatchesPerRun {
		t.Errorf("deliver called %d times before continuing as new, want %d", calls, maxBatchesPerRun)
	}
}

func TestWorkflowRecordsFailureWhenDeliveryGivesUp(t *testing.T) {
	env := newEnv(t)
	env.RegisterActivityWithOptions(func(context.Context, DeliverInput) (DeliverResult, error) {
		return DeliverResult{}, temporal.NewNonRetryableApplicationError("database gone", "test", nil)
	}, activity.RegisterOptions{Name: DeliverActivityName})
	var failed FailInput
	env.RegisterActivityWithOptions(func(_ context.Context, in FailInput) error {
		failed = in
		return nil
	}, activity.RegisterOptions{Name: FailActivityName})
	id := uuid.New()
	env.ExecuteWorkflow(WorkflowName, NewInput([]uuid.UUID{id}))
	if env.GetWorkflowError() == nil {
		t.Fatal("workflow should fail")
	}
	if len(failed.RequestIDs) != 1 || failed.RequestIDs[0] != id || failed.Reason == "" {
		t.Errorf("failure not recorded for the pending request: %+v", failed)
	}
}

func TestWorkflowID(t *testing.T) {
	a, b := uuid.New(), uuid.New()
	if got := WorkflowID([]uuid.UUID{a}); got != "send/"+a.String() {
		t.Errorf("single: %s", got)
	}
	if got := WorkflowID([]uuid.UUID{a, b}); got != "sends/"+a.String() {
		t.Errorf("pack: %s", got)
	}
}
