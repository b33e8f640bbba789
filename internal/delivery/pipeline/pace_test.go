package pipeline

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/heraldhq/herald/db/dbsqlc"
	"github.com/heraldhq/herald/internal/delivery/channels"
	sendwf "github.com/heraldhq/herald/workflows/send"
)

// While single sends are being delivered, a large call writes its rows in transactions of
// about pacedChunkRows, one at a time, resting after each; alone, or with BulkShare 100, it
// writes flat out. Either way every row is written once and the request completed once.
func TestLargeCallsYieldToSingleSends(t *testing.T) {
	d, appID, a, _ := setup(t)
	body := recipientsSend(1500)
	single := func(i int) {
		t.Helper()
		id := accept(t, d, appID, fmt.Sprintf(`{"notification":{"title":"one"},"recipients":["single-%d"]}`, i))
		deliverWhole(t, a, sendwf.DeliverInput{Cursors: []sendwf.Cursor{{RequestID: id}}})
	}
	// restSeen is a rest and the large request's inbox rows committed when it began.
	type restSeen struct {
		d    time.Duration
		rows int
	}
	var rests []restSeen
	var big uuid.UUID
	a.pace.sleep = func(_ context.Context, rest time.Duration) {
		rests = append(rests, restSeen{rest, count(t, d, "SELECT count(*) FROM notifications WHERE request_id = $1", big)})
	}
	broadcast := func() {
		t.Helper()
		rests = nil
		big = accept(t, d, appID, body)
		a.BatchSize = 2000
		deliverWhole(t, a, sendwf.DeliverInput{Cursors: []sendwf.Cursor{{RequestID: big}}})
		if n := count(t, d, "SELECT count(*) FROM notifications WHERE request_id = $1", big); n != 1500 {
			t.Errorf("inbox rows = %d, want 1500", n)
		}
		if n := count(t, d, "SELECT count(*) FROM notification_requests WHERE id = $1 AND status = 'completed' AND delivered_count = 1500", big); n != 1 {
			t.Errorf("the request is not completed with its count")
		}
	}

	a.BulkShare = 50
	single(0)
	broadcast()
	// 1,500 inbox rows and 1,500 log rows: transactions of about pacedChunkRows rows, a
	// rest after each, each seeing more of the rows committed than the one before.
	want := (3000 + pacedChunkRows - 1) / pacedChunkRows
	if len(rests) != want {
		t.Fatalf("%d rests, want %d (one after each transaction): %v", len(rests), want, rests)
	}
	for i, r := range rests {
		if r.d <= 0 || r.d > maxRest {
			t.Errorf("rest %d = %s, want in (0, %s]", i, r.d, maxRest)
		}
		if i > 0 && r.rows <= rests[i-1].rows {
			t.Errorf("rest %d saw %d rows, rest %d %d: the transactions were not one at a time", i, r.rows, i-1, rests[i-1].rows)
		}
	}
	if rests[0].rows == 0 || rests[0].rows >= 1500 || rests[len(rests)-1].rows != 1500 {
		t.Errorf("rows committed at the rests: %v, want a part first and all 1,500 at the last", rests)
	}

	// No single send in the last second: flat out.
	a.pace.lastSmall.Store(time.Now().Add(-2 * paceWindow).UnixNano())
	broadcast()
	if len(rests) != 0 {
		t.Errorf("alone, the large call rested %d times, want none", len(rests))
	}

	// BulkShare 100 never rests.
	a.BulkShare = 100
	single(1)
	broadcast()
	if len(rests) != 0 {
		t.Errorf("with BulkShare 100 the large call rested %d times, want none", len(rests))
	}
}

