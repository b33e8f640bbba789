package bench

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgxpool"
)

// AcceptResult is scenario 1: accepting single-recipient sends.
type AcceptResult struct {
	Concurrency int
	Send        Stats
	// Reference is single-row insert transactions into Postgres at the same concurrency.
	Reference Stats
}

// Accept measures POST /v3/notifications with one recipient at the given concurrency, and
// the reference insert rate.
func Accept(ctx context.Context, t *Target, concurrency int, d time.Duration) (AcceptResult, error) {
	res := AcceptResult{Concurrency: concurrency}
	ref, err := insertReference(ctx, t.DatabaseURL, concurrency, d)
	if err != nil {
		return res, fmt.Errorf("reference: %w", err)
	}
	res.Reference = ref
	headers := t.AppHeaders()
	res.Send = ClosedLoop(ctx, concurrency, d, func(ctx context.Context, w, i int) error {
		body := fmt.Appendf(nil, `{"notification":{"title":"bench %d"},"sendTo":{"recipients":["accept-%d-%d"]}}`, i, w, i%1000)
		status, out, err := t.Do(ctx, "POST", "/v3/notifications", body, headers)
		return expect(status, out, err, 202)
	})
	return res, nil
}

// insertReference measures single-row insert transactions of a row shaped like an outbox row.
func insertReference(ctx context.Context, dbURL string, concurrency int, d time.Duration) (Stats, error) {
	cfg, err := pgxpool.ParseConfig(dbURL)
	if err != nil {
		return Stats{}, err
	}
	cfg.MaxConns = int32(concurrency)
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return Stats{}, err
	}
	defer pool.Close()
	if _, err := pool.Exec(ctx, `DROP TABLE IF EXISTS bench_reference_insert;
		CREATE TABLE bench_reference_insert (id uuid PRIMARY KEY, app_id bigint NOT NULL, payload jsonb NOT NULL,
		status text NOT NULL DEFAULT 'accepted', created_at timestamptz NOT NULL DEFAULT now())`); err != nil {
		return Stats{}, err
	}
	defer pool.Exec(context.WithoutCancel(ctx), "DROP TABLE IF EXISTS bench_reference_insert") //nolint:errcheck
	payload := []byte(`{"notification":{"title":"bench"},"recipients":[{"identifier":"u"}]}`)
	return ClosedLoop(ctx, concurrency, d, func(ctx context.Context, _, _ int) error {
		id, _ := uuid.NewV7()
		_, err := pool.Exec(ctx, "INSERT INTO bench_reference_insert (id, app_id, payload) VALUES ($1, 1, $2)", id, payload)
		return err
	}), nil
}
