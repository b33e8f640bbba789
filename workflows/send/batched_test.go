package send

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/workflow"
)

// deliverMixed hands out emails and webhooks interleaved, perCall at a time, until total.
func deliverMixed(total, perCall int) func(context.Context, DeliverInput) (DeliverResult, error) {
	next := int64(0)
	return func(_ context.Context, in DeliverInput) (DeliverResult, error) {
		var out DeliverResult
		for i := 0; i < perCall && next < int64(total); i++ {
			next++
			ch := "email"
			if next%5 == 0 {
				ch = "webhook"
			}
			out.Jobs = append(out.Jobs, Job{LogID: next, Channel: ch})
		}
		if next < int64(total) {
			out.Pending = in.Cursors
		}
		return out, nil
	}
}

func TestBatchedWorkflowSendsEveryJobInBatchesOfOneChannel(t *testing.T) {
	env := newEnv(t)
	env.RegisterActivityWithOptions(deliverMixed(1300, 500), activity.RegisterOptions{Name: DeliverActivityName})
	var mu sync.Mutex
	sent := map[int64]int{}
	batches := 0
	env.RegisterActivityWithOptions(func(_ context.Context, in SendBatchInput) (SendBatchResult, error) {
		mu.Lock()
		defer mu.Unlock()
		batches++
		if len(in.Jobs) == 0 || len(in.Jobs) > sendBatchSize {
			t.Errorf("batch of %d", len(in.Jobs))
		}
		for _, j := range in.Jobs {
			if j.Channel != in.Jobs[0].Channel {
				t.Errorf("batch mixes %s and %s", in.Jobs[0].Channel, j.Channel)
			}
			sent[j.LogID]++
		}
		return SendBatchResult{Sent: len(in.Jobs)}, nil
	}, activity.RegisterOptions{Name: SendBatchActivityName})
	env.ExecuteWorkflow(WorkflowName, NewInput([]uuid.UUID{uuid.New()}))
	if !env.IsWorkflowCompleted() || env.GetWorkflowError() != nil {
		t.Fatalf("workflow: %v", env.GetWorkflowError())
	}
	if len(sent) != 1300 {
		t.Errorf("sent %d distinct jobs, want 1300", len(sent))
	}
	for id, n := range sent {
		if n != 1 {
			t.Errorf("job %d sent %d times", id, n)
		}
	}
	// 1,040 emails and 260 webhooks in slices of 500: at least ceil per slice and channel.
	if batches < 1300/sendBatchSize || batches > 20 {
		t.Errorf("%d batches for 1,300 messages", batches)
	}
}

func TestBatchedWorkflowRetriesWithBackoffAndRetryAfter(t *testing.T) {
	env := newEnv(t)
	env.RegisterActivityWithOptions(deliverJobs(3, 3), activity.RegisterOptions{Name: DeliverActivityName})
	var mu sync.Mutex
	tries := map[int64][]time.Time{}
	env.RegisterActivityWithOptions(func(ctx context.Context, in SendBatchInput) (SendBatchResult, error) {
		mu.Lock()
		defer mu.Unlock()
		var res SendBatchResult
		now := env.Now()
		for _, j := range in.Jobs {
			tries[j.LogID] = append(tries[j.LogID], now)
			n := len(tries[j.LogID])
			switch {
			case j.LogID == 1 && n <= 3: // 5xx three times, then accepted
				res.Retries = append(res.Retries, Retry{LogID: 1, Error: "provider answered 503"})
			case j.LogID == 2: // 400: failed for good, in the log already
				res.Failed++
			case j.LogID == 3 && n == 1: // 429 with Retry-After: 45s
				res.Retries = append(res.Retries, Retry{LogID: 3, After: 45 * time.Second, Error: "provider answered 429"})
			default:
				res.Sent++
			}
		}
		return res, nil
	}, activity.RegisterOptions{Name: SendBatchActivityName})
	gaveUp := false
	env.RegisterActivityWithOptions(func(context.Context, GiveUpInput) error {
		gaveUp = true
		return nil
	}, activity.RegisterOptions{Name: GiveUpActivityName})
	env.ExecuteWorkflow(WorkflowName, NewInput([]uuid.UUID{uuid.New()}))
	if env.GetWorkflowError() != nil {
		t.Fatal(env.GetWorkflowError())
	}
	if len(tries[1]) != 4 || len(tries[2]) != 1 || len(tries[3]) != 2 {
		t.Fatalf("attempts 1:%d 2:%d 3:%d, want 4 (three 503s then ok), 1 (400 not retried), 2 (429 then ok)", len(tries[1]), len(tries[2]), len(tries[3]))
	}
	for i, want := range []time.Duration{Backoff(1), Backoff(2), Backoff(3)} {
		if got := tries[1][i+1].Sub(tries[1][i]); got < want {
			t.Errorf("retry %d of job 1 came %s after the attempt before, want at least %s", i+1, got, want)
		}
	}
	if got := tries[3][1].Sub(tries[3][0]); got < 45*time.Second {
		t.Errorf("the 429's Retry-After was not honoured: retried after %s", got)
	}
	if gaveUp {
		t.Error("nothing ran out of retries, yet give-ups were recorded")
	}
}

