package flowrun

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/workflow"

	"github.com/heraldhq/herald"
	"github.com/heraldhq/herald/internal/flow/flowdef"
)

// fakes records what the activities were asked to do.
type fakes struct {
	mu          sync.Mutex
	delivered   []DeliverStepInput
	deliveredAt []time.Time
	records     []StepRecord
	states      map[string]flowdef.StepState
	fetchCalls  int
	fetchErr    error
	fetchOut    map[string]any
	allow       bool
	enqueued    []DigestEnqueueInput
	finished    []FinishRunInput
	loaded      *LoadedRun
	loadErr     error
	failStep    map[string]error
	env         *testsuite.TestWorkflowEnvironment
}

func (f *fakes) register(env *testsuite.TestWorkflowEnvironment) {
	f.env = env
	env.RegisterWorkflowWithOptions(Workflow, workflow.RegisterOptions{Name: WorkflowName})
	env.RegisterWorkflowWithOptions(DigestWorkflow, workflow.RegisterOptions{Name: DigestWorkflowName})
	env.RegisterActivityWithOptions(func(_ context.Context, in DeliverStepInput) (DeliverStepResult, error) {
		f.mu.Lock()
		defer f.mu.Unlock()
		if err := f.failStep[in.Step.ID]; err != nil {
			return DeliverStepResult{}, err
		}
		f.delivered = append(f.delivered, in)
		f.deliveredAt = append(f.deliveredAt, f.env.Now())
		res := DeliverStepResult{Status: "sent"}
		if in.Step.Type == herald.ChannelInApp {
			res.NotificationID = int64(len(f.delivered))
		}
		return res, nil
	}, activity.RegisterOptions{Name: DeliverStepActivity})
	env.RegisterActivityWithOptions(func(_ context.Context, in StepStatesInput) (map[string]flowdef.StepState, error) {
		out := map[string]flowdef.StepState{}
		for id := range in.NotificationIDs {
			out[id] = f.states[id]
		}
		return out, nil
	}, activity.RegisterOptions{Name: StepStatesActivity})
	env.RegisterActivityWithOptions(func(_ context.Context, in FetchInput) (map[string]any, error) {
		f.mu.Lock()
		f.fetchCalls++
		f.mu.Unlock()
		return f.fetchOut, f.fetchErr
	}, activity.RegisterOptions{Name: FetchActivity})
	env.RegisterActivityWithOptions(func(_ context.Context, in ThrottleInput) (bool, error) {
		return f.allow, nil
	}, activity.RegisterOptions{Name: ThrottleActivity})
	env.RegisterActivityWithOptions(func(_ context.Context, in DigestEnqueueInput) error {
		f.mu.Lock()
		defer f.mu.Unlock()
		f.enqueued = append(f.enqueued, in)
		return nil
	}, activity.RegisterOptions{Name: DigestEnqueueActivity})
	env.RegisterActivityWithOptions(func(_ context.Context, in StepRecord) error {
		f.mu.Lock()
		defer f.mu.Unlock()
		f.records = append(f.records, in)
		return nil
	}, activity.RegisterOptions{Name: RecordStepActivity})
	env.RegisterActivityWithOptions(func(_ context.Context, in FinishRunInput) error {
		f.mu.Lock()
		defer f.mu.Unlock()
		f.finished = append(f.finished, in)
		return nil
	}, activity.RegisterOptions{Name: FinishRunActivity})
	env.RegisterActivityWithOptions(func(_ context.Context, in LoadRunInput) (LoadedRun, error) {
		if f.loadErr != nil {
			return LoadedRun{}, f.loadErr
		}
		return *f.loaded, nil
	}, activity.RegisterOptions{Name: LoadRunActivity})
}

func (f *fakes) channels() []string {
	var out []string
	for _, d := range f.delivered {
		out = append(out, d.Step.ID)
	}
	return out
}

func definition(t *testing.T, raw string) flowdef.Definition {
	t.Helper()
	prog, err := flowdef.Compile(json.RawMessage(raw), flowdef.Checker{Channels: herald.Channels})
	if err != nil {
		t.Fatal(err)
	}
	return prog.Definition
}

