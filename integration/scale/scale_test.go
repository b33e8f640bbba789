// Package scale is the multi-process test of issue "Performance and scale, round 2": two
// `herald api` and two `herald worker` processes (the real binary) on one Postgres and one
// Temporal dev server, as a deployment behind a load balancer runs them. It checks that
// sends made through either API land exactly once while a worker is killed, that a socket
// on one API hears of sends made through the other, that a provider instance's send rate
// holds across both workers, and that the per-app send rate limit and the monthly quota
// hold across both APIs. It runs with `make test-scale` (which `make test` runs) and is
// skipped by a plain `go test ./...`; it prints a summary (go test -v).
package scale

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"go.temporal.io/api/enums/v1"

	"github.com/heraldhq/herald/internal/delivery/channels"
	"github.com/heraldhq/herald/internal/testkit/dbtest"
	"github.com/heraldhq/herald/internal/testkit/proctest"
	"github.com/heraldhq/herald/internal/testkit/realtimetest"
	"github.com/heraldhq/herald/internal/testkit/stacktest"
	"github.com/heraldhq/herald/workflows/send"
)

func TestMain(m *testing.M) {
	code := proctest.Main(m)
	stacktest.StopShared()
	os.Exit(code)
}

const (
	bigRecipients = 20000
	singles       = 5000
)

// api posts to one API process with one app's credentials.
type api struct {
	name, base  string
	key, secret string
	http        *http.Client
}

func newAPI(name, base, key, secret string) *api {
	tr := &http.Transport{MaxIdleConns: 64, MaxIdleConnsPerHost: 64}
	return &api{name: name, base: base, key: key, secret: secret, http: &http.Client{Timeout: time.Minute, Transport: tr}}
}

