package schedule

import (
	"context"
	"testing"
	"time"

	"github.com/google/uuid"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/workflow"

	"github.com/heraldhq/herald/workflows/send"
)

type fixture struct {
	env       *testsuite.TestWorkflowEnvironment
	sendAt    time.Time
	cancelled bool
	begun     bool
	sendStart time.Time
	sends     int
	// types are the send workflow types started, in order.
	types []string
}

func newFixture(t *testing.T, wait time.Duration) *fixture {
	var s testsuite.WorkflowTestSuite
	f := &fixture{env: s.NewTestWorkflowEnvironment()}
	f.sendAt = f.env.Now().Add(wait)
	f.env.RegisterWorkflowWithOptions(Workflow, workflow.RegisterOptions{Name: WorkflowName})
	for _, name := range []string{send.WorkflowName, send.WorkflowV2Name, send.WorkflowV1Name} {
		f.env.RegisterWorkflowWithOptions(func(ctx workflow.Context, in send.Input) error {
			f.sends++
			f.sendStart = workflow.Now(ctx)
			f.types = append(f.types, name)
			return nil
		}, workflow.RegisterOptions{Name: name})
	}
	f.env.RegisterActivityWithOptions(func(context.Context, uuid.UUID) (Loaded, error) {
		return Loaded{SendAt: f.sendAt, Cancelled: f.cancelled}, nil
	}, activity.RegisterOptions{Name: LoadActivityName})
	f.env.RegisterActivityWithOptions(func(context.Context, uuid.UUID) (bool, error) {
		f.begun = !f.cancelled
		return f.begun, nil
	}, activity.RegisterOptions{Name: BeginSendActivityName})
	return f
}

func TestScheduleSendsAtItsTime(t *testing.T) {
	f := newFixture(t, 36*time.Hour)
	f.env.ExecuteWorkflow(WorkflowName, Input{RequestID: uuid.New()})
	if err := f.env.GetWorkflowError(); err != nil {
		t.Fatal(err)
	}
	if f.sends != 1 || f.sendStart.Before(f.sendAt) {
		t.Errorf("sends %d, started at %s, want once at %s", f.sends, f.sendStart, f.sendAt)
	}
}

// A schedule starts the send workflow's current type; one that began before SendTypeChange
// starts the first type, and one of its first version the second, as their histories say.
func TestScheduleStartsTheSendTypeOfItsVersion(t *testing.T) {
	for _, tc := range []struct {
		version workflow.Version
		want    string
	}{{2, send.WorkflowName}, {1, send.WorkflowV2Name}, {workflow.DefaultVersion, send.WorkflowV1Name}} {
		f := newFixture(t, time.Hour)
		f.env.OnGetVersion(SendTypeChange, workflow.DefaultVersion, 2).Return(tc.version)
		f.env.ExecuteWorkflow(WorkflowName, Input{RequestID: uuid.New()})
		if err := f.env.GetWorkflowError(); err != nil {
			t.Fatal(err)
		}
		if len(f.types) != 1 || f.types[0] != tc.want {
			t.Errorf("version %d started %v, want [%s]", tc.version, f.types, tc.want)
		}
	}
}

func TestCancelledRunSendsNothing(t *testing.T) {
	f := newFixture(t, time.Hour)
	f.env.RegisterDelayedCallback(f.env.CancelWorkflow, 10*time.Minute)
	f.env.ExecuteWorkflow(WorkflowName, Input{RequestID: uuid.New()})
	if f.env.GetWorkflowError() == nil {
		t.Error("want the cancellation to end the run")
	}
	if f.sends != 0 || f.begun {
		t.Errorf("a cancelled schedule sent %d", f.sends)
	}
}

func TestCancellationInTheDatabaseWinsAtTheTimer(t *testing.T) {
	f := newFixture(t, time.Hour)
	// Cancelled after the run loaded its schedule, and the Temporal cancel was lost.
	f.env.RegisterDelayedCallback(func() { f.cancelled = true }, 30*time.Minute)
	f.env.ExecuteWorkflow(WorkflowName, Input{RequestID: uuid.New()})
	if err := f.env.GetWorkflowError(); err != nil {
		t.Fatal(err)
	}
	if f.sends != 0 {
		t.Errorf("sent %d after a cancellation", f.sends)
	}
}

func TestPastSendAtSendsAtOnce(t *testing.T) {
	f := newFixture(t, -time.Hour)
	start := f.env.Now()
	f.env.ExecuteWorkflow(WorkflowName, Input{RequestID: uuid.New()})
	if f.sends != 1 || f.sendStart.Sub(start) > time.Second {
		t.Errorf("sends %d after %s", f.sends, f.sendStart.Sub(start))
	}
}
