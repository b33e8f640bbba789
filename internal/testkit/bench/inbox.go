package bench

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
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
	return res, nil
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
	fmt.Fprintf(w, "| measure | req/s | p50 / p99 | target |\n|---|---|---|---|\n")
	fmt.Fprintf(w, "| heavy user, page 1 | %.0f | %s / %s | p99 ≤ 10 ms, ≥ 3,000 req/s — %s |\n", in.Page1.Rate(), ms(in.Page1.P50), ms(in.Page1.P99), verdict(in.Page1.P99 <= 10*time.Millisecond && in.Page1.Rate() >= 3000))
	fmt.Fprintf(w, "| heavy user, page 500 | %.0f | %s / %s | within 2× of page 1 — %s |\n", in.Page500.Rate(), ms(in.Page500.P50), ms(in.Page500.P99), verdict(in.Page500.P99 <= 2*in.Page1.P99))
	fmt.Fprintf(w, "| unread count | %.0f | %s / %s | p99 ≤ 5 ms — %s |\n", in.Unread.Rate(), ms(in.Unread.P50), ms(in.Unread.P99), verdict(in.Unread.P99 <= 5*time.Millisecond))
	fmt.Fprintf(w, "| ordinary users, page 1 | %.0f | %s / %s | p99 ≤ 10 ms — %s |\n\n", in.Ordinary.Rate(), ms(in.Ordinary.P50), ms(in.Ordinary.P99), verdict(in.Ordinary.P99 <= 10*time.Millisecond))
	fmt.Fprintf(w, "Unread count measured through %s.\n\n", in.UnreadPath)
}