func input(def flowdef.Definition) RunInput {
	return RunInput{
		AppID: 1, RequestID: "req-1", Flow: Ref{Identifier: "wf", Version: 1}, Definition: def,
		Recipient: Recipient{UserID: 7, Identifier: "ann", Profile: map[string]any{"timezone": "Europe/Berlin"}},
		Data:      map[string]any{"plan": "pro"},
	}
}

func runFlow(t *testing.T, f *fakes, in RunInput, setup func(env *testsuite.TestWorkflowEnvironment)) (RunResult, time.Duration) {
	t.Helper()
	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	f.register(env)
	if setup != nil {
		setup(env)
	}
	start := env.Now()
	env.ExecuteWorkflow(WorkflowName, in)
	if !env.IsWorkflowCompleted() || env.GetWorkflowError() != nil {
		t.Fatalf("run did not complete: %v", env.GetWorkflowError())
	}
	var res RunResult
	if err := env.GetWorkflowResult(&res); err != nil {
		t.Fatal(err)
	}
	return res, env.Now().Sub(start)
}

func equal(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestThreeDayDelay(t *testing.T) {
	f := &fakes{}
	def := definition(t, `{"steps":[
		{"id":"hello","type":"inApp","content":{"title":"Hi"},"next":"wait"},
		{"id":"wait","type":"delay","duration":"3d","next":"mail"},
		{"id":"mail","type":"email","content":{"subject":"Still there?"}}]}`)
	res, elapsed := runFlow(t, f, input(def), nil)
	if res.Outcome != OutcomeCompleted || !equal(f.channels(), []string{"hello", "mail"}) {
		t.Fatalf("outcome %s, delivered %v", res.Outcome, f.channels())
	}
	if gap := f.deliveredAt[1].Sub(f.deliveredAt[0]); gap < 72*time.Hour || elapsed < 72*time.Hour {
		t.Errorf("email came %s after the in-app step (run took %s), want at least 3 days", gap, elapsed)
	}
}

func TestBranchOnNotReadAfterAnHour(t *testing.T) {
	def := definition(t, `{"steps":[
		{"id":"inbox","type":"inApp","content":{"title":"Invoice"},"next":"hour"},
		{"id":"hour","type":"delay","duration":"1h","next":"check"},
		{"id":"check","type":"branch","conditions":[{"if":{"step":"inbox","is":"notRead"},"next":"mail"}]},
		{"id":"mail","type":"email","content":{"subject":"You have an unread invoice"}}]}`)
	unread := &fakes{states: map[string]flowdef.StepState{"inbox": {Seen: true}}}
	runFlow(t, unread, input(def), nil)
	if !equal(unread.channels(), []string{"inbox", "mail"}) {
		t.Errorf("unread: delivered %v, want the email fallback", unread.channels())
	}
	read := &fakes{states: map[string]flowdef.StepState{"inbox": {Seen: true, Read: true}}}
	runFlow(t, read, input(def), nil)
	if !equal(read.channels(), []string{"inbox"}) {
		t.Errorf("read: delivered %v, want no email", read.channels())
	}
}

func TestBranchOnData(t *testing.T) {
	def := definition(t, `{"steps":[
		{"id":"split","type":"branch","conditions":[
			{"if":{"and":[{"field":"data.plan","op":"eq","value":"pro"},{"field":"profile.timezone","op":"exists"}]},"next":"sms"}],
		 "else":"mail"},
		{"id":"sms","type":"sms","content":{"body":"pro"}},
		{"id":"mail","type":"email","content":{"subject":"free"}}]}`)
	f := &fakes{}
	runFlow(t, f, input(def), nil)
	if !equal(f.channels(), []string{"sms"}) {
		t.Errorf("delivered %v", f.channels())
	}
	in := input(def)
	in.Data = map[string]any{"plan": "free"}
	g := &fakes{}
	runFlow(t, g, in, nil)
	if !equal(g.channels(), []string{"mail"}) {
		t.Errorf("else: delivered %v", g.channels())
	}
}

func TestThrottle(t *testing.T) {
	def := definition(t, `{"steps":[
		{"id":"gate","type":"throttle","limit":3,"window":"1h","next":"ping"},
		{"id":"ping","type":"inApp","content":{"title":"ping"}}]}`)
	blocked := &fakes{allow: false}
	res, _ := runFlow(t, blocked, input(def), nil)
	if res.Outcome != OutcomeThrottled || len(blocked.delivered) != 0 {
		t.Errorf("throttled run: %s, delivered %v", res.Outcome, blocked.channels())
	}
	if last := blocked.records[len(blocked.records)-1]; last.Outcome != "throttled" || last.StepID != "gate" {
		t.Errorf("workflow log: %+v", last)
	}
	passed := &fakes{allow: true}
	res, _ = runFlow(t, passed, input(def), nil)
	if res.Outcome != OutcomeCompleted || len(passed.delivered) != 1 {
		t.Errorf("passing run: %s, delivered %v", res.Outcome, passed.channels())
	}
}

func TestFetchFailingEndpoint(t *testing.T) {
	def := definition(t, `{"steps":[
		{"id":"lookup","type":"fetch","url":"https://api.example.com/orders/{{data.plan}}","retries":2,"onError":"fallback","next":"mail"},
		{"id":"mail","type":"email","content":{"subject":"order"}},
		{"id":"fallback","type":"inApp","content":{"title":"could not load your order"}}]}`)
	f := &fakes{fetchErr: errors.New("503 from upstream")}
	res, _ := runFlow(t, f, input(def), nil)
	if res.Outcome != OutcomeCompleted || !equal(f.channels(), []string{"fallback"}) {
		t.Errorf("outcome %s, delivered %v", res.Outcome, f.channels())
	}
	if f.fetchCalls != 3 {
		t.Errorf("fetch attempts = %d, want 3 (1 + 2 retries)", f.fetchCalls)
	}
	ok := &fakes{fetchOut: map[string]any{"total": 12.5}}
	runFlow(t, ok, input(def), nil)
	if len(ok.delivered) != 1 || ok.delivered[0].Data["total"] != 12.5 {
		t.Errorf("fetched data not merged: %+v", ok.delivered)
	}
	noFallback := definition(t, `{"steps":[{"id":"lookup","type":"fetch","url":"https://x.test/","next":"mail"},{"id":"mail","type":"email","content":{}}]}`)
	g := &fakes{fetchErr: errors.New("down")}
	res, _ = runFlow(t, g, input(noFallback), nil)
	if res.Outcome != OutcomeFailed || len(g.delivered) != 0 {
		t.Errorf("without onError: %s %v", res.Outcome, g.channels())
	}
}

func TestWaitForRead(t *testing.T) {
	def := definition(t, `{"steps":[
		{"id":"inbox","type":"inApp","content":{"title":"Approve?"},"next":"wait"},
		{"id":"wait","type":"waitForRead","step":"inbox","state":"clicked","timeout":"1d","next":"thanks","timeoutNext":"remind"},
		{"id":"thanks","type":"email","content":{"subject":"thanks"}},
		{"id":"remind","type":"sms","content":{"body":"please approve"}}]}`)
	clicked := &fakes{}
	_, elapsed := runFlow(t, clicked, input(def), func(env *testsuite.TestWorkflowEnvironment) {
		env.RegisterDelayedCallback(func() {
			env.SignalWorkflow(InboxStateSignal, InboxState{NotificationID: 99, State: flowdef.StepState{Clicked: true}}) // not ours
			env.SignalWorkflow(InboxStateSignal, InboxState{NotificationID: 1, State: flowdef.StepState{Seen: true, Read: true, Clicked: true}})
		}, 2*time.Hour)
	})
	if !equal(clicked.channels(), []string{"inbox", "thanks"}) || elapsed >= 24*time.Hour {
		t.Errorf("clicked: delivered %v after %s", clicked.channels(), elapsed)
	}
	ignored := &fakes{}
	_, elapsed = runFlow(t, ignored, input(def), nil)
	if !equal(ignored.channels(), []string{"inbox", "remind"}) || elapsed < 24*time.Hour {
		t.Errorf("timeout: delivered %v after %s", ignored.channels(), elapsed)
	}
}

func TestTimeOfDayDelayUsesTheRecipientsZone(t *testing.T) {
	def := definition(t, `{"steps":[{"id":"w","type":"delay","timeOfDay":"09:00","next":"m"},{"id":"m","type":"email","content":{}}]}`)
	f := &fakes{}
	runFlow(t, f, input(def), nil)
	berlin, _ := time.LoadLocation("Europe/Berlin")
	at := f.deliveredAt[0].In(berlin)
	if at.Hour() != 9 || at.Minute() != 0 {
		t.Errorf("delivered at %s Berlin time, want 09:00", at)
	}
}

func TestDigestStepHandsOverToTheCollector(t *testing.T) {
	def := definition(t, `{"steps":[
		{"id":"collect","type":"digest","count":5,"window":"1h","next":"mail"},
		{"id":"mail","type":"email","content":{"subject":"{{batch.count}} new comments"}}]}`)
	f := &fakes{}
	res, _ := runFlow(t, f, input(def), nil)
	if res.Outcome != OutcomeDigested || len(f.delivered) != 0 || len(f.enqueued) != 1 {
		t.Fatalf("outcome %s delivered %v enqueued %d", res.Outcome, f.channels(), len(f.enqueued))
	}
	e := f.enqueued[0]
	if e.CollectorID != "digest/1/wf/collect/ann" || e.Collector.Run.StartAt != "mail" || e.Trigger.RequestID != "req-1" {
		t.Errorf("enqueue: %+v", e)
	}
}

func TestDigestOfFiveTriggersIntoOneEmail(t *testing.T) {
	def := definition(t, `{"steps":[
		{"id":"collect","type":"digest","count":5,"window":"1h","next":"mail"},
		{"id":"mail","type":"email","content":{"subject":"{{batch.count}} new comments"}}]}`)
	run := input(def)
	run.StartAt = "mail"
	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	f := &fakes{}
	f.register(env)
	for i := range 5 {
		env.RegisterDelayedCallback(func() {
			env.SignalWorkflow(DigestSignal, Trigger{RequestID: "req-" + string(rune('a'+i)), Data: map[string]any{"comment": float64(i)}})
		}, time.Duration(i+1)*time.Minute)
	}
	start := env.Now()
	env.ExecuteWorkflow(DigestWorkflowName, DigestInput{Run: run, Step: def.Steps[0]})
	if env.GetWorkflowError() != nil {
		t.Fatal(env.GetWorkflowError())
	}
	if len(f.delivered) != 1 {
		t.Fatalf("delivered %d emails, want one digest", len(f.delivered))
	}
	b := f.delivered[0].Batch
	if b == nil || b.Count != 5 || len(b.Items) != 5 || b.Items[4]["comment"] != float64(4) {
		t.Errorf("batch = %+v", b)
	}
	if d := f.deliveredAt[0].Sub(start); d != 5*time.Minute {
		t.Errorf("digest closed %s after it started, want at the fifth trigger (5m), not the 1h window", d)
	}
}

func TestDigestWindowClosesWithFewerTriggers(t *testing.T) {
	def := definition(t, `{"steps":[
		{"id":"collect","type":"digest","window":"30m","next":"mail"},
		{"id":"mail","type":"email","content":{}}]}`)
	run := input(def)
	run.StartAt = "mail"
	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	f := &fakes{}
	f.register(env)
	env.RegisterDelayedCallback(func() { env.SignalWorkflow(DigestSignal, Trigger{RequestID: "r1", Data: map[string]any{"n": 1.0}}) }, time.Minute)
	env.RegisterDelayedCallback(func() { env.SignalWorkflow(DigestSignal, Trigger{RequestID: "r2", Data: map[string]any{"n": 2.0}}) }, 2*time.Minute)
	start := env.Now()
	env.ExecuteWorkflow(DigestWorkflowName, DigestInput{Run: run, Step: def.Steps[0]})
	if env.GetWorkflowError() != nil {
		t.Fatal(env.GetWorkflowError())
	}
	if len(f.delivered) != 1 || f.delivered[0].Batch.Count != 2 || f.delivered[0].RequestID != "r2" {
		t.Fatalf("delivered %+v", f.delivered)
	}
	if d := f.deliveredAt[0].Sub(start); d < 30*time.Minute {
		t.Errorf("window closed after %s, want 30m", d)
	}
}

func TestRunStartedBySendLoadsItsVersionAndRecordsItsEnd(t *testing.T) {
	def := definition(t, `{"steps":[
		{"id":"hi","type":"inApp","content":{"title":"Hi {{data.name}}"},"next":"mail"},
		{"id":"mail","type":"email","content":{"subject":"s","text":"t"}}]}`)
	f := &fakes{loaded: &LoadedRun{Definition: def, Data: map[string]any{"name": "Ann"}, Category: "news", Profile: map[string]any{"email": "a@x.test"}}}
	in := RunInput{AppID: 1, RequestID: "req-1", Flow: Ref{Identifier: "wf", Version: 3}, Recipient: Recipient{UserID: 7, Identifier: "ann"}}
	res, _ := runFlow(t, f, in, nil)
	if res.Outcome != OutcomeCompleted || !equal(f.channels(), []string{"hi", "mail"}) {
		t.Fatalf("outcome %s, delivered %v", res.Outcome, f.channels())
	}
	d := f.delivered[1]
	if d.Data["name"] != "Ann" || d.Category != "news" || d.Recipient.Profile["email"] != "a@x.test" || d.Flow.Version != 3 {
		t.Errorf("loaded run not used: %+v", d)
	}
	if len(f.finished) != 1 || f.finished[0].Outcome != OutcomeCompleted {
		t.Errorf("finish: %+v", f.finished)
	}
	var outcomes []string
	for _, r := range f.records {
		outcomes = append(outcomes, r.StepID+":"+r.Outcome)
	}
	if !equal(outcomes, []string{"hi:sent", "mail:sent"}) {
		t.Errorf("channel steps in the workflow log: %v", outcomes)
	}

	cancelled := &fakes{loaded: &LoadedRun{Cancelled: true}}
	if res, _ := runFlow(t, cancelled, in, nil); res.Outcome != OutcomeCancelled || len(cancelled.delivered) != 0 {
		t.Errorf("cancelled before it started: %s %v", res.Outcome, cancelled.channels())
	}
	broken := &fakes{loadErr: temporal.NewNonRetryableApplicationError("version 3 is gone", "NotFound", nil)}
	if res, _ := runFlow(t, broken, in, nil); res.Outcome != OutcomeFailed || len(broken.finished) != 1 || broken.finished[0].Outcome != OutcomeFailed {
		t.Errorf("unloadable run: %s %+v", res.Outcome, broken.finished)
	}
}

func TestCancelledRunStopsWhereItSleeps(t *testing.T) {
	def := definition(t, `{"steps":[
		{"id":"hi","type":"inApp","content":{"title":"Hi"},"next":"wait"},
		{"id":"wait","type":"delay","duration":"2d","next":"mail"},
		{"id":"mail","type":"email","content":{"subject":"s","text":"t"}}]}`)
	f := &fakes{}
	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	f.register(env)
	env.RegisterDelayedCallback(env.CancelWorkflow, time.Hour)
	env.ExecuteWorkflow(WorkflowName, input(def))
	if !temporal.IsCanceledError(env.GetWorkflowError()) {
		t.Fatalf("want the run cancelled, got %v", env.GetWorkflowError())
	}
	if !equal(f.channels(), []string{"hi"}) {
		t.Errorf("delivered %v after the cancellation", f.channels())
	}
	if last := f.records[len(f.records)-1]; last.Outcome != OutcomeCancelled || last.StepID != "wait" {
		t.Errorf("log: %+v", last)
	}
}

func TestFailedDeliveryIsRecordedAndTheRunGoesOn(t *testing.T) {
	def := definition(t, `{"steps":[
		{"id":"mail","type":"email","content":{"subject":"s","text":"t"},"next":"sms"},
		{"id":"sms","type":"sms","content":{"body":"b"}}]}`)
	f := &fakes{failStep: map[string]error{"mail": temporal.NewNonRetryableApplicationError("550 mailbox unavailable", "ProviderError", nil)}}
	if res, _ := runFlow(t, f, input(def), nil); res.Outcome != OutcomeCompleted {
		t.Fatalf("run: %+v", res)
	}
	if !equal(f.channels(), []string{"sms"}) {
		t.Errorf("the fallback step did not run: %v", f.channels())
	}
	if r := f.records[0]; r.StepID != "mail" || r.Outcome != "failed" || !strings.Contains(r.Detail, "550") {
		t.Errorf("failed step in the log: %+v", r)
	}
}

func TestDigestTriggersDuringTheWalkStartTheNextDigest(t *testing.T) {
	def := definition(t, `{"steps":[
		{"id":"collect","type":"digest","count":2,"window":"1h","next":"wait"},
		{"id":"wait","type":"delay","duration":"10m","next":"mail"},
		{"id":"mail","type":"email","content":{}}]}`)
	run := input(def)
	run.StartAt = "wait"
	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	f := &fakes{}
	f.register(env)
	// Two triggers fill the digest at 2m; the third arrives during the 10m delay after it.
	for i, at := range []time.Duration{time.Minute, 2 * time.Minute, 5 * time.Minute} {
		env.RegisterDelayedCallback(func() {
			env.SignalWorkflow(DigestSignal, Trigger{RequestID: "r" + string(rune('1'+i)), Data: map[string]any{"n": float64(i + 1)}})
		}, at)
	}
	env.ExecuteWorkflow(DigestWorkflowName, DigestInput{Run: run, Step: def.Steps[0]})
	if len(f.delivered) != 1 || f.delivered[0].Batch.Count != 2 {
		t.Fatalf("first digest delivered %+v, want one email of 2", f.delivered)
	}
	var cont *workflow.ContinueAsNewError
	if !errors.As(env.GetWorkflowError(), &cont) || cont.WorkflowType.Name != DigestWorkflowName {
		t.Fatalf("the collector ended with %v, want to continue as new with the late trigger", env.GetWorkflowError())
	}
	var next DigestInput
	if err := converter.GetDefaultDataConverter().FromPayloads(cont.Input, &next); err != nil {
		t.Fatal(err)
	}
	if len(next.Pending) != 1 || next.Pending[0].RequestID != "r3" || next.Run.StartAt != "wait" {
		t.Fatalf("next collector's input: %+v", next)
	}

	// The next collector digests it with what arrives in its window.
	env2 := s.NewTestWorkflowEnvironment()
	f2 := &fakes{}
	f2.register(env2)
	env2.RegisterDelayedCallback(func() { env2.SignalWorkflow(DigestSignal, Trigger{RequestID: "r4", Data: map[string]any{"n": 4.0}}) }, time.Minute)
	env2.ExecuteWorkflow(DigestWorkflowName, next)
	if err := env2.GetWorkflowError(); err != nil {
		t.Fatal(err)
	}
	if len(f2.delivered) != 1 || f2.delivered[0].Batch.Count != 2 || f2.delivered[0].Batch.Items[0]["n"] != 3.0 || f2.delivered[0].RequestID != "r4" {
		t.Fatalf("second digest delivered %+v", f2.delivered)
	}
}

func TestDigestAtATimeOfDayClosesAtTheNextOneInTheRecipientsZone(t *testing.T) {
	def := definition(t, `{"steps":[
		{"id":"collect","type":"digest","timeOfDay":"08:00","timezone":"America/New_York","next":"mail"},
		{"id":"mail","type":"email","content":{}}]}`)
	run := input(def) // the recipient's profile says Europe/Berlin: it wins over the step's zone
	run.StartAt = "mail"
	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	f := &fakes{}
	f.register(env)
	env.SetStartTime(time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)) // 11:00 in Berlin, 05:00 in New York
	env.RegisterDelayedCallback(func() { env.SignalWorkflow(DigestSignal, Trigger{RequestID: "r1", Data: map[string]any{"n": 1.0}}) }, time.Minute)
	env.RegisterDelayedCallback(func() { env.SignalWorkflow(DigestSignal, Trigger{RequestID: "r2", Data: map[string]any{"n": 2.0}}) }, 2*time.Minute)
	start := env.Now()
	env.ExecuteWorkflow(DigestWorkflowName, DigestInput{Run: run, Step: def.Steps[0], Pending: []Trigger{{RequestID: "r0"}}})
	if err := env.GetWorkflowError(); err != nil {
		t.Fatal(err)
	}
	if len(f.delivered) != 1 || f.delivered[0].Batch.Count != 3 {
		t.Fatalf("delivered %+v, want one digest of 3", f.delivered)
	}
	if want := time.Date(2026, 3, 2, 7, 0, 0, 0, time.UTC); !f.deliveredAt[0].Equal(want) {
		t.Errorf("digest sent at %s (%s after it opened), want 08:00 Berlin the next day (%s)", f.deliveredAt[0].UTC(), f.deliveredAt[0].Sub(start), want)
	}
}

