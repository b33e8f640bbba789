package pipeline

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/heraldhq/herald/internal/console/apps"
	"github.com/heraldhq/herald/internal/platform/ratelimit"
	"github.com/heraldhq/herald/internal/platform/secrets"
	"github.com/heraldhq/herald/internal/testkit/hooktest"
	"github.com/heraldhq/herald/workflows/send"
)

// planCalls is AppCalls as the stack builds it, over real leases in Postgres, with the
// plans' limits given per app.
type planCalls struct {
	leases *ratelimit.Leases
	limit  map[int64]int
}

func (p planCalls) Acquire(ctx context.Context, appID int64, holder string) (func(), bool) {
	n := p.limit[appID]
	if n == 0 {
		return func() {}, true
	}
	if !p.leases.Acquire(ctx, appID, holder, n) {
		return nil, false
	}
	return func() { p.leases.Release(context.WithoutCancel(ctx), appID, holder) }, true
}

// App A's plan allows 3 provider calls at a time; app B's has no limit. A's messages over
// its limit are held (untried, on the run's timer, with the reason in the message log) and
// sent once retried; B, sharing the provider and the worker, is not slowed; nothing is lost
// or sent twice.
func TestAppProviderCallLimitHoldsOnlyThatApp(t *testing.T) {
	d, appA, a, _ := setup(t)
	box, _ := secrets.NewBox("test-key-0123456789")
	credsB, err := apps.NewService(d, box).Create(context.Background(), "app B")
	if err != nil {
		t.Fatal(err)
	}
	appB := credsB.AppID
	g := hooktest.NewSlow(t, 40*time.Millisecond)
	webhookInstance(t, a, appA, "hook", g.URL+"/a")
	webhookInstance(t, a, appB, "hook", g.URL+"/b")
	// Two "processes": the leases of each batch go through their own store over the same
	// database, as two workers' would.
	limits := map[int64]int{appA: 3}
	procs := [2]planCalls{
		{ratelimit.NewLeases(ratelimit.NewPostgres(d.Queries), "calls:app:", time.Minute), limits},
		{ratelimit.NewLeases(ratelimit.NewPostgres(d.Queries), "calls:app:", time.Minute), limits},
	}
	a.AppCalls = procs[0]
	other := &Service{DB: a.DB, Publisher: a.Publisher, Log: a.Log, Channels: a.Channels, Templates: a.Templates, AppCalls: procs[1]}

	recipients := func(prefix string, n int) string {
		rs := make([]string, n)
		for i := range rs {
			rs[i] = fmt.Sprintf(`"%s%02d"`, prefix, i)
		}
		return strings.Join(rs, ",")
	}
	reqA := accept(t, d, appA, `{"notification":{"title":"Hi"},"override":{"channels":["webhook"]},"sendTo":{"recipients":[`+recipients("a", 24)+`]}}`)
	reqB := accept(t, d, appB, `{"notification":{"title":"Hi"},"override":{"channels":["webhook"]},"sendTo":{"recipients":[`+recipients("b", 24)+`]}}`)
	_, jobsA := drain(t, a, []send.Cursor{{RequestID: reqA}})
	_, jobsB := drain(t, a, []send.Cursor{{RequestID: reqB}})

	// Another worker holds all 3 of A's leases: A's batch has no call of its own to wait
	// for, so it sends nothing and holds every message, with the reason.
	for i := range 3 {
		procs[1].leases.Acquire(context.Background(), appA, fmt.Sprintf("other-%d", i), 3)
	}
	res, err := a.SendMessages(context.Background(), send.SendBatchInput{Jobs: jobsA[:4]})
	if err != nil {
		t.Fatal(err)
	}
	if res.Sent != 0 || len(res.Retries) != 4 {
		t.Fatalf("A's batch while another worker holds its 3 leases: %+v, want all 4 held", res)
	}
	for _, rt := range res.Retries {
		if !rt.Hold || rt.After < appLimitWait || !strings.HasPrefix(rt.Error, "app concurrency limit reached, retrying at ") {
			t.Fatalf("held message %+v, want a hold of at least %s with the reason", rt, appLimitWait)
		}
	}
	if l := logOf(t, d, res.Retries[0].LogID); l.Status != "queued" || !strings.HasPrefix(l.Error, "app concurrency limit reached, retrying at ") {
		t.Errorf("message log of a held message %+v, want queued with the reason", l)
	}
	calls := g.Calls()
	early := calls["/a a00"] + calls["/a a01"] + calls["/a a02"] + calls["/a a03"]
	if early != 0 {
		t.Fatal("a held message was sent")
	}
	for i := range 3 {
		procs[1].leases.Release(context.Background(), appA, fmt.Sprintf("other-%d", i))
	}

	// A's messages in two batches on two workers, B's beside them.
	var wg sync.WaitGroup
	results := make([]send.SendBatchResult, 3)
	run := func(i int, s *Service, jobs []send.Job) {
		defer wg.Done()
		res, err := s.SendMessages(context.Background(), send.SendBatchInput{Jobs: jobs})
		if err != nil {
			t.Error(err)
		}
		results[i] = res
	}
	wg.Add(3)
	start := time.Now()
	go run(0, a, jobsA[:12])
	go run(1, other, jobsA[12:])
	go run(2, a, jobsB)
	wg.Wait()
	if t.Failed() {
		return
	}
	if results[2].Sent != 24 || len(results[2].Retries) != 0 {
		t.Errorf("app B (no limit): %+v, want all 24 sent at once", results[2])
	}
	if g.Peak("/b") <= 3 {
		t.Errorf("app B had at most %d calls in flight; it has no limit and must not be held to A's", g.Peak("/b"))
	}
	// A batch waits for its own calls of the app to end and takes the freed lease; what
	// it cannot (the other worker's batch had all of them) is held.
	held := append(results[0].Retries, results[1].Retries...)
	sent := results[0].Sent + results[1].Sent
	if sent == 0 {
		t.Fatalf("app A: %+v %+v, want its batches to go on at its limit", results[0], results[1])
	}
	for _, rt := range held {
		if !rt.Hold {
			t.Fatalf("A's message %+v came back without a hold", rt)
		}
	}
	// The run's timer fires: the held messages are tried again until all are sent.
	for round := 0; len(held) > 0 && round < 50; round++ {
		jobs := make([]send.Job, len(held))
		for i, rt := range held {
			jobs[i] = send.Job{LogID: rt.LogID, Channel: rt.Channel}
		}
		res, err := a.SendMessages(context.Background(), send.SendBatchInput{Jobs: jobs})
		if err != nil {
			t.Fatal(err)
		}
		sent += res.Sent
		held = res.Retries
	}
	if sent != 24 || len(held) != 0 {
		t.Fatalf("app A: %d of 24 sent, %d still held", sent, len(held))
	}
	if g.Peak("/a") > 3 {
		t.Errorf("app A had %d provider calls in flight across two workers, its plan allows 3", g.Peak("/a"))
	}
	t.Logf("A's 24 sends of 40 ms at 3 at a time over two workers: %d held for the timer; B's 24 in %s beside them", len(results[0].Retries)+len(results[1].Retries), time.Since(start).Round(time.Millisecond))
	calls = g.Calls()
	for who, n := range calls {
		if n != 1 {
			t.Errorf("%s got %d calls, want exactly 1", who, n)
		}
	}
	if len(calls) != 48 {
		t.Errorf("%d recipients called, want 48", len(calls))
	}
}

