package pipeline

import (
	"context"
	"sync/atomic"
	"time"
)

// Pacing of bulk inbox writes (issue 28).
//
// A broadcast's DeliverBatch call writes up to a few thousand inbox rows and twice as many
// message log rows; at full speed (two concurrent transactions, see writeChunks) that takes
// both cores of a small box for a few seconds, and every other app's sends, a one-time
// code among them, wait for a CPU at each of their hops (API, relay, Temporal, worker,
// Postgres). So a call with a large request (minChunkRows rows or more: a broadcast's
// slice) writes in transactions of about pacedChunkRows rows, and while single sends are
// being delivered in the process it writes them one at a time and rests after each one so
// that its writes take at most BulkShare percent of the time. Alone (no call of only
// small requests in the last paceWindow) it writes them writeParallelism transactions at
// a time, merged up to unpacedChunkRows rows each. The
// choice is made before each transaction, not once per call: a slice that began in a quiet
// moment yields from its next transaction to a single send that arrives while it is being
// written (writeChunksYielding). A pack of single sends is never paced, however many it
// holds: pacing it would slow the very sends this protects.

// pacedChunkRows bounds the rows (inbox and message log) of one transaction of a large
// call that yields to single sends.
const pacedChunkRows = 500

// paceWindow is how recent a small call must be for bulk calls to be paced.
const paceWindow = time.Second

// maxRest bounds one rest, whatever the write before it took.
const maxRest = time.Second

// pacer remembers the process's last small call (see noteSmall).
type pacer struct {
	// lastSmall is the time of the last small call, in Unix nanoseconds.
	lastSmall atomic.Int64
	// sleep rests for d unless ctx ends first (nil: a timer); tests record the rests.
	sleep func(ctx context.Context, d time.Duration)
	// written, when set, is called after each chunk of a yielding call is written
	// (tests send a single send in the middle of one).
	written func()
}

// noteSmall records that a call of only small requests (single sends, or a pack of them)
// was written at now: calls with a large request yield to it for paceWindow.
func (a *Service) noteSmall(now time.Time) {
	a.pace.lastSmall.Store(now.UnixNano())
}

// sharing reports whether BulkShare limits large calls at all (0 and 100 do not).
func (a *Service) sharing() bool { return a.BulkShare > 0 && a.BulkShare < 100 }

// paced reports whether a large call's chunk written at now is paced: BulkShare
// is below 100 and a call of only small requests was written within paceWindow.
func (a *Service) paced(now time.Time) bool {
	if !a.sharing() {
		return false
	}
	last := a.pace.lastSmall.Load()
	return last != 0 && now.UnixNano()-last < int64(paceWindow)
}

// restAfter is the rest owed after a paced write that took took: enough for the write to
// be BulkShare percent of the time, at most maxRest.
func (a *Service) restAfter(took time.Duration) time.Duration {
	if !a.sharing() {
		return 0
	}
	return min(took*time.Duration(100-a.BulkShare)/time.Duration(a.BulkShare), maxRest)
}

// rest waits d, or less if ctx ends or the worker is stopping (the call then finishes
// its writes without pauses and hands the rest back).
func (a *Service) rest(ctx context.Context, d time.Duration) {
	if d <= 0 || a.stopping(ctx) {
		return
	}
	if a.pace.sleep != nil {
		a.pace.sleep(ctx, d)
		return
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
	}
}
