// Package usage counts notifications and recipients per app and client and month, and holds
// the quota gate of the accept path.
//
// Counting costs the accept path nothing: the outbox relay adds requests to the counters
// (app_usage, client_usage) in the transaction that claims them, and requests not claimed
// yet are counted straight from the outbox. The gate checks a client's monthly quota from
// a per-process estimate while the client is far below it, and exactly, under a per-client
// advisory lock, once it gets within a margin of it.
package usage

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/db/dbsqlc"
	"github.com/heraldhq/herald/internal/platform/ratelimit"
)

// Modes of the quota.
const (
	// Off neither checks nor reports quotas (usage is still counted).
	Off = "off"
	// Report shows usage against the plan and never refuses a send.
	Report = "report"
	// Enforce refuses sends over the monthly quota with 429.
	Enforce = "enforce"
)

// Quota is a client's monthly allowance.
type Quota struct {
	// Plan is the plan's id, PlanName its name for messages.
	Plan, PlanName string
	// Monthly is the notifications allowed per calendar month (UTC); 0 is unlimited.
	Monthly int64
}

// QuotaSource tells a client's quota (billing does, from its license, subscription or the
// free plan).
type QuotaSource func(ctx context.Context, clientID int64) (Quota, error)

// GateOptions tune the gate.
type GateOptions struct {
	// Margin is how close to the quota sends are checked exactly.
	Margin int64
	// Refresh is how old the cached count may get (1s by default).
	Refresh time.Duration
	// QuotaTTL is how long a client's quota is cached (10s by default).
	QuotaTTL time.Duration
	// OnRefused is called for each send refused over quota.
	OnRefused func()
	// Shared, when set, holds the blocks of quota the processes admit on their estimates
	// (ratelimit.Store: Postgres or Redis), so that all of them together admit at most the
	// quota less the margin without an exact count; past that every process counts exactly.
	// Without it each process admits on its own estimate, and N processes may together
	// pass the margin within one refresh.
	Shared ratelimit.Store
	// Block is the most admissions a process reserves at once from Shared (100 by default).
	Block int64
}

// Gate admits sends against their client's monthly quota.
type Gate struct {
	db     *db.DB
	mode   string
	quotas QuotaSource
	opts   GateOptions
	// Now is the clock; tests move it.
	Now func() time.Time

	mu      sync.Mutex
	apps    map[int64]appClient
	clients map[int64]*clientCount
}

type appClient struct {
	clientID int64 // 0 for apps outside any client
	at       time.Time
}

// clientCount is the per-process estimate of one client's month. The estimate never falls
// below the true count of this process's sends: sends in flight when the count is read may
// be counted twice, never zero times. Fast-path inserts hold inserting for reading; the
// exact path holds it for writing, so it counts only after they have finished.
type clientCount struct {
	inserting sync.RWMutex

	mu         sync.Mutex
	quota      Quota
	quotaAt    time.Time
	month      time.Time
	used       int64 // counted + pending when read
	local      int64 // admitted here since the read began (and in flight then)
	inflight   int64 // fast-path inserts not finished
	readAt     time.Time
	refreshing bool
	// tokens are admissions reserved from the shared store for month, not spent yet.
	tokens      int64
	tokensMonth time.Time
}

// NewGate returns a gate in the given mode.
func NewGate(d *db.DB, mode string, quotas QuotaSource, opts GateOptions) *Gate {
	if opts.Refresh <= 0 {
		opts.Refresh = time.Second
	}
	if opts.QuotaTTL <= 0 {
		opts.QuotaTTL = 10 * time.Second
	}
	if opts.Block <= 0 {
		opts.Block = 100
	}
	return &Gate{db: d, mode: mode, quotas: quotas, opts: opts, Now: time.Now,
		apps: map[int64]appClient{}, clients: map[int64]*clientCount{}}
}

// Mode returns off, report or enforce.
func (g *Gate) Mode() string { return g.mode }

