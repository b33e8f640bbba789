package worker

import (
	"context"
	"errors"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/mock"
	"go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/workflow"

	"github.com/heraldhq/herald/activities"
	"github.com/heraldhq/herald/workflows/send"
)

// A send too large for one run continues as a Send run, with every workflow registered as
// the worker registers them (a function reference once resolved to the Flow workflow,
// which shares the Go name Workflow, and the rest of a large audience was dropped).
func TestLargeSendContinuesAsTheSendWorkflow(t *testing.T) {
	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	Register(env, Activities{Delivery: &activities.Delivery{}, Schedules: &activities.Schedules{}, Flows: &activities.Flows{}})
	env.OnActivity(send.DeliverActivityName, mock.Anything, mock.Anything).Return(
		func(_ context.Context, in send.DeliverInput) (send.DeliverResult, error) {
			out := send.DeliverResult{Delivered: 1000}
			for _, c := range in.Cursors {
				out.Pending = append(out.Pending, send.Cursor{RequestID: c.RequestID, Offset: c.Offset + 1000})
			}
			return out, nil
		})
	env.ExecuteWorkflow(send.WorkflowName, send.NewInput([]uuid.UUID{uuid.New()}))
	var can *workflow.ContinueAsNewError
	if !errors.As(env.GetWorkflowError(), &can) {
		t.Fatalf("want continue-as-new, got %v", env.GetWorkflowError())
	}
	if can.WorkflowType.Name != send.WorkflowName {
		t.Errorf("continues as %q, want %q", can.WorkflowType.Name, send.WorkflowName)
	}
}
