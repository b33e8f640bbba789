package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/internal/lifecycle/retention"
)

// RetentionResult is the retention scenario: the inbox read latency of ordinary users
// before, while and after the purge deletes a large number of expired inbox items of the
// same app, in bounded batches, and the measurements behind the partitioning decision.
type RetentionResult struct {
	Live, Expired, Users int
	Batch                int
	SeedTime             time.Duration
	Before, During       Stats
	After                Stats
	Purged               int64
	PurgeTime            time.Duration
	// Partitioning compares a batched DELETE of expired message log rows with dropping
	// the partitions that hold them (decisions.md#partitioning-of-append-only-tables).
	Partitioning PartitionResult
}

// PartitionResult measures purging the same expired rows from a plain copy of message_logs
// and from a copy partitioned by day.
type PartitionResult struct {
	Rows, Expired           int64
	DeleteTime, VacuumTime  time.Duration
	IndexBefore, IndexAfter int64 // bytes of the plain table's indexes
	IndexVacuumed           int64
	TableBefore, TableAfter int64
	DropTime                time.Duration
	Partitions, Dropped     int
}

// Retention seeds live inbox rows over users users and expired rows of the same app and
// users, measures ordinary users' page 1 for d, then again while the purge runs (until it
// ends), then after it.
func Retention(ctx context.Context, t *Target, live, expired, users, batch, concurrency int, d time.Duration) (RetentionResult, error) {
	res := RetentionResult{Live: live, Expired: expired, Users: users, Batch: batch}
	pool, err := pgxpool.New(ctx, t.DatabaseURL)
	if err != nil {
		return res, err
	}
	defer pool.Close()
	start := time.Now()
	var appID int64
	if err := pool.QueryRow(ctx, "SELECT id FROM apps WHERE api_key = $1", t.APIKey).Scan(&appID); err != nil {
		return res, err
	}
	if err := seedInbox(ctx, pool, t.APIKey, live, users, live/users); err != nil {
		return res, fmt.Errorf("seed live rows: %w", err)
	}
	old := `INSERT INTO notifications (app_id, user_id, request_id, source_key, title, message, data, created_at, read_at)
		SELECT $1, u.id, gen_random_uuid(), 'old-' || g, 'Old ' || g, 'Expired body ' || g, '{"k":1}',
		       now() - interval '400 days' - make_interval(secs => g), now() - interval '399 days'
		FROM users u, generate_series(1, $2) g WHERE u.app_id = $1 AND u.identifier LIKE 'reader-%'`
	if _, err := pool.Exec(ctx, old, appID, expired/(users-1)); err != nil {
		return res, fmt.Errorf("seed expired rows: %w", err)
	}
	if _, err := pool.Exec(ctx, "VACUUM (ANALYZE) notifications"); err != nil {
		return res, err
	}
	res.SeedTime = time.Since(start)

	read := func(ctx context.Context, _, _ int) error {
		user := fmt.Sprintf("reader-%d", rand.IntN(users-1))
		status, body, err := t.Do(ctx, "GET", "/v3/notifications?limit=20", nil, t.UserHeaders(user))
		return expect(status, body, err, 200)
	}
	res.Before = ClosedLoop(ctx, concurrency, d, read)

	d2, err := db.Open(ctx, t.DatabaseURL, db.PoolSize{MaxConns: 4})
	if err != nil {
		return res, err
	}
	defer d2.Close()
	p := &retention.Purger{DB: d2, Batch: batch}
	done := make(chan struct{})
	var purgeErr error
	go func() {
		defer close(done)
		began := time.Now()
		counts, err := p.PurgeApp(ctx, retention.App{ID: appID, Retention: json.RawMessage(`{}`)}, nil)
		res.PurgeTime = time.Since(began)
		res.Purged = counts["inboxRead"] + counts["inboxUnread"]
		purgeErr = err
	}()
	res.During = loopUntil(ctx, concurrency, done, read)
	<-done
	if purgeErr != nil {
		return res, fmt.Errorf("purge: %w", purgeErr)
	}
	res.After = ClosedLoop(ctx, concurrency, d, read)

	pr, err := measurePartitioning(ctx, pool, appID, int64(expired), batch)
	if err != nil {
		return res, fmt.Errorf("partitioning: %w", err)
	}
	res.Partitioning = pr
	return res, nil
}