func TestBackoff(t *testing.T) {
	for n, want := range map[int]time.Duration{1: time.Second, 2: 2 * time.Second, 3: 4 * time.Second, 9: 256 * time.Second, 10: 5 * time.Minute, 40: 5 * time.Minute} {
		if got := Backoff(n); got != want {
			t.Errorf("Backoff(%d) = %s, want %s", n, got, want)
		}
	}
}

func TestBatchedWorkflowGivesUpAfterTheRetryWindow(t *testing.T) {
	env := newEnv(t)
	env.RegisterActivityWithOptions(deliverJobs(2, 2), activity.RegisterOptions{Name: DeliverActivityName})
	var first, last time.Time
	attempts := 0
	env.RegisterActivityWithOptions(func(_ context.Context, in SendBatchInput) (SendBatchResult, error) {
		var res SendBatchResult
		for _, j := range in.Jobs {
			if j.LogID == 1 {
				res.Sent++
				continue
			}
			if attempts == 0 {
				first = env.Now()
			}
			attempts++
			last = env.Now()
			res.Retries = append(res.Retries, Retry{LogID: j.LogID, Error: "provider answered 503"})
		}
		return res, nil
	}, activity.RegisterOptions{Name: SendBatchActivityName})
	var got GiveUpInput
	env.RegisterActivityWithOptions(func(_ context.Context, in GiveUpInput) error {
		got = in
		return nil
	}, activity.RegisterOptions{Name: GiveUpActivityName})
	env.ExecuteWorkflow(WorkflowName, NewInput([]uuid.UUID{uuid.New()}))
	if env.GetWorkflowError() != nil {
		t.Fatal(env.GetWorkflowError())
	}
	if len(got.LogIDs) != 1 || got.LogIDs[0] != 2 || got.Reason != "provider answered 503" {
		t.Errorf("give-ups %+v, want job 2 with the last error", got)
	}
	if span := last.Sub(first); span > SendRetryWindow || span < SendRetryWindow-RetryMaximum {
		t.Errorf("attempts spanned %s, want within the last backoff of %s", span, SendRetryWindow)
	}
	if attempts < 10 {
		t.Errorf("%d attempts in an hour of backoff", attempts)
	}
}

func TestBatchedWorkflowWaitsForRetriesHandedOver(t *testing.T) {
	env := newEnv(t)
	start := env.Now()
	due := time.UnixMilli(start.Add(30 * time.Second).UnixMilli())
	var at time.Time
	var got []Job
	env.RegisterActivityWithOptions(func(_ context.Context, in SendBatchInput) (SendBatchResult, error) {
		at, got = env.Now(), in.Jobs
		return SendBatchResult{Sent: len(in.Jobs)}, nil
	}, activity.RegisterOptions{Name: SendBatchActivityName})
	env.ExecuteWorkflow(WorkflowName, Input{Jobs: []Job{{LogID: 7, Channel: "email", Attempts: 2, Since: start.UnixMilli(), Due: due.UnixMilli()}}})
	if env.GetWorkflowError() != nil {
		t.Fatal(env.GetWorkflowError())
	}
	if len(got) != 1 || got[0].LogID != 7 || got[0].Attempts != 2 {
		t.Fatalf("batch %+v", got)
	}
	if at.Before(due) {
		t.Errorf("retry ran at %s, before it was due at %s", at, due)
	}
}