// post sends a body to /v3/notifications and returns the status, the requestId of a 202
// and the body.
func (a *api) post(body []byte) (int, string, string, error) {
	req, err := http.NewRequest("POST", a.base+"/v3/notifications", bytes.NewReader(body))
	if err != nil {
		return 0, "", "", err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-SERVICE-API-KEY", a.key)
	req.Header.Set("X-SERVICE-API-SECRET", a.secret)
	res, err := a.http.Do(req)
	if err != nil {
		return 0, "", "", err
	}
	defer res.Body.Close()
	out, err := io.ReadAll(res.Body)
	var r struct{ RequestID string }
	_ = json.Unmarshal(out, &r)
	return res.StatusCode, r.RequestID, string(out), err
}

func (a *api) mustSend(t *testing.T, body []byte) string {
	t.Helper()
	status, id, out, err := a.post(body)
	if err != nil || status != 202 || id == "" {
		t.Fatalf("send through API %s: %d %v %s", a.name, status, err, out)
	}
	return id
}

func sendBody(title string, recipients ...string) []byte {
	b, _ := json.Marshal(map[string]any{"notification": map[string]any{"title": title}, "sendTo": map[string]any{"recipients": recipients}})
	return b
}

func TestScale(t *testing.T) {
	if os.Getenv("HERALD_SCALE") == "" || testing.Short() {
		t.Skip("multi-process scale test: run `make test-scale` (or set HERALD_SCALE=1)")
	}
	start := time.Now()
	ctx := context.Background()
	s := proctest.New(t, dbtest.URL(t), stacktest.SharedTemporal(t).Address)
	// Six processes share the machine's Postgres (and other tests may too): small pools
	// keep them under max_connections, as (N + M) × HERALD_DB_MAX_CONNS must be in production.
	s.Env = append(s.Env, "HERALD_DB_MAX_CONNS=10")
	creds, err := s.Local.Apps.Create(ctx, "scale")
	if err != nil {
		t.Fatal(err)
	}
	procA := s.StartAPI("")
	procB := s.StartAPI("")
	w1, w2 := s.StartWith("worker"), s.StartWith("worker")
	a := newAPI("A", procA.BaseURL, creds.APIKey, creds.APISecret)
	b := newAPI("B", procB.BaseURL, creds.APIKey, creds.APISecret)
	var summary []string
	say := func(format string, args ...any) {
		line := fmt.Sprintf(format, args...)
		summary = append(summary, line)
		t.Log(line)
	}
	defer func() {
		if t.Failed() {
			for _, p := range []*proctest.Proc{procA, procB, w1, w2} {
				t.Logf("--- %s log tail:\n%s", p.Name, tail(p.Log()))
			}
		}
		fmt.Printf("\nscale test summary (2 API + 2 worker processes, one Postgres, one Temporal; %s in all):\n", time.Since(start).Round(time.Second))
		for _, l := range summary {
			fmt.Println("  " + l)
		}
	}()

	// 1. A socket on API A hears of sends made through API B (the realtime bus is
	// Postgres LISTEN/NOTIFY, so every API process sees every commit).
	completed := func(ids []string) int {
		return s.Count("SELECT count(*) FROM notification_requests WHERE id = ANY($1::uuid[]) AND status = 'completed'", ids)
	}
	first := b.mustSend(t, sendBody("hello rt", "rt"))
	s.Eventually(time.Minute, "the first realtime send to complete", func() bool { return completed([]string{first}) == 1 })
	sock := realtimetest.DialRaw(t, a.base, map[string][]string{"apiKey": {creds.APIKey}, "userId": {"rt"}}, realtimetest.DialOptions{})
	sock.Send("40")
	if f := sock.Next(); !strings.HasPrefix(f, "40{") {
		t.Fatalf("Socket.IO CONNECT on API A answered %q", f)
	}
	heard := 0
	for i := range 3 {
		title := fmt.Sprintf("through B #%d", i)
		b.mustSend(t, sendBody(title, "rt"))
		for {
			f := sock.Next()
			if strings.HasPrefix(f, `42["NEW_NOTIFICATION"`) && strings.Contains(f, title) {
				heard++
				break
			}
		}
	}
	say("realtime: a socket on API A received %d of 3 notifications sent through API B", heard)

	// 2. A 20,000-recipient send through A and 5,000 single sends through both APIs, while
	// worker 1 is killed in the middle and started again.
	recipients := make([]string, bigRecipients)
	for i := range recipients {
		recipients[i] = fmt.Sprintf("b%d", i)
	}
	loadStart := time.Now()
	big := a.mustSend(t, sendBody("Big announcement", recipients...))
	ids := make([]string, singles)
	var next atomic.Int64
	var wg sync.WaitGroup
	var sendErr atomic.Value
	for g := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			via := a
			if g%2 == 1 {
				via = b
			}
			for {
				i := int(next.Add(1)) - 1
				if i >= singles {
					return
				}
				status, id, out, err := via.post(sendBody("single", fmt.Sprintf("s%d", i)))
				if err != nil || status != 202 {
					sendErr.Store(fmt.Sprintf("single send %d through %s: %d %v %s", i, via.name, status, err, out))
					return
				}
				ids[i] = id
			}
		}()
	}
	bigRows := func() int { return s.Count("SELECT count(*) FROM notifications WHERE request_id = $1", big) }
	// Kill the worker running a DeliverBatch of the big send that has just started, so the
	// kill cuts it short.
	var victim *proctest.Proc
	s.Eventually(3*time.Minute, "2,000 inbox rows of the big send and a DeliverBatch just started", func() bool {
		if bigRows() < 2000 {
			return false
		}
		victim = runningWorker(t, s, big, "DeliverBatch", w1, w2)
		return victim != nil
	})
	atKill := bigRows()
	victim.Kill()
	killedAt := time.Since(loadStart)
	victim.Restart()
	wg.Wait()
	if e := sendErr.Load(); e != nil {
		t.Fatal(e)
	}
	accepted := time.Since(loadStart)
	all := append([]string{big}, ids...)
	s.Eventually(6*time.Minute, "every request of the load to complete", func() bool { return completed(all) == len(all) })
	loadTook := time.Since(loadStart)
	bigTotal := bigRows()
	bigDistinct := s.Count("SELECT count(DISTINCT user_id) FROM notifications WHERE request_id = $1", big)
	singleRows := s.Count("SELECT count(*) FROM notifications WHERE request_id = ANY($1::uuid[])", ids)
	singleDistinct := s.Count("SELECT count(DISTINCT request_id) FROM notifications WHERE request_id = ANY($1::uuid[])", ids)
	retried := retriedActivities(t, s, big)
	say("load: 1 send to %d recipients through API A and %d single sends through A and B (half each), accepted in %s; all completed %s after the first send (%.0f inbox rows/s)",
		bigRecipients, singles, accepted.Round(100*time.Millisecond), loadTook.Round(100*time.Millisecond), float64(bigRecipients+singles)/loadTook.Seconds())
	say("a worker SIGKILLed %s in, in the middle of a DeliverBatch, with %d of %d rows of the big send written, and restarted; activities of the big send retried after it: %d",
		killedAt.Round(100*time.Millisecond), atKill, bigRecipients, retried)
	if retried == 0 {
		t.Errorf("the kill cut no activity of the big send short: nothing was tested")
	}
	say("exactly once: big send %d rows for %d distinct recipients (want %d); single sends %d rows for %d distinct requests (want %d)",
		bigTotal, bigDistinct, bigRecipients, singleRows, singleDistinct, singles)
	if bigTotal != bigRecipients || bigDistinct != bigRecipients {
		t.Errorf("big send: %d rows for %d distinct recipients, want exactly %d", bigTotal, bigDistinct, bigRecipients)
	}
	if singleRows != singles || singleDistinct != singles {
		t.Errorf("single sends: %d rows for %d requests, want exactly %d", singleRows, singleDistinct, singles)
	}

	// 3. A provider instance's send rate holds across both workers: 16 webhook messages at
	// 4 a second, from sends made through both APIs, arrive no faster than that.
	instanceRate(t, s, a, b, say)

	// 4. The per-app send rate limit and the monthly quota hold across both APIs, with the
	// shared state in Postgres and then in Redis.
	procA.Kill()
	procB.Kill()
	limits(t, s, say, "")
	limits(t, s, say, redisURL(t))
}

