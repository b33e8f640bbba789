// Package outbox relays accepted send requests to Temporal. The API commits a request and
// answers at once; the relay, woken by that commit, packs the requests accepted within a few
// milliseconds into one workflow run and starts it. A start that fails leaves the requests
// accepted, and the relay retries them, so a Temporal outage delays delivery but loses
// nothing.
package outbox

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"slices"
	"sync"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/db/dbsqlc"
	"github.com/heraldhq/herald/workflows/schedule"
	"github.com/heraldhq/herald/workflows/send"
)

// Starter starts the workflow that carries a group of requests (a send run, or the schedule
// of one scheduled request) of some apps (each app once, for the run's search attributes).
// Starting an id that was already started must succeed without starting it twice.
type Starter interface {
	Start(ctx context.Context, workflowID string, requestIDs []uuid.UUID, appIDs []int64) error
}

// Options tune the relay.
type Options struct {
	// PackSize is the most requests carried by one workflow run.
	PackSize int
	// PackWindow is how long to wait after a wake-up for more requests to pack.
	PackWindow time.Duration
	// BusySends and BusyWindow: an app that had more than BusySends requests claimed in the
	// last second, its last claim not a full pack, waits BusyWindow after that claim before
	// its next one, so its runs carry more sends each (0: never). Other apps are claimed
	// meanwhile.
	BusySends  int
	BusyWindow time.Duration
	// SharedBusyWindow, when longer than BusyWindow, replaces it while another app has
	// had requests claimed in the last second: a busy app gathers longer when its runs
	// would compete with another app's sends, and keeps the short window alone.
	SharedBusyWindow time.Duration
	// PollInterval is how often to look for work without a wake-up: requests accepted by
	// another process, and starts that failed.
	PollInterval time.Duration
	// Lease is how long a relay owns the start of a workflow it claimed.
	Lease time.Duration
	// RetryDelay is how long to wait before retrying a failed start.
	RetryDelay time.Duration
	// MaxStarts is how many workflow starts of fresh requests may be in flight at once
	// (DefaultMaxStarts when 0): the relay claims the next app's requests while earlier
	// starts wait for Temporal, so one app's starts do not hold another's back.
	MaxStarts int
	// Runs, when set, bounds each app's send runs in flight (its plan's maxSendsInFlight)
	// across every relay: an app at its limit is skipped, its requests left waiting, until
	// one of its runs ends (nil: no limit, and no lookup).
	Runs RunLimit
	// Trace, when set, returns the context to start a workflow in (carrying the trace of
	// the requests) and a function that ends the span it opened.
	Trace func(ctx context.Context, requestIDs []uuid.UUID) (context.Context, func(error))
}

// RunLimit bounds the send runs in flight of each app (issue 28, item 5).
type RunLimit interface {
	// Acquire takes one of app's run leases for the run workflowID; false when the app
	// has as many runs in flight as its plan allows. The run's activities renew the lease
	// and release it when its requests are done.
	Acquire(ctx context.Context, appID int64, workflowID string) bool
}

// fullRetry is how long the relay leaves an app at its run limit before trying it again.
const fullRetry = time.Second

// errAtLimit rolls back a claim of an app at its run limit: its requests stay waiting.
var errAtLimit = errors.New("the app has as many send runs in flight as its plan allows")

// DefaultMaxStarts is Options.MaxStarts by default.
const DefaultMaxStarts = 8

// Relay starts workflows for accepted requests.
type Relay struct {
	mu sync.Mutex
	// apps is each app's recent claims, for the busy window (see resting).
	apps map[int64]*appClaims
	// starting counts each app's starts in flight (see drainFresh).
	starting map[int64]int
	// lastApp is the app whose requests were claimed last (round-robin, see nextApp).
	lastApp int64
	// wakeAt is the earliest wake-up armed by armWake.
	wakeAt time.Time
	// full holds the apps found at their run limit (Options.Runs), until when they are
	// skipped.
	full map[int64]time.Time

	// slots bounds the starts in flight (MaxStarts); starts tracks them.
	slots  chan struct{}
	starts sync.WaitGroup

	db      *db.DB
	starter Starter
	log     *slog.Logger
	opts    Options
	wake    chan struct{}
}

