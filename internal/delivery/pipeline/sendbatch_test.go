package pipeline

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/heraldhq/herald/db/dbsqlc"
	"github.com/heraldhq/herald/internal/delivery/channels"
	"github.com/heraldhq/herald/internal/delivery/templates"
	"github.com/heraldhq/herald/workflows/send"
)

// receiver is a fake webhook endpoint answering by recipient: "perm-*" 400, "slow-*" 429
// with Retry-After 7, "down-*" 503, anyone else 200. It counts calls per recipient.
type receiver struct {
	mu    sync.Mutex
	calls map[string]int
	srv   *httptest.Server
}

func newReceiver(t *testing.T) *receiver {
	r := &receiver{calls: map[string]int{}}
	r.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		var body struct {
			Recipient struct{ Identifier string } `json:"recipient"`
		}
		raw, _ := io.ReadAll(req.Body)
		_ = json.Unmarshal(raw, &body)
		who := body.Recipient.Identifier
		r.mu.Lock()
		r.calls[who]++
		r.mu.Unlock()
		switch {
		case strings.HasPrefix(who, "perm-"):
			w.WriteHeader(400)
		case strings.HasPrefix(who, "slow-"):
			w.Header().Set("Retry-After", "7")
			w.WriteHeader(429)
		case strings.HasPrefix(who, "down-"):
			w.WriteHeader(503)
		}
	}))
	t.Cleanup(r.srv.Close)
	return r
}

func (r *receiver) count(who string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.calls[who]
}

func TestSendMessagesReportsEveryOutcomeAndSendsNothingTwice(t *testing.T) {
	d, appID, a, _ := setup(t)
	rc := newReceiver(t)
	webhookInstance(t, a, appID, "hook", rc.srv.URL)
	req := accept(t, d, appID, `{"notification":{"title":"Hi"},"override":{"channels":["webhook"]},
		"sendTo":{"recipients":["ok-1","ok-2","ok-3","perm-1","slow-1","down-1","held-1"]}}`)
	_, jobs := drain(t, a, []send.Cursor{{RequestID: req}})
	if len(jobs) != 7 {
		t.Fatalf("jobs %v", jobs)
	}
	byUser := map[string]int64{}
	for _, j := range jobs {
		var who string
		if err := d.Pool.QueryRow(context.Background(), `SELECT user_identifier FROM message_logs WHERE id = $1`, j.LogID).Scan(&who); err != nil {
			t.Fatal(err)
		}
		byUser[who] = j.LogID
	}
	// Another attempt holds held-1.
	exec(t, d, `UPDATE message_logs SET locked_until = now() + interval '10 seconds' WHERE id = $1`, byUser["held-1"])

	res, err := a.SendMessages(context.Background(), send.SendBatchInput{Jobs: jobs})
	if err != nil {
		t.Fatal(err)
	}
	if res.Sent != 3 || res.Failed != 1 || len(res.Retries) != 3 {
		t.Fatalf("result %+v, want 3 sent, 1 failed, 3 retries", res)
	}
	retries := map[int64]send.Retry{}
	for _, r := range res.Retries {
		retries[r.LogID] = r
	}
	if r := retries[byUser["slow-1"]]; r.After != 7*time.Second || !strings.Contains(r.Error, "429") {
		t.Errorf("429: %+v, want Retry-After 7s", r)
	}
	if r := retries[byUser["down-1"]]; r.After != 0 || !strings.Contains(r.Error, "503") {
		t.Errorf("503: %+v, want the usual backoff", r)
	}
	if r := retries[byUser["held-1"]]; r.After < time.Second || r.After > send.SendLease || rc.count("held-1") != 0 {
		t.Errorf("held: %+v (%d calls), want a wait for the lease and no call", r, rc.count("held-1"))
	}
	for who, want := range map[string]string{"ok-1": "sent", "ok-3": "sent", "perm-1": "failed", "slow-1": "queued", "down-1": "queued", "held-1": "queued"} {
		l := logOf(t, d, byUser[who])
		if l.Status != want {
			t.Errorf("%s: status %s, want %s", who, l.Status, want)
		}
		if want != "sent" && who != "held-1" && (l.Provider != "webhook" || l.Error == "") {
			t.Errorf("%s: log %+v, want the provider and its answer", who, l)
		}
	}

	// The retried batch (the whole batch again, as after a worker died) sends only what is
	// still queued and free.
	exec(t, d, `UPDATE message_logs SET locked_until = NULL WHERE id = $1`, byUser["held-1"])
	res, err = a.SendMessages(context.Background(), send.SendBatchInput{Jobs: jobs})
	if err != nil {
		t.Fatal(err)
	}
	if res.Sent != 4 || res.Failed != 1 || len(res.Retries) != 2 {
		t.Errorf("second result %+v, want 4 sent (3 before, held-1 now), 1 failed, 2 retries", res)
	}
	for who, want := range map[string]int{"ok-1": 1, "ok-2": 1, "ok-3": 1, "perm-1": 1, "slow-1": 2, "down-1": 2, "held-1": 1} {
		if got := rc.count(who); got != want {
			t.Errorf("%s called %d times, want %d", who, got, want)
		}
	}
	if l := logOf(t, d, byUser["ok-1"]); l.Attempts != 1 {
		t.Errorf("a sent message was claimed again: attempts %d", l.Attempts)
	}
}