// redisURL is the Redis of the tests (HERALD_TEST_REDIS_URL or the local default).
func redisURL(t *testing.T) string {
	url := os.Getenv("HERALD_TEST_REDIS_URL")
	if url == "" {
		url = "redis://127.0.0.1:6379/0"
	}
	return url
}

// instanceRate checks config.sendRate across the two workers. Temporal decides which
// worker runs what: a round whose deliveries all ran on one worker shows nothing about the
// other and is repeated (up to three rounds); every round must keep the rate.
func instanceRate(t *testing.T, s *proctest.Stack, a, b *api, say func(string, ...any)) {
	t.Helper()
	const messages, rate = 16, 4.0
	var mu sync.Mutex
	var arrivals []time.Time
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		mu.Lock()
		arrivals = append(arrivals, time.Now())
		mu.Unlock()
		w.WriteHeader(204)
	}))
	t.Cleanup(srv.Close)
	if _, err := s.Local.Channels.CreateInstance(context.Background(), a.appID(t, s), "webhook", channels.InstanceInput{Provider: "webhook", Name: "paced",
		Config: json.RawMessage(fmt.Sprintf(`{"url":%q,"secret":"0123456789abcdef","sendRate":%g}`, srv.URL, rate))}); err != nil {
		t.Fatal(err)
	}
	// A bucket of one token refilled at rate: the last of n messages comes (n-1)/rate after
	// the first at the earliest. Two workers pacing themselves alone would take half that.
	least := time.Duration(float64(messages-1) / rate * float64(time.Second))
	for round := 1; ; round++ {
		mu.Lock()
		arrivals = nil
		mu.Unlock()
		ids := make([]string, messages)
		var wg sync.WaitGroup
		for i := range ids {
			// Sends made together travel in one pack, one activity, on one worker: spaced
			// out, each starts its own run, and Temporal hands their activities to either
			// worker. 150 ms apart they still come faster than the rate lets them out.
			time.Sleep(150 * time.Millisecond)
			wg.Add(1)
			go func() {
				defer wg.Done()
				via := a
				if i%2 == 1 {
					via = b
				}
				body, _ := json.Marshal(map[string]any{"notification": map[string]any{"title": "paced"},
					"override": map[string]any{"channels": []string{"webhook"}}, "sendTo": map[string]any{"recipients": []string{fmt.Sprintf("w%d-%d", round, i)}}})
				ids[i] = via.mustSend(t, body)
			}()
		}
		wg.Wait()
		// A request is completed once its messages are queued, before they go out: wait for
		// the webhooks themselves.
		s.Eventually(2*time.Minute, "every paced webhook to arrive", func() bool {
			mu.Lock()
			defer mu.Unlock()
			return len(arrivals) >= messages
		})
		s.Eventually(2*time.Minute, "the paced sends to complete", func() bool {
			return s.Count("SELECT count(*) FROM notification_requests WHERE id = ANY($1::uuid[]) AND status = 'completed'", ids) == messages
		})
		mu.Lock()
		got := len(arrivals)
		var span time.Duration
		if got > 0 {
			span = arrivals[len(arrivals)-1].Sub(arrivals[0])
		}
		mu.Unlock()
		workers := map[string]bool{}
		for _, id := range ids {
			for _, w := range activityWorkers(t, s, id, // a send of a few messages sends them within DeliverBatch
				send.DeliverActivityName, send.SendActivityName, send.SendBatchActivityName) {
				workers[w] = true
			}
		}
		say("instance send rate %g/s, round %d: %d webhooks from sends through both APIs, sent by %d worker processes, arrived over %s (at least %s at %g/s; %.2f/s observed)",
			rate, round, got, len(workers), span.Round(10*time.Millisecond), least, rate, float64(got-1)/span.Seconds())
		if got != messages {
			t.Errorf("%d webhooks arrived, want %d", got, messages)
		}
		if span < least*95/100 {
			t.Errorf("%d webhooks arrived over %s, faster than %g/s allows (%s)", got, span, rate, least)
		}
		if len(workers) >= 2 || t.Failed() {
			return
		}
		if round == 3 {
			t.Errorf("in 3 rounds the paced sends never ran on both workers (%v)", workers)
			return
		}
	}
}

