package pipeline

import (
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/heraldhq/herald/db/dbsqlc"
)

// Circuit breakers shared by worker processes (issue 28). Each process keeps its own
// breaker per instance (breaker.go) and mirrors it in Postgres (provider_breakers,
// migration 00270): a process that opens an instance's breaker writes the row, every
// process holds its messages for the instance while the row says open, one process at a
// time takes the half-open probe (a lease on the row), and an answer deletes the row. A
// second worker therefore does not hammer a provider the first found dead, nor does a
// worker restarted while a breaker is open.
//
// The hot path reads the row at most once per breakerCacheTTL per instance and process,
// and writes only when a breaker opens or closes. A database error leaves the process on
// its own breaker (fail open: messages are tried, not held).
const breakerCacheTTL = time.Second

// sharedBreaker is an instance's row: open until until (then half-open), or closed.
type sharedBreaker struct {
	open     bool
	until    time.Time
	cooldown time.Duration
}

// sharedState returns the instance's shared breaker, from the cache while fresh. One call
// at a time reads a stale row; the others wait for its read: the calls of a batch of
// emails all find the cache stale together, and each reading it would open as many
// connections at once (seen as 17 new backends in one isolation run).
func (a *Service) sharedState(ctx context.Context, id int64, b *breaker, now time.Time) sharedBreaker {
	b.mu.Lock()
	if !b.fetched.IsZero() && now.Sub(b.fetched) < breakerCacheTTL {
		s := b.shared
		b.mu.Unlock()
		return s
	}
	if reading := b.reading; reading != nil {
		b.mu.Unlock()
		select {
		case <-reading:
		case <-ctx.Done():
		}
		b.mu.Lock()
		defer b.mu.Unlock()
		return b.shared
	}
	read := make(chan struct{})
	b.reading = read
	b.mu.Unlock()
	defer close(read)
	var s sharedBreaker
	row, err := a.DB.GetProviderBreaker(ctx, id)
	switch {
	case err == nil:
		s = sharedBreaker{open: true, until: row.OpenUntil, cooldown: time.Duration(row.CooldownMs) * time.Millisecond}
	case errors.Is(err, pgx.ErrNoRows):
	default:
		if ctx.Err() == nil {
			a.Log.Warn("cannot read the shared circuit breaker; using this worker's", "instanceId", id, "error", err)
		}
	}
	b.mu.Lock()
	b.shared, b.fetched, b.reading = s, now, nil
	b.mu.Unlock()
	return s
}

// setShared records what this process wrote to the instance's row.
func (b *breaker) setShared(s sharedBreaker, now time.Time) {
	b.mu.Lock()
	b.shared, b.fetched = s, now
	b.mu.Unlock()
}

// isProbing reports whether this process holds the instance's probe.
func (b *breaker) isProbing() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.probing
}

// probeShared makes this process's breaker the prober of a shared open breaker: its
// verdict closes the breaker, or opens it for twice the cool-down.
func (b *breaker) probeShared(s sharedBreaker) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.probing, b.openUntil = true, s.until
	b.cooldown = max(b.cooldown, s.cooldown)
}

// breakerHeld is breaker.blocked with the shared breaker: whether calls to the instance
// are held now, and until when.
//
// This process's own open breaker gives way when the shared one is closed: another
// process's probe got an answer. (Not within breakerCacheTTL of opening it, while the
// row it wrote may not be read back yet.)
func (a *Service) breakerHeld(ctx context.Context, id int64, b *breaker, now time.Time) (bool, time.Time) {
	blocked, at := b.blocked(now)
	if a.DB == nil {
		return blocked, at
	}
	s := a.sharedState(ctx, id, b, now)
	if blocked {
		if !s.open && b.closeOpenedBefore(now.Add(-breakerCacheTTL)) {
			return false, time.Time{}
		}
		return true, at
	}
	if s.open && now.Before(s.until) {
		return true, s.until
	}
	return false, time.Time{}
}

// closeOpenedBefore closes the breaker if this process opened it before t (and no probe
// of its own is out), reporting whether it did.
func (b *breaker) closeOpenedBefore(t time.Time) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.probing || !b.opened.Before(t) {
		return false
	}
	b.fails, b.openUntil, b.cooldown = 0, time.Time{}, 0
	return true
}

// breakerAllow is breaker.allow with the shared breaker: whether this call may go to the
// instance, and when not, when it will be tried again. Of the processes finding the
// shared breaker half-open, the one that takes the row's probe lease calls; the others
// wait for its verdict.
func (a *Service) breakerAllow(ctx context.Context, id int64, b *breaker, now time.Time) (bool, time.Time) {
	ok, at := b.allow(now)
	if !ok || a.DB == nil {
		return ok, at
	}
	s := a.sharedState(ctx, id, b, now)
	switch {
	case !s.open:
		return true, time.Time{} // closed, or only this process knows (its own probe)
	case now.Before(s.until):
		if b.isProbing() {
			b.abandon()
		}
		return false, s.until
	}
	lease := max(s.cooldown, breakerCooldown)
	_, err := a.DB.TakeProviderBreakerProbe(ctx, dbsqlc.TakeProviderBreakerProbeParams{InstanceID: id, LeaseSeconds: lease.Seconds()})
	switch {
	case err == nil:
		b.probeShared(s)
		return true, time.Time{}
	case errors.Is(err, pgx.ErrNoRows):
		// Another process probes, or closed the breaker meanwhile: read the row again.
		b.setShared(sharedBreaker{}, time.Time{})
		if s := a.sharedState(ctx, id, b, now); !s.open {
			return true, time.Time{}
		}
		if b.isProbing() {
			b.abandon()
		}
		return false, now.Add(lease)
	default:
		a.Log.Warn("cannot take the shared circuit breaker's probe; probing from this worker", "instanceId", id, "error", err)
		return true, time.Time{}
	}
}

// breakerRecord is breaker.record with the shared breaker: an opening is written for the
// other processes, and an answer closes the shared breaker.
func (a *Service) breakerRecord(ctx context.Context, id int64, b *breaker, answered bool, now time.Time) {
	opened, closed, until, cooldown := b.record(answered, now)
	if a.DB == nil {
		return
	}
	switch {
	case opened:
		if err := a.DB.OpenProviderBreaker(ctx, dbsqlc.OpenProviderBreakerParams{InstanceID: id, OpenUntil: until, CooldownMs: int32(cooldown.Milliseconds())}); err != nil {
			a.Log.Warn("cannot share an open circuit breaker", "instanceId", id, "error", err)
			return
		}
		b.setShared(sharedBreaker{open: true, until: until, cooldown: cooldown}, now)
	case answered:
		b.mu.Lock()
		sharedOpen := b.shared.open
		b.mu.Unlock()
		if !closed && !sharedOpen {
			return
		}
		if err := a.DB.CloseProviderBreaker(ctx, id); err != nil {
			a.Log.Warn("cannot close the shared circuit breaker", "instanceId", id, "error", err)
			return
		}
		b.setShared(sharedBreaker{}, now)
	}
}
