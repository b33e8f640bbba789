package send

import (
	"context"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/workflow"

	"github.com/heraldhq/herald/workflows/taskqueue"
)

// Current runs never ask DeliverBatch (orchestration queue) to call a provider, and still
// retry what a DeliverBatch of the earlier version reports it sent and left to retry (a
// call scheduled before the upgrade).
func TestInAppFirstWorkflowNeverAsksDeliverBatchToSend(t *testing.T) {
	env := newEnv(t)
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
	env.ExecuteWorkflow(WorkflowName, NewInput([]uuid.UUID{uuid.New()}))
	if env.GetWorkflowError() != nil {
		t.Fatal(env.GetWorkflowError())
	}
	if asked {
		t.Error("DeliverBatch was asked to send a slice itself, holding an orchestration slot on a provider")
	}
	if len(got) != 1 || got[0].LogID != 9 {
		t.Fatalf("retried %+v, want job 9", got)
	}
}

// Every batch runs on its channel's provider queue; DeliverBatch on the run's own queue.
func TestBatchesRunOnTheirChannelsQueue(t *testing.T) {
	env := newEnv(t)
	var base string
	env.RegisterActivityWithOptions(func(ctx context.Context, in DeliverInput) (DeliverResult, error) {
		base = activity.GetInfo(ctx).TaskQueue
		return deliverMixed(10, 10)(ctx, in)
	}, activity.RegisterOptions{Name: DeliverActivityName})
	var mu sync.Mutex
	queues := map[string]string{}
	env.RegisterActivityWithOptions(func(ctx context.Context, in SendBatchInput) (SendBatchResult, error) {
		mu.Lock()
		defer mu.Unlock()
		queues[in.Jobs[0].Channel] = activity.GetInfo(ctx).TaskQueue
		return SendBatchResult{Sent: len(in.Jobs)}, nil
	}, activity.RegisterOptions{Name: SendBatchActivityName})
	env.ExecuteWorkflow(WorkflowName, NewInput([]uuid.UUID{uuid.New()}))
	if env.GetWorkflowError() != nil {
		t.Fatal(env.GetWorkflowError())
	}
	if base == "" || queues["email"] != base+"-email" || queues["webhook"] != base+"-webhook" {
		t.Fatalf("DeliverBatch on %q, batches on %v; want <base>-email and <base>-webhook", base, queues)
	}
	if taskqueue.ForChannel(base, "inApp") != base || taskqueue.ForChannel(base, "whatsapp") != base+"-sms" {
		t.Error("channel → queue mapping")
	}
}

// fakeLog is the message log of a broadcast: DeliverBatch queues external rows with
// increasing ids, batches mark them sent, LoadQueuedJobs reads the queued ones of a backlog.
type fakeLog struct {
	mu      sync.Mutex
	next    int64
	queued  map[int64]string
	sent    map[int64]int
	slices  int
	handed  int           // jobs handed out in DeliverBatch results
	written chan struct{} // closed once every slice is resolved
}

func (l *fakeLog) deliver(total, perCall int) func(context.Context, DeliverInput) (DeliverResult, error) {
	return func(_ context.Context, in DeliverInput) (DeliverResult, error) {
		l.mu.Lock()
		defer l.mu.Unlock()
		var out DeliverResult
		for i := 0; i < perCall && l.next < int64(total); i++ {
			l.next++
			l.queued[l.next] = "email"
			out.Jobs = append(out.Jobs, Job{LogID: l.next, Channel: "email"})
		}
		l.slices++
		if in.Spill && len(out.Jobs) > 0 {
			out.Spilled, out.SpillFrom, out.Jobs = len(out.Jobs), out.Jobs[0].LogID, nil
		}
		l.handed += len(out.Jobs)
		if l.next < int64(total) {
			out.Pending = in.Cursors
		} else {
			close(l.written)
		}
		return out, nil
	}
}

// send marks jobs sent, as a batch whose provider takes them all.
func (l *fakeLog) send(jobs []Job) SendBatchResult {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, j := range jobs {
		l.sent[j.LogID]++
		delete(l.queued, j.LogID)
	}
	return SendBatchResult{Sent: len(jobs)}
}

