package usage_test

import (
	"context"
	"crypto/ed25519"
	"log/slog"
	"os"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/db/dbsqlc"
	"github.com/heraldhq/herald/internal/console/apps"
	"github.com/heraldhq/herald/internal/ops/billing"
	"github.com/heraldhq/herald/internal/ops/license"
	"github.com/heraldhq/herald/internal/ops/usage"
	"github.com/heraldhq/herald/internal/platform/config"
	"github.com/heraldhq/herald/internal/platform/ratelimit"
	"github.com/heraldhq/herald/internal/platform/secrets"
	"github.com/heraldhq/herald/internal/send"
	"github.com/heraldhq/herald/internal/send/outbox"
	"github.com/heraldhq/herald/internal/testkit/dbtest"
)

// nopStarter starts nothing and always succeeds.
type nopStarter struct{ started atomic.Int64 }

func (s *nopStarter) Start(_ context.Context, _ string, ids []uuid.UUID, _ []int64) error {
	s.started.Add(int64(len(ids)))
	return nil
}

type fixture struct {
	d        *db.DB
	clientID int64
	appID    int64
}

func newFixture(t testing.TB) fixture {
	t.Helper()
	d := dbtest.New(t)
	box, _ := secrets.NewBox("test-key-0123456789")
	cl, err := d.CreateClient(context.Background(), "Acme")
	if err != nil {
		t.Fatal(err)
	}
	app, err := apps.NewService(d, box).CreateInClient(context.Background(), cl.ID, "prod")
	if err != nil {
		t.Fatal(err)
	}
	return fixture{d: d, clientID: cl.ID, appID: app.ID}
}

const body = `{"notification":{"title":"Hi"},"sendTo":{"recipients":["a","b","c"]}}`

func TestRelayCountsEachRequestOnce(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	starter := &nopStarter{}
	relay := outbox.New(f.d, starter, slog.New(slog.DiscardHandler), outbox.Options{PollInterval: 20 * time.Millisecond, PackSize: 2})
	svc := send.NewService(f.d, nil)
	for i := 0; i < 5; i++ {
		if _, err := svc.Accept(ctx, f.appID, []byte(body), ""); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := svc.Accept(ctx, f.appID, []byte(`{"notification":{"title":"Later"},"sendTo":{"recipients":["a"]},"sendAt":"`+
		time.Now().Add(time.Hour).UTC().Format(time.RFC3339)+`"}`), ""); err != nil {
		t.Fatal(err)
	}
	reports := usage.NewReports(f.d, func(context.Context, int64) (usage.Quota, error) { return usage.Quota{Plan: "free"}, nil }, usage.Report)
	check := func(when string) {
		t.Helper()
		c, err := reports.Client(ctx, f.clientID)
		if err != nil {
			t.Fatal(err)
		}
		a, err := reports.App(ctx, f.appID)
		if err != nil {
			t.Fatal(err)
		}
		if c.Notifications != 6 || c.Recipients != 16 || a.Notifications != 6 || a.Recipients != 16 {
			t.Errorf("%s: client %+v, app %+v; want 6 notifications, 16 recipients", when, c.Month, a.Month)
		}
	}
	check("before the relay claims anything (counted from the outbox)")

	runCtx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { relay.Run(runCtx); close(done) }()
	relay.Wake()
	deadline := time.Now().Add(10 * time.Second)
	for starter.started.Load() < 6 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	cancel()
	<-done
	if n := starter.started.Load(); n != 6 {
		t.Fatalf("relay started %d requests, want 6", n)
	}
	check("after the relay claimed every request (counted once in the counters)")
	var counted int64
	if err := f.d.Pool.QueryRow(ctx, `SELECT notifications FROM client_usage WHERE client_id = $1`, f.clientID).Scan(&counted); err != nil || counted != 6 {
		t.Errorf("client_usage holds %d (%v), want 6", counted, err)
	}
}

// gateFor returns a gate in enforce mode with a fixed quota.
func gateFor(f fixture, quota, margin int64) *usage.Gate {
	return usage.NewGate(f.d, usage.Enforce, func(context.Context, int64) (usage.Quota, error) {
		return usage.Quota{Plan: "free", PlanName: "Free", Monthly: quota}, nil
	}, usage.GateOptions{Margin: margin})
}

func TestGateAdmitsExactlyTheQuotaUnderConcurrency(t *testing.T) {
	for _, margin := range []int64{0, 1000} {
		f := newFixture(t)
		svc := send.NewService(f.d, nil)
		svc.SetHooks(send.Hooks{Quota: gateFor(f, 10, margin)})
		var ok, refused atomic.Int64
		var wg sync.WaitGroup
		for i := 0; i < 30; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, err := svc.Accept(context.Background(), f.appID, []byte(body), "")
				switch {
				case err == nil:
					ok.Add(1)
				case herald.ErrorCode(err) == herald.ERATELIMIT:
					refused.Add(1)
				default:
					t.Error(err)
				}
			}()
		}
		wg.Wait()
		if ok.Load() != 10 || refused.Load() != 20 {
			t.Errorf("margin %d: %d accepted and %d refused, want 10 and 20", margin, ok.Load(), refused.Load())
		}
	}
}

