package ratelimit

import (
	"context"
	"strconv"
	"sync/atomic"
	"time"
)

// Leases is a semaphore per key (an app id) kept in a Store, so its limit holds across
// processes: each holder (a send run, a message being sent) takes one of the key's leases
// for TTL and gives it back when done. A holder that dies without giving it back frees it
// when TTL passes, so a crash costs capacity for at most TTL instead of leaking it for good.
// Like Shared it fails open: a store that does not answer lets the holder through.
type Leases struct {
	store  Store
	prefix string
	ttl    time.Duration
	// OnError is told of a store failure; the acquire it concerned is granted.
	OnError func(error)
	errors  atomic.Int64
}

// NewLeases returns the semaphores of store under prefix+key, whose leases last ttl
// unless renewed (acquired again by their holder). A nil store returns nil: no limit.
func NewLeases(store Store, prefix string, ttl time.Duration) *Leases {
	if store == nil {
		return nil
	}
	return &Leases{store: store, prefix: prefix, ttl: ttl}
}

// TTL is how long a lease lasts without a renewal.
func (l *Leases) TTL() time.Duration { return l.ttl }

// Errors counts the store failures met so far.
func (l *Leases) Errors() int64 { return l.errors.Load() }

// Acquire takes one of key's limit leases for holder, or renews the one it has. It
// reports false when limit others hold one. A nil Leases, a limit of zero or less and a
// failing store (reported to OnError) grant it.
func (l *Leases) Acquire(ctx context.Context, key int64, holder string, limit int) bool {
	if l == nil || limit <= 0 {
		return true
	}
	ok, err := l.store.Acquire(ctx, l.prefix+strconv.FormatInt(key, 10), holder, int64(limit), l.ttl)
	if err != nil {
		l.fail(err)
		return true
	}
	return ok
}

// Renew extends holder's lease of key by the TTL, if it has one: a holder that never
// took a lease (or lost it to expiry) does not get one this way.
func (l *Leases) Renew(ctx context.Context, key int64, holder string) {
	if l == nil {
		return
	}
	if _, err := l.store.Renew(ctx, l.prefix+strconv.FormatInt(key, 10), holder, l.ttl); err != nil {
		l.fail(err)
	}
}

// Release gives holder's lease of key back. A failure is reported to OnError: the lease
// then ends with its TTL.
func (l *Leases) Release(ctx context.Context, key int64, holder string) {
	if l == nil {
		return
	}
	if err := l.store.Release(ctx, l.prefix+strconv.FormatInt(key, 10), holder); err != nil {
		l.fail(err)
	}
}

func (l *Leases) fail(err error) {
	l.errors.Add(1)
	if l.OnError != nil {
		l.OnError(err)
	}
}
