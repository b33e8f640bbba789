package flow

import (
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"
)

// Names of the recurring trigger: a Temporal Schedule starts RecurringWorkflow on every
// tick of its cron expression.
const (
	RecurringWorkflowName = "FlowRecurring"
	RecurringSendActivity = "FlowRecurringSend"
)

// RecurringScheduleID names the Temporal Schedule of a recurring trigger (and the runs it
// starts, which Temporal suffixes with the tick's time); token makes it unique beyond one
// database.
func RecurringScheduleID(token string) string { return "recurring/" + token }

// RecurringInput is what the schedule passes to every run.
type RecurringInput struct {
	AppID      int64
	ScheduleID int64
}

// RecurringSendInput sends one tick's notification; TickID (the run's workflow id, unique
// per tick) is its idempotency key, so a retried activity sends once.
type RecurringSendInput struct {
	AppID      int64
	ScheduleID int64
	TickID     string
}

// RecurringWorkflow sends the trigger's stored notification through the outbox, like any
// send naming the workflow; it returns the request id ("" when the trigger was deleted).
func RecurringWorkflow(ctx workflow.Context, in RecurringInput) (string, error) {
	actx := workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: 30 * time.Second,
		RetryPolicy:         &temporal.RetryPolicy{MaximumInterval: time.Minute, MaximumAttempts: 30},
	})
	var requestID string
	err := workflow.ExecuteActivity(actx, RecurringSendActivity, RecurringSendInput{
		AppID: in.AppID, ScheduleID: in.ScheduleID, TickID: workflow.GetInfo(ctx).WorkflowExecution.ID,
	}).Get(ctx, &requestID)
	return requestID, err
}
