package flowrun

import (
	"testing"
	"time"

	"go.temporal.io/sdk/testsuite"

	"github.com/heraldhq/herald/internal/flow/flowdef"
)

// record returns the recorded line of a step (fails when there is none).
func (f *fakes) record(t *testing.T, step string) StepRecord {
	t.Helper()
	for _, r := range f.records {
		if r.StepID == step {
			return r
		}
	}
	t.Fatalf("no record of %s in %+v", step, f.records)
	return StepRecord{}
}

// TestBranchRecordsItsEvaluation: the branch's record says which condition matched (-1 for
// else) with every leaf's values, and every record carries the run's data as its input.
func TestBranchRecordsItsEvaluation(t *testing.T) {
	def := definition(t, `{"steps":[
		{"id":"split","type":"branch","conditions":[
			{"if":{"field":"data.plan","op":"eq","value":"free"},"next":"mail"},
			{"if":{"and":[{"field":"data.plan","op":"eq","value":"pro"},{"field":"profile.missing","op":"exists"}]},"next":"mail"}]},
		{"id":"mail","type":"email","content":{"subject":"hi"}}]}`)
	f := &fakes{}
	runFlow(t, f, input(def), nil)
	rec := f.record(t, "split")
	if rec.Data["plan"] != "pro" || rec.Evaluation == nil || rec.Evaluation.Branch == nil {
		t.Fatalf("record %+v", rec)
	}
	b := rec.Evaluation.Branch
	if b.Matched != -1 || b.Next != "end" || len(b.Conditions) != 2 || b.Conditions[0].Result || b.Conditions[1].Result {
		t.Fatalf("branch %+v, want no condition matched, else → end", b)
	}
	leaves := b.Conditions[1].Comparisons
	if len(leaves) != 2 || leaves[0].Actual != "pro" || !leaves[0].Result || leaves[1].Found || leaves[1].Result {
		t.Errorf("condition 1's leaves %+v", leaves)
	}
}

// TestWaitForReadRecordsWhatReleasedIt: an inbox event releases the wait at the time it
// came; without one, the wait records that it timed out, or that the state read at the
// timeout had it.
func TestWaitForReadRecordsWhatReleasedIt(t *testing.T) {
	def := definition(t, `{"steps":[
		{"id":"inbox","type":"inApp","content":{"title":"Approve?"},"next":"wait"},
		{"id":"wait","type":"waitForRead","step":"inbox","timeout":"1d","next":"thanks","timeoutNext":"remind"},
		{"id":"thanks","type":"email","content":{"subject":"thanks"}},
		{"id":"remind","type":"sms","content":{"body":"please approve"}}]}`)
	var start time.Time
	read := &fakes{}
	runFlow(t, read, input(def), func(env *testsuite.TestWorkflowEnvironment) {
		start = env.Now()
		env.RegisterDelayedCallback(func() {
			env.SignalWorkflow(InboxStateSignal, InboxState{NotificationID: 1, State: flowdef.StepState{Seen: true, Read: true}})
		}, 2*time.Hour)
	})
	w := read.record(t, "wait").Evaluation
	if w == nil || w.Wait == nil || w.Wait.Released != ReleasedByEvent || w.Wait.NotificationID != 1 || !w.Wait.Observed.Read ||
		w.Wait.State != "read" || w.Wait.At.Sub(start) < 2*time.Hour || w.Wait.At.Sub(start) >= 24*time.Hour {
		t.Errorf("read: %+v (started %s)", w, start)
	}
	ignored := &fakes{}
	runFlow(t, ignored, input(def), nil)
	w = ignored.record(t, "wait").Evaluation
	if w == nil || w.Wait == nil || w.Wait.Released != ReleasedTimedOut || w.Wait.Observed.Read || w.Wait.Timeout != "1d" {
		t.Errorf("ignored: %+v", w)
	}
	// No event came, but the state read once more at the timeout has it (a missed signal).
	missed := &fakes{states: map[string]flowdef.StepState{"inbox": {Seen: true, Read: true}}}
	runFlow(t, missed, input(def), nil)
	w = missed.record(t, "wait").Evaluation
	if w == nil || w.Wait == nil || w.Wait.Released != ReleasedAtTimeout || !w.Wait.Observed.Read || !equal(missed.channels(), []string{"inbox", "thanks"}) {
		t.Errorf("missed: %+v, delivered %v", w, missed.channels())
	}
}
