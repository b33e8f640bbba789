package flowrun

import (
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"
)

// Names of the flow schedule: a Temporal Schedule starts ScheduleWorkflow on every
// tick of its cron expression.
const (
	ScheduleWorkflowName = "FlowRecurring"
	ScheduleSendActivity = "FlowRecurringSend"
)

// ScheduleID names the Temporal Schedule of a flow schedule (and the runs it
// starts, which Temporal suffixes with the tick's time); token makes it unique beyond one
// database.
func ScheduleID(token string) string { return "recurring/" + token }

// ScheduleInput is what the schedule passes to every run.
type ScheduleInput struct {
	AppID      int64
	ScheduleID int64
}

// ScheduleSendInput sends one tick's notification; TickID (the run's workflow id, unique
// per tick) is its idempotency key, so a retried activity sends once.
type ScheduleSendInput struct {
	AppID      int64
	ScheduleID int64
	TickID     string
}

// ScheduleWorkflow sends the trigger's stored notification through the outbox, like any
// send naming the workflow; it returns the request id ("" when the trigger was deleted).
func ScheduleWorkflow(ctx workflow.Context, in ScheduleInput) (string, error) {
	actx := workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: 30 * time.Second,
		RetryPolicy:         &temporal.RetryPolicy{MaximumInterval: time.Minute, MaximumAttempts: 30},
	})
	return ScheduleSend.Execute(actx, ScheduleSendInput{
		AppID: in.AppID, ScheduleID: in.ScheduleID, TickID: workflow.GetInfo(ctx).WorkflowExecution.ID,
	}).Result(ctx)
}
