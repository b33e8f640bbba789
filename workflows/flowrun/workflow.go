package flowrun

import (
	"fmt"
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/heraldhq/herald/internal/flow/flowdef"
	"github.com/heraldhq/herald/workflows/taskqueue"
)

// Outcomes of a run.
const (
	OutcomeCompleted = "completed"
	OutcomeDigested  = "digested"
	OutcomeThrottled = "throttled"
	OutcomeFailed    = "failed"
	OutcomeCancelled = "cancelled"
)

// maxStepsPerRun guards against a definition that somehow loops (validation refuses
// cycles, so this only trips on a bug).
const maxStepsPerRun = 500

// Workflow runs one recipient through a definition. A run started by a send first loads
// its pinned definition version, data and profile; every run records how it ended.
func Workflow(ctx workflow.Context, in RunInput) (RunResult, error) {
	defer drainInbox(ctx)
	if len(in.Definition.Steps) == 0 {
		loaded, err := load(ctx, in)
		if err != nil {
			r := newRun(ctx, in, nil)
			res, _ := r.fail(ctx, "", "cannot load the run: "+err.Error())
			r.finish(ctx, res.Outcome)
			return res, nil
		}
		if loaded.Cancelled {
			return RunResult{Outcome: OutcomeCancelled}, nil
		}
		in.Definition, in.Data, in.Category, in.Recipient.Profile = loaded.Definition, loaded.Data, loaded.Category, loaded.Profile
	}
	prog, err := in.Definition.Compile()
	if err != nil {
		return refuse(ctx, in, err)
	}
	r := newRun(ctx, in, prog)
	res, err := r.walk(ctx, in.StartAt)
	if temporal.IsCanceledError(err) {
		// Cancelled by key: the database says so already; the log says where it stopped.
		dctx, _ := workflow.NewDisconnectedContext(ctx)
		r.record(dctx, flowdef.Step{ID: last(res.Steps)}, OutcomeCancelled, "cancelled by cancellation key")
		return res, err
	}
	if err != nil {
		res.Outcome = OutcomeFailed
	}
	r.finish(ctx, res.Outcome)
	return res, err
}

// DefinitionInvalid is the type of the non-retryable error of a run whose definition does
// not compile (a version stored before publish compiled definitions).
const DefinitionInvalid = "FlowDefinitionInvalid"

// refuse ends a run whose definition does not compile: the run is recorded failed with the
// problems, and the workflow fails with a non-retryable error naming them. Nothing a
// published version holds gets here (publish compiles); a run recorded before compiling
// existed had a definition that validated, so compiles, and replays unchanged.
func refuse(ctx workflow.Context, in RunInput, err error) (RunResult, error) {
	why := fmt.Sprintf("the definition of workflow %q version %d does not compile: %v", in.Flow.Identifier, in.Flow.Version, err)
	r := newRun(ctx, in, nil)
	res, _ := r.fail(ctx, "", why)
	r.finish(ctx, res.Outcome)
	return res, temporal.NewNonRetryableApplicationError(why, DefinitionInvalid, nil)
}

// drainInbox reads the inbox-state signals no waitForRead step consumed (a notification read
// after its wait ended, or while the run was on another step), so a run does not end with
// unhandled signals, which the SDK logs as a warning. It issues no command: runs recorded
// before it replay unchanged.
func drainInbox(ctx workflow.Context) {
	ch := workflow.GetSignalChannel(ctx, InboxStateSignal)
	for ch.ReceiveAsync(nil) {
	}
}

// load reads what a run started by a send needs (activity FlowLoadRun).
func load(ctx workflow.Context, in RunInput) (LoadedRun, error) {
	actx := workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: 30 * time.Second,
		RetryPolicy:         &temporal.RetryPolicy{MaximumInterval: time.Minute, MaximumAttempts: 50},
	})
	return LoadRun.Execute(actx, LoadRunInput{
		AppID: in.AppID, RequestID: in.RequestID, Flow: in.Flow, UserID: in.Recipient.UserID,
		WorkflowID: workflow.GetInfo(ctx).WorkflowExecution.ID,
	}).Result(ctx)
}

func last(ids []string) string {
	if len(ids) == 0 {
		return ""
	}
	return ids[len(ids)-1]
}

