package send

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/workflow"

	"github.com/heraldhq/herald/workflows/flowrun"
)

func newEnv(t *testing.T) *testsuite.TestWorkflowEnvironment {
	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	env.RegisterWorkflowWithOptions(Workflow, workflow.RegisterOptions{Name: WorkflowName})
	env.RegisterWorkflowWithOptions(WorkflowV2, workflow.RegisterOptions{Name: WorkflowV2Name})
	env.RegisterWorkflowWithOptions(WorkflowV1, workflow.RegisterOptions{Name: WorkflowV1Name})
	return env
}

// typeOf is the type a test runs: WorkflowV1Name, whose GetVersion calls a test can answer
// with an earlier version, for old; else WorkflowName.
func typeOf(old bool) string {
	if old {
		return WorkflowV1Name
	}
	return WorkflowName
}

// unbatched makes a run of WorkflowV1Name take the version before BatchedDeliveryChange, as
// runs started by older code do: one SendMessage activity per message.
func unbatched(env *testsuite.TestWorkflowEnvironment) {
	env.OnGetVersion(BatchedDeliveryChange, workflow.DefaultVersion, 1).Return(workflow.DefaultVersion)
}

// fakeDeliver advances each cursor by step recipients out of total.
func fakeDeliver(total, step int, calls *int) func(context.Context, DeliverInput) (DeliverResult, error) {
	return func(_ context.Context, in DeliverInput) (DeliverResult, error) {
		*calls++
		var out DeliverResult
		for _, c := range in.Cursors {
			next := min(c.Offset+step, total)
			out.Delivered += next - c.Offset
			if next < total {
				out.Pending = append(out.Pending, Cursor{RequestID: c.RequestID, Offset: next})
			}
		}
		return out, nil
	}
}

func TestWorkflowDeliversUntilNothingIsPending(t *testing.T) {
	env := newEnv(t)
	calls := 0
	env.RegisterActivityWithOptions(fakeDeliver(2500, 1000, &calls), activity.RegisterOptions{Name: DeliverActivityName})
	env.ExecuteWorkflow(WorkflowName, NewInput([]uuid.UUID{uuid.New(), uuid.New()}))
	if !env.IsWorkflowCompleted() || env.GetWorkflowError() != nil {
		t.Fatalf("workflow did not complete: %v", env.GetWorkflowError())
	}
	if calls != 3 {
		t.Errorf("deliver called %d times, want 3 (1000+1000+500 per request)", calls)
	}
}

func TestWorkflowContinuesAsNewOnLargeAudiences(t *testing.T) {
	env := newEnv(t)
	calls := 0
	env.RegisterActivityWithOptions(fakeDeliver(1_000_000, 1000, &calls), activity.RegisterOptions{Name: DeliverActivityName})
	env.ExecuteWorkflow(WorkflowName, NewInput([]uuid.UUID{uuid.New()}))
	var can *workflow.ContinueAsNewError
	if !errors.As(env.GetWorkflowError(), &can) {
		t.Fatalf("want continue-as-new, got %v", env.GetWorkflowError())
	}
	if calls != maxBatchesPerRun {
		t.Errorf("deliver called %d times before continuing as new, want %d", calls, maxBatchesPerRun)
	}
}

func TestWorkflowRecordsFailureWhenDeliveryGivesUp(t *testing.T) {
	env := newEnv(t)
	env.RegisterActivityWithOptions(func(context.Context, DeliverInput) (DeliverResult, error) {
		return DeliverResult{}, temporal.NewNonRetryableApplicationError("database gone", "test", nil)
	}, activity.RegisterOptions{Name: DeliverActivityName})
	var failed FailInput
	env.RegisterActivityWithOptions(func(_ context.Context, in FailInput) error {
		failed = in
		return nil
	}, activity.RegisterOptions{Name: FailActivityName})
	id := uuid.New()
	env.ExecuteWorkflow(WorkflowName, NewInput([]uuid.UUID{id}))
	if env.GetWorkflowError() == nil {
		t.Fatal("workflow should fail")
	}
	if len(failed.RequestIDs) != 1 || failed.RequestIDs[0] != id || failed.Reason == "" {
		t.Errorf("failure not recorded for the pending request: %+v", failed)
	}
}

