package outbox

import (
	"context"
	"errors"

	"github.com/google/uuid"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"

	"github.com/heraldhq/herald/workflows/schedule"
	"github.com/heraldhq/herald/workflows/send"
)

// TemporalStarter starts send workflows on a Temporal task queue.
type TemporalStarter struct {
	Client    client.Client
	TaskQueue string
}

// Start starts the send workflow, or the schedule workflow for a schedule/ id; an id that is
// running or already finished counts as started, so retries never deliver twice.
func (s TemporalStarter) Start(ctx context.Context, workflowID string, requestIDs []uuid.UUID) error {
	name, input := send.WorkflowName, any(send.NewInput(requestIDs))
	if schedule.IsWorkflowID(workflowID) {
		name, input = schedule.WorkflowName, schedule.Input{RequestID: requestIDs[0]}
	}
	_, err := s.Client.ExecuteWorkflow(ctx, client.StartWorkflowOptions{
		ID:                       workflowID,
		TaskQueue:                s.TaskQueue,
		WorkflowIDReusePolicy:    enumspb.WORKFLOW_ID_REUSE_POLICY_REJECT_DUPLICATE,
		WorkflowIDConflictPolicy: enumspb.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING,
	}, name, input)
	var already *serviceerror.WorkflowExecutionAlreadyStarted
	if errors.As(err, &already) {
		return nil
	}
	return err
}