// finish records how the run ended (a local activity: losing it leaves the run listed as
// running, which only makes a later cancellation by key find nothing to stop).
func (r *run) finish(ctx workflow.Context, outcome string) {
	lctx := workflow.WithLocalActivityOptions(ctx, workflow.LocalActivityOptions{
		StartToCloseTimeout: 10 * time.Second,
		RetryPolicy:         &temporal.RetryPolicy{MaximumAttempts: 3},
	})
	_ = FinishRun.ExecuteLocal(lctx, FinishRunInput{
		AppID: r.in.AppID, WorkflowID: workflow.GetInfo(ctx).WorkflowExecution.ID, Outcome: outcome,
	}).Wait(ctx)
}

// run is the interpreter's state for one recipient.
type run struct {
	in     RunInput
	prog   *flowdef.Program // nil only for a run that fails before it has one
	scope  flowdef.Scope
	notes  map[string]int64 // inApp notification id per step
	states map[string]flowdef.StepState
	result RunResult
	inbox  workflow.ReceiveChannel
}

func newRun(ctx workflow.Context, in RunInput, prog *flowdef.Program) *run {
	r := &run{
		in:     in,
		prog:   prog,
		notes:  map[string]int64{},
		states: map[string]flowdef.StepState{},
		inbox:  workflow.GetSignalChannel(ctx, InboxStateSignal),
	}
	r.scope = flowdef.Scope{
		Data:    in.Data,
		Profile: in.Recipient.Profile,
		User:    map[string]any{"identifier": in.Recipient.Identifier},
	}
	if in.Batch != nil {
		items := make([]any, len(in.Batch.Items))
		for i, it := range in.Batch.Items {
			items[i] = it
		}
		r.scope.Batch = map[string]any{"count": float64(in.Batch.Count), "items": items}
	}
	return r
}

func (r *run) walk(ctx workflow.Context, start string) (RunResult, error) {
	cur := start
	if cur == "" {
		cur = r.prog.Start
	}
	for n := 0; cur != ""; n++ {
		if n == maxStepsPerRun {
			return r.fail(ctx, cur, "too many steps")
		}
		step, ok := r.prog.StepByID(cur)
		if !ok {
			return r.fail(ctx, cur, fmt.Sprintf("no step %q", cur))
		}
		r.result.Steps = append(r.result.Steps, step.ID)
		next, stop, err := r.step(ctx, step)
		if err != nil {
			return r.result, err
		}
		if stop != "" {
			r.result.Outcome = stop
			return r.result, nil
		}
		cur = next
	}
	r.result.Outcome = OutcomeCompleted
	return r.result, nil
}

// step executes one step and says where to go, or that the run stops with an outcome.
func (r *run) step(ctx workflow.Context, s *flowdef.CompiledStep) (next, stop string, err error) {
	switch s.Type {
	case flowdef.TypeDelay:
		d := r.delayOf(ctx, s)
		if d > 0 {
			if err := workflow.Sleep(ctx, d); err != nil {
				return "", "", err
			}
		}
		r.record(ctx, s.Step, "waited", d.String())
		return s.Next, "", nil
	case flowdef.TypeBranch:
		return r.branch(ctx, s), "", nil
	case flowdef.TypeWaitForRead:
		return r.waitForRead(ctx, s)
	case flowdef.TypeFetch:
		return r.fetch(ctx, s)
	case flowdef.TypeThrottle:
		return r.throttle(ctx, s)
	case flowdef.TypeDigest:
		return r.digest(ctx, s)
	default:
		return r.deliver(ctx, s)
	}
}

