package send

import (
	"errors"
	"time"

	"go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/heraldhq/herald/workflows/contract"
	"github.com/heraldhq/herald/workflows/flowrun"
	"github.com/heraldhq/herald/workflows/taskqueue"
	"github.com/heraldhq/herald/workflows/visibility"
)

// Limits of one run. They bound its history (a million-recipient send continues as new
// many times and never nears Temporal's limits) and its pending activities (Temporal
// refuses more than 2,000 per execution).
const (
	// maxBatchesPerRun bounds the DeliverBatch calls of one run.
	maxBatchesPerRun = 200
	// maxSendsPerRun bounds the external deliveries started by one run; each adds a few
	// history events.
	maxSendsPerRun = 2000
	// maxInFlight bounds the deliveries running at once.
	maxInFlight = 500
	// maxStartsInFlight bounds the workflow runs being started at once (child workflows
	// of sends naming a user-defined workflow; the parent waits for their start only).
	maxStartsInFlight = 100

	// Batched delivery (BatchedDeliveryChange). sendBatchSize bounds the messages of one
	// SendMessages call (all of one channel); maxBatchesInFlight the calls running at once
	// per run; maxQueuedJobs the messages waiting for a batch before the next slice is
	// resolved. In batched runs maxSendsPerRun counts SendMessages calls and retry timers.
	sendBatchSize      = 200
	maxBatchesInFlight = 8
	maxQueuedJobs      = 2000
)

// Retry backoff of batched delivery, as the unbatched SendMessage retry policy has it:
// from RetryInitial doubling up to RetryMaximum between attempts, for SendRetryWindow.
const (
	RetryInitial = time.Second
	RetryMaximum = 5 * time.Minute
)

// DeliverBatch's timeouts and retries, as an activity and as a run's local first slice:
// each attempt bounded, retried from 200 ms doubling up to a minute, within the day.
const (
	deliverStartToClose    = 2 * time.Minute
	deliverScheduleToClose = 24 * time.Hour
)

var deliverRetry = &temporal.RetryPolicy{InitialInterval: 200 * time.Millisecond, BackoffCoefficient: 2, MaximumInterval: time.Minute}

// SendBatchStartToClose bounds one SendMessages attempt: a few hundred messages through
// a slow provider, at DefaultInstanceConcurrency calls at a time.
const SendBatchStartToClose = 10 * time.Minute

// Retry of one external delivery: transient failures back off from a second up to five
// minutes between attempts (a 429's Retry-After overrides the next delay) for at most an
// hour; permanent failures are not retried.
const (
	SendStartToClose = 2 * time.Minute
	SendRetryWindow  = time.Hour
)

// SendLease is how long an attempt owns its message log row without renewing it. The
// attempt's heartbeat renews it while its worker lives; after a worker dies, the retry
// that Temporal starts once HeartbeatTimeout passes finds the row free within a lease.
// It is a little longer than HeartbeatTimeout: a worker cut off from Temporal but not
// from Postgres keeps its messages, so Temporal's retry elsewhere waits instead of
// sending them a second time.
const SendLease = 15 * time.Second

// HeartbeatTimeout is how long DeliverBatch and SendMessage may go without a heartbeat
// (they beat every two seconds) before Temporal takes their worker for dead and retries
// them elsewhere. Without it, an activity on a killed worker waits for its whole
// start-to-close timeout (minutes) before its retry.
const HeartbeatTimeout = 10 * time.Second

// Workflow delivers the requests of its input. DeliverBatch resolves the next slice of
// a few thousand recipients, writes in-app rows and the message log, and returns the
// external deliveries; these run as one activity each, concurrently and with retries,
// while the next slice is resolved. For a send naming a user-defined workflow, the slice
// returns one run per recipient instead, started as abandoned child workflows, at most
// maxStartsInFlight at a time. Requests are independent: one that fails does not stop its
// neighbours.
//
// Runs of the batched version deliver the external messages in batches instead: one
// SendMessages activity per batch of up to sendBatchSize messages of a channel. A batch
// returns the messages to retry; each comes back in a later batch after its backoff
// (durable timers), until SendRetryWindow has passed since its first failure.
//
// Workflow is the send workflow's current type (WorkflowName): every versioned change of
// contract.go is in force, and a run records no version marker for any of them.
func Workflow(ctx workflow.Context, in Input) error {
	return deliver(ctx, in, latest, WorkflowName)
}