// New returns a relay; call Run to start it and Wake after each accepted request.
func New(d *db.DB, starter Starter, log *slog.Logger, opts Options) *Relay {
	if opts.PackSize <= 0 {
		opts.PackSize = 100
	}
	if opts.PollInterval <= 0 {
		opts.PollInterval = time.Second
	}
	if opts.Lease <= 0 {
		opts.Lease = 30 * time.Second
	}
	if opts.RetryDelay <= 0 {
		opts.RetryDelay = 2 * time.Second
	}
	if opts.MaxStarts <= 0 {
		opts.MaxStarts = DefaultMaxStarts
	}
	return &Relay{db: d, starter: starter, log: log, opts: opts, wake: make(chan struct{}, 1), apps: map[int64]*appClaims{},
		starting: map[int64]int{}, full: map[int64]time.Time{}, slots: make(chan struct{}, opts.MaxStarts)}
}

// appClaims are an app's claims of the last second, the requests they carried, and its
// last partial pack.
type appClaims struct {
	recent  []claim
	sends   int
	partial time.Time
}

// claim is one claim of an app's requests: when, and how many.
type claim struct {
	at time.Time
	n  int
}

// Wake tells the relay that a request was committed. It never blocks.
func (r *Relay) Wake() {
	select {
	case r.wake <- struct{}{}:
	default:
	}
}

// WakeFor tells the relay that a request of app was committed; critical when the relay
// serves it first. A wake for an app resting in its busy window, or with a start in flight,
// is dropped: the end of the rest (a timer, armed here once per rest) or of the start wakes
// the relay, and that drain claims the request with the app's others. A busy app's wakes
// otherwise each cost a drain of round trips only to find it resting (issue 28: at 50
// sends a second, about five queries each, 230 a second beside another app's sends).
func (r *Relay) WakeFor(app int64, critical bool) {
	if !critical && r.waits(app, time.Now()) {
		return
	}
	r.Wake()
}

// waits reports whether app's fresh requests wait anyway for a wake-up of their own: a
// start of the app in flight (it wakes the relay when it ends) or a rest (see resting),
// for whose end it arms a wake-up (armWake).
func (r *Relay) waits(app int64, now time.Time) bool {
	rest, until := r.resting(app, now)
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.starting[app] > 0 {
		return true
	}
	if !rest {
		return false
	}
	r.armWake(until, now)
	return true
}

// armWake wakes the relay at t, unless a wake-up armed earlier comes between now and t (its
// drain arms the next one if an app still rests). Called with r.mu held.
func (r *Relay) armWake(t, now time.Time) {
	if r.wakeAt.After(now) && !r.wakeAt.After(t) {
		return
	}
	r.wakeAt = t
	time.AfterFunc(t.Sub(now), r.Wake)
}

// Run relays until ctx is done, then waits for the starts in flight.
func (r *Relay) Run(ctx context.Context) error {
	ticker := time.NewTicker(r.opts.PollInterval)
	defer ticker.Stop()
	defer r.starts.Wait()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-r.wake:
			if w := r.opts.PackWindow; w > 0 {
				select {
				case <-time.After(w):
				case <-ctx.Done():
					return nil
				}
			}
			r.drainFresh(ctx)
		case <-ticker.C:
			r.drainFresh(ctx)
			r.startScheduled(ctx)
			r.retryStale(ctx)
		}
	}
}

