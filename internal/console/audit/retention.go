package audit

import (
	"context"
	"log/slog"
	"time"

	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/db/dbsqlc"
)

// DefaultRetention is how long events are kept unless configured (HERALD_AUDIT_RETENTION).
const DefaultRetention = 365 * 24 * time.Hour

// PruneInterval is how often the worker deletes expired events.
const PruneInterval = time.Hour

// pruneBatch bounds one delete, so pruning a large backlog never holds locks for long.
const pruneBatch = 5000

// Prune deletes every event older than cutoff and returns how many went.
func (l *Log) Prune(ctx context.Context, cutoff time.Time) (int64, error) {
	var total int64
	for {
		n, err := l.db.PruneAuditEvents(ctx, dbsqlc.PruneAuditEventsParams{Cutoff: cutoff, Lim: pruneBatch})
		if err != nil {
			return total, db.MapError(err)
		}
		total += n
		if n < pruneBatch {
			return total, nil
		}
	}
}

// Run prunes events older than retention now and then every PruneInterval until ctx ends.
// Several workers may run it at once: deleting is idempotent.
func (l *Log) Run(ctx context.Context, retention time.Duration, log *slog.Logger) {
	if retention <= 0 {
		retention = DefaultRetention
	}
	t := time.NewTicker(PruneInterval)
	defer t.Stop()
	for {
		n, err := l.Prune(ctx, time.Now().Add(-retention))
		switch {
		case err != nil && ctx.Err() == nil:
			log.Warn("pruning the audit log failed; retrying at the next tick", "error", err)
		case n > 0:
			log.Info("pruned the audit log", "deleted", n, "retention", retention)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
