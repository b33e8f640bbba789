package flowrun

import (
	"fmt"
	"time"

	"go.temporal.io/sdk/workflow"

	"github.com/heraldhq/herald/internal/flow/flowdef"
)

// DigestWorkflow collects the triggers sent to one key (signal-with-start by the runs that
// reach a digest step) for the step's window or until its count, then continues the
// workflow once from the step after the digest with every collected item in batch.
func DigestWorkflow(ctx workflow.Context, in DigestInput) (RunResult, error) {
	defer drainInbox(ctx)
	ch := workflow.GetSignalChannel(ctx, DigestSignal)
	var window time.Duration
	if in.Step.Window != "" {
		window, _ = flowdef.ParseDuration(in.Step.Window)
	}
	var triggers []Trigger
	tctx, cancel := workflow.WithCancel(ctx)
	var timer workflow.Future
	if window > 0 {
		timer = workflow.NewTimer(tctx, window)
	}
	full := func() bool { return in.Step.Count > 0 && len(triggers) >= in.Step.Count }
	for expired := false; !expired && !full(); {
		sel := workflow.NewSelector(ctx)
		sel.AddReceive(ch, func(c workflow.ReceiveChannel, _ bool) {
			var t Trigger
			c.Receive(ctx, &t)
			triggers = append(triggers, t)
		})
		if timer != nil {
			sel.AddFuture(timer, func(workflow.Future) { expired = true })
		}
		sel.Select(ctx)
	}
	cancel()
	// Signals that arrived with the last one belong to this digest too.
	for {
		var t Trigger
		if !ch.ReceiveAsync(&t) {
			break
		}
		triggers = append(triggers, t)
	}
	run := in.Run
	batch := &Batch{Count: len(triggers)}
	for _, t := range triggers {
		batch.Items = append(batch.Items, t.Data)
	}
	run.Batch = batch
	if len(triggers) > 0 {
		run.Data = triggers[len(triggers)-1].Data
		run.RequestID = triggers[len(triggers)-1].RequestID
	}
	r := newRun(ctx, run)
	r.record(ctx, in.Step, "digested", fmt.Sprintf("collected %d", len(triggers)))
	if run.StartAt == "" {
		return RunResult{Outcome: OutcomeCompleted}, nil
	}
	return r.walk(ctx, run.StartAt)
}
