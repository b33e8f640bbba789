package flowrun

import (
	"fmt"

	"go.temporal.io/sdk/workflow"

	"github.com/heraldhq/herald/internal/flow/flowdef"
)

// DigestWorkflow collects the triggers sent to one key (signal-with-start by the runs that
// reach a digest step) for the step's window (or until its next timeOfDay in the
// recipient's time zone, change id digest-time-of-day) or until its count, then continues the
// workflow once from the step after the digest with every collected item in batch.
//
// Triggers that arrive while it walks those steps (signal-with-start finds it still
// running) start the next digest of the key: it continues as new with them as Pending,
// and their window starts then (change id digest-late-triggers; before it they were
// dropped).
func DigestWorkflow(ctx workflow.Context, in DigestInput) (RunResult, error) {
	defer drainInbox(ctx)
	ch := workflow.GetSignalChannel(ctx, DigestSignal)
	prog, err := in.Run.Definition.Compile()
	if err != nil {
		return refuse(ctx, in.Run, err)
	}
	step, ok := prog.StepByID(in.Step.ID)
	if !ok || step.Type != flowdef.TypeDigest {
		return refuse(ctx, in.Run, fmt.Errorf("no digest step %q", in.Step.ID))
	}
	window := step.WindowFor
	if step.Clock != nil && workflow.GetVersion(ctx, DigestTimeOfDayChange, workflow.DefaultVersion, 1) >= 1 {
		// "Digest at 08:00 local": the first trigger opens the digest, the next 08:00 in
		// the recipient's time zone closes it (a continued collector's Pending triggers:
		// the next 08:00 after it continued).
		now := workflow.Now(ctx)
		window = flowdef.NextTimeOfDay(now, *step.Clock, step.Location(in.Run.Recipient.Profile)).Sub(now)
	}
	triggers := append([]Trigger(nil), in.Pending...)
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
	r := newRun(ctx, run, prog)
	r.record(ctx, in.Step, "digested", fmt.Sprintf("collected %d", len(triggers)))
	res := RunResult{Outcome: OutcomeCompleted}
	if run.StartAt != "" {
		res, err = r.walk(ctx, run.StartAt)
	}
	// Triggers that arrived during the walk belong to the key's next digest.
	var late []Trigger
	for {
		var t Trigger
		if !ch.ReceiveAsync(&t) {
			break
		}
		late = append(late, t)
	}
	if len(late) > 0 && workflow.GetVersion(ctx, "digest-late-triggers", workflow.DefaultVersion, 1) == 1 {
		return res, workflow.NewContinueAsNewError(ctx, DigestWorkflowName, DigestInput{Run: in.Run, Step: in.Step, Pending: late})
	}
	return res, err
}
