package send

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"go.temporal.io/sdk/activity"
)

// deliverHeld hands out one slice: jobs 1–2 to send now, 3–5 held until at (one group) and
// 6 held an hour later.
func deliverHeld(at func() time.Time) func(context.Context, DeliverInput) (DeliverResult, error) {
	return func(_ context.Context, in DeliverInput) (DeliverResult, error) {
		if !in.HoldQuietHours {
			panic("a current run must ask DeliverBatch to hold")
		}
		t := at()
		return DeliverResult{
			Jobs: []Job{{LogID: 1, Channel: "email"}, {LogID: 2, Channel: "sms"}},
			Held: []Held{
				{Until: t.UnixMilli(), Channel: "email", LogIDs: []int64{3, 4, 5}},
				{Until: t.Add(time.Hour).UnixMilli(), Channel: "email", LogIDs: []int64{6}},
			},
		}, nil
	}
}

func TestHeldGroupsAreSentWhenTheirTimeComes(t *testing.T) {
	env := newEnv(t)
	var start time.Time
	env.RegisterActivityWithOptions(deliverHeld(func() time.Time { start = env.Now(); return start.Add(10 * time.Minute) }), activity.RegisterOptions{Name: DeliverActivityName})
	var mu sync.Mutex
	sentAt := map[int64]time.Time{}
	env.RegisterActivityWithOptions(func(_ context.Context, in SendBatchInput) (SendBatchResult, error) {
		mu.Lock()
		defer mu.Unlock()
		for _, j := range in.Jobs {
			if _, twice := sentAt[j.LogID]; twice {
				t.Errorf("job %d sent twice", j.LogID)
			}
			sentAt[j.LogID] = env.Now()
		}
		return SendBatchResult{Sent: len(in.Jobs)}, nil
	}, activity.RegisterOptions{Name: SendBatchActivityName})
	env.ExecuteWorkflow(WorkflowName, NewInput([]uuid.UUID{uuid.New()}))
	if !env.IsWorkflowCompleted() || env.GetWorkflowError() != nil {
		t.Fatalf("workflow: %v", env.GetWorkflowError())
	}
	if len(sentAt) != 6 {
		t.Fatalf("sent %v, want 6 jobs", sentAt)
	}
	for id, at := range sentAt {
		var want time.Duration
		switch {
		case id >= 3 && id <= 5:
			want = 10 * time.Minute // Until is whole milliseconds
		case id == 6:
			want = 70 * time.Minute
		}
		if d := at.Sub(start); d < want-time.Millisecond || d > want+time.Minute {
			t.Errorf("job %d sent %s after the slice, want %s", id, d, want)
		}
	}
}

func TestCancelledRunDropsItsHeldMessages(t *testing.T) {
	env := newEnv(t)
	env.RegisterActivityWithOptions(deliverHeld(func() time.Time { return env.Now().Add(time.Hour) }), activity.RegisterOptions{Name: DeliverActivityName})
	env.RegisterActivityWithOptions(func(_ context.Context, in SendBatchInput) (SendBatchResult, error) {
		for _, j := range in.Jobs {
			if j.LogID >= 3 {
				t.Errorf("held job %d was sent", j.LogID)
			}
		}
		return SendBatchResult{Sent: len(in.Jobs)}, nil
	}, activity.RegisterOptions{Name: SendBatchActivityName})
	var dropped []int64
	env.RegisterActivityWithOptions(func(_ context.Context, in DropHeldInput) error {
		dropped = append(dropped, in.LogIDs...)
		return nil
	}, activity.RegisterOptions{Name: DropHeldActivityName})
	env.RegisterDelayedCallback(env.CancelWorkflow, 30*time.Minute)
	env.ExecuteWorkflow(WorkflowName, NewInput([]uuid.UUID{uuid.New()}))
	if err := env.GetWorkflowError(); err == nil {
		t.Fatal("the cancelled run ended without error")
	}
	if len(dropped) != 4 {
		t.Errorf("dropped %v, want the 4 held jobs", dropped)
	}
}
