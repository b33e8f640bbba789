package pipeline

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"sync"
	"time"

	"github.com/google/uuid"

	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/db/dbsqlc"
	"github.com/heraldhq/herald/internal/delivery"
	"github.com/heraldhq/herald/internal/delivery/channels"
	"github.com/heraldhq/herald/internal/providers"
	"github.com/heraldhq/herald/workflows/send"
)

// DefaultInstanceConcurrency bounds the provider calls in flight per provider instance in
// one worker, across all its batches (an SMTP instance further bounds its connections).
const DefaultInstanceConcurrency = 16

// maxRetryText bounds the error a batch hands back per message to retry: the full text is
// in the message log; the workflow keeps it only for a give-up.
const maxRetryText = 300

// SendMessages delivers a batch of queued messages of one channel, as SendMessage does one:
// the same claim of the message log rows (so a retried batch skips what an earlier attempt
// sent, and waits for what another attempt holds), the same rendering, routing with
// failover and recording of every outcome. Messages go out concurrently, at most
// InstanceConcurrency provider calls at a time per provider instance, each call admitted by
// Throttle when set. The activity heartbeats its progress and renews the leases of the
// messages it holds; it returns counts of the messages sent and failed for good, and the
// messages to retry with the least wait a provider asked for. It fails as a whole only
// when the claim itself fails (a retried batch claims again).
func (a *Service) SendMessages(ctx context.Context, in send.SendBatchInput) (send.SendBatchResult, error) {
	var res send.SendBatchResult
	ids := make([]int64, len(in.Jobs))
	for i, j := range in.Jobs {
		ids[i] = j.LogID
	}
	leased := time.Now()
	var claimed []dbsqlc.MessageLog
	err := a.bulkWrite(ctx, len(ids), func() (err error) {
		claimed, err = a.DB.ClaimMessageLogs(ctx, dbsqlc.ClaimMessageLogsParams{Ids: ids, LeaseSeconds: send.SendLease.Seconds()})
		return err
	})
	if err != nil {
		return res, db.MapError(err)
	}
	if len(claimed) < len(ids) {
		if err := a.unclaimed(ctx, in.Jobs, claimed, &res); err != nil {
			// Release what was claimed: the retried batch claims it again.
			a.renew(ctx, claimed, 0)
			return res, err
		}
	}
	if len(claimed) == 0 {
		return res, nil
	}
	b := &batch{a: a, held: make(map[int64]int32, len(claimed)), leased: leased, res: &res, turns: newAppTurns(), wake: a.wakeDelay()}
	for _, lg := range claimed {
		b.held[lg.ID] = lg.Attempts
	}
	stop := a.keepAlive(ctx, b.beat)
	defer stop()
	work, err := a.prepareBatch(ctx, claimed)
	if err != nil {
		for _, lg := range claimed {
			b.settle(lg, a.release(ctx, lg, err))
		}
		return res, nil
	}
	var wg sync.WaitGroup
	for i := range work {
		w := &work[i]
		if w.done != nil {
			b.settle(w.lg, *w.done)
			continue
		}
		if a.stopping(ctx) || ctx.Err() != nil {
			// Hand the rest back: the workflow retries them on another worker.
			b.giveBack(ctx, w.lg)
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			b.settle(w.lg, a.deliver(ctx, w.entry, w.lg, w.msg, w.plan, b))
		}()
	}
	wg.Wait()
	a.spreadHeld(ctx, &res)
	return res, nil
}

// DefaultHoldSpread is Service.HoldSpread in a worker.
const DefaultHoldSpread = 3 * time.Second