func TestWorkflowID(t *testing.T) {
	a, b := uuid.New(), uuid.New()
	if got := WorkflowID([]uuid.UUID{a}); got != "send/"+a.String() {
		t.Errorf("single: %s", got)
	}
	if got := WorkflowID([]uuid.UUID{a, b}); got != "sends/"+a.String() {
		t.Errorf("pack: %s", got)
	}
}

// deliverJobs hands out jobs in slices: each call returns perBatch new jobs until total.
func deliverJobs(total, perBatch int) func(context.Context, DeliverInput) (DeliverResult, error) {
	next := int64(0)
	return func(_ context.Context, in DeliverInput) (DeliverResult, error) {
		var out DeliverResult
		for i := 0; i < perBatch && next < int64(total); i++ {
			next++
			out.Jobs = append(out.Jobs, Job{LogID: next, Channel: "email"})
		}
		if next < int64(total) {
			out.Pending = in.Cursors
		}
		return out, nil
	}
}

func TestWorkflowSendsEveryJob(t *testing.T) {
	env := newEnv(t)
	unbatched(env)
	env.RegisterActivityWithOptions(deliverJobs(7, 3), activity.RegisterOptions{Name: DeliverActivityName})
	var mu sync.Mutex
	sent := map[int64]int{}
	env.RegisterActivityWithOptions(func(_ context.Context, j Job) (SendResult, error) {
		mu.Lock()
		defer mu.Unlock()
		sent[j.LogID]++
		return SendResult{Status: "sent"}, nil
	}, activity.RegisterOptions{Name: SendActivityName})
	env.ExecuteWorkflow(WorkflowV1Name, NewInput([]uuid.UUID{uuid.New()}))
	if !env.IsWorkflowCompleted() || env.GetWorkflowError() != nil {
		t.Fatalf("workflow: %v", env.GetWorkflowError())
	}
	if len(sent) != 7 {
		t.Errorf("sent %v, want jobs 1..7 once each", sent)
	}
	for id, n := range sent {
		if n != 1 {
			t.Errorf("job %d sent %d times", id, n)
		}
	}
}

func TestWorkflowRetriesTransientFailuresOnly(t *testing.T) {
	env := newEnv(t)
	unbatched(env)
	env.RegisterActivityWithOptions(deliverJobs(3, 3), activity.RegisterOptions{Name: DeliverActivityName})
	var mu sync.Mutex
	attempts := map[int64]int{}
	env.RegisterActivityWithOptions(func(ctx context.Context, j Job) (SendResult, error) {
		mu.Lock()
		attempts[j.LogID]++
		n := attempts[j.LogID]
		mu.Unlock()
		switch {
		case j.LogID == 1 && n <= 2: // 5xx twice, then accepted
			return SendResult{}, temporal.NewApplicationError("provider answered 503", "ProviderError")
		case j.LogID == 2: // 400: permanent
			return SendResult{}, temporal.NewNonRetryableApplicationError("provider answered 400", "ProviderError", nil)
		case j.LogID == 3 && n == 1: // 429 with Retry-After: 45s
			return SendResult{}, temporal.NewApplicationErrorWithOptions("provider answered 429", "ProviderError",
				temporal.ApplicationErrorOptions{NextRetryDelay: 45 * time.Second})
		}
		return SendResult{Status: "sent"}, nil
	}, activity.RegisterOptions{Name: SendActivityName})
	gaveUp := false
	env.RegisterActivityWithOptions(func(context.Context, GiveUpInput) error {
		gaveUp = true
		return nil
	}, activity.RegisterOptions{Name: GiveUpActivityName})
	start := env.Now()
	env.ExecuteWorkflow(WorkflowV1Name, NewInput([]uuid.UUID{uuid.New()}))
	if env.GetWorkflowError() != nil {
		t.Fatal(env.GetWorkflowError())
	}
	if attempts[1] != 3 || attempts[2] != 1 || attempts[3] != 2 {
		t.Errorf("attempts %v, want 1:3 (two 503s then ok), 2:1 (400 not retried), 3:2", attempts)
	}
	if gaveUp {
		t.Error("nothing ran out of retries, yet give-ups were recorded")
	}
	if elapsed := env.Now().Sub(start); elapsed < 45*time.Second {
		t.Errorf("the 429's Retry-After was not honoured: run took %s of workflow time", elapsed)
	}
}