// WorkflowV2 is the type runs started before WorkflowName have (WorkflowV2Name): the
// changes of latestV2 in force, ExternalAfterInAppChange asked when it first applies, and
// every slice an activity, so those runs replay.
func WorkflowV2(ctx workflow.Context, in Input) error {
	return deliver(ctx, in, latestV2, WorkflowV2Name)
}

// WorkflowV1 is the type runs started before WorkflowName have (WorkflowV1Name): it asks
// workflow.GetVersion for each change, so a run replays on the path its history took. Each
// of those calls costs every run a marker and an upsert of TemporalChangeVersion, five of
// each (issue 28: 10 of an in-app send's 21 history events, each upsert a visibility write
// too).
func WorkflowV1(ctx workflow.Context, in Input) error {
	return deliver(ctx, in, changesOf(ctx), WorkflowV1Name)
}

// changes are the versioned changes in force in a run. externalAfterInApp is in force
// without asking (types after WorkflowV2; otherwise it is asked when it first applies);
// localFirstSlice runs the run's first slice as a local activity (LocalSliceSize).
type changes struct {
	batched, inAppFirst, quietHours, channelHold, sharedHold bool
	externalAfterInApp, localFirstSlice                      bool
}

// latestV2 is what runs of WorkflowV2 have: every change of WorkflowV1 in force.
var latestV2 = changes{batched: true, inAppFirst: true, quietHours: true, channelHold: true, sharedHold: true}

// latest is every change in force.
var latest = changes{batched: true, inAppFirst: true, quietHours: true, channelHold: true, sharedHold: true,
	externalAfterInApp: true, localFirstSlice: true}

// changesOf asks workflow.GetVersion for each change, in the order WorkflowV1 always has
// (the calls of changes that depend on another are made only when it is in force).
func changesOf(ctx workflow.Context) changes {
	var c changes
	if c.batched = workflow.GetVersion(ctx, BatchedDeliveryChange, workflow.DefaultVersion, 1) >= 1; !c.batched {
		return c
	}
	if c.inAppFirst = workflow.GetVersion(ctx, InAppFirstChange, workflow.DefaultVersion, 1) >= 1; c.inAppFirst {
		c.quietHours = workflow.GetVersion(ctx, QuietHoursChange, workflow.DefaultVersion, 1) >= 1
	}
	if c.channelHold = workflow.GetVersion(ctx, ChannelHoldChange, workflow.DefaultVersion, 1) >= 1; c.channelHold {
		c.sharedHold = workflow.GetVersion(ctx, SharedHoldChange, workflow.DefaultVersion, 1) >= 1
	}
	return c
}

