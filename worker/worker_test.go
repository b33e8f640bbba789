package worker

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/mock"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/workflow"

	"github.com/heraldhq/herald/activities"
	"github.com/heraldhq/herald/internal/platform/config"
	"github.com/heraldhq/herald/workflows/send"
	"github.com/heraldhq/herald/workflows/taskqueue"
)

// A send too large for one run continues as a Send run, with every workflow registered as
// the worker registers them (a function reference once resolved to the Flow workflow,
// which shares the Go name Workflow, and the rest of a large audience was dropped).
// A run of the send workflow's first type (runs started before the current one) continues
// as its own type, whose GetVersion calls its next run answers with the latest versions.
func TestLargeSendContinuesAsTheSendWorkflow(t *testing.T) {
	for _, name := range []string{send.WorkflowName, send.WorkflowV2Name, send.WorkflowV1Name} {
		t.Run(name, func(t *testing.T) {
			var s testsuite.WorkflowTestSuite
			env := s.NewTestWorkflowEnvironment()
			Register(env, Activities{Pipeline: &activities.Pipeline{}, Schedules: &activities.Schedules{}, Flows: &activities.Flows{}})
			env.OnActivity(send.DeliverActivityName, mock.Anything, mock.Anything).Return(
				func(_ context.Context, in send.DeliverInput) (send.DeliverResult, error) {
					out := send.DeliverResult{Delivered: 1000}
					for _, c := range in.Cursors {
						out.Pending = append(out.Pending, send.Cursor{RequestID: c.RequestID, Offset: c.Offset + 1000})
					}
					return out, nil
				})
			env.ExecuteWorkflow(name, send.NewInput([]uuid.UUID{uuid.New()}))
			var can *workflow.ContinueAsNewError
			if !errors.As(env.GetWorkflowError(), &can) {
				t.Fatalf("want continue-as-new, got %v", env.GetWorkflowError())
			}
			if can.WorkflowType.Name != name {
				t.Errorf("continues as %q, want %q", can.WorkflowType.Name, name)
			}
		})
	}
}

// The configuration accepts exactly the kinds of queue the workflows schedule on, and the
// default polls them all.
func TestConfigQueueKindsAreTheTaskQueueKinds(t *testing.T) {
	got := slices.Clone(config.Defaults().WorkerQueues)
	want := slices.Clone(taskqueue.Kinds)
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Fatalf("config kinds %v, taskqueue kinds %v", got, want)
	}
	c, err := client.NewLazyClient(client.Options{HostPort: "127.0.0.1:1"})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	s := New(c, "herald", Activities{Pipeline: &activities.Pipeline{}, Schedules: &activities.Schedules{}, Flows: &activities.Flows{}},
		Options{Queues: []string{taskqueue.Email, taskqueue.Orchestration}})
	if q := s.Queues(); !slices.Equal(q, []string{"herald", "herald-email"}) {
		t.Errorf("queues %v", q)
	}
}
