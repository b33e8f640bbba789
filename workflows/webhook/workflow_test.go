package webhook

import (
	"context"
	"testing"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/testsuite"
)

// The workflow calls the activity while batches come back full, and continues as new
// after MaxBatchesPerRun.
func TestWorkflowDrainsWhileBatchesAreFull(t *testing.T) {
	for _, tc := range []struct {
		full      int
		calls     int
		continued bool
	}{{0, 1, false}, {3, 4, false}, {MaxBatchesPerRun + 5, MaxBatchesPerRun, true}} {
		var s testsuite.WorkflowTestSuite
		env := s.NewTestWorkflowEnvironment()
		calls := 0
		env.RegisterActivityWithOptions(func(_ context.Context, in Input) (Result, error) {
			calls++
			if in.EndpointID != 7 {
				t.Errorf("input %+v", in)
			}
			return Result{Attempted: 1, More: calls <= tc.full}, nil
		}, activity.RegisterOptions{Name: DeliverActivityName})
		env.ExecuteWorkflow(Workflow, Input{EndpointID: 7, AppID: 1})
		err := env.GetWorkflowError()
		if calls != tc.calls || (err != nil) != tc.continued {
			t.Errorf("full %d: %d calls, error %v", tc.full, calls, err)
		}
	}
}
