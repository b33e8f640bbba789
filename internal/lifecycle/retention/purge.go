package retention

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/db/dbsqlc"
)

// DefaultBatch is how many rows one purge statement removes at most: small enough that a
// statement holds its locks and writes its WAL for a few milliseconds, large enough that a
// million rows take a few hundred statements.
const DefaultBatch = 5000

// Purger deletes expired rows.
type Purger struct {
	DB *db.DB
	// Batch caps the rows of one statement (DefaultBatch when 0); Pause is waited between
	// statements, leaving the database to the traffic (0: none).
	Batch int
	Pause time.Duration
	// Now is the clock (time.Now when nil).
	Now func() time.Time
}

// App is an app to purge, with its retention overrides.
type App struct {
	ID        int64
	Retention json.RawMessage
}

// Apps returns up to limit apps after the app id after, in id order.
func (p *Purger) Apps(ctx context.Context, after int64, limit int) ([]App, error) {
	rows, err := p.DB.RetentionApps(ctx, dbsqlc.RetentionAppsParams{AfterID: after, MaxRows: int32(limit)})
	if err != nil {
		return nil, db.MapError(err)
	}
	out := make([]App, len(rows))
	for i, r := range rows {
		out[i] = App{ID: r.ID, Retention: r.Retention}
	}
	return out, nil
}

// Counts are the rows purged per setting.
type Counts map[string]int64

// Statement is the SQL of one batch of a target: $1 the app, $2 the cutoff, $3 the batch
// size. Rows are picked by ctid through the (app_id, time) index and removed in the same
// statement, so no row is read twice and none is left half-done.
func (t Target) Statement() string {
	where := fmt.Sprintf("app_id = $1 AND %s < $2", t.Time)
	if t.Where != "" {
		where += " AND " + t.Where
	}
	pick := fmt.Sprintf("ctid = ANY(ARRAY(SELECT ctid FROM %s WHERE %s LIMIT $3))", t.Table, where)
	if t.Set != "" {
		return fmt.Sprintf("UPDATE %s SET %s WHERE %s", t.Table, t.Set, pick)
	}
	return fmt.Sprintf("DELETE FROM %s WHERE %s", t.Table, pick)
}

// PurgeApp removes the app's expired rows of every target, batch by batch, calling
// progress after each statement (the activity heartbeats there). Each statement commits on
// its own: stopped halfway, a purge has removed only expired rows, and the next run goes on.
func (p *Purger) PurgeApp(ctx context.Context, app App, progress func(Counts)) (Counts, error) {
	batch := p.Batch
	if batch <= 0 {
		batch = DefaultBatch
	}
	now := time.Now
	if p.Now != nil {
		now = p.Now
	}
	days := Effective(app.Retention)
	out := Counts{}
	for _, t := range Targets {
		cutoff := now().Add(-time.Duration(days[t.Setting]) * 24 * time.Hour)
		sql := t.Statement()
		for {
			tag, err := p.DB.Pool.Exec(ctx, sql, app.ID, cutoff, batch)
			if err != nil {
				return out, fmt.Errorf("purge %s of app %d: %w", t.Table, app.ID, err)
			}
			out[t.Setting] += tag.RowsAffected()
			if progress != nil {
				progress(out)
			}
			if tag.RowsAffected() < int64(batch) {
				break
			}
			if p.Pause > 0 {
				select {
				case <-ctx.Done():
					return out, ctx.Err()
				case <-time.After(p.Pause):
				}
			}
		}
	}
	return out, nil
}