func (r *run) deliver(ctx workflow.Context, s *flowdef.CompiledStep) (string, string, error) {
	actx := workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout:    2 * time.Minute,
		ScheduleToCloseTimeout: 6 * time.Hour,
		RetryPolicy:            &temporal.RetryPolicy{InitialInterval: time.Second, BackoffCoefficient: 2, MaximumInterval: 5 * time.Minute},
		// An external step calls its provider: it runs on its channel's queue, so a hung
		// provider holds none of the orchestration slots (an activity's task queue is not
		// compared on replay). In-app steps stay on the run's own queue.
		TaskQueue: taskqueue.ForChannel(workflow.GetInfo(ctx).TaskQueueName, s.Type),
	})
	in := DeliverStepInput{
		AppID: r.in.AppID, RequestID: r.in.RequestID, Flow: r.in.Flow, Category: r.in.Category,
		Step: s.Step, Recipient: r.in.Recipient, Data: r.in.Data, Batch: r.in.Batch,
	}
	quiet := s.Type != "inApp" && workflow.GetVersion(ctx, QuietHoursChange, workflow.DefaultVersion, 1) >= 1
	in.HoldQuietHours = quiet
	res, err := DeliverStep.Execute(actx, in).Result(ctx)
	if err == nil && quiet && res.Status == StatusHeld {
		// Held for quiet hours: a durable timer, no worker slot, until the window ends.
		if err := workflow.Sleep(ctx, max(time.UnixMilli(res.HeldUntil).Sub(workflow.Now(ctx)), 0)); err != nil {
			dctx, _ := workflow.NewDisconnectedContext(ctx)
			dctx = workflow.WithActivityOptions(dctx, workflow.ActivityOptions{
				StartToCloseTimeout: 30 * time.Second,
				RetryPolicy:         &temporal.RetryPolicy{MaximumInterval: 10 * time.Second, MaximumAttempts: 20},
			})
			if derr := DropHeldStep.Execute(dctx, DropHeldStepInput{LogID: res.LogID}).Wait(dctx); derr != nil {
				workflow.GetLogger(ctx).Error("could not record the dropped held step", "error", derr)
			}
			return "", "", err
		}
		in.Release = true
		res, err = DeliverStep.Execute(actx, in).Result(ctx)
	}
	if err != nil {
		// A failed delivery does not stop the run, like a skipped one: later steps (a
		// fallback channel) may still reach the user. Recording it fails the step's message
		// log row when retries ran out with the row still queued.
		res = DeliverStepResult{Status: "failed", Reason: err.Error()}
	}
	r.record(ctx, s.Step, res.Status, res.Reason)
	st := flowdef.StepState{Delivered: res.Status == "sent"}
	if res.NotificationID != 0 {
		r.notes[s.ID] = res.NotificationID
	}
	r.states[s.ID] = st
	return s.Next, "", nil
}

func (r *run) delayOf(ctx workflow.Context, s *flowdef.CompiledStep) time.Duration {
	now := workflow.Now(ctx)
	switch {
	case s.DelayFor != 0:
		return s.DelayFor
	case s.Clock != nil:
		return flowdef.NextTimeOfDay(now, *s.Clock, s.Location(r.in.Recipient.Profile)).Sub(now)
	default:
		// until is templated: it is read from the run's data when the step runs.
		at, err := time.Parse(time.RFC3339, r.scope.Expand(s.Until))
		if err != nil {
			r.record(ctx, s.Step, "skipped", "until is not an ISO 8601 time: "+r.scope.Expand(s.Until))
			return 0
		}
		return at.Sub(now)
	}
}

func (r *run) branch(ctx workflow.Context, s *flowdef.CompiledStep) string {
	if needsStates(s) {
		r.refreshStates(ctx)
	}
	// The evaluation is computed from the same scope and states (pure, no command), so
	// runs recorded before it replay unchanged.
	ev := &BranchEvaluation{Matched: -1, Next: orEnd(s.Else), Conditions: []ConditionEvaluation{}}
	for i, c := range s.Conditions {
		ok := c.If.Eval(r.scope, r.states)
		ev.Conditions = append(ev.Conditions, ConditionEvaluation{Index: i, Next: orEnd(c.Next), Result: ok, Comparisons: c.If.Explain(r.scope, r.states)})
		if ok {
			ev.Matched, ev.Next = i, orEnd(c.Next)
			r.recordWith(ctx, s.Step, "branched", fmt.Sprintf("condition %d → %s", i, c.Next), &Evaluation{Branch: ev})
			return c.Next
		}
	}
	r.recordWith(ctx, s.Step, "branched", "else → "+orEnd(s.Else), &Evaluation{Branch: ev})
	return s.Else
}

func orEnd(id string) string {
	if id == "" {
		return "end"
	}
	return id
}

