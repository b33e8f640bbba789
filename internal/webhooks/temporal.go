package webhooks

import (
	"context"
	"errors"
	"strconv"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"

	"github.com/heraldhq/herald/workflows/webhook"
)

// TemporalStarter starts the delivery workflow of an endpoint on the orchestration queue;
// its activity runs on the webhook kind's queue.
type TemporalStarter struct {
	Client        client.Client
	TaskQueue     string
	ActivityQueue string
}

// StartDeliveries starts webhook/<endpointId>, or leaves the running one alone: at most one
// run per endpoint, whatever the number of events waiting.
func (s TemporalStarter) StartDeliveries(ctx context.Context, endpointID, appID int64) error {
	_, err := s.Client.ExecuteWorkflow(ctx, client.StartWorkflowOptions{
		ID:                       webhook.WorkflowID(endpointID),
		TaskQueue:                s.TaskQueue,
		WorkflowIDReusePolicy:    enumspb.WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE,
		WorkflowIDConflictPolicy: enumspb.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING,
		StaticSummary:            "Webhook deliveries of endpoint " + strconv.FormatInt(endpointID, 10),
		Priority:                 temporal.Priority{FairnessKey: "app-" + strconv.FormatInt(appID, 10)},
	}, webhook.WorkflowName, webhook.Input{EndpointID: endpointID, AppID: appID, TaskQueue: s.ActivityQueue})
	var already *serviceerror.WorkflowExecutionAlreadyStarted
	if errors.As(err, &already) {
		return nil
	}
	return err
}