// appID returns the id of the app whose key the client uses.
func (a *api) appID(t *testing.T, s *proctest.Stack) int64 {
	t.Helper()
	var id int64
	if err := s.Local.DB.Pool.QueryRow(context.Background(), "SELECT id FROM apps WHERE api_key = $1", a.key).Scan(&id); err != nil {
		t.Fatal(err)
	}
	return id
}

// limits starts two APIs with a send rate limit and an enforced quota, keeping the shared
// state in Redis when redisURL is set (else in Postgres), and fires concurrent sends of two
// new apps through both; the APIs are stopped at the end.
func limits(t *testing.T, s *proctest.Stack, say func(string, ...any), redisURL string) {
	t.Helper()
	ctx := context.Background()
	store := "Postgres"
	const burst, quota, margin = 50, 15, 5
	env := []string{
		"HERALD_SEND_RATE_LIMIT=0.01", fmt.Sprintf("HERALD_SEND_RATE_BURST=%d", burst),
		"HERALD_QUOTA_MODE=enforce", fmt.Sprintf("HERALD_QUOTA_EXACT_MARGIN=%d", margin),
		fmt.Sprintf(`HERALD_PLANS=[{"id":"free","name":"Free","monthlyQuota":%d,"currency":"usd"}]`, quota),
	}
	limited, err := s.Local.Apps.Create(ctx, "limited "+redisURL)
	if err != nil {
		t.Fatal(err)
	}
	client, err := s.Local.DB.CreateClient(ctx, "Acme "+redisURL)
	if err != nil {
		t.Fatal(err)
	}
	paying, err := s.Local.Apps.CreateInClient(ctx, client.ID, "metered")
	if err != nil {
		t.Fatal(err)
	}
	if redisURL != "" {
		store = "Redis"
		env = append(env, "HERALD_REDIS_URL="+redisURL)
		// Ids restart with each test database: drop what an earlier run left under them.
		opts, err := redis.ParseURL(redisURL)
		if err != nil {
			t.Fatal(err)
		}
		rc := redis.NewClient(opts)
		defer rc.Close()
		keys := []string{fmt.Sprintf("herald:rl:send:app:%d", limited.AppID), fmt.Sprintf("herald:rl:send:app:%d", paying.ID),
			fmt.Sprintf("herald:q:quota:%d:%s", client.ID, time.Now().UTC().Format("2006-01"))}
		if err := rc.Del(ctx, keys...).Err(); err != nil {
			t.Fatalf("Redis at %s (HERALD_TEST_REDIS_URL): %v", redisURL, err)
		}
	}
	procA, procB := s.StartAPI("", env...), s.StartAPI("", env...)
	defer procA.Kill()
	defer procB.Kill()
	fire := func(key, secret string, n int) (ok, refused int, other []string) {
		apis := []*api{newAPI("A", procA.BaseURL, key, secret), newAPI("B", procB.BaseURL, key, secret)}
		var mu sync.Mutex
		var wg sync.WaitGroup
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				status, _, out, err := apis[i%2].post(sendBody("limited", fmt.Sprintf("l%d", i)))
				mu.Lock()
				defer mu.Unlock()
				switch {
				case err == nil && status == 202:
					ok++
				case err == nil && status == 429:
					refused++
				default:
					other = append(other, fmt.Sprintf("%d %v %s", status, err, out))
				}
			}()
		}
		wg.Wait()
		return ok, refused, other
	}
	// 0.01 sends a second refill a hundredth of a token a second: the burst is the budget.
	const tries = 80
	ok, refused, other := fire(limited.APIKey, limited.APISecret, tries)
	say("%s: send rate limit of bursts of %d (0.01/s) per app: %d concurrent sends through A and B, %d accepted, %d refused with 429 (buckets per process would have let all %d through)",
		store, burst, tries, ok, refused, tries)
	if ok != burst || refused != tries-burst || len(other) > 0 {
		t.Errorf("rate limit: %d accepted, %d refused, other %q; want %d and %d", ok, refused, other, burst, tries-burst)
	}
	const qtries = 40
	ok, refused, other = fire(paying.APIKey, paying.APISecret, qtries)
	say("%s: monthly quota %d (exact within %d of it): %d concurrent sends through A and B, %d accepted, %d refused with 429",
		store, quota, margin, qtries, ok, refused)
	// The exact count near the quota sees every committed send, and this process's own
	// sends in flight, but not a fast-path send of the other process admitted a moment
	// before and not yet committed: the quota may be passed by those (docs/reliability.md).
	// Two processes racing 40 sends pass it by at most a couple; per-process counting would
	// pass it by far more (each process admits up to the quota less the margin on its own).
	const inFlight = 2
	if ok < quota || ok > quota+inFlight || refused != qtries-ok || len(other) > 0 {
		t.Errorf("quota: %d accepted, %d refused, other %q; want %d (up to %d more in flight) and the rest refused", ok, refused, other, quota, inFlight)
	}
}