func needsStates(s *flowdef.CompiledStep) bool {
	for _, c := range s.Conditions {
		if len(c.If.StepRefs()) > 0 {
			return true
		}
	}
	return false
}

// refreshStates reads the inbox states of the notifications earlier steps wrote.
func (r *run) refreshStates(ctx workflow.Context) {
	if len(r.notes) == 0 {
		return
	}
	actx := workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: 30 * time.Second,
		RetryPolicy:         &temporal.RetryPolicy{MaximumInterval: time.Minute},
	})
	states, err := StepStates.Execute(actx, StepStatesInput{AppID: r.in.AppID, NotificationIDs: r.notes}).Result(ctx)
	if err != nil {
		return
	}
	for id, st := range states {
		st.Delivered = st.Delivered || r.states[id].Delivered
		r.states[id] = st
	}
}

// waitForRead waits for the inbox signal naming the step's notification in the wanted
// state, or the timeout; at the timeout it reads the state once more, so a missed signal
// never takes the wrong path.
func (r *run) waitForRead(ctx workflow.Context, s *flowdef.CompiledStep) (string, string, error) {
	want := s.State
	if want == "" {
		want = "read"
	}
	target := s.Step.Step // the inApp step waited on
	id := r.notes[target]
	timeout := s.TimeoutAfter
	reached := func() bool { return stateIs(r.states[target], want) }
	ev := &WaitEvaluation{Step: target, State: want, Timeout: s.Step.Timeout, NotificationID: id, Released: ReleasedNoNotification}
	if id != 0 && reached() {
		ev.Released = ReleasedAlready
	}
	if id != 0 && !reached() {
		ev.Released = ReleasedTimedOut
		tctx, cancel := workflow.WithCancel(ctx)
		timer := workflow.NewTimer(tctx, timeout)
		for done := false; !done && !reached(); {
			sel := workflow.NewSelector(ctx)
			sel.AddReceive(r.inbox, func(c workflow.ReceiveChannel, _ bool) {
				var sig InboxState
				c.Receive(ctx, &sig)
				if sig.NotificationID == id {
					sig.State.Delivered = true
					r.states[target] = sig.State
					if stateIs(sig.State, want) {
						ev.Released = ReleasedByEvent
					}
				}
			})
			sel.AddFuture(timer, func(workflow.Future) { done = true })
			sel.Select(ctx)
		}
		cancel()
		if !reached() {
			r.refreshStates(ctx)
			if reached() {
				ev.Released = ReleasedAtTimeout
			}
		}
	}
	ev.At, ev.Observed = workflow.Now(ctx).UTC(), r.states[target]
	if reached() {
		r.recordWith(ctx, s.Step, "waited", want, &Evaluation{Wait: ev})
		return s.Next, "", nil
	}
	if id != 0 {
		ev.Released = ReleasedTimedOut
	}
	r.recordWith(ctx, s.Step, "waited", "timed out", &Evaluation{Wait: ev})
	return s.TimeoutNext, "", nil
}

func stateIs(st flowdef.StepState, want string) bool {
	switch want {
	case "clicked":
		return st.Clicked
	case "seen":
		return st.Seen || st.Read || st.Clicked
	case "interacted":
		return st.Interacted || st.Clicked
	default:
		return st.Read || st.Clicked
	}
}

func (r *run) fetch(ctx workflow.Context, s *flowdef.CompiledStep) (string, string, error) {
	timeout, method := s.TimeoutAfter, s.HTTPMethod
	headers := make(map[string]string, len(s.Headers))
	for k, v := range s.Headers {
		headers[k] = r.scope.Expand(v)
	}
	actx := workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: timeout + 5*time.Second,
		RetryPolicy: &temporal.RetryPolicy{
			InitialInterval: time.Second, BackoffCoefficient: 2, MaximumInterval: time.Minute,
			MaximumAttempts: int32(s.Retries + 1),
		},
	})
	out, err := Fetch.Execute(actx, FetchInput{
		AppID: r.in.AppID, URL: r.scope.Expand(s.URL), Method: method, Headers: headers,
		Body: r.scope.Expand(s.Body), TimeoutSeconds: int(timeout.Seconds()),
	}).Result(ctx)
	if err != nil {
		r.record(ctx, s.Step, "failed", err.Error())
		if s.OnError != "" {
			return s.OnError, "", nil
		}
		return "", OutcomeFailed, nil
	}
	if r.in.Data == nil {
		r.in.Data = map[string]any{}
	}
	if s.ResultKey != "" {
		r.in.Data[s.ResultKey] = out
	} else {
		for k, v := range out {
			r.in.Data[k] = v
		}
	}
	r.scope.Data = r.in.Data
	r.record(ctx, s.Step, "fetched", "")
	return s.Next, "", nil
}

