package send

import (
	"time"

	"github.com/google/uuid"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"
)

// enqueue queues the external deliveries of a resolved slice. An inAppFirst run that has
// maxQueuedJobs messages waiting leaves them queued in the message log instead and notes
// where they start (the backlog): resolving goes on, so the in-app rows of the next slices
// are written at once whatever the providers do. Once a run spills, every later slice
// spills too, so the backlog is always the rows from FromLogID on.
func (r *run) enqueue(cursors []Cursor, jobs []Job) {
	if len(jobs) == 0 {
		return
	}
	if !r.inAppFirst || (r.backlog == nil && len(r.queue)+len(jobs) <= maxQueuedJobs) {
		r.queue = append(r.queue, jobs...)
		return
	}
	from := jobs[0].LogID
	for _, j := range jobs[1:] {
		from = min(from, j.LogID)
	}
	r.spilled(cursors, from)
}

// spilled notes that a slice of cursors left external messages in the message log, the
// least of them at log id from.
func (r *run) spilled(cursors []Cursor, from int64) {
	r.backlogMore = true
	if r.backlog != nil {
		return
	}
	ids := make([]uuid.UUID, len(cursors))
	for i, c := range cursors {
		ids[i] = c.RequestID
	}
	r.backlog = &Backlog{RequestIDs: ids, FromLogID: from}
}

// LoadQueuedStartToClose bounds one attempt of LoadQueuedJobs, a read of one index range:
// it does not heartbeat, so an attempt lost with its worker (killed as it started) is
// retried only when this passes, and the run's backlog waits that long. It was a minute;
// a worker killed while its breaker opened then held a run's last emails a minute past
// the provider's return (faults.TestHungProviderIsTrippedHeldAndResumed, 3 runs in 12).
// Timeouts are not part of the replayed commands.
const LoadQueuedStartToClose = 15 * time.Second

// loadBacklog brings the next messages of the backlog into the queue when it runs low.
// It never runs beside a DeliverBatch call: a slice's rows commit in parallel transactions,
// and a load between two of them could step past rows not yet visible.
func (r *run) loadBacklog() {
	waiting := len(r.queue)
	if r.channelHolds != nil {
		// Messages waiting on a channel's hold (or a retry) count: the backlog stays in the
		// message log meanwhile instead of all moving into the run.
		waiting += len(r.retries)
	}
	if r.backlog == nil || !r.backlogMore || r.fetching || r.loading || r.failure != nil ||
		waiting >= maxQueuedJobs/2 || r.batches >= maxBatchesPerRun {
		return
	}
	r.loading = true
	r.backlogMore = false
	r.batches++
	limit := maxQueuedJobs - waiting
	ctx := workflow.WithActivityOptions(r.ctx, workflow.ActivityOptions{
		StartToCloseTimeout:    LoadQueuedStartToClose,
		ScheduleToCloseTimeout: 24 * time.Hour,
		RetryPolicy:            &temporal.RetryPolicy{InitialInterval: 200 * time.Millisecond, BackoffCoefficient: 2, MaximumInterval: time.Minute},
	})
	f := LoadQueuedJobs.Execute(ctx, LoadQueuedInput{Backlog: *r.backlog, Limit: limit})
	r.sel.AddFuture(f.Future, func(workflow.Future) {
		r.loading = false
		res, err := f.Result(r.ctx)
		if err != nil {
			r.failure = err
			return
		}
		if len(res.Jobs) == 0 {
			return
		}
		r.queue = append(r.queue, res.Jobs...)
		r.backlog.FromLogID = res.Jobs[len(res.Jobs)-1].LogID + 1
		if len(res.Jobs) >= limit {
			r.backlogMore = true
		}
	})
}
