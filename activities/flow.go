package activities

import (
	"context"
	"errors"
	"fmt"

	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/internal/flow"
	"github.com/heraldhq/herald/internal/flow/fetch"
	"github.com/heraldhq/herald/internal/flow/flowdef"
	"github.com/heraldhq/herald/workflows/flowrun"
	"github.com/heraldhq/herald/workflows/visibility"
)

// Flows backs the interpreter of user-defined workflows (except channel deliveries, which
// go through the delivery pipeline) and their flow schedules: adapters over flow.Runs.
type Flows struct {
	Runs      *flow.Runs
	Temporal  client.Client
	TaskQueue string
	Fetcher   *fetch.Client
}

// ScheduleSend sends one tick of a flow schedule (flow.Runs.ScheduleSend). A stored send
// that is invalid, or refused because its workflow was deleted (a commit published without
// it) since the trigger was made, fails for good: retrying cannot help.
func (a *Flows) ScheduleSend(ctx context.Context, in flowrun.FlowScheduleSendInput) (string, error) {
	id, err := a.Runs.ScheduleSend(ctx, in)
	switch herald.ErrorCode(err) {
	case herald.EINVALID:
		return "", temporal.NewNonRetryableApplicationError("stored recurring send is invalid: "+err.Error(), "Invalid", nil)
	case herald.EUNPROCESSABLE:
		return "", temporal.NewNonRetryableApplicationError("recurring send refused: "+err.Error(), "Unprocessable", nil)
	}
	return id, err
}

// StepStates reads the inbox states of notifications written by earlier steps.
func (a *Flows) StepStates(ctx context.Context, in flowrun.StepStatesInput) (map[string]flowdef.StepState, error) {
	return a.Runs.StepStates(ctx, in)
}

// Throttle counts a run against its key's fixed window and says whether it may go on.
func (a *Flows) Throttle(ctx context.Context, in flowrun.ThrottleInput) (bool, error) {
	return a.Runs.Throttle(ctx, in)
}

// DigestEnqueue hands a trigger to its digest collector, starting the collector when none
// runs for the key (signal-with-start). A collector it starts carries the search attributes
// of the run that started it (HeraldRequestId: the first trigger's request).
func (a *Flows) DigestEnqueue(ctx context.Context, in flowrun.DigestEnqueueInput) error {
	run := in.Collector.Run
	_, err := a.Temporal.SignalWithStartWorkflow(ctx, in.CollectorID, flowrun.DigestSignal, in.Trigger,
		client.StartWorkflowOptions{
			ID: in.CollectorID, TaskQueue: a.TaskQueue,
			TypedSearchAttributes: visibility.Run(run.AppID, run.RequestID, run.Flow.Identifier, run.Recipient.Identifier),
			StaticSummary:         fmt.Sprintf("Digest %s of workflow %s for %s", in.Collector.Step.ID, run.Flow.Identifier, run.Recipient.Identifier),
		}, flowrun.DigestWorkflowName, in.Collector)
	return err
}

// RecordStep writes a line of the workflow log of the activity's run.
func (a *Flows) RecordStep(ctx context.Context, r flowrun.StepRecord) error {
	return a.Runs.RecordStep(ctx, r, workflowID(ctx))
}

// LoadRun reads what a run started by a send needs (flow.Runs.Load). A version or
// request that is gone, or unreadable, fails the run: retrying cannot help.
func (a *Flows) LoadRun(ctx context.Context, in flowrun.LoadRunInput) (flowrun.LoadedRun, error) {
	out, err := a.Runs.Load(ctx, in)
	var e *herald.Error
	if err != nil && errors.As(err, &e) {
		switch e.Code {
		case herald.ENOTFOUND:
			return flowrun.LoadedRun{}, temporal.NewNonRetryableApplicationError(e.Message, "NotFound", e.Err)
		case herald.EINVALID:
			return flowrun.LoadedRun{}, temporal.NewNonRetryableApplicationError(e.Message, "Invalid", e.Err)
		}
	}
	return out, err
}

// FinishRun records how a run ended; a run cancelled meanwhile stays cancelled.
func (a *Flows) FinishRun(ctx context.Context, in flowrun.FinishRunInput) error {
	return a.Runs.Finish(ctx, in)
}

// Fetch performs a fetch step's request; a refusal (a 4xx, a host the policy refuses, an
// answer that is not a JSON object) fails for good.
func (a *Flows) Fetch(ctx context.Context, in flowrun.FetchInput) (map[string]any, error) {
	out, err := a.Fetcher.Fetch(ctx, in)
	var r *fetch.Refusal
	if errors.As(err, &r) {
		return nil, temporal.NewNonRetryableApplicationError(r.Message, r.Kind, nil)
	}
	return out, err
}
