package bench

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"github.com/heraldhq/herald/workflows/contract"
)

// DeliveryResult is scenario 2: sustained single-recipient in-app delivery.
type DeliveryResult struct {
	// Accepted is how many sends the load phase got accepted.
	Accepted int64
	// Backlog is the most sends the load phase kept accepted but not yet delivered: the
	// generator waits while the stack is that far behind, so the phase measures the rate the
	// stack sustains rather than how fast the API can queue work.
	Backlog int64
	// Concurrency is the load phase's number of closed-loop clients.
	Concurrency int
	// Delivered is inbox rows written per second while the load phase ran (the sustained
	// rate; the backlog is drained afterwards).
	DeliveredPerSec float64
	// Drain is how long the backlog took to empty after the load stopped.
	Drain time.Duration
	// HalfRate is the open-loop rate of the latency phase, and P50/P99 accept-to-inbox there.
	HalfRate         float64
	HalfP50, HalfP99 time.Duration
	// LowRate latency at 10 sends/s.
	LowP50, LowP99 time.Duration
	// Reference is trivial workflows (start + one activity) completed per second on the same
	// Temporal server.
	Reference Stats
}

// deliveryBacklog bounds the load phase's accepted-but-undelivered sends (a few seconds of
// work at the target rate, enough for the relay to pack full runs).
const deliveryBacklog = 4000

// Delivery measures end-to-end in-app delivery: a closed-loop load phase with bounded backlog
// for the sustained rate, then open-loop phases at half that rate and at 10/s for accept-to-inbox latency
// (inbox row created_at minus request created_at, both stamped by Postgres).
func Delivery(ctx context.Context, t *Target, concurrency int, load, latency time.Duration) (DeliveryResult, error) {
	var res DeliveryResult
	ref, err := TrivialWorkflows(ctx, t.TemporalAddr, concurrency, latency)
	if err != nil {
		return res, fmt.Errorf("reference: %w", err)
	}
	res.Reference = ref
	pool, err := pgxpool.New(ctx, t.DatabaseURL)
	if err != nil {
		return res, err
	}
	defer pool.Close()

	headers := t.AppHeaders()
	var accepted atomic.Int64
	send := func(ctx context.Context, tag string, i int) error {
		body := fmt.Appendf(nil, `{"notification":{"title":"%s"},"sendTo":{"recipients":["deliver-%d"]}}`, tag, i%5000)
		status, out, err := t.Do(ctx, "POST", "/v3/notifications", body, headers)
		if err := expect(status, out, err, 202); err != nil {
			return err
		}
		accepted.Add(1)
		return nil
	}
	res.Backlog, res.Concurrency = deliveryBacklog, concurrency
	var delivered atomic.Int64
	pollCtx, stopPoll := context.WithCancel(ctx)
	go pollDelivered(pollCtx, pool, "load", &delivered)
	start := time.Now()
	ClosedLoop(ctx, concurrency, load, func(ctx context.Context, w, i int) error {
		for accepted.Load()-delivered.Load() >= deliveryBacklog {
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(20 * time.Millisecond):
			}
		}
		return send(ctx, "load", w*1_000_000+i)
	})
	end := time.Now()
	stopPoll()
	res.Accepted = accepted.Load()
	var during int64
	if err := pool.QueryRow(ctx, `SELECT count(*) FROM notifications WHERE title = 'load' AND created_at <= $1`, end).Scan(&during); err != nil {
		return res, err
	}
	res.DeliveredPerSec = float64(during) / end.Sub(start).Seconds()
	if err := waitDrained(ctx, pool, "load", res.Accepted, 10*time.Minute); err != nil {
		return res, err
	}
	res.Drain = time.Since(end)

	res.HalfRate = max(res.DeliveredPerSec/2, 1)
	OpenLoop(ctx, res.HalfRate, latency, 4*concurrency, func(ctx context.Context, i int) error { return send(ctx, "half", i) })
	if res.HalfP50, res.HalfP99, err = acceptToInbox(ctx, pool, "half"); err != nil {
		return res, err
	}
	OpenLoop(ctx, 10, latency, concurrency, func(ctx context.Context, i int) error { return send(ctx, "low", i) })
	if res.LowP50, res.LowP99, err = acceptToInbox(ctx, pool, "low"); err != nil {
		return res, err
	}
	return res, nil
}