// Two API processes (two gates on one database) admitting on their own estimates could
// each admit up to the quota less the margin before either counts exactly; with the shared
// store their estimates draw on one reservation, and together they admit exactly the quota.
func TestGateHoldsTheQuotaAcrossProcesses(t *testing.T) {
	redisPrefix := "herald-test:" + secrets.HexToken(6) + ":"
	stores := map[string]func(f fixture) ratelimit.Store{
		"postgres": func(f fixture) ratelimit.Store { return ratelimit.NewPostgres(f.d.Queries) },
		"redis": func(fixture) ratelimit.Store {
			r, err := ratelimit.NewRedis(context.Background(), "redis://127.0.0.1:6379/0")
			if err != nil {
				if os.Getenv("HERALD_REQUIRE_INTEGRATION") != "" {
					t.Fatalf("Redis is required: %v", err)
				}
				t.Skipf("no Redis: %v", err)
			}
			t.Cleanup(func() { r.Close() })
			// Client ids restart with each test database: keys of this run only.
			r.Prefix = redisPrefix
			return r
		},
	}
	for name, open := range stores {
		t.Run(name, func(t *testing.T) {
			f := newFixture(t)
			const quota, margin = 300, 100
			var procs [2]*send.Service
			for i := range procs {
				g := usage.NewGate(f.d, usage.Enforce, func(context.Context, int64) (usage.Quota, error) {
					return usage.Quota{Plan: "free", PlanName: "Free", Monthly: quota}, nil
				}, usage.GateOptions{Margin: margin, Refresh: time.Hour, Shared: open(f), Block: 20})
				procs[i] = send.NewService(f.d, nil)
				procs[i].SetHooks(send.Hooks{Quota: g})
			}
			var ok, refused atomic.Int64
			var wg sync.WaitGroup
			for i := range 20 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for range 30 {
						_, err := procs[i%2].Accept(context.Background(), f.appID, []byte(body), "")
						switch {
						case err == nil:
							ok.Add(1)
						case herald.ErrorCode(err) == herald.ERATELIMIT:
							refused.Add(1)
						default:
							t.Error(err)
						}
					}
				}()
			}
			wg.Wait()
			if ok.Load() != quota || refused.Load() != 600-quota {
				t.Errorf("%d accepted and %d refused through two processes, want %d and %d", ok.Load(), refused.Load(), quota, 600-quota)
			}
		})
	}
}

func TestExpiredLicenseDegradesToFreeLimitsAndKeepsAcceptedSends(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	pub, priv, _ := ed25519.GenerateKey(nil)
	lic := license.NewService(f.d, license.Keys{Private: priv, Public: pub}, 30*24*time.Hour)
	free := int64(2)
	bill := billing.NewService(f.d, billing.None{}, billing.NewCatalog([]config.PlanConfig{{ID: "free", Name: "Free", MonthlyQuota: &free}}), lic, slog.New(slog.DiscardHandler))
	five := int64(5)
	if _, err := lic.Issue(ctx, f.clientID, "pro", license.Limits{MonthlyNotifications: &five}, time.Time{}); err != nil {
		t.Fatal(err)
	}
	quotas := func(ctx context.Context, clientID int64) (usage.Quota, error) {
		e, err := bill.Entitlement(ctx, clientID)
		return usage.Quota{Plan: e.Plan.ID, PlanName: e.Plan.Name, Monthly: e.MonthlyQuota()}, err
	}
	gate := usage.NewGate(f.d, usage.Enforce, quotas, usage.GateOptions{Margin: 1000})
	svc := send.NewService(f.d, nil)
	svc.SetHooks(send.Hooks{Quota: gate})
	var accepted []uuid.UUID
	for i := 0; i < 4; i++ {
		id, err := svc.Accept(ctx, f.appID, []byte(body), "")
		if err != nil {
			t.Fatalf("send %d under the license's 5: %v", i+1, err)
		}
		accepted = append(accepted, id)
	}

	// The license runs out: the client is back on the free plan's 2 a month, already used.
	later := time.Now().Add(31 * 24 * time.Hour)
	lic.Now = func() time.Time { return later }
	bill.Now = lic.Now
	gate.Forget(f.clientID)
	e, err := bill.Entitlement(ctx, f.clientID)
	if err != nil || e.Plan.ID != "free" || !e.LicenseExpired || e.MonthlyQuota() != 2 {
		t.Fatalf("entitlement after expiry %+v (%v)", e, err)
	}
	if _, err := svc.Accept(ctx, f.appID, []byte(body), ""); herald.ErrorCode(err) != herald.ERATELIMIT {
		t.Fatalf("send after expiry: %v, want a quota refusal", err)
	}
	// What was accepted before still goes out: nothing touched those requests.
	starter := &nopStarter{}
	relay := outbox.New(f.d, starter, slog.New(slog.DiscardHandler), outbox.Options{PollInterval: 20 * time.Millisecond})
	runCtx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { relay.Run(runCtx); close(done) }()
	relay.Wake()
	deadline := time.Now().Add(10 * time.Second)
	for starter.started.Load() < 4 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	cancel()
	<-done
	for _, id := range accepted {
		row, err := f.d.GetRequest(ctx, id)
		if err != nil || row.Status != "started" {
			t.Errorf("request %s accepted before expiry: status %q (%v), want started", id, row.Status, err)
		}
	}
}

// BenchmarkGateFastPath measures what the quota gate adds to a send far below its quota
// (the insert itself is left out).
func BenchmarkGateFastPath(b *testing.B) {
	f := newFixture(b)
	g := gateFor(f, 1<<40, 1000)
	insert := func(*dbsqlc.Queries) error { return nil }
	ctx := context.Background()
	if err := g.Guard(ctx, f.appID, insert); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if err := g.Guard(ctx, f.appID, insert); err != nil {
				b.Error(err)
				return
			}
		}
	})
}
