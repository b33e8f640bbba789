package outbox

import (
	"context"
	"log/slog"
	"testing"
	"time"

	"github.com/heraldhq/herald/internal/console/apps"
	"github.com/heraldhq/herald/internal/platform/ratelimit"
	"github.com/heraldhq/herald/internal/platform/secrets"
	"github.com/heraldhq/herald/internal/send"
	"github.com/heraldhq/herald/internal/testkit/dbtest"
)

// planRuns is RunLimit as the stack builds it: shared leases, a limit per app.
type planRuns struct {
	leases *ratelimit.Leases
	limit  map[int64]int
}

func (p planRuns) Acquire(ctx context.Context, app int64, workflowID string) bool {
	return p.leases.Acquire(ctx, app, workflowID, p.limit[app])
}

// An app at its plan's runs in flight keeps its requests waiting at the relay, on every
// relay (two relays share the leases through Postgres), while another app's are started;
// when one of its runs ends, its next run starts.
func TestRelayHoldsAnAppAtItsRunLimit(t *testing.T) {
	d := dbtest.New(t)
	box, _ := secrets.NewBox("test-key-0123456789")
	as := apps.NewService(d, box)
	a, err := as.Create(context.Background(), "limited")
	if err != nil {
		t.Fatal(err)
	}
	b, err := as.Create(context.Background(), "free")
	if err != nil {
		t.Fatal(err)
	}
	limit := map[int64]int{a.AppID: 2}
	newRelay := func() (*Relay, *startOrder, *ratelimit.Leases) {
		leases := ratelimit.NewLeases(ratelimit.NewPostgres(d.Queries), "runs:app:", time.Minute)
		starter := &startOrder{}
		return New(d, starter, slog.New(slog.DiscardHandler), Options{PackSize: 1, PollInterval: time.Hour,
			Runs: planRuns{leases, limit}}), starter, leases
	}
	r1, s1, leases := newRelay()
	r2, s2, _ := newRelay()
	svc := send.NewService(d, nil)
	accept := func(app int64) {
		if _, err := svc.Accept(context.Background(), app, []byte(`{"notification":{"title":"t"},"recipients":["u"]}`), ""); err != nil {
			t.Fatal(err)
		}
	}
	for range 5 {
		accept(a.AppID)
		accept(b.AppID)
	}
	ctx := context.Background()
	for range 10 {
		r1.drainFresh(ctx)
		r2.drainFresh(ctx)
		r1.starts.Wait()
		r2.starts.Wait()
	}
	count := func() (ra, rb int, wfA []string) {
		for _, s := range []*startOrder{s1, s2} {
			s.mu.Lock()
			for _, run := range s.runs {
				if run[0] == a.AppID {
					ra++
				} else {
					rb++
				}
			}
			s.mu.Unlock()
		}
		rows, err := d.Pool.Query(ctx, `SELECT DISTINCT workflow_id FROM notification_requests WHERE app_id = $1 AND workflow_id IS NOT NULL`, a.AppID)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		for rows.Next() {
			var wf string
			if err := rows.Scan(&wf); err != nil {
				t.Fatal(err)
			}
			wfA = append(wfA, wf)
		}
		return
	}
	ra, rb, wfA := count()
	if ra != 2 || rb != 5 {
		t.Fatalf("started %d runs of the limited app (plan: 2 in flight) and %d of the other (want all 5)", ra, rb)
	}
	var waiting int
	if err := d.Pool.QueryRow(ctx, `SELECT count(*) FROM notification_requests WHERE app_id = $1 AND workflow_id IS NULL AND status = 'accepted'`, a.AppID).Scan(&waiting); err != nil {
		t.Fatal(err)
	}
	if waiting != 3 {
		t.Errorf("%d of the limited app's requests waiting, want 3 (none dropped)", waiting)
	}
	// One run ends (its last slice releases the lease): the next one starts, after the
	// relay's pause on a full app.
	leases.Release(ctx, a.AppID, wfA[0])
	time.Sleep(fullRetry + 50*time.Millisecond)
	r2.drainFresh(ctx)
	r2.starts.Wait()
	if ra, _, _ := count(); ra != 3 {
		t.Errorf("%d runs of the limited app after one ended, want 3", ra)
	}
}