// loopUntil is ClosedLoop until done is closed.
func loopUntil(ctx context.Context, concurrency int, done <-chan struct{}, op func(ctx context.Context, worker, i int) error) Stats {
	var rec recorder
	var wg sync.WaitGroup
	start := time.Now()
	for w := range concurrency {
		wg.Add(1)
		go func() {
			defer wg.Done()
			local := make([]time.Duration, 0, 4096)
			for i := 0; ; i++ {
				select {
				case <-done:
					rec.add(local)
					return
				default:
				}
				t := time.Now()
				if err := op(ctx, w, i); err != nil {
					rec.fail(err)
					continue
				}
				local = append(local, time.Since(t))
			}
		}()
	}
	wg.Wait()
	return rec.stats(time.Since(start))
}

// measurePartitioning copies message_logs' shape twice, fills both with the same rows (the
// expired ones older than 90 days), and purges them: batched DELETE (the purge's
// statement) then VACUUM on the plain copy, DROP TABLE of the expired daily partitions on
// the partitioned one.
func measurePartitioning(ctx context.Context, pool *pgxpool.Pool, appID, expired int64, batch int) (PartitionResult, error) {
	live := expired / 2
	res := PartitionResult{Rows: expired + live, Expired: expired}
	days := int64(60) // expired rows span 60 days past the 90-day retention; live rows the last 60 days
	fill := func(table string) error {
		_, err := pool.Exec(ctx, `INSERT INTO `+table+` (app_id, request_id, user_id, user_identifier, channel, status, idempotency_key, created_at, updated_at)
			SELECT $1, gen_random_uuid(), (SELECT min(id) FROM users WHERE app_id = $1), 'reader-' || (g % 1000), 'email', 'delivered',
			       'key-' || g, ts, ts
			FROM generate_series(1, $2::bigint) g,
			     LATERAL (SELECT CASE WHEN g <= $3 THEN now() - interval '91 days' - make_interval(secs => (g * 86400 * $4 / $3)::int)
			                          ELSE now() - make_interval(secs => ((g - $3) * 86400 * $4 / $5)::int) END AS ts) t`,
			appID, res.Rows, expired, days, live)
		return err
	}
	stmts := []string{
		`DROP TABLE IF EXISTS bench_logs_plain, bench_logs_part`,
		`CREATE TABLE bench_logs_plain (LIKE message_logs INCLUDING DEFAULTS INCLUDING INDEXES)`,
	}
	for _, s := range stmts {
		if _, err := pool.Exec(ctx, s); err != nil {
			return res, err
		}
	}
	if err := fill("bench_logs_plain"); err != nil {
		return res, err
	}
	if _, err := pool.Exec(ctx, "VACUUM (ANALYZE) bench_logs_plain"); err != nil {
		return res, err
	}
	sizes := func() (table, index int64, err error) {
		err = pool.QueryRow(ctx, `SELECT pg_table_size('bench_logs_plain'), pg_indexes_size('bench_logs_plain')`).Scan(&table, &index)
		return
	}
	var err error
	if res.TableBefore, res.IndexBefore, err = sizes(); err != nil {
		return res, err
	}
	target := retention.Target{Table: "bench_logs_plain", Time: "created_at", Where: "status <> 'queued'"}
	cutoff := time.Now().Add(-90 * 24 * time.Hour)
	began := time.Now()
	for {
		tag, err := pool.Exec(ctx, target.Statement(), appID, cutoff, batch)
		if err != nil {
			return res, err
		}
		if tag.RowsAffected() < int64(batch) {
			break
		}
	}
	res.DeleteTime = time.Since(began)
	if _, res.IndexAfter, err = sizes(); err != nil {
		return res, err
	}
	began = time.Now()
	if _, err := pool.Exec(ctx, "VACUUM bench_logs_plain"); err != nil {
		return res, err
	}
	res.VacuumTime = time.Since(began)
	if res.TableAfter, res.IndexVacuumed, err = sizes(); err != nil {
		return res, err
	}

	// The partitioned copy: one partition per day, the unique key widened by created_at (a
	// partitioned table's unique keys must hold the partition key).
	if _, err := pool.Exec(ctx, `CREATE TABLE bench_logs_part (LIKE message_logs INCLUDING DEFAULTS) PARTITION BY RANGE (created_at)`); err != nil {
		return res, err
	}
	if _, err := pool.Exec(ctx, `CREATE INDEX ON bench_logs_part (app_id, created_at DESC, id DESC)`); err != nil {
		return res, err
	}
	first := time.Now().Add(-time.Duration(91+days+1) * 24 * time.Hour).Truncate(24 * time.Hour)
	var expiredParts []string
	for day := first; day.Before(time.Now().Add(48 * time.Hour)); day = day.Add(24 * time.Hour) {
		name := "bench_logs_part_" + day.Format("20060102")
		if _, err := pool.Exec(ctx, fmt.Sprintf(`CREATE TABLE %s PARTITION OF bench_logs_part FOR VALUES FROM ('%s') TO ('%s')`,
			name, day.Format(time.RFC3339), day.Add(24*time.Hour).Format(time.RFC3339))); err != nil {
			return res, err
		}
		res.Partitions++
		if !day.Add(24 * time.Hour).After(cutoff) {
			expiredParts = append(expiredParts, name)
		}
	}
	if err := fill("bench_logs_part"); err != nil {
		return res, err
	}
	began = time.Now()
	for _, name := range expiredParts {
		if _, err := pool.Exec(ctx, "DROP TABLE "+name); err != nil {
			return res, err
		}
	}
	res.DropTime = time.Since(began)
	res.Dropped = len(expiredParts)
	_, _ = pool.Exec(ctx, `DROP TABLE IF EXISTS bench_logs_plain, bench_logs_part`)
	return res, nil
}

