package ratelimit

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"
	"sync/atomic"
	"time"
)

// Store keeps token buckets and counters that every Herald process shares, so N API
// processes together allow the configured rate once, not N times: Postgres by default
// (NewPostgres), Redis when HERALD_REDIS_URL is set (NewRedis). Keys name their owner
// ("send:app:12", "instance:7", "quota:3:2026-11").
type Store interface {
	// Take takes one token from key's bucket of burst tokens refilled at rate per second
	// (created full). Without a token it takes nothing and says how long until one is there.
	Take(ctx context.Context, key string, rate, burst float64) (ok bool, wait time.Duration, err error)
	// Reserve adds n to key's counter when the sum stays at most limit; the counter never
	// reads below floor (the caller's true count), and is forgotten after ttl.
	Reserve(ctx context.Context, key string, n, floor, limit int64, ttl time.Duration) (bool, error)
	// Acquire gives holder one of key's limit leases for ttl, or renews the one holder
	// already has; false when limit unexpired leases are held by others. A lease ends with
	// Release or when ttl passes without a renewal (its holder died).
	Acquire(ctx context.Context, key, holder string, limit int64, ttl time.Duration) (bool, error)
	// Renew extends holder's lease of key by ttl from now; false when it has none (it
	// never had one, or it expired and was taken).
	Renew(ctx context.Context, key, holder string, ttl time.Duration) (bool, error)
	// Release ends holder's lease of key (nothing when it has none).
	Release(ctx context.Context, key, holder string) error
	// Name is "postgres" or "redis", for logs and figures.
	Name() string
}

// waitFor is the time until one token is back in a bucket holding tokens (< 1) that gains
// rate tokens per second; at least a millisecond.
func waitFor(tokens, rate float64) time.Duration {
	return max(time.Duration((1-tokens)/rate*float64(time.Second)), time.Millisecond)
}

// KeyLimiter is a per-app rate limit as the send route uses it: the local Limiter of one
// process or a Shared one of all processes.
type KeyLimiter interface {
	// Take takes one token of key's budget or says how long until there is one.
	Take(ctx context.Context, key int64) (bool, time.Duration)
	// Rate is the sustained rate per second; Burst the most accepted at once.
	Rate() float64
	Burst() int
}

// Take is Allow, as a KeyLimiter.
func (l *Limiter) Take(_ context.Context, key int64) (bool, time.Duration) { return l.Allow(key) }

// Shared is a per-key token bucket kept in a Store, so its budget holds across processes.
type Shared struct {
	store  Store
	prefix string
	rate   float64
	burst  float64
	// OnError is told of a store failure; the request it concerned is let through (a
	// rate limit that fails closed would turn a store outage into an API outage).
	OnError func(error)
	errors  atomic.Int64
}

// NewShared returns a limiter of rate per second with bursts of burst (at least one) per
// key, kept in store under prefix+key. A rate of zero or less returns nil: no limit.
func NewShared(store Store, prefix string, rate float64, burst int) *Shared {
	if rate <= 0 || store == nil {
		return nil
	}
	return &Shared{store: store, prefix: prefix, rate: rate, burst: math.Max(1, float64(burst))}
}

// Rate is the sustained rate in requests per second.
func (l *Shared) Rate() float64 { return l.rate }

// Burst is the most requests accepted at once after a quiet period.
func (l *Shared) Burst() int { return int(l.burst) }

// Errors counts the store failures met so far.
func (l *Shared) Errors() int64 { return l.errors.Load() }

// Take takes a token from key's shared bucket. A nil limiter allows everything; so does a
// failing store (reported to OnError).
func (l *Shared) Take(ctx context.Context, key int64) (bool, time.Duration) {
	if l == nil {
		return true, 0
	}
	ok, wait, err := l.store.Take(ctx, l.prefix+strconv.FormatInt(key, 10), l.rate, l.burst)
	if err != nil {
		l.errors.Add(1)
		if l.OnError != nil {
			l.OnError(err)
		}
		return true, 0
	}
	return ok, wait
}

// Wait blocks until key's bucket in store (rate per second, bursts of burst) gives a
// token, and returns how long it waited. It returns ctx's error when ctx ends first, and
// the store's error at once (the caller decides whether to go on without the limit).
func Wait(ctx context.Context, store Store, key string, rate float64, burst int) (time.Duration, error) {
	if store == nil || rate <= 0 {
		return 0, nil
	}
	b := math.Max(1, float64(burst))
	start := time.Now()
	var timer *time.Timer
	for {
		ok, wait, err := store.Take(ctx, key, rate, b)
		if err != nil {
			return time.Since(start), err
		}
		if ok {
			return time.Since(start), nil
		}
		if timer == nil {
			timer = time.NewTimer(wait)
			defer timer.Stop()
		} else {
			timer.Reset(wait)
		}
		select {
		case <-ctx.Done():
			return time.Since(start), ctx.Err()
		case <-timer.C:
		}
	}
}

// errStore reports a store answer this package cannot read.
var errStore = errors.New("ratelimit: unexpected answer from the store")

func storeErr(name string, err error) error {
	return fmt.Errorf("rate limit store %s: %w", name, err)
}