func (l *fakeLog) load(_ context.Context, in LoadQueuedInput) (LoadQueuedResult, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	var ids []int64
	for id := range l.queued {
		if id >= in.Backlog.FromLogID {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	var out LoadQueuedResult
	for _, id := range ids[:min(len(ids), in.Limit)] {
		out.Jobs = append(out.Jobs, Job{LogID: id, Channel: l.queued[id]})
	}
	return out, nil
}

// A broadcast whose email provider does not answer still resolves every slice (and so
// writes every in-app row) before any email completes; the emails past what the run
// queues wait in the message log and are all sent, once each, when the provider answers.
func TestBroadcastResolvesEverySliceWhileEmailIsStuck(t *testing.T) {
	env := newEnv(t)
	env.SetTestTimeout(time.Minute)
	l := &fakeLog{queued: map[int64]string{}, sent: map[int64]int{}, written: make(chan struct{})}
	const total, perCall = 12000, 1500
	env.RegisterActivityWithOptions(l.deliver(total, perCall), activity.RegisterOptions{Name: DeliverActivityName})
	env.RegisterActivityWithOptions(l.load, activity.RegisterOptions{Name: LoadQueuedActivityName})
	env.RegisterActivityWithOptions(func(ctx context.Context, in SendBatchInput) (SendBatchResult, error) {
		// The provider hangs until every slice is resolved: without InAppFirstChange the
		// run stops resolving at maxQueuedJobs and this never returns.
		select {
		case <-l.written:
		case <-ctx.Done():
			return SendBatchResult{}, ctx.Err()
		}
		return l.send(in.Jobs), nil
	}, activity.RegisterOptions{Name: SendBatchActivityName})
	env.ExecuteWorkflow(WorkflowName, NewInput([]uuid.UUID{uuid.New()}))
	assertAllSentOnce(t, env, l, total)
	// Once spilling, slices name their messages by the first log id only: the history
	// carries each job once (through LoadQueuedJobs), not twice. Before it spills, a run
	// holds at most what its batches and queue take, plus the slice that overflowed.
	if most := maxBatchesInFlight*sendBatchSize + maxQueuedJobs + perCall; l.handed > most {
		t.Errorf("DeliverBatch results carried %d of %d jobs; want at most %d", l.handed, total, most)
	}
}

func assertAllSentOnce(t *testing.T, env *testsuite.TestWorkflowEnvironment, l *fakeLog, total int) {
	t.Helper()
	if !env.IsWorkflowCompleted() || env.GetWorkflowError() != nil {
		t.Fatalf("workflow: completed %v, %v", env.IsWorkflowCompleted(), env.GetWorkflowError())
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.sent) != total || len(l.queued) != 0 {
		t.Fatalf("sent %d distinct of %d, %d still queued", len(l.sent), total, len(l.queued))
	}
	for id, n := range l.sent {
		if n != 1 {
			t.Fatalf("message %d sent %d times", id, n)
		}
	}
}

// The backlog survives continue-as-new: a run handed a backlog loads it and sends it all.
func TestBacklogCarriedOverContinueAsNew(t *testing.T) {
	env := newEnv(t)
	l := &fakeLog{queued: map[int64]string{}, sent: map[int64]int{}, written: make(chan struct{})}
	for id := int64(100); id < 3100; id++ {
		l.queued[id] = "email"
	}
	l.queued[50] = "email" // before the backlog: another batch's, never loaded by it
	env.RegisterActivityWithOptions(l.load, activity.RegisterOptions{Name: LoadQueuedActivityName})
	env.RegisterActivityWithOptions(func(_ context.Context, in SendBatchInput) (SendBatchResult, error) {
		return l.send(in.Jobs), nil
	}, activity.RegisterOptions{Name: SendBatchActivityName})
	env.ExecuteWorkflow(WorkflowName, Input{Backlog: &Backlog{RequestIDs: []uuid.UUID{uuid.New()}, FromLogID: 100}})
	delete(l.queued, 50)
	assertAllSentOnce(t, env, l, 3000)
}

// A message held by open circuit breakers waits on a durable timer without counting an
// attempt or its retry window: held past SendRetryWindow, it is still sent in the end.
func TestHeldMessagesOutlastTheRetryWindow(t *testing.T) {
	env := newEnv(t)
	env.RegisterActivityWithOptions(deliverMixed(1, 1), activity.RegisterOptions{Name: DeliverActivityName})
	calls := 0
	env.RegisterActivityWithOptions(func(_ context.Context, in SendBatchInput) (SendBatchResult, error) {
		calls++
		if calls <= 8 { // 8 × 10 min held: past the hour of SendRetryWindow
			return SendBatchResult{Retries: []Retry{{LogID: in.Jobs[0].LogID, Channel: in.Jobs[0].Channel, After: 10 * time.Minute, Hold: true,
				Error: "provider unavailable, retrying at …"}}}, nil
		}
		if in.Jobs[0].Attempts != 0 {
			t.Errorf("held message counted %d attempts", in.Jobs[0].Attempts)
		}
		return SendBatchResult{Sent: 1}, nil
	}, activity.RegisterOptions{Name: SendBatchActivityName})
	env.RegisterActivityWithOptions(func(context.Context, GiveUpInput) error {
		t.Error("a held message was given up")
		return nil
	}, activity.RegisterOptions{Name: GiveUpActivityName})
	env.ExecuteWorkflow(WorkflowName, NewInput([]uuid.UUID{uuid.New()}))
	if env.GetWorkflowError() != nil || calls != 9 {
		t.Fatalf("workflow %v after %d batches", env.GetWorkflowError(), calls)
	}
}

// A run that fails while messages wait in its backlog gives them up in the message log
// rather than leaving them queued for good.
func TestFailedRunGivesUpItsBacklog(t *testing.T) {
	env := newEnv(t)
	calls := 0
	env.RegisterActivityWithOptions(func(_ context.Context, in DeliverInput) (DeliverResult, error) {
		calls++
		if calls > 1 {
			return DeliverResult{}, temporal.NewNonRetryableApplicationError("database gone", "test", nil)
		}
		out := DeliverResult{Pending: in.Cursors}
		for id := int64(1); id <= 3000; id++ {
			out.Jobs = append(out.Jobs, Job{LogID: id, Channel: "email"})
		}
		return out, nil
	}, activity.RegisterOptions{Name: DeliverActivityName})
	env.RegisterActivityWithOptions(func(context.Context, SendBatchInput) (SendBatchResult, error) {
		return SendBatchResult{}, nil
	}, activity.RegisterOptions{Name: SendBatchActivityName})
	env.RegisterActivityWithOptions(func(context.Context, LoadQueuedInput) (LoadQueuedResult, error) {
		return LoadQueuedResult{}, nil
	}, activity.RegisterOptions{Name: LoadQueuedActivityName})
	env.RegisterActivityWithOptions(func(context.Context, FailInput) error { return nil }, activity.RegisterOptions{Name: FailActivityName})
	var given *Backlog
	env.RegisterActivityWithOptions(func(_ context.Context, in GiveUpInput) error {
		given = in.Backlog
		return nil
	}, activity.RegisterOptions{Name: GiveUpActivityName})
	env.ExecuteWorkflow(WorkflowName, NewInput([]uuid.UUID{uuid.New()}))
	if env.GetWorkflowError() == nil {
		t.Fatal("the run did not fail")
	}
	if given == nil || given.FromLogID != 1 {
		t.Fatalf("backlog given up: %+v, want the one from log id 1", given)
	}
}

// heldBroadcast runs a 12,000-email broadcast whose provider is unavailable (every batch
// comes back held, for 15 s at a time) for the first 100 s of workflow time, then answers;
// it returns the batches that came back held. Every message must be sent once.
func heldBroadcast(t *testing.T, oldVersion bool) int {
	t.Helper()
	env := newEnv(t)
	env.SetTestTimeout(time.Minute)
	if oldVersion {
		env.OnGetVersion(ChannelHoldChange, workflow.DefaultVersion, 1).Return(workflow.DefaultVersion)
	}
	l := &fakeLog{queued: map[int64]string{}, sent: map[int64]int{}, written: make(chan struct{})}
	const total = 12000
	var up atomic.Bool
	env.RegisterDelayedCallback(func() { up.Store(true) }, 100*time.Second)
	env.RegisterActivityWithOptions(l.deliver(total, 1500), activity.RegisterOptions{Name: DeliverActivityName})
	env.RegisterActivityWithOptions(l.load, activity.RegisterOptions{Name: LoadQueuedActivityName})
	var held atomic.Int64
	env.RegisterActivityWithOptions(func(_ context.Context, in SendBatchInput) (SendBatchResult, error) {
		if !up.Load() {
			held.Add(1)
			var res SendBatchResult
			for _, j := range in.Jobs {
				res.Retries = append(res.Retries, Retry{LogID: j.LogID, Channel: j.Channel, After: 15 * time.Second, Hold: true,
					Error: "smtp (smtp): provider unavailable"})
			}
			return res, nil
		}
		return l.send(in.Jobs), nil
	}, activity.RegisterOptions{Name: SendBatchActivityName})
	env.ExecuteWorkflow(typeOf(oldVersion), NewInput([]uuid.UUID{uuid.New()}))
	assertAllSentOnce(t, env, l, total)
	return int(held.Load())
}

// While a channel's provider is unavailable, a run sends at most one round of batches of
// it per hold (the batches in flight when the first came back held), not every queued
// batch to come back held at once: each is an activity on the Temporal server that every
// other app's runs share (issue 28). Nothing is lost or sent twice either way.
func TestHeldChannelWaitsInsteadOfSendingEveryBatch(t *testing.T) {
	before, after := heldBroadcast(t, true), heldBroadcast(t, false)
	// 100 s of holds of 15 s: 7 rounds, each at most maxBatchesInFlight batches.
	if most := 7 * maxBatchesInFlight; after > most {
		t.Errorf("%d batches came back held, want at most %d (one round per hold)", after, most)
	}
	if after*2 > before {
		t.Errorf("%d batches came back held, and %d in runs of the earlier version; want far fewer", after, before)
	}
	t.Logf("batches held: %d before ChannelHoldChange, %d after", before, after)
}

// Once its provider answers again, a channel's held messages go at once: those held beside
// the breaker's probe (given a whole cool-down) do not wait for it once a batch got through.
func TestHeldChannelResumesWhenABatchGetsThrough(t *testing.T) {
	env := newEnv(t)
	env.SetTestTimeout(time.Minute)
	l := &fakeLog{queued: map[int64]string{}, sent: map[int64]int{}, written: make(chan struct{})}
	const total = 1600
	var up atomic.Bool
	env.RegisterDelayedCallback(func() { up.Store(true) }, 20*time.Second)
	env.RegisterActivityWithOptions(l.deliver(total, total), activity.RegisterOptions{Name: DeliverActivityName})
	env.RegisterActivityWithOptions(l.load, activity.RegisterOptions{Name: LoadQueuedActivityName})
	var probed atomic.Bool
	var last time.Time
	env.RegisterActivityWithOptions(func(_ context.Context, in SendBatchInput) (SendBatchResult, error) {
		var res SendBatchResult
		l.mu.Lock()
		defer l.mu.Unlock()
		for i, j := range in.Jobs {
			// Down until 20 s; then the first message tried is the probe, and the rest of
			// its batch is held for a cool-down while it is out.
			if !up.Load() || (i > 0 && !probed.Load()) {
				res.Retries = append(res.Retries, Retry{LogID: j.LogID, Channel: j.Channel, After: 15 * time.Second, Hold: true})
				continue
			}
			l.sent[j.LogID]++
			delete(l.queued, j.LogID)
			res.Sent++
		}
		if up.Load() {
			probed.Store(true)
		}
		last = env.Now()
		return res, nil
	}, activity.RegisterOptions{Name: SendBatchActivityName})
	start := env.Now()
	env.ExecuteWorkflow(WorkflowName, NewInput([]uuid.UUID{uuid.New()}))
	assertAllSentOnce(t, env, l, total)
	// Held at 0 s and 15 s; up at 20 s; the probe goes at 30 s, and its batch's others
	// with it, not at 45 s when their cool-down ends.
	if took := last.Sub(start); took >= 45*time.Second {
		t.Errorf("the last batch went %s after the start, want before the probe's cool-down ended (45 s)", took)
	}
}

// A run told by DeliverBatch that its channel is held (SharedHoldChange) sends no batch of
// it until the hold ends, then sends every message once; a run of the earlier version
// sends a batch to learn it, which comes back held. Runs that do not know the change do
// not ask DeliverBatch (HoldChannels), so their histories replay.
func TestRunToldOfAHeldChannelSendsNoBatchUntilItEnds(t *testing.T) {
	for _, tc := range []struct {
		name           string
		old            bool
		wantBeforeHold int
	}{{"told", false, 0}, {"earlier version", true, 1}} {
		t.Run(tc.name, func(t *testing.T) {
			env := newEnv(t)
			env.SetTestTimeout(time.Minute)
			if tc.old {
				env.OnGetVersion(SharedHoldChange, workflow.DefaultVersion, 1).Return(workflow.DefaultVersion)
			}
			start := env.Now()
			holdEnds := start.Add(20 * time.Second)
			var asked atomic.Bool
			env.RegisterActivityWithOptions(func(_ context.Context, in DeliverInput) (DeliverResult, error) {
				asked.Store(in.HoldChannels)
				out := DeliverResult{Delivered: 3, Jobs: []Job{{LogID: 1, Channel: "email"}, {LogID: 2, Channel: "email"}}}
				if in.HoldChannels {
					out.Holds = map[string]int64{"email": holdEnds.UnixMilli()}
				}
				return out, nil
			}, activity.RegisterOptions{Name: DeliverActivityName})
			var before, sent atomic.Int64
			env.RegisterActivityWithOptions(func(_ context.Context, in SendBatchInput) (SendBatchResult, error) {
				// (A second of slack: the run's clock and the test's round differently.)
				if env.Now().Before(holdEnds.Add(-time.Second)) {
					before.Add(1)
					var res SendBatchResult
					for _, j := range in.Jobs {
						res.Retries = append(res.Retries, Retry{LogID: j.LogID, Channel: j.Channel, After: holdEnds.Sub(env.Now()), Hold: true})
					}
					return res, nil
				}
				sent.Add(int64(len(in.Jobs)))
				return SendBatchResult{Sent: len(in.Jobs)}, nil
			}, activity.RegisterOptions{Name: SendBatchActivityName})
			env.ExecuteWorkflow(typeOf(tc.old), NewInput([]uuid.UUID{uuid.New()}))
			if err := env.GetWorkflowError(); err != nil {
				t.Fatal(err)
			}
			if asked.Load() == tc.old {
				t.Errorf("DeliverBatch asked for holds: %v, want %v", asked.Load(), !tc.old)
			}
			if int(before.Load()) != tc.wantBeforeHold {
				t.Errorf("%d batches before the hold ended, want %d", before.Load(), tc.wantBeforeHold)
			}
			if sent.Load() != 2 {
				t.Errorf("%d messages sent after the hold, want 2", sent.Load())
			}
		})
	}
}

// LoadQueuedJobs does not heartbeat, so its start-to-close timeout is how long a run waits
// for an attempt lost with its worker: it must be seconds, not the minute it was.
func TestLoadQueuedAttemptsAreBoundedToSeconds(t *testing.T) {
	env := newEnv(t)
	l := &fakeLog{queued: map[int64]string{}, sent: map[int64]int{}, written: make(chan struct{})}
	for id := int64(1); id <= 10; id++ {
		l.queued[id] = "email"
	}
	var bound time.Duration
	env.RegisterActivityWithOptions(func(ctx context.Context, in LoadQueuedInput) (LoadQueuedResult, error) {
		info := activity.GetInfo(ctx)
		bound = info.Deadline.Sub(info.StartedTime)
		return l.load(ctx, in)
	}, activity.RegisterOptions{Name: LoadQueuedActivityName})
	env.RegisterActivityWithOptions(func(_ context.Context, in SendBatchInput) (SendBatchResult, error) {
		return l.send(in.Jobs), nil
	}, activity.RegisterOptions{Name: SendBatchActivityName})
	env.ExecuteWorkflow(WorkflowName, Input{Backlog: &Backlog{RequestIDs: []uuid.UUID{uuid.New()}, FromLogID: 1}})
	assertAllSentOnce(t, env, l, 10)
	if bound <= 0 || bound > 16*time.Second {
		t.Errorf("a LoadQueuedJobs attempt may run %s before it is retried, want at most 15 s", bound)
	}
}

// A broadcast's run writes every slice's inbox rows before it starts its external batches
// (ExternalAfterInAppChange); a run of slices without inbox rows, and a run of the earlier
// version, start them with the first slice.
func TestBroadcastWritesItsInboxRowsBeforeItsExternalBatches(t *testing.T) {
	const slices = 4
	for _, tc := range []struct {
		name      string
		inbox     int
		old       bool
		wantAfter bool
	}{
		{name: "in-app and email", inbox: 100, wantAfter: true},
		{name: "email only", inbox: 0},
		// SendV2 asks for the change when it first applies; the current type has it.
		{name: "earlier version", inbox: 100, old: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env := newEnv(t)
			if tc.old {
				env.OnGetVersion(ExternalAfterInAppChange, workflow.DefaultVersion, 1).Return(workflow.DefaultVersion)
			}
			var mu sync.Mutex
			var fetched, fetchedAtFirstBatch, sent int
			// The test environment runs each activity on a goroutine of its own, so a batch
			// scheduled with the first slice could still start after the last slice was
			// fetched on a loaded machine. Where the batches should start with the first
			// slice, the later slices wait for the first batch to start (2 s at most,
			// within the environment's 3 s): the order the workflow scheduled them in is
			// then the order they ran in. Where they should wait for the last slice,
			// nothing waits (the workflow schedules no batch before it).
			var calls atomic.Int32
			batchStarted := make(chan struct{})
			var startOnce sync.Once
			env.RegisterActivityWithOptions(func(_ context.Context, in DeliverInput) (DeliverResult, error) {
				if !tc.wantAfter && calls.Add(1) > 1 {
					select {
					case <-batchStarted:
					case <-time.After(2 * time.Second):
					}
				}
				mu.Lock()
				defer mu.Unlock()
				fetched++
				out := DeliverResult{Delivered: tc.inbox}
				for i := range 50 {
					out.Jobs = append(out.Jobs, Job{LogID: int64(fetched*1000 + i), Channel: "email"})
				}
				if fetched < slices {
					out.Pending = in.Cursors
				}
				return out, nil
			}, activity.RegisterOptions{Name: DeliverActivityName})
			env.RegisterActivityWithOptions(func(_ context.Context, in SendBatchInput) (SendBatchResult, error) {
				mu.Lock()
				defer mu.Unlock()
				if sent == 0 {
					fetchedAtFirstBatch = fetched
				}
				startOnce.Do(func() { close(batchStarted) })
				sent += len(in.Jobs)
				return SendBatchResult{Sent: len(in.Jobs)}, nil
			}, activity.RegisterOptions{Name: SendBatchActivityName})
			name := WorkflowName
			if tc.old {
				name = WorkflowV2Name
			}
			env.ExecuteWorkflow(name, NewInput([]uuid.UUID{uuid.New()}))
			if env.GetWorkflowError() != nil {
				t.Fatal(env.GetWorkflowError())
			}
			if sent != slices*50 {
				t.Fatalf("sent %d of %d messages", sent, slices*50)
			}
			if after := fetchedAtFirstBatch == slices; after != tc.wantAfter {
				t.Fatalf("first batch started after %d of %d slices; want after the last: %v", fetchedAtFirstBatch, slices, tc.wantAfter)
			}
		})
	}
}
