package outbox

import (
	"context"
	"errors"
	"log/slog"
	"maps"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/internal/console/apps"
	"github.com/heraldhq/herald/internal/platform/secrets"
	"github.com/heraldhq/herald/internal/send"
	"github.com/heraldhq/herald/internal/testkit/dbtest"
	sendwf "github.com/heraldhq/herald/workflows/send"
)

// fakeStarter records starts and fails the first failFirst of them.
type fakeStarter struct {
	mu        sync.Mutex
	failFirst int
	starts    map[string][]uuid.UUID
	// apps are the app ids each start named (every start, retries included).
	apps     []int64
	attempts int
}

func (f *fakeStarter) Start(_ context.Context, id string, ids []uuid.UUID, appIDs []int64) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.apps = append(f.apps, appIDs...)
	f.attempts++
	if f.attempts <= f.failFirst {
		return errors.New("temporal unavailable")
	}
	if prev, ok := f.starts[id]; ok && !slices.Equal(prev, ids) {
		panic("a workflow id was restarted with different requests")
	}
	f.starts[id] = ids
	return nil
}

func (f *fakeStarter) started() map[string][]uuid.UUID {
	f.mu.Lock()
	defer f.mu.Unlock()
	return maps.Clone(f.starts)
}

func setup(t *testing.T, starter *fakeStarter, opts Options) (*db.DB, *Relay, *send.Service, int64) {
	d := dbtest.New(t)
	box, _ := secrets.NewBox("test-key-0123456789")
	creds, err := apps.NewService(d, box).Create(context.Background(), "app")
	if err != nil {
		t.Fatal(err)
	}
	r := New(d, starter, slog.New(slog.DiscardHandler), opts)
	return d, r, send.NewService(d, r.WakeFor), creds.AppID
}