// runningWorker returns the worker process running an activity of the given name of the
// run carrying a request that started less than 150 ms ago (a DeliverBatch of 1,000
// recipients takes longer), or nil.
func runningWorker(t *testing.T, s *proctest.Stack, requestID, name string, workers ...*proctest.Proc) *proctest.Proc {
	t.Helper()
	var wf string
	if err := s.Local.DB.Pool.QueryRow(context.Background(), "SELECT coalesce(workflow_id, '') FROM notification_requests WHERE id = $1", requestID).Scan(&wf); err != nil {
		t.Fatal(err)
	}
	if wf == "" {
		return nil
	}
	d, err := s.Local.Temporal.DescribeWorkflowExecution(context.Background(), wf, "")
	if err != nil {
		return nil
	}
	for _, a := range d.GetPendingActivities() {
		if a.GetActivityType().GetName() != name || a.GetState() != enums.PENDING_ACTIVITY_STATE_STARTED ||
			time.Since(a.GetLastStartedTime().AsTime()) >= 150*time.Millisecond {
			continue
		}
		for _, w := range workers {
			if strings.HasPrefix(a.GetLastWorkerIdentity(), fmt.Sprintf("%d@", w.Pid())) {
				return w
			}
		}
	}
	return nil
}

// retriedActivities counts the activities of the run carrying a request that completed
// only on a later attempt.
func retriedActivities(t *testing.T, s *proctest.Stack, requestID string) int {
	t.Helper()
	n := 0
	forEachActivityStart(t, s, requestID, func(_ string, attempt int32, _ string) {
		if attempt > 1 {
			n++
		}
	})
	return n
}

// activityWorkers returns the identities of the workers that ran the activities of the
// given names of the run carrying a request.
func activityWorkers(t *testing.T, s *proctest.Stack, requestID string, names ...string) []string {
	t.Helper()
	var out []string
	forEachActivityStart(t, s, requestID, func(activity string, _ int32, identity string) {
		if slices.Contains(names, activity) {
			out = append(out, identity)
		}
	})
	return out
}

func forEachActivityStart(t *testing.T, s *proctest.Stack, requestID string, f func(activity string, attempt int32, identity string)) {
	t.Helper()
	var wf string
	if err := s.Local.DB.Pool.QueryRow(context.Background(), "SELECT coalesce(workflow_id, '') FROM notification_requests WHERE id = $1", requestID).Scan(&wf); err != nil {
		t.Fatal(err)
	}
	it := s.Local.Temporal.GetWorkflowHistory(context.Background(), wf, "", false, enums.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	names := map[int64]string{}
	for it.HasNext() {
		ev, err := it.Next()
		if err != nil {
			t.Fatalf("history of %s: %v", wf, err)
		}
		switch ev.GetEventType() {
		case enums.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED:
			names[ev.GetEventId()] = ev.GetActivityTaskScheduledEventAttributes().GetActivityType().GetName()
		case enums.EVENT_TYPE_ACTIVITY_TASK_STARTED:
			at := ev.GetActivityTaskStartedEventAttributes()
			f(names[at.GetScheduledEventId()], at.GetAttempt(), at.GetIdentity())
		}
	}
}

func tail(log string) string {
	lines := strings.Split(strings.TrimRight(log, "\n"), "\n")
	if len(lines) > 30 {
		lines = lines[len(lines)-30:]
	}
	return strings.Join(lines, "\n")
}
