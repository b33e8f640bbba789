package ratelimit

import (
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/heraldhq/herald/db/dbsqlc"
)

// Postgres is a Store in Herald's own database (migration 00140, UNLOGGED tables): one
// upsert per Take, a row lock per key. It needs nothing beyond Postgres and costs one
// round trip (see docs/benchmarks.md, "Shared rate limits").
type Postgres struct{ q *dbsqlc.Queries }

// NewPostgres returns a store using q (the pool's queries).
func NewPostgres(q *dbsqlc.Queries) *Postgres { return &Postgres{q: q} }

// Name implements Store.
func (*Postgres) Name() string { return "postgres" }

// Take implements Store.
func (p *Postgres) Take(ctx context.Context, key string, rate, burst float64) (bool, time.Duration, error) {
	r, err := p.q.TakeRateToken(ctx, dbsqlc.TakeRateTokenParams{Key: key, Burst: burst, Rate: rate})
	if err != nil {
		return false, 0, storeErr("postgres", err)
	}
	if r.Took {
		return true, 0, nil
	}
	return false, waitFor(r.Tokens, rate), nil
}

// Reserve implements Store.
func (p *Postgres) Reserve(ctx context.Context, key string, n, floor, limit int64, ttl time.Duration) (bool, error) {
	_, err := p.q.ReserveRateCounter(ctx, dbsqlc.ReserveRateCounterParams{
		Key: key, Floor: floor, N: n, Lim: limit, ExpiresAt: time.Now().Add(ttl)})
	if errors.Is(err, pgx.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, storeErr("postgres", err)
	}
	return true, nil
}

// Acquire implements Store: one call of acquire_rate_lease (migration 00285), which
// serialises the callers of a key on an advisory lock.
func (p *Postgres) Acquire(ctx context.Context, key, holder string, limit int64, ttl time.Duration) (bool, error) {
	ok, err := p.q.AcquireRateLease(ctx, dbsqlc.AcquireRateLeaseParams{Key: key, Holder: holder, Lim: limit, TtlMs: max(ttl.Milliseconds(), 1)})
	if err != nil {
		return false, storeErr("postgres", err)
	}
	return ok, nil
}

// Renew implements Store.
func (p *Postgres) Renew(ctx context.Context, key, holder string, ttl time.Duration) (bool, error) {
	n, err := p.q.RenewRateLease(ctx, dbsqlc.RenewRateLeaseParams{Key: key, Holder: holder, TtlMs: max(ttl.Milliseconds(), 1)})
	if err != nil {
		return false, storeErr("postgres", err)
	}
	return n > 0, nil
}

// Release implements Store.
func (p *Postgres) Release(ctx context.Context, key, holder string) error {
	if err := p.q.ReleaseRateLease(ctx, dbsqlc.ReleaseRateLeaseParams{Key: key, Holder: holder}); err != nil {
		return storeErr("postgres", err)
	}
	return nil
}

// Sweep deletes the expired counters (a few rows a month per client).
func (p *Postgres) Sweep(ctx context.Context) error {
	if err := p.q.DeleteExpiredRateCounters(ctx); err != nil {
		return err
	}
	// And the leases of holders that died (a live key drops its own on each acquire).
	return p.q.DeleteExpiredRateLeases(ctx)
}