// deliver runs the send workflow with the changes given; name is the run's own type, which
// it continues as.
func deliver(ctx workflow.Context, in Input, v changes, name string) error {
	r := &run{
		name: name,
		ctx:  ctx,
		deliverCtx: workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
			StartToCloseTimeout:    deliverStartToClose,
			HeartbeatTimeout:       HeartbeatTimeout,
			ScheduleToCloseTimeout: deliverScheduleToClose,
			RetryPolicy:            deliverRetry,
		}),
		sendCtx: workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
			StartToCloseTimeout:    SendStartToClose,
			HeartbeatTimeout:       HeartbeatTimeout,
			ScheduleToCloseTimeout: SendRetryWindow,
			RetryPolicy: &temporal.RetryPolicy{
				InitialInterval:    time.Second,
				BackoffCoefficient: 2,
				MaximumInterval:    5 * time.Minute,
			},
		}),
		pending: in.Cursors,
		queue:   in.Jobs,
		runs:    in.Runs,
		sel:     workflow.NewSelector(ctx),
		// Every other queue is named after the run's own (package taskqueue).
		base: workflow.GetInfo(ctx).TaskQueueName,
	}
	if v.batched {
		r.batched = true
		// DeliverBatch may send a small slice's messages itself (SendSmall): give it the
		// time a batch has.
		r.deliverCtx = workflow.WithStartToCloseTimeout(r.deliverCtx, SendBatchStartToClose)
		r.batchCtx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
			StartToCloseTimeout:    SendBatchStartToClose,
			HeartbeatTimeout:       HeartbeatTimeout,
			ScheduleToCloseTimeout: SendRetryWindow,
			RetryPolicy: &temporal.RetryPolicy{
				InitialInterval:    time.Second,
				BackoffCoefficient: 2,
				MaximumInterval:    time.Minute,
			},
		})
		r.timers = map[int64]bool{}
		if v.inAppFirst {
			r.inAppFirst = true
			r.backlog, r.backlogMore = in.Backlog, in.Backlog != nil
			// Quiet hours: messages held until their recipients' window ends wait on
			// durable timers in the run, not in an activity (no worker slot is held).
			if v.quietHours {
				r.quiet = true
				r.held = in.Held
			}
		}
		if v.channelHold {
			r.channelHolds = map[string]int64{}
			r.sharedHolds = v.sharedHold
		}
		if v.externalAfterInApp {
			r.afterInApp = 1
		}
		if v.localFirstSlice {
			r.localCtx = workflow.WithLocalActivityOptions(ctx, workflow.LocalActivityOptions{
				// As deliverCtx: retried within the day, each attempt bounded. A local
				// activity cannot heartbeat: a worker that dies in it leaves the workflow
				// task to time out, and the next worker runs the slice again (nothing is
				// written twice; TestWorkerKilledHoldingRunsFirstWorkflowTasks).
				StartToCloseTimeout:    deliverStartToClose,
				ScheduleToCloseTimeout: deliverScheduleToClose,
				RetryPolicy:            deliverRetry,
			})
		}
		// Jobs handed over by continue-as-new wait for their retry time again.
		r.queue = nil
		for _, j := range in.Jobs {
			if j.Due > 0 {
				r.retries = append(r.retries, j)
			} else {
				r.queue = append(r.queue, j)
			}
		}
	}
	return r.loop()
}

// run is the state of one workflow run.
type run struct {
	// name is the run's workflow type: it continues as new as the same type.
	name                     string
	ctx, deliverCtx, sendCtx workflow.Context
	sel                      workflow.Selector

	// base is the run's own task queue: the orchestration queue, which provider queues
	// are named after (each external delivery runs on its channel's queue).
	base string
	// batched runs send through SendMessages (BatchedDeliveryChange).
	batched bool
	// inAppFirst runs keep resolving slices while messages wait, spilling the external
	// deliveries past maxQueuedJobs into backlog (InAppFirstChange, backlog.go).
	inAppFirst  bool
	backlog     *Backlog
	backlogMore bool
	// quiet runs hold messages for quiet hours (QuietHoursChange): held are the groups
	// waiting for their time, released into the queue by the retry timers.
	quiet    bool
	held     []Held
	loading  bool
	batchCtx workflow.Context
	// retries are messages waiting for their next attempt (Job.Due); timers are the due
	// times (Unix ms) of the pending timers that bring them back to the queue.
	retries []Job
	timers  map[int64]bool
	// channelHolds are the channels whose provider is unavailable, until when (Unix ms):
	// their queued messages wait among the retries instead of going to a batch
	// (ChannelHoldChange; nil in runs of earlier versions).
	channelHolds map[string]int64
	// sharedHolds runs take holds from DeliverBatch too (SharedHoldChange).
	sharedHolds bool
	// localCtx, when set, runs the run's first slice as a local activity (LocalSliceSize).
	localCtx workflow.Context

	pending []Cursor
	queue   []Job
	runs    []flowrun.RunInput

	batches, sends, inFlight, starting int
	fetching                           bool
	// sliceInApp: the last slice wrote inbox rows; afterInApp: whether the run starts its
	// external batches after its slices (1) or beside them (-1), 0 until asked (see
	// inAppBeforeExternal).
	sliceInApp bool
	afterInApp int
	// failure is set when DeliverBatch gave up: no more slices are fetched.
	failure error
	// giveUps are jobs whose retries ran out (or that were never started after a failure).
	giveUps   []int64
	giveUpWhy string
	// giveUpBacklog is the backlog of a run that failed, given up with giveUps.
	giveUpBacklog *Backlog
}