func TestWorkflowRecordsJobsWhoseRetriesRanOut(t *testing.T) {
	env := newEnv(t)
	unbatched(env)
	env.RegisterActivityWithOptions(deliverJobs(1, 1), activity.RegisterOptions{Name: DeliverActivityName})
	env.RegisterActivityWithOptions(func(context.Context, Job) (SendResult, error) {
		return SendResult{}, temporal.NewApplicationError("provider answered 503", "ProviderError")
	}, activity.RegisterOptions{Name: SendActivityName})
	var got GiveUpInput
	env.RegisterActivityWithOptions(func(_ context.Context, in GiveUpInput) error {
		got = in
		return nil
	}, activity.RegisterOptions{Name: GiveUpActivityName})
	env.ExecuteWorkflow(WorkflowV1Name, NewInput([]uuid.UUID{uuid.New()}))
	if env.GetWorkflowError() != nil {
		t.Fatal(env.GetWorkflowError())
	}
	if len(got.LogIDs) != 1 || got.LogIDs[0] != 1 || got.Reason == "" {
		t.Errorf("give-ups %+v", got)
	}
}

func TestWorkflowBoundsSendsPerRun(t *testing.T) {
	env := newEnv(t)
	unbatched(env)
	env.RegisterActivityWithOptions(deliverJobs(maxSendsPerRun+500, maxSendsPerRun+500), activity.RegisterOptions{Name: DeliverActivityName})
	var mu sync.Mutex
	calls := 0
	env.RegisterActivityWithOptions(func(context.Context, Job) (SendResult, error) {
		mu.Lock()
		calls++
		mu.Unlock()
		return SendResult{Status: "sent"}, nil
	}, activity.RegisterOptions{Name: SendActivityName})
	env.ExecuteWorkflow(WorkflowV1Name, NewInput([]uuid.UUID{uuid.New()}))
	var can *workflow.ContinueAsNewError
	if !errors.As(env.GetWorkflowError(), &can) {
		t.Fatalf("want continue-as-new, got %v", env.GetWorkflowError())
	}
	if calls != maxSendsPerRun {
		t.Errorf("sent %d, want %d before continuing as new", calls, maxSendsPerRun)
	}
	var next Input
	if err := converter.GetDefaultDataConverter().FromPayloads(can.Input, &next); err != nil {
		t.Fatal(err)
	}
	if len(next.Jobs) != 500 || next.Jobs[0].LogID != maxSendsPerRun+1 || len(next.Cursors) != 0 {
		t.Errorf("next run carries %d jobs starting at %d and %d cursors", len(next.Jobs), next.Jobs[0].LogID, len(next.Cursors))
	}
}

// deliverRuns hands out workflow runs in slices of perBatch until total.
func deliverRuns(total, perBatch int) func(context.Context, DeliverInput) (DeliverResult, error) {
	next := 0
	return func(_ context.Context, in DeliverInput) (DeliverResult, error) {
		var out DeliverResult
		for i := 0; i < perBatch && next < total; i++ {
			next++
			out.Runs = append(out.Runs, flowrun.RunInput{
				AppID: 1, RequestID: "req", Flow: flowrun.Ref{Identifier: "wf", Version: 2},
				Recipient: flowrun.Recipient{UserID: int64(next), Identifier: fmt.Sprintf("u%d", next)},
			})
		}
		if next < total {
			out.Pending = in.Cursors
		}
		return out, nil
	}
}