// startScheduled starts the schedule workflow of each scheduled request not started yet.
func (r *Relay) startScheduled(ctx context.Context) {
	type pending struct {
		id         uuid.UUID
		appID      int64
		workflowID string
	}
	var todo []pending
	err := r.db.InTx(ctx, func(q *dbsqlc.Queries, _ pgx.Tx) error {
		rows, err := q.ClaimFreshScheduled(ctx, int32(r.opts.PackSize))
		if err != nil {
			return err
		}
		ids := make([]uuid.UUID, len(rows))
		for i, row := range rows {
			ids[i] = row.ID
			wf := schedule.WorkflowID(row.ID)
			if err := q.AssignWorkflow(ctx, dbsqlc.AssignWorkflowParams{WorkflowID: &wf, LeaseSeconds: r.opts.Lease.Seconds(), Ids: []uuid.UUID{row.ID}}); err != nil {
				return err
			}
			todo = append(todo, pending{row.ID, row.AppID, wf})
		}
		if len(ids) == 0 {
			return nil
		}
		// Claimed requests are counted once, here (see package usage).
		return q.CountRequestUsage(ctx, ids)
	})
	if err != nil {
		r.log.Warn("relay: cannot claim scheduled requests; will retry", "error", err)
		return
	}
	for _, p := range todo {
		r.start(ctx, p.workflowID, []uuid.UUID{p.id}, []int64{p.appID})
	}
}

