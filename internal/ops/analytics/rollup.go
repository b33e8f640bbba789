package analytics

import (
	"context"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/db/dbsqlc"
)

// Rollup settings.
const (
	// RollupInterval is how often Run folds pending changes into the counters. Reads are
	// exact either way; the interval only bounds how many pending rows they add up.
	RollupInterval = 5 * time.Second
	// rollupBatch caps the pending rows one transaction moves.
	rollupBatch = 50_000
)

// Rollup moves the pending changes into the daily and per-send counters, a batch per
// transaction, and returns how many it moved. Only one process rolls up at a time; a call
// while another runs moves nothing.
func (s *Service) Rollup(ctx context.Context) (int, error) {
	moved := 0
	for {
		var n int32
		err := s.db.InTx(ctx, func(q *dbsqlc.Queries, _ pgx.Tx) error {
			ok, err := q.TryAnalyticsRollupLock(ctx)
			if err != nil || !ok {
				return err
			}
			row, err := q.RollUpAnalytics(ctx, rollupBatch)
			n = row.Moved
			return err
		})
		if err != nil {
			return moved, db.MapError(err)
		}
		moved += int(n)
		if n < rollupBatch {
			return moved, nil
		}
	}
}

// Run rolls up every RollupInterval until ctx ends. The worker runs it; running it in
// several processes is harmless.
func (s *Service) Run(ctx context.Context, log *slog.Logger) {
	t := time.NewTicker(RollupInterval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		if _, err := s.Rollup(ctx); err != nil && ctx.Err() == nil {
			log.Warn("analytics rollup failed; retrying at the next tick", "error", err)
		}
	}
}