func (r *run) loop() error {
	for {
		r.fill()
		if r.inFlight == 0 && r.starting == 0 && !r.fetching && !r.loading && len(r.timers) == 0 {
			break
		}
		r.sel.Select(r.ctx)
		if r.quiet && r.ctx.Err() != nil {
			// Cancelled: the held messages are dropped, not sent when their time comes.
			return r.dropHeld()
		}
	}
	if r.failure != nil {
		for _, j := range append(r.queue, r.retries...) {
			r.giveUp(j.LogID, "delivery stopped: "+r.failure.Error())
		}
		for _, h := range r.held {
			for _, id := range h.LogIDs {
				r.giveUp(id, "delivery stopped: "+r.failure.Error())
			}
		}
		r.queue, r.retries, r.held = nil, nil, nil
		if r.backlog != nil {
			// The messages waiting in the message log fail with the run, not stay queued.
			r.giveUpBacklog = r.backlog
			r.giveUpWhy = "delivery stopped: " + r.failure.Error()
			r.backlog = nil
		}
	}
	r.recordGiveUps()
	if r.failure != nil {
		workflow.GetLogger(r.ctx).Error("delivery gave up", "error", r.failure)
		return failAll(r.ctx, r.pending, r.failure)
	}
	r.queue = append(r.queue, r.retries...)
	backlog := r.backlog
	if backlog != nil && !r.backlogMore && len(r.pending) == 0 {
		backlog = nil // drained, and no slice is left to write more
	}
	if len(r.pending) > 0 || len(r.queue) > 0 || len(r.runs) > 0 || backlog != nil || len(r.held) > 0 {
		// By name, never by function: the SDK keys functions by their short name, and
		// send.Workflow, flowrun.Workflow and schedule.Workflow share "Workflow", so the function
		// would resolve to whichever registered last.
		return workflow.NewContinueAsNewError(r.ctx, r.name, Input{Cursors: r.pending, Jobs: r.queue, Runs: r.runs, Backlog: backlog, Held: r.held})
	}
	return nil
}

// fill starts what the limits allow: the next slice when the queue runs low, and queued
// deliveries up to maxInFlight.
func (r *run) fill() {
	if r.batched {
		r.fillBatched()
		return
	}
	if r.failure == nil && !r.fetching && len(r.pending) > 0 && r.batches < maxBatchesPerRun &&
		len(r.queue)+len(r.runs) < maxInFlight && r.sends+len(r.queue)+len(r.runs) < maxSendsPerRun {
		r.fetching = true
		r.batches++
		f := DeliverBatch.Execute(r.deliverCtx, DeliverInput{Cursors: r.pending})
		r.sel.AddFuture(f.Future, func(workflow.Future) {
			r.fetching = false
			res, err := f.Result(r.ctx)
			if err != nil {
				r.failure = err
				return
			}
			r.pending = res.Pending
			r.queue = append(r.queue, res.Jobs...)
			r.runs = append(r.runs, res.Runs...)
		})
	}
	r.startRuns()
	for len(r.queue) > 0 && r.inFlight < maxInFlight && r.sends < maxSendsPerRun {
		job := r.queue[0]
		r.queue = r.queue[1:]
		r.inFlight++
		r.sends++
		f := SendMessage.Execute(workflow.WithTaskQueue(r.sendCtx, taskqueue.ForChannel(r.base, job.Channel)), job)
		r.sel.AddFuture(f.Future, func(workflow.Future) {
			r.inFlight--
			// A permanent failure is already in the message log; anything else means the
			// retries ran out.
			if err := f.Get(r.ctx, nil); err != nil && !isNonRetryable(err) {
				r.giveUp(job.LogID, err.Error())
			}
		})
	}
	if len(r.queue) == 0 {
		r.queue = nil
	}
}