// Guard runs insert when the app may accept one more notification this month. insert gets
// nil queries on the fast path (it runs on the pool) or the queries of the transaction
// that holds the client's quota lock.
func (g *Gate) Guard(ctx context.Context, appID int64, insert func(q *dbsqlc.Queries) error) error {
	if g.mode != Enforce {
		return insert(nil)
	}
	clientID, err := g.clientOf(ctx, appID)
	if err != nil || clientID == 0 {
		if err != nil {
			return err
		}
		return insert(nil) // apps outside a client (operator-made) have no quota
	}
	c := g.count(clientID)
	q, err := g.quota(ctx, c, clientID)
	if err != nil {
		return err
	}
	if q.Monthly <= 0 {
		return insert(nil)
	}
	c.inserting.RLock()
	if !g.reserve(ctx, c, clientID, q) {
		c.inserting.RUnlock()
		return g.exact(ctx, c, clientID, q, insert)
	}
	err = insert(nil)
	c.inserting.RUnlock()
	c.mu.Lock()
	c.inflight--
	if err != nil && c.local > 0 {
		c.local--
	}
	c.mu.Unlock()
	return err
}

// clientOf returns the client of an app (cached: apps never change client).
func (g *Gate) clientOf(ctx context.Context, appID int64) (int64, error) {
	now := g.Now()
	g.mu.Lock()
	a, ok := g.apps[appID]
	g.mu.Unlock()
	if ok && now.Sub(a.at) < time.Hour {
		return a.clientID, nil
	}
	id, err := g.db.ClientOfApp(ctx, appID)
	if err != nil {
		return 0, db.MapError(err)
	}
	var clientID int64
	if id != nil {
		clientID = *id
	}
	g.mu.Lock()
	if len(g.apps) > 100_000 {
		clear(g.apps)
	}
	g.apps[appID] = appClient{clientID: clientID, at: now}
	g.mu.Unlock()
	return clientID, nil
}

func (g *Gate) count(clientID int64) *clientCount {
	g.mu.Lock()
	defer g.mu.Unlock()
	c := g.clients[clientID]
	if c == nil {
		if len(g.clients) > 100_000 {
			clear(g.clients)
		}
		c = &clientCount{}
		g.clients[clientID] = c
	}
	return c
}

// Forget drops the cached quota of a client, after its plan or license changed.
func (g *Gate) Forget(clientID int64) {
	c := g.count(clientID)
	c.mu.Lock()
	c.quotaAt = time.Time{}
	c.mu.Unlock()
}

func (g *Gate) quota(ctx context.Context, c *clientCount, clientID int64) (Quota, error) {
	now := g.Now()
	c.mu.Lock()
	q, fresh := c.quota, !c.quotaAt.IsZero() && now.Sub(c.quotaAt) < g.opts.QuotaTTL
	c.mu.Unlock()
	if fresh {
		return q, nil
	}
	q, err := g.quotas(ctx, clientID)
	if err != nil {
		return Quota{}, err
	}
	c.mu.Lock()
	c.quota, c.quotaAt = q, now
	c.mu.Unlock()
	return q, nil
}

// reserve admits one send on the estimate when the client stays more than the margin
// below its quota; it refreshes a stale estimate (one caller at a time, the others use
// the old one or go the exact way).
func (g *Gate) reserve(ctx context.Context, c *clientCount, clientID int64, q Quota) bool {
	now := g.Now()
	month := MonthOf(now)
	c.mu.Lock()
	stale := c.readAt.IsZero() || !c.month.Equal(month) || now.Sub(c.readAt) >= g.opts.Refresh
	if stale && !c.refreshing {
		c.refreshing = true
		localAtStart, inflightAtStart := c.local, c.inflight
		c.mu.Unlock()
		used, err := g.used(ctx, g.db.Queries, clientID, month)
		c.mu.Lock()
		c.refreshing = false
		if err == nil {
			// Sends in flight when the read began, and those admitted since, may or may not
			// be in it: count them on top.
			c.used, c.local, c.readAt, c.month = used, c.local-localAtStart+inflightAtStart, now, month
		}
	}
	// A stale estimate of this month still serves while another caller refreshes it.
	known := !c.readAt.IsZero() && c.month.Equal(month)
	ok := known && c.used+c.local+1+g.opts.Margin <= q.Monthly
	if ok && g.opts.Shared != nil {
		ok = g.takeShared(ctx, c, clientID, q, month)
	}
	if ok {
		c.local++
		c.inflight++
	}
	c.mu.Unlock()
	return ok
}