func mib(b int64) string { return fmt.Sprintf("%.0f MiB", float64(b)/(1<<20)) }

func (r *RetentionResult) write(w io.Writer) {
	fmt.Fprintf(w, "## 10. Retention purge: %d expired inbox items deleted beside %d live ones (%d users), %d rows per statement (seeded in %s)\n\n",
		r.Expired, r.Live, r.Users, r.Batch, r.SeedTime.Round(time.Second))
	p99 := float64(r.During.P99) / float64(max(r.Before.P99, 1))
	fmt.Fprintf(w, "| ordinary users, GET /v3/notifications?limit=20 | req/s | p50 / p99 | errors |\n|---|---|---|---|\n")
	for _, row := range []struct {
		name string
		s    Stats
	}{{"before the purge", r.Before}, {"while the purge runs", r.During}, {"after the purge", r.After}} {
		fmt.Fprintf(w, "| %s | %.0f | %s / %s | %d |\n", row.name, row.s.Rate(), ms(row.s.P50), ms(row.s.P99), row.s.Errors)
	}
	fmt.Fprintf(w, "\nPurged %d rows in %s (%.0f rows/s). p99 while purging against before (goal ≤ 1.2×): %.2f× — %s.\n\n",
		r.Purged, r.PurgeTime.Round(100*time.Millisecond), float64(r.Purged)/max(r.PurgeTime.Seconds(), 0.001), p99, verdict(p99 <= 1.2))
	pt := r.Partitioning
	fmt.Fprintf(w, "Partitioning (a copy of `message_logs`, %d rows of which %d expired):\n\n", pt.Rows, pt.Expired)
	fmt.Fprintf(w, "| measure | plain table, batched DELETE | partitioned by day, DROP of expired partitions |\n|---|---|---|\n")
	fmt.Fprintf(w, "| purge time | %s (%.0f rows/s) | %s (%d of %d partitions) |\n", pt.DeleteTime.Round(10*time.Millisecond),
		float64(pt.Expired)/max(pt.DeleteTime.Seconds(), 0.001), pt.DropTime.Round(time.Millisecond), pt.Dropped, pt.Partitions)
	fmt.Fprintf(w, "| VACUUM after the purge | %s | none needed |\n", pt.VacuumTime.Round(10*time.Millisecond))
	fmt.Fprintf(w, "| indexes before → after DELETE → after VACUUM | %s → %s → %s | shrink with the partitions |\n\n", mib(pt.IndexBefore), mib(pt.IndexAfter), mib(pt.IndexVacuumed))
}
