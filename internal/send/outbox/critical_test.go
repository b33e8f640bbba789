package outbox

import (
	"context"
	"errors"
	"log/slog"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/heraldhq/herald/db/dbsqlc"
	"github.com/heraldhq/herald/internal/console/apps"
	"github.com/heraldhq/herald/internal/platform/secrets"
	"github.com/heraldhq/herald/internal/send"
	"github.com/heraldhq/herald/internal/testkit/dbtest"
)

// criticalOrder records the starts in order: the requests, and whether each was critical.
type criticalOrder struct {
	mu       sync.Mutex
	runs     [][]uuid.UUID
	critical []bool
}

func (s *criticalOrder) Start(ctx context.Context, _ string, ids []uuid.UUID, _ []int64) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.runs = append(s.runs, slices.Clone(ids))
	s.critical = append(s.critical, IsCritical(ctx))
	return nil
}

// A critical send (its category is marked critical) accepted last, behind another app's
// backlog and its own app's ordinary sends, is started in the relay's first run, alone and
// with the critical mark (the Temporal priority key); the backlog follows, round-robin.
func TestRelayStartsCriticalSendsFirst(t *testing.T) {
	ctx := context.Background()
	d := dbtest.New(t)
	box, _ := secrets.NewBox("test-key-0123456789")
	as := apps.NewService(d, box)
	a, err := as.Create(ctx, "noisy")
	if err != nil {
		t.Fatal(err)
	}
	b, err := as.Create(ctx, "bank")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []dbsqlc.InsertCategoryParams{
		{AppID: b.AppID, Identifier: "security", Name: "Security", Critical: true},
		{AppID: b.AppID, Identifier: "news", Name: "News"},
		{AppID: a.AppID, Identifier: "security", Name: "Security"}, // same name, other app: not critical
	} {
		if _, err := d.InsertCategory(ctx, c); err != nil {
			t.Fatal(err)
		}
	}
	svc := send.NewService(d, nil)
	accept := func(app int64, category string) uuid.UUID {
		t.Helper()
		id, err := svc.Accept(ctx, app, []byte(`{"notification":{"title":"t","category":"`+category+`"},"recipients":["u"]}`), "")
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
	const backlog = 30
	for i := range backlog {
		cat := "security" // A's category of that name is not critical
		if i%2 == 0 {
			cat = ""
		}
		accept(a.AppID, cat)
	}
	news := accept(b.AppID, "news")
	code := accept(b.AppID, "security") // the critical one-time code, accepted last

	starter := &criticalOrder{}
	// One start at a time, so the starter sees them in the relay's order.
	r := New(d, starter, slog.New(slog.DiscardHandler), Options{PackSize: 10, PollInterval: time.Hour, MaxStarts: 1})
	drainAll(t, r)

	starter.mu.Lock()
	defer starter.mu.Unlock()
	if len(starter.runs) != 5 {
		t.Fatalf("%d runs, want the critical one, 3 of A's backlog and 1 of B's news: %v", len(starter.runs), starter.runs)
	}
	if !slices.Equal(starter.runs[0], []uuid.UUID{code}) || !starter.critical[0] {
		t.Errorf("first run carries %v (critical %v), want only the critical send %s, marked critical", starter.runs[0], starter.critical[0], code)
	}
	for i := 1; i < len(starter.runs); i++ {
		if starter.critical[i] || slices.Contains(starter.runs[i], code) {
			t.Errorf("run %d (%v) is marked critical or carries the critical send again", i, starter.runs[i])
		}
	}
	// Fairness among the rest is kept: B's ordinary send is not stuck behind A's backlog.
	posNews := slices.IndexFunc(starter.runs, func(ids []uuid.UUID) bool { return slices.Contains(ids, news) })
	if posNews < 1 || posNews > 2 {
		t.Errorf("B's ordinary send started in run %d, want the second or third (round-robin): %v", posNews, starter.runs)
	}
}

// failingOrder is criticalOrder whose first n starts fail (Temporal refusing starts).
type failingOrder struct {
	criticalOrder
	fail int
}

func (s *failingOrder) Start(ctx context.Context, id string, ids []uuid.UUID, apps []int64) error {
	s.mu.Lock()
	if s.fail > 0 {
		s.fail--
		s.mu.Unlock()
		return errors.New("temporal unavailable")
	}
	s.mu.Unlock()
	return s.criticalOrder.Start(ctx, id, ids, apps)
}

// A critical run whose start failed keeps its priority key when the relay restarts it
// (retryStale reads the requests' critical mark); an ordinary run restarted beside it
// does not get one.
func TestARestartedCriticalRunKeepsItsPriority(t *testing.T) {
	ctx := context.Background()
	d := dbtest.New(t)
	box, _ := secrets.NewBox("test-key-0123456789")
	b, err := apps.NewService(d, box).Create(ctx, "bank")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.InsertCategory(ctx, dbsqlc.InsertCategoryParams{AppID: b.AppID, Identifier: "security", Name: "Security", Critical: true}); err != nil {
		t.Fatal(err)
	}
	svc := send.NewService(d, nil)
	accept := func(category string) uuid.UUID {
		t.Helper()
		id, err := svc.Accept(ctx, b.AppID, []byte(`{"notification":{"title":"t","category":"`+category+`"},"recipients":["u"]}`), "")
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
	code, news := accept("security"), accept("")
	starter := &failingOrder{fail: 2}
	r := New(d, starter, slog.New(slog.DiscardHandler), Options{PackSize: 10, PollInterval: time.Hour, MaxStarts: 1})
	drainAll(t, r)
	if len(starter.runs) != 0 {
		t.Fatalf("starts went through: %v", starter.runs)
	}
	// The retry delay passes; the relay restarts both runs.
	if _, err := d.Pool.Exec(ctx, `UPDATE notification_requests SET claimed_until = now() - interval '1 second'`); err != nil {
		t.Fatal(err)
	}
	r.retryStale(ctx)
	starter.mu.Lock()
	defer starter.mu.Unlock()
	if len(starter.runs) != 2 {
		t.Fatalf("%d runs restarted, want 2: %v", len(starter.runs), starter.runs)
	}
	for i, run := range starter.runs {
		want := slices.Equal(run, []uuid.UUID{code})
		if !want && !slices.Equal(run, []uuid.UUID{news}) {
			t.Errorf("run %d carries %v", i, run)
		}
		if starter.critical[i] != want {
			t.Errorf("restarted run %v: critical %v, want %v", run, starter.critical[i], want)
		}
	}
}