// pollDelivered keeps n at the count of delivered sends titled title until ctx ends.
func pollDelivered(ctx context.Context, pool *pgxpool.Pool, title string, n *atomic.Int64) {
	for ctx.Err() == nil {
		var c int64
		if err := pool.QueryRow(ctx, `SELECT count(*) FROM notifications WHERE title = $1`, title).Scan(&c); err == nil {
			n.Store(c)
		}
		select {
		case <-ctx.Done():
		case <-time.After(100 * time.Millisecond):
		}
	}
}

func waitDrained(ctx context.Context, pool *pgxpool.Pool, title string, want int64, limit time.Duration) error {
	deadline := time.Now().Add(limit)
	for {
		var n int64
		if err := pool.QueryRow(ctx, `SELECT count(*) FROM notifications WHERE title = $1`, title).Scan(&n); err != nil {
			return err
		}
		if n >= want {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("only %d of %d %q sends delivered after %s", n, want, title, limit)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// acceptToInbox waits for every send of a phase and returns p50/p99 accept-to-inbox.
func acceptToInbox(ctx context.Context, pool *pgxpool.Pool, title string) (p50, p99 time.Duration, err error) {
	var want int64
	if err = pool.QueryRow(ctx, `SELECT count(*) FROM notification_requests WHERE payload->'notification'->>'title' = $1`, title).Scan(&want); err != nil {
		return
	}
	if err = waitDrained(ctx, pool, title, want, 5*time.Minute); err != nil {
		return
	}
	var a, b float64
	err = pool.QueryRow(ctx, `SELECT
		percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM n.created_at - r.created_at)),
		percentile_cont(0.99) WITHIN GROUP (ORDER BY extract(epoch FROM n.created_at - r.created_at))
		FROM notifications n JOIN notification_requests r ON r.id = n.request_id WHERE n.title = $1`, title).Scan(&a, &b)
	return time.Duration(a * float64(time.Second)), time.Duration(b * float64(time.Second)), err
}

// TrivialWorkflows measures workflows of one no-op activity completed per second against a
// Temporal server, from concurrency starters, with a worker in this process.
func TrivialWorkflows(ctx context.Context, addr string, concurrency int, d time.Duration) (Stats, error) {
	c, err := client.Dial(client.Options{HostPort: addr, Logger: silent{}})
	if err != nil {
		return Stats{}, err
	}
	defer c.Close()
	queue := fmt.Sprintf("bench-reference-%d", time.Now().UnixNano())
	w := worker.New(c, queue, worker.Options{})
	w.RegisterWorkflowWithOptions(trivialWorkflow, workflow.RegisterOptions{Name: "BenchTrivial"})
	benchNoop.Register(w, func(context.Context, struct{}) error { return nil })
	if err := w.Start(); err != nil {
		return Stats{}, err
	}
	defer w.Stop()
	return ClosedLoop(ctx, concurrency, d, func(ctx context.Context, wk, i int) error {
		run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: fmt.Sprintf("%s-%d-%d", queue, wk, i), TaskQueue: queue}, "BenchTrivial")
		if err != nil {
			return err
		}
		err = run.Get(ctx, nil)
		if errors.Is(err, context.DeadlineExceeded) {
			return ctx.Err()
		}
		return err
	}), nil
}

func trivialWorkflow(ctx workflow.Context) error {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: time.Minute})
	return benchNoop.Execute(ctx, struct{}{}).Wait(ctx)
}

// benchNoop is the reference workflow's one activity, which does nothing.
var benchNoop = contract.DefineAction[struct{}]("BenchNoop")

type silent struct{}

func (silent) Debug(string, ...any) {}
func (silent) Info(string, ...any)  {}
func (silent) Warn(string, ...any)  {}
func (silent) Error(string, ...any) {}