func status(t *testing.T, d *db.DB, id uuid.UUID) (string, string) {
	row, err := d.GetRequest(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	wf := ""
	if row.WorkflowID != nil {
		wf = *row.WorkflowID
	}
	return row.Status, wf
}

func TestRelayPacksAcceptedRequests(t *testing.T) {
	starter := &fakeStarter{starts: map[string][]uuid.UUID{}}
	d, r, svc, appID := setup(t, starter, Options{PackSize: 10, PackWindow: time.Millisecond, PollInterval: time.Hour})
	var ids []uuid.UUID
	for range 25 {
		id, err := svc.Accept(context.Background(), appID, []byte(`{"notification":{"title":"t"},"recipients":["u"]}`), "")
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go r.Run(ctx)
	r.Wake()
	deadline := time.Now().Add(10 * time.Second)
	for len(starter.started()) < 3 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	starts := starter.started()
	if len(starts) != 3 {
		t.Fatalf("started %d runs, want 3 packs (10+10+5)", len(starts))
	}
	carried := 0
	for wf, pack := range starts {
		if wf != sendwf.WorkflowID(pack) {
			t.Errorf("run %s does not carry its first request's id", wf)
		}
		carried += len(pack)
	}
	if carried != 25 {
		t.Errorf("runs carry %d requests, want 25", carried)
	}
	// Each start names the requests' app once (search attribute HeraldAppId).
	if want := []int64{appID, appID, appID}; !slices.Equal(starter.apps, want) {
		t.Errorf("starts named apps %v, want %v", starter.apps, want)
	}
	// A run is marked started after its start returns (starts run concurrently).
	for _, id := range ids {
		st, wf := status(t, d, id)
		for st != "started" && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
			st, wf = status(t, d, id)
		}
		if st != "started" || !slices.Contains(starts[wf], id) {
			t.Errorf("request %s: status %s in %q", id, st, wf)
		}
	}
}

func TestRelayRetriesFailedStartsWithTheSameRequests(t *testing.T) {
	starter := &fakeStarter{starts: map[string][]uuid.UUID{}, failFirst: 2}
	d, r, svc, appID := setup(t, starter, Options{PackSize: 10, PollInterval: 50 * time.Millisecond, RetryDelay: 10 * time.Millisecond})
	a, _ := svc.Accept(context.Background(), appID, []byte(`{"notification":{"title":"t"},"recipients":["u"]}`), "")
	b, _ := svc.Accept(context.Background(), appID, []byte(`{"notification":{"title":"t"},"recipients":["v"]}`), "")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go r.Run(ctx)
	r.Wake()
	deadline := time.Now().Add(10 * time.Second)
	for {
		st, _ := status(t, d, a)
		if st == "started" || time.Now().After(deadline) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	starts := starter.started()
	if len(starts) != 1 {
		t.Fatalf("want one run after retries, got %v", starts)
	}
	for wf, pack := range starts {
		if !slices.Equal(pack, []uuid.UUID{a, b}) || wf != sendwf.WorkflowID([]uuid.UUID{a, b}) {
			t.Errorf("retried run %s carries %v, want [%s %s]", wf, pack, a, b)
		}
	}
	if starter.attempts < 3 {
		t.Errorf("attempts = %d, want at least 3 (two failures, then success)", starter.attempts)
	}
	if st, _ := status(t, d, b); st != "started" {
		t.Errorf("second request status %s", st)
	}
	// Retries of the pack (reclaimed from the database) name its app once, like the first try.
	starter.mu.Lock()
	defer starter.mu.Unlock()
	if len(starter.apps) != starter.attempts || slices.ContainsFunc(starter.apps, func(id int64) bool { return id != appID }) {
		t.Errorf("%d starts named apps %v, want %d once each", starter.attempts, starter.apps, appID)
	}
}

// An app past BusySends requests claimed in the last second, or past a quarter of them in
// the last quarter second, rests BusyWindow after a partial pack; other apps, an app sending
// fewer, and an app claiming full packs (a backlog) do not.
func TestRelayGathersLongerUnderLoad(t *testing.T) {
	r := New(nil, nil, slog.New(slog.DiscardHandler), Options{PackSize: 10, PackWindow: 5 * time.Millisecond, BusySends: 3, BusyWindow: 40 * time.Millisecond})
	now := time.Unix(1000, 0)
	for i := range 4 {
		r.claimed(1, 1, now.Add(time.Duration(i)*100*time.Millisecond))
	}
	at := now.Add(310 * time.Millisecond)
	if rest, until := r.resting(1, at); !rest || !until.Equal(now.Add(340*time.Millisecond)) {
		t.Errorf("after 4 partial packs in a second: resting %v until %s, want until 40 ms after the last", rest, until)
	}
	if rest, _ := r.resting(2, at); rest {
		t.Error("another app rests with the busy one")
	}
	if rest, _ := r.resting(1, now.Add(345*time.Millisecond)); rest {
		t.Error("still resting after the busy window")
	}
	if rest, _ := r.resting(1, now.Add(1500*time.Millisecond)); rest {
		t.Error("still resting a second later")
	}
	// Requests count, not runs: two claims of 2 requests each are past 3.
	r.claimed(4, 2, now)
	if rest, _ := r.resting(4, now.Add(time.Millisecond)); rest {
		t.Error("an app that sent 2 requests rests")
	}
	r.claimed(4, 2, now.Add(10*time.Millisecond))
	if rest, until := r.resting(4, now.Add(20*time.Millisecond)); !rest || !until.Equal(now.Add(50*time.Millisecond)) {
		t.Errorf("after 4 requests in 2 runs: resting %v until %s, want until 40 ms after the last claim", rest, until)
	}
	if rest, _ := r.resting(4, now.Add(1100*time.Millisecond)); rest {
		t.Error("its requests of more than a second ago still count")
	}
	for i := range 5 {
		r.claimed(3, 10, now.Add(time.Duration(i)*time.Millisecond))
	}
	if rest, _ := r.resting(3, now.Add(5*time.Millisecond)); rest {
		t.Error("an app claiming full packs rests")
	}
	// A burst is seen within a quarter of a second: past BusySends/4 (here 2) requests in
	// the last quarter, the app rests at once.
	q := New(nil, nil, slog.New(slog.DiscardHandler), Options{PackSize: 10, BusySends: 8, BusyWindow: 40 * time.Millisecond})
	q.claimed(5, 2, now)
	if rest, _ := q.resting(5, now.Add(10*time.Millisecond)); rest {
		t.Error("an app at 2 requests in a quarter second (8 a second) rests")
	}
	q.claimed(5, 1, now.Add(20*time.Millisecond))
	if rest, until := q.resting(5, now.Add(30*time.Millisecond)); !rest || !until.Equal(now.Add(60*time.Millisecond)) {
		t.Errorf("after 3 requests in 20 ms: resting %v until %s, want until 40 ms after the last claim", rest, until)
	}
	q.claimed(6, 2, now)
	q.claimed(6, 1, now.Add(300*time.Millisecond))
	if rest, _ := q.resting(6, now.Add(310*time.Millisecond)); rest {
		t.Error("3 requests spread over 300 ms (10 a second) rest")
	}
	off := New(nil, nil, slog.New(slog.DiscardHandler), Options{PackWindow: 5 * time.Millisecond})
	for range 100 {
		off.claimed(1, 1, now)
	}
	if rest, _ := off.resting(1, now); rest || len(off.apps) != 0 {
		t.Error("with BusySends off the relay keeps no history and never rests")
	}
}

// A busy app gathers for SharedBusyWindow while another app has had requests claimed in the
// last second, and for BusyWindow alone; a SharedBusyWindow not longer than BusyWindow
// changes nothing.
func TestRelayGathersLongerBesideOtherApps(t *testing.T) {
	now := time.Unix(1000, 0)
	ms := func(n int) time.Time { return now.Add(time.Duration(n) * time.Millisecond) }
	// restsUntil checks that app rests at at until until (the zero time: does not rest).
	restsUntil := func(r *Relay, app int64, at, until time.Time, what string) {
		t.Helper()
		rest, got := r.resting(app, at)
		if rest != !until.IsZero() || rest && !got.Equal(until) {
			t.Errorf("%s: resting %v until %s, want until %s", what, rest, got, until)
		}
	}
	busy := func(r *Relay, from int) {
		for i := range 4 {
			r.claimed(1, 1, ms(from+i*50))
		}
	}
	r := New(nil, nil, slog.New(slog.DiscardHandler), Options{PackSize: 10, BusySends: 3, BusyWindow: 40 * time.Millisecond, SharedBusyWindow: 300 * time.Millisecond})
	busy(r, 150)
	restsUntil(r, 1, ms(310), ms(340), "alone")
	r.claimed(2, 1, ms(320))
	restsUntil(r, 1, ms(330), ms(600), "beside another app")
	restsUntil(r, 2, ms(330), time.Time{}, "the other app, sending one request")
	// More than a second after the other app's claim, app 1 (claiming again) is alone again.
	busy(r, 1400)
	restsUntil(r, 1, ms(1560), ms(1590), "alone again")
	same := New(nil, nil, slog.New(slog.DiscardHandler), Options{PackSize: 10, BusySends: 3, BusyWindow: 40 * time.Millisecond, SharedBusyWindow: 20 * time.Millisecond})
	busy(same, 150)
	same.claimed(2, 1, ms(305))
	restsUntil(same, 1, ms(310), ms(340), "with a shorter shared window")
}

// A wake for an app resting in its busy window is dropped, and the relay is woken once when
// the rest ends instead; a critical request, an app not resting and an app with a start in
// flight (its end wakes the relay) are handled as the code says.
func TestRelayWakeForARestingAppWaitsForTheRestsEnd(t *testing.T) {
	r := New(nil, nil, slog.New(slog.DiscardHandler), Options{PackSize: 10, BusySends: 3, BusyWindow: 150 * time.Millisecond})
	woken := func() bool {
		select {
		case <-r.wake:
			return true
		default:
			return false
		}
	}
	r.WakeFor(2, false)
	if !woken() {
		t.Fatal("a request of an app not sending before did not wake the relay")
	}
	now := time.Now()
	for range 4 {
		r.claimed(1, 1, now)
	}
	r.WakeFor(1, false)
	r.WakeFor(1, false)
	if woken() {
		t.Fatal("a request of a resting app woke the relay at once")
	}
	r.WakeFor(1, true)
	if !woken() {
		t.Fatal("a critical request of a resting app did not wake the relay")
	}
	select {
	case <-r.wake:
	case <-time.After(2 * time.Second):
		t.Fatal("the relay was not woken when the rest ended")
	}
	r.mu.Lock()
	r.starting[3] = 1
	r.mu.Unlock()
	r.WakeFor(3, false)
	if woken() {
		t.Error("a request of an app with a start in flight woke the relay")
	}
}

// startOrder records the starts in order, with the apps each named.
type startOrder struct {
	mu   sync.Mutex
	runs [][]int64
}

func (s *startOrder) Start(_ context.Context, _ string, _ []uuid.UUID, appIDs []int64) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.runs = append(s.runs, slices.Clone(appIDs))
	return nil
}

// One app's backlog does not queue ahead of another app's fresh sends: the relay serves the
// apps round-robin, one app per run, instead of in global arrival order.
func TestRelayServesAppsRoundRobin(t *testing.T) {
	d := dbtest.New(t)
	box, _ := secrets.NewBox("test-key-0123456789")
	as := apps.NewService(d, box)
	a, err := as.Create(context.Background(), "noisy")
	if err != nil {
		t.Fatal(err)
	}
	b, err := as.Create(context.Background(), "quiet")
	if err != nil {
		t.Fatal(err)
	}
	starter := &startOrder{}
	// One start at a time, so the starter sees them in the relay's order.
	r := New(d, starter, slog.New(slog.DiscardHandler), Options{PackSize: 10, PollInterval: time.Hour, MaxStarts: 1})
	svc := send.NewService(d, nil)
	accept := func(app int64) {
		if _, err := svc.Accept(context.Background(), app, []byte(`{"notification":{"title":"t"},"recipients":["u"]}`), ""); err != nil {
			t.Fatal(err)
		}
	}
	for range 50 { // A's backlog, accepted first
		accept(a.AppID)
	}
	accept(b.AppID)
	accept(b.AppID)
	drainAll(t, r)
	starter.mu.Lock()
	defer starter.mu.Unlock()
	if len(starter.runs) != 6 {
		t.Fatalf("%d runs, want 5 of A's and 1 of B's: %v", len(starter.runs), starter.runs)
	}
	posB := -1
	for i, apps := range starter.runs {
		if len(apps) != 1 {
			t.Errorf("run %d mixes apps %v", i, apps)
		}
		if apps[0] == b.AppID {
			posB = i
		}
	}
	if posB > 1 {
		t.Errorf("B's sends started in run %d of %d, behind %d of A's runs: %v", posB+1, len(starter.runs), posB, starter.runs)
	}
}

// drainAll drains until no fresh request is left: an app's next pack waits for its start
// in flight, so one drain may leave some for the wake-up that start's end sends.
func drainAll(t *testing.T, r *Relay) {
	t.Helper()
	ctx := context.Background()
	for range 100 {
		r.drainFresh(ctx)
		r.starts.Wait()
		app, err := r.db.NextWaitingApp(ctx, 0)
		if err != nil {
			t.Fatal(err)
		}
		if app == 0 {
			return
		}
	}
	t.Fatal("requests still waiting after 100 drains")
}