// A large call that began alone yields from its next transaction to a single send that
// arrives while it is being written, not from its next call: the chunks written before
// the send went out at once, the ones after it one at a time with rests. Every row is
// written once and the request completed once.
func TestALargeCallYieldsToASingleSendArrivingMidway(t *testing.T) {
	d, appID, a, _ := setup(t)
	a.BulkShare = 50
	a.BatchSize = 5000
	a.pace.lastSmall.Store(time.Now().Add(-2 * paceWindow).UnixNano())
	var mu sync.Mutex
	chunks, rests := 0, 0
	a.pace.written = func() {
		mu.Lock()
		defer mu.Unlock()
		chunks++
		if chunks == 1 {
			a.noteSmall(time.Now()) // a one-time code is delivered in the meantime
		}
	}
	a.pace.sleep = func(context.Context, time.Duration) {
		mu.Lock()
		defer mu.Unlock()
		rests++
	}
	big := accept(t, d, appID, recipientsSend(5000))
	deliverWhole(t, a, sendwf.DeliverInput{Cursors: []sendwf.Cursor{{RequestID: big}}})
	// 5,000 inbox rows and 5,000 log rows in chunks of about pacedChunkRows. The first
	// transactions (writeParallelism at once, chunks merged up to unpacedChunkRows rows)
	// are written flat out; each one begun after the send is one chunk, paced: it owes a
	// rest, taken before the next or after the announcement.
	flatOut := chunks - rests
	if rests == 0 || flatOut < 1 || flatOut > writeParallelism {
		t.Errorf("%d transactions, %d rests: want the first %d at most flat out, then one rest after each", chunks, rests, writeParallelism)
	}
	if max := writeParallelism*unpacedChunkRows + (rests+1)*pacedChunkRows; max < 10000 {
		t.Errorf("%d paced transactions after %d flat out cannot hold 10,000 rows: the paced ones were merged", rests, flatOut)
	}
	if n := count(t, d, "SELECT count(*) FROM notifications WHERE request_id = $1", big); n != 5000 {
		t.Errorf("inbox rows = %d, want 5000", n)
	}
	if n := count(t, d, "SELECT count(*) FROM notification_requests WHERE id = $1 AND status = 'completed' AND delivered_count = 5000", big); n != 1 {
		t.Errorf("the request is not completed with its count")
	}
}

// A call of only small requests is single sends, however many: it is noted (large calls
// yield to it) and never paced itself. A call with a large request is not noted, so two
// broadcasts do not pace each other.
func TestOnlySingleSendsArePacedFor(t *testing.T) {
	d, appID, a, _ := setup(t)
	a.BulkShare = 50
	rests := 0
	a.pace.sleep = func(context.Context, time.Duration) { rests++ }
	deliverWhole(t, a, sendwf.DeliverInput{Cursors: []sendwf.Cursor{{RequestID: accept(t, d, appID, recipientsSend(600))}}})
	if a.paced(time.Now()) {
		t.Error("a 600-recipient send made the next large call paced, want only single sends to")
	}
	// A pack of 600 single sends in one call: 1,200 rows, more than a paced transaction.
	var pack []sendwf.Cursor
	for i := range 600 {
		pack = append(pack, sendwf.Cursor{RequestID: accept(t, d, appID, fmt.Sprintf(`{"notification":{"title":"one"},"recipients":["user-%04d"]}`, i))})
	}
	a.noteSmall(time.Now())
	deliverWhole(t, a, sendwf.DeliverInput{Cursors: pack})
	if rests != 0 {
		t.Errorf("a pack of single sends rested %d times, want none: it is what broadcasts yield to", rests)
	}
	a.pace.lastSmall.Store(0)
	deliverWhole(t, a, sendwf.DeliverInput{Cursors: []sendwf.Cursor{{RequestID: accept(t, d, appID, `{"notification":{"title":"one"},"recipients":["single"]}`)}}})
	if !a.paced(time.Now()) {
		t.Error("after a single send, a large call is not paced")
	}
	if a.paced(time.Now().Add(paceWindow)) {
		t.Errorf("a single send still paces large calls %s later", paceWindow)
	}
	a.pace.lastSmall.Store(0)
	deliverWhole(t, a, sendwf.DeliverInput{Cursors: pack[:300]}) // a retry of part of the pack
	if !a.paced(time.Now()) {
		t.Error("after a pack of single sends, a large call is not paced")
	}
	// A run's first slice of a larger send (a local activity of send.LocalSliceSize
	// recipients): as small as a single send's, but its send goes on.
	a.pace.lastSmall.Store(0)
	res, err := a.DeliverBatch(context.Background(), sendwf.DeliverInput{Cursors: []sendwf.Cursor{{RequestID: accept(t, d, appID, recipientsSend(300))}}, Limit: 50})
	if err != nil {
		t.Fatal(err)
	}
	if res.Delivered != 50 || len(res.Pending) != 1 {
		t.Fatalf("the first slice delivered %d with %d pending, want 50 and the rest pending", res.Delivered, len(res.Pending))
	}
	if a.paced(time.Now()) {
		t.Error("a larger send's small first slice made its next slices paced, want only whole single sends to")
	}
}