// fillBatched is fill for batched runs: the next slice while few messages wait, batches
// of queued messages up to maxBatchesInFlight, and a timer for the next retry.
func (r *run) fillBatched() {
	r.loadBacklog()
	// inAppFirst runs resolve the next slice however many external messages wait: its
	// in-app rows must not queue behind a slow provider (the messages spill to the backlog).
	if r.failure == nil && !r.fetching && !r.loading && len(r.pending) > 0 && r.batches < maxBatchesPerRun &&
		(r.inAppFirst || len(r.queue)+len(r.runs) < maxQueuedJobs) && len(r.runs) < maxQueuedJobs &&
		r.sends+len(r.queue)/sendBatchSize+len(r.runs) < maxSendsPerRun {
		r.fetch()
	}
	r.startRuns()
	for len(r.queue) > 0 && r.inFlight < maxBatchesInFlight && r.sends < maxSendsPerRun && !r.inAppBeforeExternal() {
		jobs := r.takeBatch()
		if r.holdChannel(jobs) {
			continue
		}
		r.inFlight++
		r.sends++
		bctx := workflow.WithTaskQueue(r.batchCtx, taskqueue.ForChannel(r.base, jobs[0].Channel))
		f := SendMessages.Execute(bctx, SendBatchInput{Jobs: jobs})
		r.sel.AddFuture(f.Future, func(workflow.Future) {
			r.inFlight--
			res, err := f.Result(r.ctx)
			if err != nil {
				// The batch could not run within the retry window.
				for _, j := range jobs {
					r.giveUp(j.LogID, err.Error())
				}
				return
			}
			byID := make(map[int64]Job, len(jobs))
			for _, j := range jobs {
				byID[j.LogID] = j
			}
			now := workflow.Now(r.ctx)
			for _, rt := range res.Retries {
				if j, ok := byID[rt.LogID]; ok {
					r.retry(j, rt, now)
				}
			}
			r.noteHold(jobs[0].Channel, res, now)
		})
	}
	if len(r.queue) == 0 {
		r.queue = nil
	}
	r.armTimer()
}

// inAppBeforeExternal reports whether the run waits with its external batches until the
// slices left are resolved (ExternalAfterInAppChange): the run resolves slices
// (inAppFirst), some are left, and the last one wrote inbox rows. The version is asked the
// first time that holds, and kept.
func (r *run) inAppBeforeExternal() bool {
	if !r.inAppFirst || len(r.pending) == 0 || !r.sliceInApp {
		return false
	}
	if r.afterInApp == 0 {
		r.afterInApp = -1
		if workflow.GetVersion(r.ctx, ExternalAfterInAppChange, workflow.DefaultVersion, 1) >= 1 {
			r.afterInApp = 1
		}
	}
	return r.afterInApp > 0
}

