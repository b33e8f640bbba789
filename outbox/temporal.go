package outbox

import (
	"context"
	"errors"

	"github.com/google/uuid"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"

	"github.com/heraldhq/herald/workflows/send"
)

// TemporalStarter starts send workflows on a Temporal task queue.
type TemporalStarter struct {
	Client    client.Client
	TaskQueue string
}

// StartSend starts the send workflow; an id that is running or already finished counts as
// started, so retries never deliver twice.
func (s TemporalStarter) StartSend(ctx context.Context, workflowID string, requestIDs []uuid.UUID) error {
	_, err := s.Client.ExecuteWorkflow(ctx, client.StartWorkflowOptions{
		ID:                       workflowID,
		TaskQueue:                s.TaskQueue,
		WorkflowIDReusePolicy:    enumspb.WORKFLOW_ID_REUSE_POLICY_REJECT_DUPLICATE,
		WorkflowIDConflictPolicy: enumspb.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING,
	}, send.WorkflowName, send.NewInput(requestIDs))
	var already *serviceerror.WorkflowExecutionAlreadyStarted
	if errors.As(err, &already) {
		return nil
	}
	return err
}