func TestSendMessagesFailsOverToTheNextInstance(t *testing.T) {
	d, appID, a, _ := setup(t)
	down := newEndpoint(t, 503, 503, 503)
	up := newEndpoint(t)
	webhookInstance(t, a, appID, "primary", down.srv.URL)
	webhookInstance(t, a, appID, "backup", up.srv.URL)
	req := accept(t, d, appID, `{"notification":{"title":"Hi"},"override":{"channels":["webhook"]},"sendTo":{"recipients":["a","b","c"]}}`)
	_, jobs := drain(t, a, []send.Cursor{{RequestID: req}})
	res, err := a.SendMessages(context.Background(), send.SendBatchInput{Jobs: jobs})
	if err != nil {
		t.Fatal(err)
	}
	if res.Sent != 3 || down.calls() != 3 || up.calls() != 3 {
		t.Fatalf("result %+v; primary %d calls, backup %d", res, down.calls(), up.calls())
	}
	for _, j := range jobs {
		if l := logOf(t, d, j.LogID); l.Status != "sent" || !strings.Contains(l.Error, "primary (webhook): provider answered 503") {
			t.Errorf("log %+v, want sent with the primary's failure noted", l)
		}
	}
}

func TestSendMessagesBoundsCallsPerInstance(t *testing.T) {
	d, appID, a, _ := setup(t)
	a.InstanceConcurrency = 3
	var mu sync.Mutex
	inFlight, peak := 0, 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		mu.Lock()
		inFlight++
		peak = max(peak, inFlight)
		mu.Unlock()
		time.Sleep(20 * time.Millisecond)
		mu.Lock()
		inFlight--
		mu.Unlock()
	}))
	t.Cleanup(srv.Close)
	webhookInstance(t, a, appID, "hook", srv.URL)
	var throttled []int64
	a.Throttle = func(_ context.Context, c *channels.Candidate) error {
		mu.Lock()
		throttled = append(throttled, c.InstanceID)
		mu.Unlock()
		return nil
	}
	rs := make([]string, 30)
	for i := range rs {
		rs[i] = `"r` + string(rune('a'+i%26)) + string(rune('a'+i/26)) + `"`
	}
	req := accept(t, d, appID, `{"notification":{"title":"Hi"},"override":{"channels":["webhook"]},"sendTo":{"recipients":[`+strings.Join(rs, ",")+`]}}`)
	_, jobs := drain(t, a, []send.Cursor{{RequestID: req}})
	res, err := a.SendMessages(context.Background(), send.SendBatchInput{Jobs: jobs})
	if err != nil {
		t.Fatal(err)
	}
	if res.Sent != 30 || peak > 3 || peak < 2 || len(throttled) != 30 {
		t.Errorf("sent %d with at most %d calls at once (want 2-3: concurrent, bound 3), throttle asked %d times", res.Sent, peak, len(throttled))
	}
}