// spreadHeld waits a random part of HoldSpread before a batch that held messages returns.
// When an instance's breaker opens, every batch waiting for its call slots holds its
// messages at the same moment; returning at once, they woke a hundred runs in the same
// second, each with a workflow task and a timer, and another app's sends waited behind
// them for half a second (issue 28). Spread, the runs wake over a few seconds, and their
// holds end as far apart: the provider is not met by all of them at once when it comes
// back either. The batch's worker slot is its channel's own, held a few seconds longer.
func (a *Service) spreadHeld(ctx context.Context, res *send.SendBatchResult) {
	if a.HoldSpread <= 0 || !slices.ContainsFunc(res.Retries, func(r send.Retry) bool { return r.Hold }) {
		return
	}
	draw := a.draw
	if draw == nil {
		draw = rand.N[time.Duration]
	}
	t := time.NewTimer(draw(a.HoldSpread))
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
}

// DefaultWakeSpread is Service.WakeSpread in a worker.
const DefaultWakeSpread = 5 * time.Second

// wakeDelay draws the delay a call or a batch adds to the end of the breaker holds it
// tells its run: a random part of WakeSpread, one per call or batch (a run's held
// messages share its timer). Every run an open breaker held was told the same end, its
// cool-down's; they all woke at that moment, each with a workflow task and a batch that
// met the probe or the breaker open again, and another app's sends waited behind them
// (issue 28: B's slowest sends, 550–690 ms, were in that second). Spread, they wake over
// a few seconds after the probe, and, when it got an answer, send then.
func (a *Service) wakeDelay() time.Duration {
	if a.WakeSpread <= 0 {
		return 0
	}
	draw := a.draw
	if draw == nil {
		draw = rand.N[time.Duration]
	}
	return draw(a.WakeSpread)
}

// unclaimed accounts for the messages of a batch it could not claim: done (by an earlier
// attempt, or gone with their recipient), or held by another attempt until its lease ends.
func (a *Service) unclaimed(ctx context.Context, jobs []send.Job, claimed []dbsqlc.MessageLog, res *send.SendBatchResult) error {
	mine := make(map[int64]bool, len(claimed))
	for _, lg := range claimed {
		mine[lg.ID] = true
	}
	var others []int64
	channel := map[int64]string{}
	for _, j := range jobs {
		if !mine[j.LogID] {
			others = append(others, j.LogID)
			channel[j.LogID] = j.Channel
		}
	}
	states, err := a.DB.MessageLogStates(ctx, others)
	if err != nil {
		return db.MapError(err)
	}
	found := make(map[int64]dbsqlc.MessageLogStatesRow, len(states))
	for _, s := range states {
		found[s.ID] = s
	}
	for _, id := range others {
		s, ok := found[id]
		switch {
		case !ok || s.Status == delivery.StatusFailed:
			res.Failed++
		case s.Status == delivery.StatusQueued:
			wait := time.Second
			if s.LockedUntil != nil {
				wait = min(max(time.Until(*s.LockedUntil)+500*time.Millisecond, time.Second), send.SendLease)
			}
			res.Retries = append(res.Retries, send.Retry{LogID: id, Channel: channel[id], After: wait, Error: "another attempt is sending this message"})
		default:
			res.Sent++
		}
	}
	return nil
}

// work is one claimed message of a batch, ready to send (or already decided: done).
type work struct {
	lg    dbsqlc.MessageLog
	entry *sendEntry
	msg   providers.Message
	plan  []channels.Candidate
	done  *outcome
}

