package bench

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/heraldhq/herald/internal/inbox"
)

// InboxResult is scenario 4: reading inboxes at scale.
type InboxResult struct {
	Rows       int64
	Users      int
	HeavyRows  int
	SeedTime   time.Duration
	Page1      Stats
	Page500    Stats
	Unread     Stats
	Ordinary   Stats
	UnreadPath string
	// Ref holds the reference of each measure: the same SQL the endpoint runs
	// (inbox.ListStatement), straight through pgx at the same concurrency, every column
	// scanned, in the same run.
	Ref struct{ Page1, Page500, Unread, Ordinary Stats }
}

// Inbox seeds rows notifications over users users (one heavy user holding heavy of them)
// straight into the database of the target's app, then measures the list endpoint.
func Inbox(ctx context.Context, t *Target, rows, users, heavy, concurrency int, d time.Duration) (InboxResult, error) {
	res := InboxResult{Rows: int64(rows), Users: users, HeavyRows: heavy}
	pool, err := pgxpool.New(ctx, t.DatabaseURL)
	if err != nil {
		return res, err
	}
	defer pool.Close()
	start := time.Now()
	if err := seedInbox(ctx, pool, t.APIKey, rows, users, heavy); err != nil {
		return res, fmt.Errorf("seed: %w", err)
	}
	res.SeedTime = time.Since(start)

	list := func(user, query string) func(context.Context, int, int) error {
		h := t.UserHeaders(user)
		return func(ctx context.Context, _, _ int) error {
			status, body, err := t.Do(ctx, "GET", "/v3/notifications"+query, nil, h)
			return expect(status, body, err, 200)
		}
	}
	res.Page1 = ClosedLoop(ctx, concurrency, d, list("heavy", "?limit=20"))
	res.Page500 = ClosedLoop(ctx, concurrency, d, list("heavy", "?limit=20&pageNo=500"))
	res.UnreadPath = "GET /v3/notifications?limit=1 (heavy user; the body carries unreadCount)"
	res.Unread = ClosedLoop(ctx, concurrency, d, list("heavy", "?limit=1"))
	res.Ordinary = ClosedLoop(ctx, concurrency, d, func(ctx context.Context, _, _ int) error {
		user := fmt.Sprintf("reader-%d", rand.IntN(users-1))
		status, body, err := t.Do(ctx, "GET", "/v3/notifications?limit=20", nil, t.UserHeaders(user))
		return expect(status, body, err, 200)
	})
	if err := inboxReference(ctx, t, &res, users, concurrency, d); err != nil {
		return res, fmt.Errorf("reference: %w", err)
	}
	return res, nil
}

// inboxReference measures the endpoint's SQL without Herald: a pool of as many connections
// as clients, each query's rows scanned into values as the API scans them.
func inboxReference(ctx context.Context, t *Target, res *InboxResult, users, concurrency int, d time.Duration) error {
	cfg, err := pgxpool.ParseConfig(t.DatabaseURL)
	if err != nil {
		return err
	}
	cfg.MaxConns = int32(concurrency)
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return err
	}
	defer pool.Close()
	var appID int64
	if err := pool.QueryRow(ctx, "SELECT id FROM apps WHERE api_key = $1", t.APIKey).Scan(&appID); err != nil {
		return err
	}
	stmt := inbox.ListStatement("", false)
	query := func(ctx context.Context, user string, limit, offset int) error {
		rows, err := pool.Query(ctx, stmt, appID, user, limit, offset)
		if err != nil {
			return err
		}
		defer rows.Close()
		n := 0
		for rows.Next() {
			vals, err := rows.Values()
			if err != nil {
				return err
			}
			n += len(vals)
		}
		if err := rows.Err(); err != nil {
			return err
		}
		if n == 0 {
			return fmt.Errorf("no rows for %s", user)
		}
		return nil
	}
	fixed := func(user string, limit, offset int) func(context.Context, int, int) error {
		return func(ctx context.Context, _, _ int) error { return query(ctx, user, limit, offset) }
	}
	res.Ref.Page1 = ClosedLoop(ctx, concurrency, d, fixed("heavy", 20, 0))
	res.Ref.Page500 = ClosedLoop(ctx, concurrency, d, fixed("heavy", 20, 499*20))
	res.Ref.Unread = ClosedLoop(ctx, concurrency, d, fixed("heavy", 1, 0))
	res.Ref.Ordinary = ClosedLoop(ctx, concurrency, d, func(ctx context.Context, _, _ int) error {
		return query(ctx, fmt.Sprintf("reader-%d", rand.IntN(users-1)), 20, 0)
	})
	return nil
}