func TestSendMessagesRendersEachSendOfABatchWithItsOwnContent(t *testing.T) {
	d, appID, a, _ := setup(t)
	var mu sync.Mutex
	titles := map[string]string{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body struct {
			Title     string                      `json:"title"`
			Recipient struct{ Identifier string } `json:"recipient"`
		}
		raw, _ := io.ReadAll(r.Body)
		_ = json.Unmarshal(raw, &body)
		mu.Lock()
		titles[body.Recipient.Identifier] = body.Title
		mu.Unlock()
	}))
	t.Cleanup(srv.Close)
	webhookInstance(t, a, appID, "hook", srv.URL)
	ctx := context.Background()
	tpl, err := a.Templates.Create(ctx, appID, templates.TemplateInput{Identifier: "order"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.Templates.SetContent(ctx, appID, tpl.ID, "webhook", templates.ContentInput{Fields: json.RawMessage(`{"title":"Order {{data.n}}","body":"m"}`)}); err != nil {
		t.Fatal(err)
	}
	// A pack of single sends: two with the template, two with their own titles.
	var cursors []send.Cursor
	for _, body := range []string{
		`{"notification":{"templateIdentifier":"order"},"data":{"n":1},"override":{"channels":["webhook"]},"sendTo":{"recipients":["a"]}}`,
		`{"notification":{"templateIdentifier":"order"},"data":{"n":2},"override":{"channels":["webhook"]},"sendTo":{"recipients":["b"]}}`,
		`{"notification":{"title":"Plain","message":"m"},"override":{"channels":["webhook"]},"sendTo":{"recipients":["c"]}}`,
		`{"notification":{"title":"Other","message":"m"},"override":{"channels":["webhook"]},"sendTo":{"recipients":["d"]}}`,
	} {
		cursors = append(cursors, send.Cursor{RequestID: accept(t, d, appID, body)})
	}
	_, jobs := drain(t, a, cursors)
	res, err := a.SendMessages(ctx, send.SendBatchInput{Jobs: jobs})
	if err != nil || res.Sent != 4 {
		t.Fatalf("result %+v, %v", res, err)
	}
	if titles["a"] != "Order 1" || titles["b"] != "Order 2" || titles["c"] != "Plain" || titles["d"] != "Other" {
		t.Errorf("titles %v", titles)
	}
}

func TestDeliverBatchSendsASmallSliceItself(t *testing.T) {
	d, appID, a, _ := setup(t)
	rc := newReceiver(t)
	webhookInstance(t, a, appID, "hook", rc.srv.URL)
	req := accept(t, d, appID, `{"notification":{"title":"Hi"},"override":{"channels":["webhook","inApp"]},"sendTo":{"recipients":["ok-1","ok-2","down-1"]}}`)
	in := send.DeliverInput{Cursors: []send.Cursor{{RequestID: req}}, SendSmall: true}
	res, err := a.DeliverBatch(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Jobs) != 0 || res.Sent != 2 || len(res.Retries) != 1 || res.Retries[0].Channel != "webhook" || res.Delivered == 0 {
		t.Fatalf("result %+v, want the webhooks sent (2) or to retry (1), no jobs", res)
	}
	// A retried call (the worker died before answering) sends nothing twice.
	res, err = a.DeliverBatch(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	if rc.count("ok-1") != 1 || rc.count("ok-2") != 1 || rc.count("down-1") != 2 || len(res.Retries) != 1 {
		t.Errorf("calls ok-1 %d, ok-2 %d, down-1 %d; result %+v", rc.count("ok-1"), rc.count("ok-2"), rc.count("down-1"), res)
	}
	if n := count(t, d, `SELECT count(*) FROM notifications WHERE request_id = $1`, req); n != 3 {
		t.Errorf("%d inbox rows, want 3", n)
	}
}

func TestSendMessagesRetriesWhatTheThrottleRefuses(t *testing.T) {
	d, appID, a, _ := setup(t)
	rc := newReceiver(t)
	webhookInstance(t, a, appID, "hook", rc.srv.URL)
	a.Throttle = func(context.Context, *channels.Candidate) error { return errors.New("over the instance's rate") }
	req := accept(t, d, appID, `{"notification":{"title":"Hi"},"override":{"channels":["webhook"]},"sendTo":{"recipients":["ok-1"]}}`)
	_, jobs := drain(t, a, []send.Cursor{{RequestID: req}})
	res, err := a.SendMessages(context.Background(), send.SendBatchInput{Jobs: jobs})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Retries) != 1 || !strings.Contains(res.Retries[0].Error, "over the instance's rate") || rc.count("ok-1") != 0 {
		t.Fatalf("result %+v, %d calls; want a retry and no call", res, rc.count("ok-1"))
	}
	if l := logOf(t, d, jobs[0].LogID); l.Status != "queued" || !strings.Contains(l.Error, "over the instance's rate") {
		t.Errorf("log %+v, want queued with the reason", l)
	}
}

// A batch whose instance's breaker is open holds every message untried, and records them
// in a few commits, not one each: one commit per held message made a hung provider's
// 20,000 messages a storm of WAL flushes every other app's commits waited behind (issue 28).
func TestSendMessagesRecordsHeldMessagesTogether(t *testing.T) {
	d, appID, a, _ := setup(t)
	rc := newReceiver(t)
	inst := webhookInstance(t, a, appID, "hook", rc.srv.URL)
	var users []string
	for i := range 60 {
		users = append(users, `"held-`+strconv.Itoa(i)+`"`)
	}
	req := accept(t, d, appID, `{"notification":{"title":"Hi"},"override":{"channels":["webhook"]},"sendTo":{"recipients":[`+strings.Join(users, ",")+`]}}`)
	_, jobs := drain(t, a, []send.Cursor{{RequestID: req}})
	if len(jobs) != 60 {
		t.Fatalf("%d jobs, want 60", len(jobs))
	}
	brk, now := a.breakerOf(inst.ID), time.Now()
	for range breakerTrips {
		brk.record(false, now)
	}

	res, err := a.SendMessages(context.Background(), send.SendBatchInput{Jobs: jobs})
	if err != nil {
		t.Fatal(err)
	}
	if res.Sent != 0 || res.Failed != 0 || len(res.Retries) != 60 {
		t.Fatalf("result %d sent, %d failed, %d retries; want 60 held", res.Sent, res.Failed, len(res.Retries))
	}
	for _, r := range res.Retries {
		if !r.Hold || !strings.Contains(r.Error, "provider unavailable, retrying at") {
			t.Fatalf("retry %+v, want held for the breaker", r)
		}
	}
	ids := make([]int64, len(jobs))
	for i, j := range jobs {
		ids[i] = j.LogID
	}
	var recorded, leased, commits int
	if err := d.Pool.QueryRow(context.Background(), `SELECT count(*) FILTER (WHERE status = 'queued' AND error LIKE 'hook (webhook): provider unavailable%'),
		count(*) FILTER (WHERE locked_until IS NOT NULL), count(DISTINCT xmin::text) FROM message_logs WHERE id = ANY($1)`, ids).Scan(&recorded, &leased, &commits); err != nil {
		t.Fatal(err)
	}
	if recorded != 60 || leased != 0 {
		t.Errorf("%d of 60 rows queued with the breaker's note, %d still leased; want 60 and 0", recorded, leased)
	}
	if commits > 10 {
		t.Errorf("the 60 held messages were recorded in %d transactions, want a few (group commit)", commits)
	}
	if n := len(rc.calls); n != 0 {
		t.Errorf("%d recipients called through an open breaker", n)
	}
}

// A batch that held messages for an open breaker returns after a random part of
// HoldSpread, so the runs of a breaker's moment do not all wake in the same second; a batch
// that held nothing returns at once.
func TestABatchThatHeldMessagesReturnsAfterASpreadWait(t *testing.T) {
	d, appID, a, _ := setup(t)
	rc := newReceiver(t)
	inst := webhookInstance(t, a, appID, "hook", rc.srv.URL)
	a.HoldSpread = 5 * time.Second
	var asked []time.Duration
	a.draw = func(n time.Duration) time.Duration {
		asked = append(asked, n)
		return 300 * time.Millisecond
	}
	batch := func(who string) (send.SendBatchResult, time.Duration) {
		t.Helper()
		req := accept(t, d, appID, `{"notification":{"title":"Hi"},"override":{"channels":["webhook"]},"sendTo":{"recipients":["`+who+`"]}}`)
		_, jobs := drain(t, a, []send.Cursor{{RequestID: req}})
		start := time.Now()
		res, err := a.SendMessages(context.Background(), send.SendBatchInput{Jobs: jobs})
		if err != nil {
			t.Fatal(err)
		}
		return res, time.Since(start)
	}

	if res, _ := batch("ok-1"); res.Sent != 1 || len(asked) != 0 {
		t.Fatalf("a batch that sent its message: %+v, drew %d waits; want sent and none", res, len(asked))
	}
	brk, now := a.breakerOf(inst.ID), time.Now()
	for range breakerTrips {
		brk.record(false, now)
	}
	res, took := batch("held-1")
	if len(res.Retries) != 1 || !res.Retries[0].Hold {
		t.Fatalf("result %+v, want the message held", res)
	}
	if len(asked) != 1 || asked[0] != a.HoldSpread {
		t.Fatalf("drew waits %v, want one below HoldSpread (%s)", asked, a.HoldSpread)
	}
	if took < 300*time.Millisecond {
		t.Errorf("the held batch returned after %s, before its drawn wait of 300ms", took)
	}
}

// A batch that held messages for an open breaker asks their run to wait a drawn part of
// WakeSpread past the cool-down, the same for every message of the batch; without
// WakeSpread, exactly the cool-down.
func TestABatchsHeldMessagesWakeAfterADrawnWait(t *testing.T) {
	d, appID, a, _ := setup(t)
	rc := newReceiver(t)
	inst := webhookInstance(t, a, appID, "hook", rc.srv.URL)
	brk := a.breakerOf(inst.ID)
	for range breakerTrips {
		brk.record(false, time.Now())
	}
	_, openUntil := brk.blocked(time.Now())
	draws := 0
	held := func(who string) []send.Retry {
		t.Helper()
		req := accept(t, d, appID, `{"notification":{"title":"Hi"},"override":{"channels":["webhook"]},"sendTo":{"recipients":["`+who+`-1","`+who+`-2"]}}`)
		_, jobs := drain(t, a, []send.Cursor{{RequestID: req}})
		draws = 0 // the call's own draw (DeliverBatch) is not the batch's
		res, err := a.SendMessages(context.Background(), send.SendBatchInput{Jobs: jobs})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Retries) != 2 || !res.Retries[0].Hold || !res.Retries[1].Hold {
			t.Fatalf("result %+v, want both messages held", res)
		}
		return res.Retries
	}
	for _, rt := range held("plain") {
		if left := time.Until(openUntil); rt.After > left+time.Second || rt.After < left-2*time.Second {
			t.Errorf("without WakeSpread: wait %s, want about the cool-down left (%s)", rt.After, left)
		}
	}
	a.WakeSpread = 5 * time.Second
	a.draw = func(n time.Duration) time.Duration {
		draws++
		return 4 * time.Second
	}
	for _, rt := range held("spread") {
		if left := time.Until(openUntil) + 4*time.Second; rt.After > left+time.Second || rt.After < left-2*time.Second {
			t.Errorf("with WakeSpread: wait %s, want the cool-down left and the drawn 4 s (%s)", rt.After, left)
		}
	}
	if draws != 1 {
		t.Errorf("%d draws for one batch, want 1 (its messages share the run's timer)", draws)
	}
}