// fetch resolves the next slice of the pending requests.
func (r *run) fetch() {
	r.fetching = true
	r.batches++
	cursors := r.pending
	// DeliverBatch runs on the orchestration queue and must not wait on a provider there:
	// inAppFirst runs never ask it to send a small slice itself (SendSmall), every message
	// goes to a batch on its channel's queue.
	in := DeliverInput{Cursors: cursors, SendSmall: !r.inAppFirst, Spill: r.backlog != nil, HoldQuietHours: r.quiet, HoldChannels: r.sharedHolds}
	var f contract.Future[DeliverResult]
	if r.localCtx != nil && r.batches == 1 {
		in.Limit = LocalSliceSize
		f = DeliverBatch.ExecuteLocal(r.localCtx, in)
	} else {
		if r.localCtx != nil && r.batches == 2 {
			in.Limit = RampSliceSize
		}
		f = DeliverBatch.Execute(r.deliverCtx, in)
	}
	r.sel.AddFuture(f.Future, func(workflow.Future) {
		r.fetching = false
		res, err := f.Result(r.ctx)
		if err != nil {
			r.failure = err
			return
		}
		r.pending = res.Pending
		r.sliceInApp = res.Delivered > 0
		if r.sharedHolds {
			// Only assignments: the order of map iteration reaches no command.
			for ch, until := range res.Holds {
				if until > r.channelHolds[ch] {
					r.channelHolds[ch] = until
				}
			}
		}
		r.enqueue(cursors, res.Jobs)
		if res.Spilled > 0 {
			r.spilled(cursors, res.SpillFrom)
		}
		r.runs = append(r.runs, res.Runs...)
		r.held = append(r.held, res.Held...)
		now := workflow.Now(r.ctx)
		for _, rt := range res.Retries {
			r.retry(Job{LogID: rt.LogID, Channel: rt.Channel}, rt, now)
		}
	})
}

// takeBatch removes the next batch from the queue: up to sendBatchSize messages of the
// channel of the first one, in queue order.
func (r *run) takeBatch() []Job {
	ch := r.queue[0].Channel
	batch := make([]Job, 0, min(len(r.queue), sendBatchSize))
	rest := r.queue[:0]
	for _, j := range r.queue {
		if j.Channel == ch && len(batch) < sendBatchSize {
			batch = append(batch, j)
		} else {
			rest = append(rest, j)
		}
	}
	r.queue = rest
	return batch
}

// holdChannel moves a batch of a channel on hold to the retries, due when the hold ends,
// and reports whether it did; a hold whose time has come is lifted.
func (r *run) holdChannel(jobs []Job) bool {
	ch := jobs[0].Channel
	until, ok := r.channelHolds[ch]
	if !ok {
		return false
	}
	if until <= workflow.Now(r.ctx).UnixMilli() {
		delete(r.channelHolds, ch)
		return false
	}
	for _, j := range jobs {
		j.Due, j.Held = until, true
		r.retries = append(r.retries, j)
	}
	return true
}

// noteHold puts a channel on hold when a batch of it sent nothing and held messages for
// their breakers (until the earliest of their retry times), and lifts the hold when a
// batch of it sent something: its provider answers again (the breaker's probe got
// through), so the messages of the channel held meanwhile go now, not at their retry
// time (messages held beside the probe were given a whole cool-down).
func (r *run) noteHold(ch string, res SendBatchResult, now time.Time) {
	if r.channelHolds == nil {
		return
	}
	if res.Sent > 0 {
		delete(r.channelHolds, ch)
		waiting := r.retries[:0]
		for _, j := range r.retries {
			if j.Held && j.Channel == ch {
				j.Due, j.Held = 0, false
				r.queue = append(r.queue, j)
			} else {
				waiting = append(waiting, j)
			}
		}
		r.retries = waiting
		return
	}
	var until int64
	for _, rt := range res.Retries {
		if !rt.Hold {
			continue
		}
		due := holdDue(now, rt)
		if until == 0 || due < until {
			until = due
		}
	}
	if until > r.channelHolds[ch] {
		r.channelHolds[ch] = until
	}
}

// retry schedules a message's next attempt: after the provider's Retry-After (or another
// attempt's lease) when the batch gave one, else after the backoff of its attempt count;
// a message whose next attempt would fall outside SendRetryWindow is given up.
func (r *run) retry(j Job, rt Retry, now time.Time) {
	if rt.Hold {
		// Held by open circuit breakers: wait on the timer, no attempt counted.
		j.Due = holdDue(now, rt)
		j.Held = r.channelHolds != nil
		r.retries = append(r.retries, j)
		return
	}
	j.Attempts++
	if j.Since == 0 {
		j.Since = now.UnixMilli()
	}
	delay := Backoff(j.Attempts)
	if rt.After > 0 {
		delay = rt.After
	}
	due := now.Add(delay)
	if due.Sub(time.UnixMilli(j.Since)) > SendRetryWindow {
		r.giveUp(j.LogID, rt.Error)
		return
	}
	j.Due = CeilMillis(due)
	r.retries = append(r.retries, j)
}