func TestWorkflowStartsOneRunPerRecipient(t *testing.T) {
	env := newEnv(t)
	env.RegisterActivityWithOptions(deliverRuns(250, 120), activity.RegisterOptions{Name: DeliverActivityName})
	var mu sync.Mutex
	started := map[string]flowrun.RunInput{}
	env.RegisterWorkflowWithOptions(func(ctx workflow.Context, in flowrun.RunInput) (flowrun.RunResult, error) {
		mu.Lock()
		started[workflow.GetInfo(ctx).WorkflowExecution.ID] = in
		mu.Unlock()
		return flowrun.RunResult{Outcome: flowrun.OutcomeCompleted}, nil
	}, workflow.RegisterOptions{Name: flowrun.WorkflowName})
	env.ExecuteWorkflow(WorkflowName, NewInput([]uuid.UUID{uuid.New()}))
	if err := env.GetWorkflowError(); err != nil {
		t.Fatal(err)
	}
	if len(started) != 250 {
		t.Fatalf("%d runs started, want 250", len(started))
	}
	if in, ok := started["flow/wf/req/u17"]; !ok || in.Recipient.UserID != 17 || in.Flow.Version != 2 {
		t.Errorf("run of u17: %+v (ok %v)", in, ok)
	}
}

func TestWorkflowContinuesAsNewWithRunsLeft(t *testing.T) {
	env := newEnv(t)
	env.RegisterActivityWithOptions(deliverRuns(5000, 1000), activity.RegisterOptions{Name: DeliverActivityName})
	started := 0
	env.RegisterWorkflowWithOptions(func(ctx workflow.Context, in flowrun.RunInput) (flowrun.RunResult, error) {
		started++
		return flowrun.RunResult{}, nil
	}, workflow.RegisterOptions{Name: flowrun.WorkflowName})
	env.ExecuteWorkflow(WorkflowName, NewInput([]uuid.UUID{uuid.New()}))
	var can *workflow.ContinueAsNewError
	if !errors.As(env.GetWorkflowError(), &can) {
		t.Fatalf("want continue-as-new, got %v", env.GetWorkflowError())
	}
	if started != maxSendsPerRun {
		t.Errorf("%d runs started before continuing as new, want %d", started, maxSendsPerRun)
	}
	var next Input
	if err := converter.GetDefaultDataConverter().FromPayloads(can.Input, &next); err != nil {
		t.Fatal(err)
	}
	if len(next.Cursors) != 1 {
		t.Errorf("the next run must go on with the request: %+v", next.Cursors)
	}
}

// A run of the current type delivers its first slice as a local activity, at most
// LocalSliceSize recipients, its second as an activity of at most RampSliceSize, and every
// later slice as an activity of the worker's own size; a SendV2 run (started before the
// change) keeps an activity of the worker's size for every slice, so its history replays.
func TestARunsFirstSliceIsALocalActivity(t *testing.T) {
	type call struct {
		local bool
		limit int
	}
	for _, tc := range []struct {
		name string
		want []call
	}{
		{WorkflowName, []call{{true, LocalSliceSize}, {false, RampSliceSize}, {false, 0}}},
		{WorkflowV2Name, []call{{false, 0}, {false, 0}, {false, 0}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env := newEnv(t)
			var got []call
			env.RegisterActivityWithOptions(func(ctx context.Context, in DeliverInput) (DeliverResult, error) {
				got = append(got, call{activity.GetInfo(ctx).IsLocalActivity, in.Limit})
				var out DeliverResult
				if len(got) < 3 {
					out.Pending = in.Cursors
				}
				return out, nil
			}, activity.RegisterOptions{Name: DeliverActivityName})
			env.ExecuteWorkflow(tc.name, NewInput([]uuid.UUID{uuid.New()}))
			if !env.IsWorkflowCompleted() || env.GetWorkflowError() != nil {
				t.Fatalf("workflow did not complete: %v", env.GetWorkflowError())
			}
			if fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Errorf("DeliverBatch calls (local, limit) %v, want %v", got, tc.want)
			}
		})
	}
}