// A batch's heartbeat renews its messages' leases once half a lease has passed since they
// were set, not at every beat: a batch waiting on a hung provider rewrote each of its rows
// every two seconds.
func TestBatchRenewsLeasesOnceHalfHasPassed(t *testing.T) {
	d, appID, a, _ := setup(t)
	rc := newReceiver(t)
	webhookInstance(t, a, appID, "hook", rc.srv.URL)
	req := accept(t, d, appID, `{"notification":{"title":"Hi"},"override":{"channels":["webhook"]},"sendTo":{"recipients":["lease-1","lease-2"]}}`)
	_, jobs := drain(t, a, []send.Cursor{{RequestID: req}})
	if len(jobs) != 2 {
		t.Fatalf("%d jobs, want 2", len(jobs))
	}
	ctx := context.Background()
	ids := []int64{jobs[0].LogID, jobs[1].LogID}
	claimed, err := a.DB.ClaimMessageLogs(ctx, dbsqlc.ClaimMessageLogsParams{Ids: ids, LeaseSeconds: send.SendLease.Seconds()})
	if err != nil || len(claimed) != 2 {
		t.Fatalf("claimed %d, %v", len(claimed), err)
	}
	leases := func() map[int64]time.Time {
		t.Helper()
		got := map[int64]time.Time{}
		rows, err := d.Pool.Query(ctx, `SELECT id, locked_until FROM message_logs WHERE id = ANY($1)`, ids)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		for rows.Next() {
			var id int64
			var until time.Time
			if err := rows.Scan(&id, &until); err != nil {
				t.Fatal(err)
			}
			got[id] = until
		}
		return got
	}
	b := &batch{a: a, held: map[int64]int32{}, leased: time.Now()}
	for _, lg := range claimed {
		b.held[lg.ID] = lg.Attempts
	}
	before := leases()
	b.beat(ctx)
	if after := leases(); !maps.Equal(after, before) {
		t.Fatalf("a beat right after the claim renewed the leases: %v → %v", before, after)
	}

	// Half a lease later the beat renews what the batch still holds, and only that.
	delete(b.held, claimed[1].ID)
	b.leased = time.Now().Add(-renewAfter)
	b.beat(ctx)
	after := leases()
	if !after[claimed[0].ID].After(before[claimed[0].ID]) {
		t.Errorf("held message's lease %v, want renewed past %v", after[claimed[0].ID], before[claimed[0].ID])
	}
	if !after[claimed[1].ID].Equal(before[claimed[1].ID]) {
		t.Errorf("settled message's lease moved from %v to %v", before[claimed[1].ID], after[claimed[1].ID])
	}
	if time.Since(b.leased) > time.Second {
		t.Errorf("leased %v after the renewal, want now", b.leased)
	}
}