// holdDue is when a message held for its breakers (Retry.Hold) is due again: after the
// batch's wait, and no sooner than RetryInitial.
func holdDue(now time.Time, rt Retry) int64 {
	return CeilMillis(now.Add(max(rt.After, RetryInitial)))
}

// CeilMillis is t in Unix milliseconds, rounded up so a timer never fires before it (the
// pipeline rounds the holds it tells runs with it too).
func CeilMillis(t time.Time) int64 {
	return (t.UnixNano() + int64(time.Millisecond) - 1) / int64(time.Millisecond)
}

// Backoff is the wait before the retry that follows a message's n-th failed attempt.
func Backoff(n int) time.Duration {
	d := RetryInitial
	for i := 1; i < n && d < RetryMaximum; i++ {
		d *= 2
	}
	return min(d, RetryMaximum)
}

// armTimer starts a timer for the earliest retry unless one at or before it is pending.
// When it fires, the retries that are due join the queue.
//
// Held groups (quiet hours) share these timers: when one fires, the groups whose time has
// come join the queue with their original messages.
func (r *run) armTimer() {
	if (len(r.retries) == 0 && len(r.held) == 0) || r.sends >= maxSendsPerRun {
		return
	}
	earliest := int64(-1)
	for _, j := range r.retries {
		if earliest < 0 || j.Due < earliest {
			earliest = j.Due
		}
	}
	for _, h := range r.held {
		if earliest < 0 || h.Until < earliest {
			earliest = h.Until
		}
	}
	for at := range r.timers {
		if at <= earliest {
			return
		}
	}
	r.timers[earliest] = true
	r.sends++
	wait := time.UnixMilli(earliest).Sub(workflow.Now(r.ctx))
	f := workflow.NewTimer(r.ctx, max(wait, 0))
	r.sel.AddFuture(f, func(workflow.Future) {
		delete(r.timers, earliest)
		now := workflow.Now(r.ctx).UnixMilli()
		waiting := r.retries[:0]
		for _, j := range r.retries {
			if j.Due <= now {
				j.Due, j.Held = 0, false
				r.queue = append(r.queue, j)
			} else {
				waiting = append(waiting, j)
			}
		}
		r.retries = waiting
		r.release(now)
	})
}

// dropHeld records the held messages of a cancelled run as skipped (on a disconnected
// context: the run's own is cancelled) and ends the run as cancelled.
func (r *run) dropHeld() error {
	var ids []int64
	for _, h := range r.held {
		ids = append(ids, h.LogIDs...)
	}
	if len(ids) > 0 {
		dctx, _ := workflow.NewDisconnectedContext(r.ctx)
		dctx = workflow.WithActivityOptions(dctx, workflow.ActivityOptions{
			StartToCloseTimeout: 30 * time.Second,
			RetryPolicy:         &temporal.RetryPolicy{MaximumInterval: 10 * time.Second, MaximumAttempts: 20},
		})
		if err := DropHeldMessages.Execute(dctx, DropHeldInput{LogIDs: ids}).Wait(dctx); err != nil {
			workflow.GetLogger(r.ctx).Error("could not record dropped held messages", "error", err)
		}
	}
	r.held = nil
	return temporal.NewCanceledError("send run cancelled")
}

// release moves the held groups whose time has come to the queue.
func (r *run) release(now int64) {
	if len(r.held) == 0 {
		return
	}
	waiting := r.held[:0]
	for _, h := range r.held {
		if h.Until > now {
			waiting = append(waiting, h)
			continue
		}
		for _, id := range h.LogIDs {
			r.queue = append(r.queue, Job{LogID: id, Channel: h.Channel})
		}
	}
	r.held = waiting
	if len(r.held) == 0 {
		r.held = nil
	}
}