// Runs of the batched version before InAppFirstChange let DeliverBatch send a small slice
// itself and retry what it left.
func TestBatchedWorkflowRetriesWhatDeliverBatchSentItself(t *testing.T) {
	env := newEnv(t)
	env.OnGetVersion(InAppFirstChange, workflow.DefaultVersion, 1).Return(workflow.DefaultVersion)
	var asked bool
	env.RegisterActivityWithOptions(func(_ context.Context, in DeliverInput) (DeliverResult, error) {
		asked = in.SendSmall
		return DeliverResult{Sent: 2, Retries: []Retry{{LogID: 9, Channel: "webhook", Error: "provider answered 503"}}}, nil
	}, activity.RegisterOptions{Name: DeliverActivityName})
	var got []Job
	env.RegisterActivityWithOptions(func(_ context.Context, in SendBatchInput) (SendBatchResult, error) {
		got = append(got, in.Jobs...)
		return SendBatchResult{Sent: len(in.Jobs)}, nil
	}, activity.RegisterOptions{Name: SendBatchActivityName})
	start := env.Now()
	env.ExecuteWorkflow(WorkflowV1Name, NewInput([]uuid.UUID{uuid.New()}))
	if env.GetWorkflowError() != nil {
		t.Fatal(env.GetWorkflowError())
	}
	if !asked {
		t.Error("batched runs must let DeliverBatch send small slices itself")
	}
	if len(got) != 1 || got[0].LogID != 9 || got[0].Channel != "webhook" || got[0].Attempts != 1 {
		t.Fatalf("retried %+v, want job 9 on webhook after one attempt", got)
	}
	if env.Now().Sub(start) < Backoff(1) {
		t.Errorf("retried before its backoff")
	}
}

func TestUnbatchedWorkflowDoesNotAskDeliverBatchToSend(t *testing.T) {
	env := newEnv(t)
	unbatched(env)
	var asked bool
	env.RegisterActivityWithOptions(func(_ context.Context, in DeliverInput) (DeliverResult, error) {
		asked = in.SendSmall
		return DeliverResult{}, nil
	}, activity.RegisterOptions{Name: DeliverActivityName})
	env.ExecuteWorkflow(WorkflowV1Name, NewInput([]uuid.UUID{uuid.New()}))
	if env.GetWorkflowError() != nil || asked {
		t.Errorf("unbatched run: %v, SendSmall %v", env.GetWorkflowError(), asked)
	}
}

// The current type asks no version: an answer of the earliest version to every change (as
// a run of the first type could get) leaves it on the latest path, batched and asking
// DeliverBatch for holds; the first type takes the answers.
func TestTheCurrentTypeTakesEveryChangeWithoutAsking(t *testing.T) {
	for _, tc := range []struct {
		name    string
		batched bool
	}{{WorkflowName, true}, {WorkflowV1Name, false}} {
		t.Run(tc.name, func(t *testing.T) {
			env := newEnv(t)
			for _, change := range []string{BatchedDeliveryChange, InAppFirstChange, QuietHoursChange, ChannelHoldChange, SharedHoldChange} {
				env.OnGetVersion(change, workflow.DefaultVersion, 1).Return(workflow.DefaultVersion)
			}
			var holds bool
			env.RegisterActivityWithOptions(func(_ context.Context, in DeliverInput) (DeliverResult, error) {
				holds = in.HoldChannels
				return DeliverResult{Delivered: 1, Jobs: []Job{{LogID: 1, Channel: "email"}}}, nil
			}, activity.RegisterOptions{Name: DeliverActivityName})
			var batches, singles int
			env.RegisterActivityWithOptions(func(_ context.Context, in SendBatchInput) (SendBatchResult, error) {
				batches++
				return SendBatchResult{Sent: len(in.Jobs)}, nil
			}, activity.RegisterOptions{Name: SendBatchActivityName})
			env.RegisterActivityWithOptions(func(context.Context, Job) (SendResult, error) {
				singles++
				return SendResult{Status: "sent"}, nil
			}, activity.RegisterOptions{Name: SendActivityName})
			env.ExecuteWorkflow(tc.name, NewInput([]uuid.UUID{uuid.New()}))
			if err := env.GetWorkflowError(); err != nil {
				t.Fatal(err)
			}
			if got := batches == 1 && singles == 0; got != tc.batched {
				t.Errorf("%d SendMessages, %d SendMessage; want batched: %v", batches, singles, tc.batched)
			}
			if holds != tc.batched {
				t.Errorf("DeliverBatch asked for holds: %v, want %v", holds, tc.batched)
			}
		})
	}
}
