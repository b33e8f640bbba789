package schedule

import (
	"time"

	"go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/google/uuid"

	"github.com/heraldhq/herald/workflows/send"
)

// Workflow waits until the request's sendAt, then starts send/<requestId> unless the
// schedule was cancelled meanwhile (by cancelling this run, or in the database: the begin
// activity re-checks atomically, so a cancellation that raced the timer still wins).
func Workflow(ctx workflow.Context, in Input) error {
	actx := workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: 30 * time.Second,
		RetryPolicy:         &temporal.RetryPolicy{MaximumInterval: time.Minute},
	})
	loaded, err := LoadSchedule.Execute(actx, in.RequestID).Result(ctx)
	if err != nil {
		return err
	}
	if loaded.Cancelled {
		return nil
	}
	if wait := loaded.SendAt.Sub(workflow.Now(ctx)); wait > 0 {
		if err := workflow.Sleep(ctx, wait); err != nil {
			return err // cancelled: nothing is delivered
		}
	}
	begun, err := BeginScheduledSend.Execute(actx, in.RequestID).Result(ctx)
	if err != nil {
		return err
	}
	if !begun {
		return nil
	}
	// The send carries the schedule's search attributes (HeraldAppId, HeraldRequestId); they
	// are not part of the command the SDK compares on replay (docs/architecture.md).
	cctx := workflow.WithChildOptions(ctx, workflow.ChildWorkflowOptions{
		WorkflowID:            send.WorkflowID([]uuid.UUID{in.RequestID}),
		ParentClosePolicy:     enums.PARENT_CLOSE_POLICY_ABANDON,
		TypedSearchAttributes: workflow.GetTypedSearchAttributes(ctx),
		StaticSummary:         "Send " + in.RequestID.String() + " (scheduled)",
	})
	sendType := send.WorkflowV1Name
	switch workflow.GetVersion(ctx, SendTypeChange, workflow.DefaultVersion, 2) {
	case 1:
		sendType = send.WorkflowV2Name
	case 2:
		sendType = send.WorkflowName
	}
	child := workflow.ExecuteChildWorkflow(cctx, sendType, send.NewInput([]uuid.UUID{in.RequestID}))
	// Wait for the start only: the send runs on its own once begun.
	return child.GetChildWorkflowExecution().Get(ctx, nil)
}