// startRuns starts queued workflow runs as child workflows, waiting for each start only:
// the runs outlive this one (ParentClosePolicy ABANDON) and a run already started (a
// retried slice, a user reached twice) counts as started.
func (r *run) startRuns() {
	for len(r.runs) > 0 && r.starting < maxStartsInFlight && r.sends < maxSendsPerRun {
		in := r.runs[0]
		r.runs = r.runs[1:]
		r.starting++
		r.sends++
		// Search attributes and summary are not part of the command the SDK compares on
		// replay: adding them needed no version marker (docs/architecture.md).
		cctx := workflow.WithChildOptions(r.ctx, workflow.ChildWorkflowOptions{
			WorkflowID:            flowrun.WorkflowID(in.Flow.Identifier, in.RequestID, in.Recipient.Identifier),
			ParentClosePolicy:     enums.PARENT_CLOSE_POLICY_ABANDON,
			WorkflowIDReusePolicy: enums.WORKFLOW_ID_REUSE_POLICY_REJECT_DUPLICATE,
			TypedSearchAttributes: visibility.Run(in.AppID, in.RequestID, in.Flow.Identifier, in.Recipient.Identifier),
			StaticSummary:         "Workflow " + in.Flow.Identifier + " for " + in.Recipient.Identifier,
		})
		child := workflow.ExecuteChildWorkflow(cctx, flowrun.WorkflowName, in)
		r.sel.AddFuture(child.GetChildWorkflowExecution(), func(f workflow.Future) {
			r.starting--
			if err := f.Get(r.ctx, nil); err != nil && !temporal.IsWorkflowExecutionAlreadyStartedError(err) {
				workflow.GetLogger(r.ctx).Error("workflow run not started", "requestId", in.RequestID, "user", in.Recipient.Identifier, "error", err)
			}
		})
	}
	if len(r.runs) == 0 {
		r.runs = nil
	}
}

func (r *run) giveUp(logID int64, why string) {
	r.giveUps = append(r.giveUps, logID)
	r.giveUpWhy = why
}

// recordGiveUps marks the given-up jobs failed in the message log, in one activity.
func (r *run) recordGiveUps() {
	if len(r.giveUps) == 0 && r.giveUpBacklog == nil {
		return
	}
	ctx := workflow.WithActivityOptions(r.ctx, workflow.ActivityOptions{
		StartToCloseTimeout: 30 * time.Second,
		RetryPolicy:         &temporal.RetryPolicy{MaximumInterval: 10 * time.Second, MaximumAttempts: 20},
	})
	in := GiveUpInput{LogIDs: r.giveUps, Reason: r.giveUpWhy, Backlog: r.giveUpBacklog}
	if err := RecordGiveUps.Execute(ctx, in).Wait(ctx); err != nil {
		workflow.GetLogger(r.ctx).Error("could not record given-up deliveries", "error", err)
	}
	r.giveUps = nil
}

func isNonRetryable(err error) bool {
	var app *temporal.ApplicationError
	return errors.As(err, &app) && app.NonRetryable()
}

// failAll records the failure on the requests still pending, then returns the cause so the
// run shows as failed in the Temporal UI.
func failAll(ctx workflow.Context, pending []Cursor, cause error) error {
	in := FailInput{Reason: cause.Error()}
	for _, c := range pending {
		in.RequestIDs = append(in.RequestIDs, c.RequestID)
	}
	fctx := workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: 30 * time.Second,
		RetryPolicy:         &temporal.RetryPolicy{MaximumInterval: 10 * time.Second},
	})
	if err := FailRequests.Execute(fctx, in).Wait(fctx); err != nil {
		workflow.GetLogger(ctx).Error("could not record failure", "error", err)
	}
	return cause
}