// resting reports whether app waits before its next claim, and until when: past
// BusySends requests claimed in the last second (or a quarter of them in the last quarter
// second, see busySplits), the last claim not a full pack, it waits
// until BusyWindow after that claim. Each workflow run has a fixed cost in Temporal, so an
// app sending fast gathers its requests into fewer, larger runs; where this wait was one
// for every app after each wake-up, an app sending a few requests a second beside a busy
// one waited for the busy one's window too (issue 28). An app working through a backlog
// (full packs) never waits.
//
// The threshold counts requests, not runs: counting runs, an app that gathered into fewer
// runs fell under the threshold a second later and went back to a run per request, so a
// longer window only made it alternate (issue 28: app A's 50 sends a second were still 25
// runs a second, and app B's median under them was 3 times its idle one).
func (r *Relay) resting(app int64, now time.Time) (bool, time.Time) {
	if r.opts.BusySends <= 0 || r.opts.BusyWindow <= 0 {
		return false, time.Time{}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	a := r.apps[app]
	if a == nil {
		return false, time.Time{}
	}
	a.prune(now)
	until := a.partial.Add(r.busyWindow(app, now))
	if (a.sends > r.opts.BusySends || a.quick(now) > max(r.opts.BusySends/busySplits, 2)) && now.Before(until) {
		return true, until
	}
	return false, time.Time{}
}

// busyWindow is how long app, busy, gathers its requests after a partial pack: BusyWindow,
// or SharedBusyWindow while another app has had requests claimed in the last second. Each
// run costs Temporal a start, a few workflow tasks and three visibility writes whatever it
// carries, so an app at 50 sends a second in runs of 5 cost another app's sends a CPU at
// every hop (issue 28: on the cluster, B's median under A's noise fell from 440–560 ms to
// 130–235 ms with A gathering for 400 ms instead of 100). Alone, the app keeps the short
// window: gathering longer would cost its own sends latency for no one's benefit. Called
// with r.mu held.
func (r *Relay) busyWindow(app int64, now time.Time) time.Duration {
	if r.opts.SharedBusyWindow <= r.opts.BusyWindow {
		return r.opts.BusyWindow
	}
	for id, other := range r.apps {
		if id == app {
			continue
		}
		if other.prune(now); len(other.recent) > 0 {
			return r.opts.SharedBusyWindow
		}
	}
	return r.opts.BusyWindow
}

// busySplits is how many parts of a second the quick count of resting covers: an app past
// BusySends/busySplits requests (at least 2) in the last part of a second is busy at once,
// at the same rate as BusySends in a second, where the second's count took that second to
// see a burst starting (issue 28: app A's first 20 sends of a burst were 20 runs, in the
// burst's first 0.4 s, and app B's sends meanwhile were 5 times slower than idle).
const busySplits = 4

// quick counts the requests claimed in the last 1/busySplits of a second.
func (a *appClaims) quick(now time.Time) int {
	cut := now.Add(-time.Second / busySplits)
	n := 0
	for i := len(a.recent) - 1; i >= 0 && !a.recent[i].at.Before(cut); i-- {
		n += a.recent[i].n
	}
	return n
}

// claimed records a claim of n requests of app for resting.
func (r *Relay) claimed(app int64, n int, now time.Time) {
	if r.opts.BusySends <= 0 || r.opts.BusyWindow <= 0 {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	a := r.apps[app]
	if a == nil {
		a = &appClaims{}
		r.apps[app] = a
	}
	a.prune(now)
	a.recent = append(a.recent, claim{at: now, n: n})
	a.sends += n
	if n < r.opts.PackSize {
		a.partial = now
	}
	// Forget apps idle for a second (the map holds the apps sending now).
	for id, other := range r.apps {
		if other.prune(now); len(other.recent) == 0 {
			delete(r.apps, id)
		}
	}
}

// prune drops the claims older than a second.
func (a *appClaims) prune(now time.Time) {
	cut := now.Add(-time.Second)
	i := 0
	for i < len(a.recent) && a.recent[i].at.Before(cut) {
		a.sends -= a.recent[i].n
		i++
	}
	a.recent = a.recent[i:]
}

// drainFresh packs and starts fresh requests until none are left, serving the apps
// round-robin: one run of at most PackSize requests of the next app that has some waiting,
// then the next app's, and so on. One app's backlog of thousands therefore delays another
// app's fresh send by at most one pack per app with requests waiting, where claiming in
// global arrival order made it wait for the whole backlog (issue 28).
//
// The starts run concurrently, up to MaxStarts at a time, while the relay claims the next
// app's requests: a claim takes a few milliseconds, a start waits for Temporal (tens to
// hundreds of milliseconds on a loaded server), and waiting for each start in turn made
// another app's fresh send queue behind the starts of a busy app's runs (issue 28: most
// of app B's remaining tail under app A's burst). An app has one start in flight at a
// time: its requests accepted meanwhile wait for that start to end (which wakes the
// relay) and then go in one run, so when Temporal is slow a busy app's requests fill
// fewer, larger runs (the relay's back-pressure, now per app: starting each request's run
// the moment it was claimed measured worse under load, and waiting for every start of a
// drain held the other apps too). The drain returns without waiting for its starts.
func (r *Relay) drainFresh(ctx context.Context) {
	// Bound the rounds of one drain: rows locked by another relay are skipped, so an app
	// can be found waiting and still yield nothing; the next wake or tick tries again.
	idle := 0
	for ctx.Err() == nil && idle < 100 {
		n, found, err := r.startFresh(ctx, func(start func()) {
			r.slots <- struct{}{}
			r.starts.Add(1)
			go func() {
				defer func() { <-r.slots; r.starts.Done() }()
				start()
			}()
		})
		if err != nil {
			r.log.Warn("relay: cannot start pending requests; will retry", "error", err)
			return
		}
		if !found {
			return
		}
		if n == 0 {
			idle++
		}
	}
}

// startFresh claims up to PackSize fresh requests of the next app (see nextApp), assigns
// them a workflow id and starts it through spawn. It returns how many requests it claimed,
// and whether any app had requests waiting.
func (r *Relay) startFresh(ctx context.Context, spawn func(func())) (int, bool, error) {
	app, critical, err := r.nextApp(ctx)
	if err != nil || app == 0 {
		return 0, false, err
	}
	var ids []uuid.UUID
	var appIDs []int64
	var workflowID string
	err = r.db.InTx(ctx, func(q *dbsqlc.Queries, _ pgx.Tx) error {
		// Only one app's requests in a run: a pack shares its slices and its batches, so
		// another app's broadcast or hung provider in the same run would delay this one.
		// A critical run carries only critical requests, so no backlog rides along.
		params := dbsqlc.ClaimFreshRequestsOfAppParams{AppID: app, MaxRows: int32(r.opts.PackSize)}
		var rows []dbsqlc.ClaimFreshRequestsOfAppRow
		var err error
		if critical {
			var crit []dbsqlc.ClaimFreshCriticalOfAppRow
			crit, err = q.ClaimFreshCriticalOfApp(ctx, dbsqlc.ClaimFreshCriticalOfAppParams(params))
			for _, row := range crit {
				rows = append(rows, dbsqlc.ClaimFreshRequestsOfAppRow(row))
			}
		} else {
			rows, err = q.ClaimFreshRequestsOfApp(ctx, params)
		}
		if err != nil || len(rows) == 0 {
			return err
		}
		ids, appIDs = make([]uuid.UUID, len(rows)), make([]int64, len(rows))
		for i, row := range rows {
			ids[i], appIDs[i] = row.ID, row.AppID
		}
		workflowID = send.WorkflowID(ids)
		// Over its plan's runs in flight the app's requests stay waiting (the claim rolls
		// back) and the round-robin moves on. Critical runs are not held (nor counted).
		if r.opts.Runs != nil && !critical && !r.opts.Runs.Acquire(ctx, app, workflowID) {
			return errAtLimit
		}
		if err := q.AssignWorkflow(ctx, dbsqlc.AssignWorkflowParams{
			WorkflowID: &workflowID, LeaseSeconds: r.opts.Lease.Seconds(), Ids: ids,
		}); err != nil {
			return err
		}
		// Claimed requests are counted once, here (see package usage).
		return q.CountRequestUsage(ctx, ids)
	})
	if errors.Is(err, errAtLimit) {
		r.mu.Lock()
		r.full[app] = time.Now().Add(fullRetry)
		r.mu.Unlock()
		return 0, true, nil
	}
	if err != nil || len(ids) == 0 {
		return 0, true, err
	}
	r.claimed(app, len(ids), time.Now())
	if critical {
		ctx = context.WithValue(ctx, criticalKey{}, true)
	}
	apps := distinct(appIDs)
	if critical {
		// Started before the relay claims anything else: a critical run is in Temporal
		// before any run claimed after it (they are rare, and alone in their run).
		r.start(ctx, workflowID, ids, apps)
	} else {
		r.mu.Lock()
		r.starting[app]++
		r.mu.Unlock()
		spawn(func() {
			r.start(ctx, workflowID, ids, apps)
			r.mu.Lock()
			if r.starting[app]--; r.starting[app] <= 0 {
				delete(r.starting, app)
			}
			r.mu.Unlock()
			r.Wake() // its requests accepted meanwhile
		})
	}
	return len(ids), true, nil
}

// nextApp returns the app whose fresh requests to claim next, and whether to claim only its
// critical ones; 0 when no app has any waiting.
//
// Critical requests (their category or workflow was critical at accept) jump the queue
// (issue 28, item 4): the app of the oldest critical request waiting is served first,
// whatever the other apps' backlogs, without moving the round-robin. Otherwise it is the
// first app after the one served last with fresh requests waiting, wrapping around to the
// lowest id.
func (r *Relay) nextApp(ctx context.Context) (int64, bool, error) {
	app, err := r.db.NextCriticalApp(ctx)
	if err != nil || app != 0 {
		return app, app != 0, err
	}
	r.mu.Lock()
	after := r.lastApp
	r.mu.Unlock()
	// The first app after the last one served that is not resting; when every app with
	// requests waiting rests, none, and a wake-up when the first of them may go on.
	seen := map[int64]bool{}
	var wakeAt time.Time
	for {
		app, err = r.db.NextWaitingApp(ctx, after)
		if err == nil && app == 0 && after != 0 {
			app, err = r.db.NextWaitingApp(ctx, 0)
		}
		if err != nil || app == 0 {
			return 0, false, err
		}
		rest, until := r.resting(app, time.Now())
		now := time.Now()
		r.mu.Lock()
		busy := r.starting[app] > 0
		full, isFull := r.full[app]
		if isFull && !now.Before(full) {
			delete(r.full, app)
			isFull = false
		}
		r.mu.Unlock()
		if !rest && !busy && !isFull {
			break
		}
		if isFull && !rest {
			rest, until = true, full
		}
		if seen[app] {
			// A start ending wakes the relay; a rest ending needs a timer.
			if !wakeAt.IsZero() {
				r.mu.Lock()
				r.armWake(wakeAt, time.Now())
				r.mu.Unlock()
			}
			return 0, false, nil
		}
		seen[app] = true
		if rest && (wakeAt.IsZero() || until.Before(wakeAt)) {
			wakeAt = until
		}
		after = app
	}
	r.mu.Lock()
	r.lastApp = app
	r.mu.Unlock()
	return app, false, nil
}

// criticalKey marks the context of a run start carrying critical requests (see IsCritical).
type criticalKey struct{}

// IsCritical reports whether the run started with ctx carries critical requests: a
// Starter gives such runs a higher priority. A run restarted after a failed start
// (retryStale) is marked too, from its requests' critical column.
func IsCritical(ctx context.Context) bool {
	v, _ := ctx.Value(criticalKey{}).(bool)
	return v
}

// retryStale restarts workflows whose start failed or whose relay died before marking them.
func (r *Relay) retryStale(ctx context.Context) {
	stale, err := r.db.StaleWorkflows(ctx, 50)
	if err != nil {
		r.log.Warn("relay: cannot look for stale requests", "error", err)
		return
	}
	for _, workflowID := range stale {
		rows, err := r.db.ReclaimWorkflow(ctx, dbsqlc.ReclaimWorkflowParams{WorkflowID: &workflowID, LeaseSeconds: r.opts.Lease.Seconds()})
		if err != nil {
			r.log.Warn("relay: cannot reclaim", "workflowId", workflowID, "error", err)
			continue
		}
		if len(rows) == 0 {
			continue
		}
		ids, appIDs := orderedIDs(rows)
		sctx := ctx
		if slices.ContainsFunc(rows, func(row dbsqlc.ReclaimWorkflowRow) bool { return row.Critical }) {
			// A critical run carries only critical requests: restarted, it keeps its
			// priority key.
			sctx = context.WithValue(ctx, criticalKey{}, true)
		}
		r.start(sctx, workflowID, ids, appIDs)
	}
}

// start starts the workflow and records the outcome on its requests.
func (r *Relay) start(ctx context.Context, workflowID string, ids []uuid.UUID, appIDs []int64) {
	startCtx, end := ctx, func(error) {}
	if r.opts.Trace != nil {
		startCtx, end = r.opts.Trace(ctx, ids)
	}
	err := r.starter.Start(startCtx, workflowID, ids, appIDs)
	end(err)
	if err != nil {
		r.log.Warn("relay: workflow start failed; will retry", "workflowId", workflowID, "requests", len(ids), "error", err)
		msg := "workflow start failed: " + err.Error()
		if derr := r.db.DelayWorkflowRetry(context.WithoutCancel(ctx), dbsqlc.DelayWorkflowRetryParams{
			WorkflowID: &workflowID, DelaySeconds: r.opts.RetryDelay.Seconds(), Error: &msg,
		}); derr != nil {
			r.log.Warn("relay: cannot record start failure", "workflowId", workflowID, "error", derr)
		}
		return
	}
	if err := r.db.MarkWorkflowStarted(context.WithoutCancel(ctx), &workflowID); err != nil && !errors.Is(err, context.Canceled) {
		// The run is started; the lease expires and a later start of the same id is a no-op.
		r.log.Warn("relay: cannot mark workflow started", "workflowId", workflowID, "error", err)
	}
	r.log.Debug("relay: started", "workflowId", workflowID, "requests", len(ids))
}

// orderedIDs returns the request ids of a reclaimed workflow in acceptance order, the order
// the first start used, and their apps.
func orderedIDs(rows []dbsqlc.ReclaimWorkflowRow) ([]uuid.UUID, []int64) {
	sortRows(rows)
	ids := make([]uuid.UUID, len(rows))
	appIDs := make([]int64, len(rows))
	for i, row := range rows {
		ids[i], appIDs[i] = row.ID, row.AppID
	}
	return ids, distinct(appIDs)
}

// distinct returns the app ids in first-seen order, each once.
func distinct(appIDs []int64) []int64 {
	var out []int64
	for _, id := range appIDs {
		if !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	return out
}

func sortRows(rows []dbsqlc.ReclaimWorkflowRow) {
	slices.SortFunc(rows, func(a, b dbsqlc.ReclaimWorkflowRow) int {
		if c := a.CreatedAt.Compare(b.CreatedAt); c != 0 {
			return c
		}
		return bytes.Compare(a.ID[:], b.ID[:])
	})
}