// prepareBatch loads what the messages of a batch share (each send's content, the
// recipients per app, the routing per app and channel) with one query each, then composes
// every message. A failure to load is Herald's own: the caller releases the batch.
func (a *Service) prepareBatch(ctx context.Context, claimed []dbsqlc.MessageLog) ([]work, error) {
	usersByApp := map[int64][]int64{}
	seen := map[uuid.UUID]bool{}
	var requests []uuid.UUID
	for _, lg := range claimed {
		if !seen[lg.RequestID] {
			seen[lg.RequestID] = true
			requests = append(requests, lg.RequestID)
		}
		usersByApp[lg.AppID] = append(usersByApp[lg.AppID], lg.UserID)
	}
	entries, err := a.sendEntries(ctx, requests)
	if err != nil {
		return nil, err
	}
	type userKey struct{ app, user int64 }
	users := map[userKey]dbsqlc.DeliveryUsersRow{}
	for app, ids := range usersByApp {
		rows, err := a.DB.DeliveryUsers(ctx, dbsqlc.DeliveryUsersParams{AppID: app, Ids: ids})
		if err != nil {
			return nil, db.MapError(err)
		}
		for _, u := range rows {
			users[userKey{app, u.ID}] = u
		}
	}
	type planKey struct {
		app     int64
		channel string
	}
	planners := map[planKey]*channels.Planner{}
	out := make([]work, len(claimed))
	for i, lg := range claimed {
		w := &out[i]
		w.lg, w.entry = lg, entries[lg.RequestID]
		u, ok := users[userKey{lg.AppID, lg.UserID}]
		if !ok {
			w.done = a.failedOutcome(ctx, lg, "the recipient no longer exists")
			continue
		}
		msg, facts, err := a.compose(ctx, w.entry, lg, u.Identifier, u.Profile)
		if err != nil {
			w.done = a.failedOutcome(ctx, lg, err.Error())
			continue
		}
		k := planKey{lg.AppID, lg.Channel}
		p, ok := planners[k]
		if !ok {
			if p, err = a.Channels.Planner(ctx, lg.AppID, lg.Channel); err != nil {
				return nil, err
			}
			planners[k] = p
		}
		w.msg, w.plan = msg, p.Plan(facts)
		if len(w.plan) == 0 {
			w.done = a.failedOutcome(ctx, lg, delivery.ReasonNotConfigured)
		}
	}
	return out, nil
}

// failedOutcome records a permanent failure decided before any provider call.
func (a *Service) failedOutcome(ctx context.Context, lg dbsqlc.MessageLog, text string) *outcome {
	if err := a.markFailed(ctx, lg, nil, text); err != nil {
		return &outcome{err: err, text: err.Error()}
	}
	return &outcome{status: delivery.StatusFailed, text: text}
}

// admit bounds, per provider instance in this worker, the provider calls in flight
// (InstanceConcurrency) and the messages sent but not yet recorded (unrecordedPerSlot per
// call slot: a call's record waits for a group commit, while the next call goes out); it
// applies the per-instance rate limit hook.
func (a *Service) admit(ctx context.Context, c *channels.Candidate) (called, recorded func(), err error) {
	n := a.InstanceConcurrency
	if n <= 0 {
		n = DefaultInstanceConcurrency
	}
	v, _ := a.slots.LoadOrStore(c.InstanceID, &instanceSlots{calls: make(chan struct{}, n), unrecorded: make(chan struct{}, n*unrecordedPerSlot)})
	s := v.(*instanceSlots)
	select {
	case s.unrecorded <- struct{}{}:
	case <-ctx.Done():
		return nil, nil, ctx.Err()
	}
	select {
	case s.calls <- struct{}{}:
	case <-ctx.Done():
		<-s.unrecorded
		return nil, nil, ctx.Err()
	}
	if a.Throttle != nil {
		if err := a.Throttle(ctx, c); err != nil {
			<-s.calls
			<-s.unrecorded
			return nil, nil, err
		}
	}
	return func() { <-s.calls }, func() { <-s.unrecorded }, nil
}

// unrecordedPerSlot bounds the messages of an instance sent and waiting for their record,
// per call slot.
const unrecordedPerSlot = 4

// MaxUnrecorded is the most messages a worker can have sent through one provider instance
// and not yet recorded as sent (with the default concurrency): the bound on the duplicates
// a worker killed in the middle of batches can cause on that instance.
const MaxUnrecorded = DefaultInstanceConcurrency * unrecordedPerSlot

// instanceSlots are the semaphores of one provider instance (see admit).
type instanceSlots struct {
	calls, unrecorded chan struct{}
}