func TestDigestAtATimeOfDayWithACountClosesWhenFull(t *testing.T) {
	def := definition(t, `{"steps":[
		{"id":"collect","type":"digest","timeOfDay":"08:00","count":2,"next":"mail"},
		{"id":"mail","type":"email","content":{}}]}`)
	run := input(def)
	run.StartAt = "mail"
	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	f := &fakes{}
	f.register(env)
	env.RegisterDelayedCallback(func() { env.SignalWorkflow(DigestSignal, Trigger{RequestID: "r1"}) }, time.Second)
	env.RegisterDelayedCallback(func() { env.SignalWorkflow(DigestSignal, Trigger{RequestID: "r2"}) }, 2*time.Second)
	start := env.Now()
	env.ExecuteWorkflow(DigestWorkflowName, DigestInput{Run: run, Step: def.Steps[0]})
	if err := env.GetWorkflowError(); err != nil {
		t.Fatal(err)
	}
	if len(f.delivered) != 1 || f.delivered[0].Batch.Count != 2 || f.deliveredAt[0].Sub(start) > time.Minute {
		t.Fatalf("delivered %+v after %v, want a digest of 2 when the second arrived", f.delivered, f.deliveredAt)
	}
}

// TestRunRefusesADefinitionThatDoesNotCompile: a stored version from before publish compiled
// definitions (here a delay whose duration is not one) fails the run at once, recorded with
// the problem, with a non-retryable error naming it; no step runs and no duration is
// silently read as zero.
func TestRunRefusesADefinitionThatDoesNotCompile(t *testing.T) {
	f := &fakes{loaded: &LoadedRun{Definition: flowdef.Definition{Steps: []flowdef.Step{
		{ID: "hello", Type: herald.ChannelInApp, Content: json.RawMessage(`{"title":"Hi"}`), Next: "wait"},
		{ID: "wait", Type: flowdef.TypeDelay, Duration: "soon", Next: "mail"},
		{ID: "mail", Type: herald.ChannelEmail, Content: json.RawMessage(`{"subject":"S"}`)},
	}}}}
	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	f.register(env)
	in := input(flowdef.Definition{})
	env.ExecuteWorkflow(WorkflowName, in)
	err := env.GetWorkflowError()
	var app *temporal.ApplicationError
	if !errors.As(err, &app) || !app.NonRetryable() || app.Type() != DefinitionInvalid {
		t.Fatalf("err = %v, want a non-retryable %s", err, DefinitionInvalid)
	}
	want := `steps[1].duration: "soon" is not a duration`
	if !strings.Contains(app.Error(), want) {
		t.Errorf("error %q does not name the problem %q", app.Error(), want)
	}
	if len(f.delivered) != 0 {
		t.Errorf("delivered %v, want no step run", f.channels())
	}
	if len(f.records) != 1 || f.records[0].Outcome != "failed" || !strings.Contains(f.records[0].Detail, want) {
		t.Errorf("records = %+v, want one failed record naming the problem", f.records)
	}
	if len(f.finished) != 1 || f.finished[0].Outcome != OutcomeFailed {
		t.Errorf("finished = %+v, want the run finished failed", f.finished)
	}
}
