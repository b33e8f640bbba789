package webhook

import (
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"
)

// Workflow drains the endpoint's due deliveries: one activity per batch, while the last
// batch was full. Attempts, backoff and the webhook-id live in webhook_deliveries, so a
// retried activity (a worker killed mid-batch) re-claims what was not recorded, with the
// same ids, and nothing is lost.
func Workflow(ctx workflow.Context, in Input) error {
	actx := workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		TaskQueue:           in.TaskQueue,
		StartToCloseTimeout: 30 * time.Minute,
		HeartbeatTimeout:    30 * time.Second,
		RetryPolicy:         &temporal.RetryPolicy{InitialInterval: time.Second, MaximumInterval: time.Minute},
	})
	for range MaxBatchesPerRun {
		res, err := DeliverWebhooks.Execute(actx, in).Result(ctx)
		if err != nil {
			return err
		}
		if !res.More {
			return nil
		}
	}
	return workflow.NewContinueAsNewError(ctx, WorkflowName, in)
}