// takeShared spends one admission reserved from the shared store, reserving a block when
// none is left: at most a sixteenth of what remains below the margin, so the processes
// share the last blocks, and at least one. It runs under c.mu. A refused block (all
// processes together reached the quota less the margin) or a failing store sends the
// caller the exact way, which is always right.
func (g *Gate) takeShared(ctx context.Context, c *clientCount, clientID int64, q Quota, month time.Time) bool {
	if !c.tokensMonth.Equal(month) {
		c.tokens, c.tokensMonth = 0, month
	}
	if c.tokens == 0 {
		limit := q.Monthly - g.opts.Margin
		floor := c.used
		n := min(g.opts.Block, max(1, (limit-floor)/16))
		key := fmt.Sprintf("quota:%d:%s", clientID, month.Format("2006-01"))
		ttl := month.AddDate(0, 1, 7).Sub(g.Now())
		ok, err := g.opts.Shared.Reserve(ctx, key, n, floor, limit, ttl)
		if err != nil || !ok {
			return false
		}
		c.tokens = n
	}
	c.tokens--
	return true
}

// exact counts under the client's lock and inserts in the same transaction, so sends near
// the quota are admitted one at a time against the true count. It waits for this
// process's fast-path inserts to finish, so the count sees them.
func (g *Gate) exact(ctx context.Context, c *clientCount, clientID int64, q Quota, insert func(q *dbsqlc.Queries) error) error {
	c.inserting.Lock()
	defer c.inserting.Unlock()
	now := g.Now()
	month := MonthOf(now)
	var used int64
	read := false
	err := g.db.InTx(ctx, func(tq *dbsqlc.Queries, _ pgx.Tx) error {
		if err := tq.LockClientQuota(ctx, clientID); err != nil {
			return db.MapError(err)
		}
		var err error
		if used, err = g.used(ctx, tq, clientID, month); err != nil {
			return err
		}
		read = true
		if used >= q.Monthly {
			if g.opts.OnRefused != nil {
				g.opts.OnRefused()
			}
			return overQuota(q, used, month, now)
		}
		return insert(tq)
	})
	if !read {
		return err
	}
	if err == nil {
		used++
	}
	c.mu.Lock()
	c.used, c.local, c.readAt, c.month = used, 0, now, month
	c.mu.Unlock()
	return err
}

func (g *Gate) used(ctx context.Context, q *dbsqlc.Queries, clientID int64, month time.Time) (int64, error) {
	n, err := q.ClientUsedThisMonth(ctx, dbsqlc.ClientUsedThisMonthParams{
		ClientID: clientID, Month: pgtype.Date{Time: month, Valid: true}, MonthStart: month,
	})
	return n, db.MapError(err)
}

// QuotaError is a send refused over quota; it tells the caller when the quota resets.
type QuotaError struct {
	err   *herald.Error
	Until time.Time
	now   time.Time
}

// Error implements error.
func (e *QuotaError) Error() string { return e.err.Error() }

// Unwrap exposes the domain error to the error table.
func (e *QuotaError) Unwrap() error { return e.err }

// Wait is how long until the quota resets (the Retry-After of the 429).
func (e *QuotaError) Wait() time.Duration { return e.Until.Sub(e.now) }

func overQuota(q Quota, used int64, month, now time.Time) error {
	next := month.AddDate(0, 1, 0)
	return &QuotaError{Until: next, now: now, err: herald.Errorf(herald.ERATELIMIT,
		"monthly quota reached: the %s plan allows %d notifications a month and %d were sent in %s; upgrade the plan or wait until %s",
		q.PlanName, q.Monthly, used, month.Format("2006-01"), next.Format("2006-01-02"))}
}

// MonthOf returns the first instant of t's calendar month in UTC.
func MonthOf(t time.Time) time.Time {
	t = t.UTC()
	return time.Date(t.Year(), t.Month(), 1, 0, 0, 0, 0, time.UTC)
}

// String describes a quota for logs.
func (q Quota) String() string {
	if q.Monthly <= 0 {
		return q.Plan + " (unlimited)"
	}
	return fmt.Sprintf("%s (%d a month)", q.Plan, q.Monthly)
}