// batch is the bookkeeping of one SendMessages attempt.
type batch struct {
	a  *Service
	mu sync.Mutex
	// held are the claimed messages not settled yet, with their attempt numbers; leased
	// is when their leases (send.SendLease) were last set, by the claim or a renewal.
	held   map[int64]int32
	leased time.Time
	res    *send.SendBatchResult
	done   int
	// turns lets a message over its app's call limit wait for the batch's own calls of
	// the app (see appTurns).
	turns *appTurns
	// wake is added to the wait of every message the batch holds for its breakers
	// (wakeDelay).
	wake time.Duration
}

// settle counts a message's outcome and stops renewing its lease.
func (b *batch) settle(lg dbsqlc.MessageLog, o outcome) {
	b.mu.Lock()
	defer b.mu.Unlock()
	delete(b.held, lg.ID)
	b.done++
	switch {
	case o.err == nil && o.status == delivery.StatusSent:
		b.res.Sent++
	case o.err == nil && o.status == delivery.StatusFailed:
		b.res.Failed++
	default:
		b.res.Retries = append(b.res.Retries, send.Retry{LogID: lg.ID, Channel: lg.Channel, After: o.wait, Error: shorten(o.text, maxRetryText), Hold: o.hold})
	}
}

// giveBack frees a message the batch did not try (the worker is stopping) for a retry.
func (b *batch) giveBack(ctx context.Context, lg dbsqlc.MessageLog) {
	b.a.renew(context.WithoutCancel(ctx), []dbsqlc.MessageLog{lg}, 0)
	b.mu.Lock()
	delete(b.held, lg.ID)
	b.res.Retries = append(b.res.Retries, send.Retry{LogID: lg.ID, Channel: lg.Channel, Error: "the worker stopped before sending"})
	b.mu.Unlock()
}

// renewAfter is how much of a lease passes before a batch renews it. Heartbeats come every
// two seconds, so a lease renewed at half its length never has less than a few seconds
// left while the worker lives; renewing at every beat rewrote each row of a batch waiting
// on a hung provider five times in ten seconds, every other app's writes waiting behind
// them (issue 28).
const renewAfter = send.SendLease / 2

// beat renews the leases of the messages the batch holds once half of them has passed,
// and returns its progress, the details of each heartbeat (see keepAlive).
func (b *batch) beat(ctx context.Context) []any {
	now := time.Now()
	b.mu.Lock()
	progress := b.done
	due := now.Sub(b.leased) >= renewAfter
	var ids []int64
	var attempts []int32
	if due {
		ids = make([]int64, 0, len(b.held))
		attempts = make([]int32, 0, len(b.held))
		for id, n := range b.held {
			ids, attempts = append(ids, id), append(attempts, n)
		}
	}
	b.mu.Unlock()
	if len(ids) > 0 {
		if _, err := b.a.DB.RenewMessageLeases(ctx, dbsqlc.RenewMessageLeasesParams{Ids: ids, Attempts: attempts, LeaseSeconds: send.SendLease.Seconds()}); err != nil {
			if ctx.Err() == nil {
				b.a.Log.Warn("could not renew message leases", "messages", len(ids), "error", err)
			}
		} else {
			b.mu.Lock()
			b.leased = now
			b.mu.Unlock()
		}
	}
	return []any{progress}
}

// renew sets the leases of messages held by their claim to end in lease (0: free now).
func (a *Service) renew(ctx context.Context, logs []dbsqlc.MessageLog, lease time.Duration) {
	ids := make([]int64, len(logs))
	attempts := make([]int32, len(logs))
	for i, lg := range logs {
		ids[i], attempts[i] = lg.ID, lg.Attempts
	}
	if _, err := a.DB.RenewMessageLeases(ctx, dbsqlc.RenewMessageLeasesParams{Ids: ids, Attempts: attempts, LeaseSeconds: lease.Seconds()}); err != nil && !errors.Is(err, context.Canceled) {
		a.Log.Warn("could not release message leases", "messages", len(ids), "error", err)
	}
}

func shorten(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