// seedInbox writes users reader-0… and heavy, and rows notifications (a third of them read),
// with generate_series: the benchmark measures reading, not writing.
func seedInbox(ctx context.Context, pool *pgxpool.Pool, apiKey string, rows, users, heavy int) error {
	var appID int64
	if err := pool.QueryRow(ctx, "SELECT id FROM apps WHERE api_key = $1", apiKey).Scan(&appID); err != nil {
		return err
	}
	stmts := []string{
		`INSERT INTO users (app_id, identifier) SELECT $1, 'reader-' || g FROM generate_series(0, $2 - 2) g ON CONFLICT DO NOTHING`,
		`INSERT INTO users (app_id, identifier) VALUES ($1, 'heavy') ON CONFLICT DO NOTHING`,
	}
	for i, q := range stmts {
		args := []any{appID}
		if i == 0 {
			args = append(args, users)
		}
		if _, err := pool.Exec(ctx, q, args...); err != nil {
			return err
		}
	}
	insert := `INSERT INTO notifications (app_id, user_id, request_id, source_key, title, message, data, created_at, read_at)
		SELECT $1, u.id, gen_random_uuid(), g::text, 'Seeded ' || g, 'Message body number ' || g, '{"k":1}',
		       now() - make_interval(secs => g), CASE WHEN g % 3 = 0 THEN now() END
		FROM users u, generate_series(1, $3) g WHERE u.app_id = $1 AND u.identifier = $2`
	if _, err := pool.Exec(ctx, insert, appID, "heavy", heavy); err != nil {
		return err
	}
	per := (rows - heavy) / (users - 1)
	ordinary := `INSERT INTO notifications (app_id, user_id, request_id, source_key, title, message, data, created_at, read_at)
		SELECT $1, u.id, gen_random_uuid(), g::text, 'Seeded ' || g, 'Message body number ' || g, '{"k":1}',
		       now() - make_interval(secs => g), CASE WHEN g % 3 = 0 THEN now() END
		FROM users u, generate_series(1, $2) g WHERE u.app_id = $1 AND u.identifier LIKE 'reader-%'`
	if _, err := pool.Exec(ctx, ordinary, appID, per); err != nil {
		return err
	}
	// A table in steady state has been vacuumed: its visibility map lets the inbox index
	// answer page queries without visiting rows.
	_, err := pool.Exec(ctx, "VACUUM (ANALYZE) notifications, users")
	return err
}

func (in *InboxResult) write(w io.Writer) {
	fmt.Fprintf(w, "## 4. Inbox read: %d notifications over %d users, one heavy user with %d (seeded in %s)\n\n", in.Rows, in.Users, in.HeavyRows, in.SeedTime.Round(time.Second))
	fmt.Fprintf(w, "Reference: the same SQL the endpoint runs (`inbox.ListStatement`), straight through pgx at the same concurrency, in the same run.\n\n")
	fmt.Fprintf(w, "| measure | req/s | p50 / p99 | reference req/s | reference p50 / p99 | ratio req/s (goal ≥ 0.5×) | ratio p99 (goal ≤ 2×) |\n|---|---|---|---|---|---|---|\n")
	row := func(name string, h, r Stats) {
		rate, p99 := 0.0, 0.0
		if r.Rate() > 0 {
			rate = h.Rate() / r.Rate()
		}
		if r.P99 > 0 {
			p99 = float64(h.P99) / float64(r.P99)
		}
		fmt.Fprintf(w, "| %s | %.0f | %s / %s | %.0f | %s / %s | %.2f× %s | %.1f× %s |\n", name, h.Rate(), ms(h.P50), ms(h.P99),
			r.Rate(), ms(r.P50), ms(r.P99), rate, verdict(rate >= 0.5), p99, verdict(p99 <= 2))
	}
	row("heavy user, page 1", in.Page1, in.Ref.Page1)
	row("heavy user, page 500", in.Page500, in.Ref.Page500)
	row("unread count", in.Unread, in.Ref.Unread)
	row("ordinary users, page 1", in.Ordinary, in.Ref.Ordinary)
	fmt.Fprintf(w, "\nPage 500 against page 1 (goal ≤ 2×): p99 %.1f× — %s; the reference's own: %.1f×.\n\n",
		float64(in.Page500.P99)/float64(max(in.Page1.P99, 1)), verdict(in.Page500.P99 <= 2*in.Page1.P99),
		float64(in.Ref.Page500.P99)/float64(max(in.Ref.Page1.P99, 1)))
	fmt.Fprintf(w, "Unread count measured through %s.\n\n", in.UnreadPath)
}