// runWorker is a Worker whose activities all belong to one run.
type runWorker struct{ id string }

func (w runWorker) WorkflowID(context.Context) string { return w.id }
func (runWorker) Stopping(context.Context) bool       { return false }
func (runWorker) KeepAlive(context.Context, func(context.Context) []any) func() {
	return func() {}
}

// runLeases records what the run's slices do with its lease.
type runLeases struct {
	mu  sync.Mutex
	ops []string
}

func (r *runLeases) Renew(_ context.Context, app int64, wf string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.ops = append(r.ops, fmt.Sprintf("renew %d %s", app, wf))
}

func (r *runLeases) Release(_ context.Context, app int64, wf string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.ops = append(r.ops, fmt.Sprintf("release %d %s", app, wf))
}

// A run's slices renew its lease of the app's runs in flight while recipients are left,
// and the last one gives it back; so does a run that fails.
func TestSendRunsRenewAndReleaseTheirLease(t *testing.T) {
	d, appID, a, _ := setup(t)
	a.BatchSize = 2
	leases := &runLeases{}
	a.AppRuns, a.Worker = leases, runWorker{"run-1"}
	req := accept(t, d, appID, `{"notification":{"title":"Hi"},"sendTo":{"recipients":["u1","u2","u3","u4","u5"]}}`)
	calls, _ := drain(t, a, []send.Cursor{{RequestID: req}})
	want := []string{}
	for range calls - 1 {
		want = append(want, fmt.Sprintf("renew %d run-1", appID))
	}
	want = append(want, fmt.Sprintf("release %d run-1", appID))
	if calls < 3 || fmt.Sprint(leases.ops) != fmt.Sprint(want) {
		t.Errorf("%d slices did %v, want %v", calls, leases.ops, want)
	}
	leases.ops = nil
	failed := accept(t, d, appID, `{"notification":{"title":"Hi"},"sendTo":{"recipients":["u1"]}}`)
	if err := a.FailRequests(context.Background(), send.FailInput{RequestIDs: []uuid.UUID{failed}, Reason: "test"}); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(leases.ops) != fmt.Sprint([]string{fmt.Sprintf("release %d run-1", appID)}) {
		t.Errorf("a failed run did %v, want its lease released", leases.ops)
	}
}
