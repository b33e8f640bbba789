package send

import (
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"
)

// maxBatchesPerRun bounds a run's history: after this many activities the run continues as
// new with the remaining cursors, so a million-recipient send stays far below Temporal's
// history limits.
const maxBatchesPerRun = 200

// Workflow delivers the requests of its input slice by slice. Each activity handles up to
// about a thousand recipients across requests and reports what is left; requests are
// independent, so one that fails does not stop its neighbours.
func Workflow(ctx workflow.Context, in Input) error {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout:    2 * time.Minute,
		ScheduleToCloseTimeout: 24 * time.Hour,
		RetryPolicy: &temporal.RetryPolicy{
			InitialInterval:    200 * time.Millisecond,
			BackoffCoefficient: 2,
			MaximumInterval:    time.Minute,
		},
	})
	log := workflow.GetLogger(ctx)
	pending := in.Cursors
	for batch := 0; len(pending) > 0; batch++ {
		if batch == maxBatchesPerRun {
			return workflow.NewContinueAsNewError(ctx, Workflow, Input{Cursors: pending})
		}
		var res DeliverResult
		if err := workflow.ExecuteActivity(ctx, DeliverActivityName, DeliverInput{Cursors: pending}).Get(ctx, &res); err != nil {
			log.Error("delivery gave up", "error", err)
			return failAll(ctx, pending, err)
		}
		pending = res.Pending
	}
	return nil
}

// failAll records the failure on the requests still pending, then returns the cause so the
// run shows as failed in the Temporal UI.
func failAll(ctx workflow.Context, pending []Cursor, cause error) error {
	in := FailInput{Reason: cause.Error()}
	for _, c := range pending {
		in.RequestIDs = append(in.RequestIDs, c.RequestID)
	}
	fctx := workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: 30 * time.Second,
		RetryPolicy:         &temporal.RetryPolicy{MaximumInterval: 10 * time.Second},
	})
	if err := workflow.ExecuteActivity(fctx, FailActivityName, in).Get(fctx, nil); err != nil {
		workflow.GetLogger(ctx).Error("could not record failure", "error", err)
	}
	return cause
}