func (r *run) throttle(ctx workflow.Context, s *flowdef.CompiledStep) (string, string, error) {
	window := s.WindowFor
	key := r.in.Flow.Identifier + "/" + r.in.Recipient.Identifier
	if s.Key != "" {
		key = r.in.Flow.Identifier + "/" + r.scope.Expand(s.Key)
	}
	actx := workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: 30 * time.Second,
		RetryPolicy:         &temporal.RetryPolicy{MaximumInterval: time.Minute},
	})
	allowed, err := Throttle.Execute(actx, ThrottleInput{
		AppID: r.in.AppID, Key: key, Limit: s.Limit, WindowSeconds: int64(window.Seconds()),
	}).Result(ctx)
	if err != nil {
		return "", "", err
	}
	if !allowed {
		r.record(ctx, s.Step, "throttled", fmt.Sprintf("more than %d per %s for %s", s.Limit, s.Window, key))
		return "", OutcomeThrottled, nil
	}
	r.record(ctx, s.Step, "passed", "")
	return s.Next, "", nil
}

// digest hands this trigger to the collector of its key and ends this run: the collector
// continues the workflow once with everything it collected.
func (r *run) digest(ctx workflow.Context, s *flowdef.CompiledStep) (string, string, error) {
	key := r.in.Recipient.Identifier
	if s.Key != "" {
		key += "/" + r.scope.Expand(s.Key)
	}
	cont := r.in
	cont.StartAt, cont.Batch = s.Next, nil
	actx := workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: 30 * time.Second,
		RetryPolicy:         &temporal.RetryPolicy{MaximumInterval: time.Minute},
	})
	id := DigestWorkflowID(r.in.AppID, r.in.Flow.Identifier, s.ID, key)
	if err := DigestEnqueue.Execute(actx, DigestEnqueueInput{
		CollectorID: id, Collector: DigestInput{Run: cont, Step: s.Step},
		Trigger: Trigger{RequestID: r.in.RequestID, Data: r.in.Data},
	}).Wait(ctx); err != nil {
		return "", "", err
	}
	r.record(ctx, s.Step, "digested", id)
	return "", OutcomeDigested, nil
}

func (r *run) fail(ctx workflow.Context, stepID, why string) (RunResult, error) {
	r.record(ctx, flowdef.Step{ID: stepID}, "failed", why)
	r.result.Outcome = OutcomeFailed
	return r.result, nil
}

// record writes a line of the workflow log with a local activity (cheap, no task round
// trip); losing one on a crash only loses a log line, and Temporal's history has the step.
func (r *run) record(ctx workflow.Context, s flowdef.Step, outcome, detail string) {
	r.recordWith(ctx, s, outcome, detail, nil)
}

// recordWith records a step with how it decided (a branch's comparisons, a wait's
// release) and the run's data as its input: both travel only in the local activity's
// input, which replay does not compare.
func (r *run) recordWith(ctx workflow.Context, s flowdef.Step, outcome, detail string, ev *Evaluation) {
	lctx := workflow.WithLocalActivityOptions(ctx, workflow.LocalActivityOptions{
		StartToCloseTimeout: 10 * time.Second,
		RetryPolicy:         &temporal.RetryPolicy{MaximumAttempts: 3},
	})
	_ = RecordStep.ExecuteLocal(lctx, StepRecord{
		AppID: r.in.AppID, RequestID: r.in.RequestID, Flow: r.in.Flow, User: r.in.Recipient.Identifier,
		StepID: s.ID, StepType: s.Type, Outcome: outcome, Detail: detail,
		Data: r.in.Data, Batch: r.in.Batch, Evaluation: ev,
	}).Wait(ctx)
}