// The rest keeps the write at BulkShare percent of the time, within maxRest.
func TestRestAfterKeepsTheShare(t *testing.T) {
	for _, c := range []struct {
		share int
		took  time.Duration
		want  time.Duration
	}{
		{50, 100 * time.Millisecond, 100 * time.Millisecond},
		{25, 100 * time.Millisecond, 300 * time.Millisecond},
		{80, 400 * time.Millisecond, 100 * time.Millisecond},
		{50, 3 * time.Second, maxRest},
		{100, 100 * time.Millisecond, 0},
		{0, 100 * time.Millisecond, 0},
	} {
		a := &Service{BulkShare: c.share}
		if got := a.restAfter(c.took); got != c.want {
			t.Errorf("share %d%%, write of %s: rest %s, want %s", c.share, c.took, got, c.want)
		}
	}
}

// A rest ends with its context: a cancelled call does not sit out its pause.
func TestRestEndsWithItsContext(t *testing.T) {
	a := &Service{BulkShare: 50}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	done := make(chan struct{})
	go func() { a.rest(ctx, time.Hour); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("a rest of an hour with a cancelled context did not return")
	}
}

// The attempt records of held or failed messages come in waves (a breaker opening under
// every batch in flight): while single sends are being delivered, a wave is written in
// statements of pacedRecordRows with a rest after each but the last; alone, in one. Either
// way every record is written.
func TestAttemptRecordsYieldToSingleSends(t *testing.T) {
	d, appID, a, _ := setup(t)
	cfg, _ := json.Marshal(map[string]any{"host": "127.0.0.1", "port": 1, "security": "none", "from": "noreply@herald.test"})
	if _, err := a.Channels.CreateInstance(context.Background(), appID, "email", channels.InstanceInput{Provider: "smtp", Name: "mail", Config: cfg}); err != nil {
		t.Fatal(err)
	}
	req := accept(t, d, appID, emailSend(250))
	_, jobs := drain(t, a, []sendwf.Cursor{{RequestID: req}})
	if len(jobs) != 250 {
		t.Fatalf("%d jobs, want 250", len(jobs))
	}
	record := func(note string) {
		t.Helper()
		params := make([]dbsqlc.RecordMessageAttemptErrorParams, len(jobs))
		for i, j := range jobs {
			params[i] = dbsqlc.RecordMessageAttemptErrorParams{ID: j.LogID, Error: &note}
		}
		a.commitAttempts(context.Background(), params)
		if n := count(t, d, "SELECT count(*) FROM message_logs WHERE request_id = $1 AND error = $2", req, note); n != 250 {
			t.Errorf("%d of 250 attempt records written, want all", n)
		}
	}
	var rests []time.Duration
	a.pace.sleep = func(_ context.Context, rest time.Duration) { rests = append(rests, rest) }
	a.BulkShare = 50

	a.noteSmall(time.Now())
	record("held while single sends were delivered")
	if want := (250+pacedRecordRows-1)/pacedRecordRows - 1; len(rests) != want {
		t.Errorf("%d rests while single sends were delivered, want %d (between statements of %d): %v", len(rests), want, pacedRecordRows, rests)
	}
	for _, r := range rests {
		if r <= 0 || r > maxRest {
			t.Errorf("rest %s, want (0, %s]", r, maxRest)
		}
	}

	rests = nil
	a.pace.lastSmall.Store(0)
	record("held alone")
	if len(rests) != 0 {
		t.Errorf("%d rests with no single send delivered, want one statement and none", len(rests))
	}
}
