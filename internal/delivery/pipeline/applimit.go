package pipeline

import (
	"context"
	"math/rand/v2"
	"strconv"
	"sync"
	"time"

	"github.com/heraldhq/herald/db/dbsqlc"
	"github.com/heraldhq/herald/internal/delivery/channels"
)

// AppCalls bounds each app's provider calls in flight across every worker (its plan's
// maxProviderCalls, issue 28 item 5). The stack builds it on the shared limiter's leases;
// it is nil when no plan sets the limit, and the send path then pays nothing for it.
type AppCalls interface {
	// Acquire takes one of app's provider call leases for holder (a message); ok is false
	// when the app is at its limit. release gives the lease back (a no-op when the app has
	// no limit); it is called once the call's outcome is recorded.
	Acquire(ctx context.Context, appID int64, holder string) (release func(), ok bool)
}

// AppRuns keeps the leases the relay takes for each send run of an app with a plan limit
// on its runs in flight (maxSendsInFlight, see outbox.RunLimit): each slice of the run
// renews its lease, and the slice that finishes its requests releases it. Nil when no plan
// sets the limit.
type AppRuns interface {
	Renew(ctx context.Context, appID int64, workflowID string)
	Release(ctx context.Context, appID int64, workflowID string)
}

// keepRunLease renews the lease of a send run with requests still pending, and releases
// it once none are (a retried last slice releases again, which does nothing).
func (a *Service) keepRunLease(ctx context.Context, appID int64, workflowID string, pending bool) {
	if a.AppRuns == nil || workflowID == "" || appID == 0 {
		return
	}
	if pending {
		a.AppRuns.Renew(ctx, appID, workflowID)
	} else {
		a.AppRuns.Release(ctx, appID, workflowID)
	}
}

// appCall takes the message's provider call lease of its app and returns its release, or
// nil when the app is at its limit. In a batch (turns set) a message over the limit first
// waits for the batch's own calls of the app to end, and takes the lease one frees: the
// batch's activity is running those calls anyway, so the wait holds no slot that would
// otherwise be free, and a batch over its app's limit sends at the limit's pace instead of
// handing most of its messages back to the timer. With none of the app's calls in the
// batch (the leases are other workers'), the message is held.
func (a *Service) appCall(ctx context.Context, lg dbsqlc.MessageLog, turns *appTurns) func() {
	for {
		release, ok := a.AppCalls.Acquire(ctx, lg.AppID, callHolder(lg.ID))
		if ok {
			if turns == nil {
				return release
			}
			turns.started(lg.AppID)
			return func() {
				release()
				turns.ended(lg.AppID)
			}
		}
		if turns == nil || !turns.wait(ctx, lg.AppID) {
			return nil
		}
	}
}

// appTurns counts a batch's provider calls in flight per app (those holding an app
// lease) and passes each app a turn when one of them ends: one waiting message tries the
// lease again, not all of them (each try is a round trip to the shared store).
type appTurns struct {
	mu       sync.Mutex
	inFlight map[int64]int
	turn     map[int64]chan struct{}
}

func newAppTurns() *appTurns {
	return &appTurns{inFlight: map[int64]int{}, turn: map[int64]chan struct{}{}}
}

// turnOf is app's turn: a token, buffered so an end before the wait is not missed.
func (t *appTurns) turnOf(app int64) chan struct{} {
	t.mu.Lock()
	defer t.mu.Unlock()
	c := t.turn[app]
	if c == nil {
		c = make(chan struct{}, 1)
		t.turn[app] = c
	}
	return c
}

func (t *appTurns) started(app int64) {
	t.mu.Lock()
	t.inFlight[app]++
	t.mu.Unlock()
}

func (t *appTurns) ended(app int64) {
	t.mu.Lock()
	t.inFlight[app]--
	t.mu.Unlock()
	t.pass(app)
}

// pass gives app's turn to the next waiter (or leaves it for the next to wait).
func (t *appTurns) pass(app int64) {
	select {
	case t.turnOf(app) <- struct{}{}:
	default:
	}
}

// wait reports true when the message has a turn to try the lease again: one of the
// batch's calls of app ended. It reports false when none is in flight (the message is
// then held, and passes the turn on so the other waiters find that out too) or ctx ends.
func (t *appTurns) wait(ctx context.Context, app int64) bool {
	c := t.turnOf(app)
	select {
	case <-c:
		return true
	default:
	}
	t.mu.Lock()
	n := t.inFlight[app]
	t.mu.Unlock()
	if n <= 0 {
		t.pass(app)
		return false
	}
	select {
	case <-c:
		return true
	case <-ctx.Done():
		return false
	}
}

// appLimitWait is how long a message held by its app's call limit waits before it is
// tried again, plus up to appLimitJitter so the held messages of a batch do not all come
// back on the same instant.
const (
	appLimitWait   = 2 * time.Second
	appLimitJitter = time.Second
)

// callHolder names a message's provider call lease: one per message, so a retried attempt
// of the same message renews the lease its dead attempt left instead of taking a second.
func callHolder(logID int64) string { return "log:" + strconv.FormatInt(logID, 10) }

// holdForApp leaves a message queued, untried, because its app has as many provider calls
// in flight as its plan allows: it waits on the run's durable timer (Retry.Hold, the
// breaker's mechanism), counts no attempt, and the message log says why.
func (a *Service) holdForApp(ctx context.Context, lg dbsqlc.MessageLog, c *channels.Candidate, b *batch) outcome {
	wait := appLimitWait + rand.N(appLimitJitter)
	text := appLimitText(time.Now().Add(wait))
	a.recordAttempt(ctx, b, dbsqlc.RecordMessageAttemptErrorParams{
		ID: lg.ID, Provider: &c.Provider, InstanceID: &c.InstanceID, Error: &text,
	})
	return outcome{wait: wait, text: text, hold: true}
}

// appLimitText is the message log's note for a message held by its app's call limit.
func appLimitText(retryAt time.Time) string {
	return "app concurrency limit reached, retrying at " + retryAt.UTC().Format(time.RFC3339)
}
