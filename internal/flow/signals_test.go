package flow

import (
	"context"
	"log/slog"
	"strings"
	"sync"
	"testing"

	"github.com/google/uuid"

	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/internal/inbox"
	"github.com/heraldhq/herald/internal/inbox/events"
	"github.com/heraldhq/herald/workflows/flowrun"
)

type recordedSignal struct {
	workflowID string
	state      flowrun.InboxState
}

type fakeSignaler struct {
	mu      sync.Mutex
	signals []recordedSignal
}

func (f *fakeSignaler) SignalWorkflow(_ context.Context, workflowID, _, name string, arg any) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if name == flowrun.InboxStateSignal {
		f.signals = append(f.signals, recordedSignal{workflowID, arg.(flowrun.InboxState)})
	}
	return nil
}

type countingPublisher struct {
	mu sync.Mutex
	n  int
}

func (c *countingPublisher) Publish(_ context.Context, evs ...events.Event) {
	c.mu.Lock()
	c.n += len(evs)
	c.mu.Unlock()
}

// inboxRow writes a notification for user; with step set, as a workflow step of run wf
// would (source key, message log row and, for a flow/<workflow>/… run, a running run).
func inboxRow(t *testing.T, d *db.DB, appID int64, user, step, wf string) int64 {
	t.Helper()
	ctx := context.Background()
	var uid int64
	if err := d.Pool.QueryRow(ctx, `INSERT INTO users (app_id, identifier) VALUES ($1, $2)
		ON CONFLICT (app_id, identifier) DO UPDATE SET identifier = EXCLUDED.identifier RETURNING id`, appID, user).Scan(&uid); err != nil {
		t.Fatal(err)
	}
	req := uuid.New()
	source := ""
	if step != "" {
		source = "flow:" + step
	}
	var id int64
	if err := d.Pool.QueryRow(ctx, `INSERT INTO notifications (app_id, user_id, request_id, source_key, title) VALUES ($1, $2, $3, $4, 't') RETURNING id`,
		appID, uid, req, source).Scan(&id); err != nil {
		t.Fatal(err)
	}
	if step != "" {
		mustExec(t, d, `INSERT INTO message_logs (app_id, request_id, workflow_id, user_id, user_identifier, channel, step_key, status, idempotency_key)
			VALUES ($1, $2, $3, $4, $5, 'inApp', $6, 'delivered', 'k')`, appID, req, wf, uid, user, step)
		if parts := strings.Split(wf, "/"); parts[0] == "flow" {
			mustExec(t, d, `INSERT INTO flow_runs (app_id, request_id, flow_identifier, user_identifier, workflow_id) VALUES ($1, $2, $3, $4, $5)`, appID, req, parts[1], user, wf)
		}
	}
	return id
}

func mustExec(t *testing.T, d *db.DB, q string, args ...any) {
	t.Helper()
	if _, err := d.Pool.Exec(context.Background(), q, args...); err != nil {
		t.Fatal(err)
	}
}

// waitingFlow publishes workflow wf, whose waitForRead steps wait on its steps hi and remind.
func waitingFlow(t *testing.T, s *Service, app int64) {
	t.Helper()
	publish(t, s, app, "wf", `{"steps":[
		{"id":"hi","type":"inApp","content":{"title":"x"},"next":"wait"},
		{"id":"wait","type":"waitForRead","step":"hi","timeout":"1h","next":"remind"},
		{"id":"remind","type":"inApp","content":{"title":"y"},"next":"wait2"},
		{"id":"wait2","type":"waitForRead","step":"remind","timeout":"1h"}]}`)
}

func publish(t *testing.T, s *Service, app int64, identifier, definition string) {
	t.Helper()
	ctx := context.Background()
	if _, err := s.Create(ctx, app, []byte(`{"identifier":"`+identifier+`","name":"n","definition":`+definition+`}`)); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Publish(ctx, app, identifier); err != nil {
		t.Fatal(err)
	}
}

func TestInboxChangesWakeWaitingRuns(t *testing.T) {
	s, app, other := setup(t)
	d := s.db
	waitingFlow(t, s, app)
	sig := &fakeSignaler{}
	next := &countingPublisher{}
	signals := NewInboxSignals(d, sig, next, slog.New(slog.DiscardHandler))
	var pending sync.WaitGroup
	signals.done = pending.Done
	box := inbox.NewService(d, signals)
	ctx := context.Background()

	flowRow := inboxRow(t, d, app, "ann", "hi", "flow/wf/r1/ann")
	plainRow := inboxRow(t, d, app, "ann", "", "")
	foreign := inboxRow(t, d, other, "ann", "hi", "flow/wf/r2/ann")

	pending.Add(2)
	if _, err := box.Apply(ctx, app, "ann", flowRow, inbox.Click); err != nil {
		t.Fatal(err)
	}
	pending.Wait()
	pending.Add(1)
	if _, err := box.Apply(ctx, app, "ann", plainRow, inbox.MarkRead); err != nil {
		t.Fatal(err)
	}
	pending.Wait()
	if len(sig.signals) != 2 || sig.signals[0].workflowID != "flow/wf/r1/ann" || sig.signals[0].state.NotificationID != flowRow {
		t.Fatalf("signals %+v", sig.signals)
	}
	if st := sig.signals[1].state.State; !st.Read || !st.Clicked || !st.Interacted || !st.Seen {
		t.Errorf("state after a click: %+v", st)
	}
	if next.n != 3 {
		t.Errorf("the next publisher got %d events, want every one (3)", next.n)
	}

	// Marking everything read wakes the user's running runs (the event names no ids).
	sig.signals = nil
	second := inboxRow(t, d, app, "ann", "remind", "flow/wf/r3/ann")
	pending.Add(1)
	if _, err := box.MarkAllRead(ctx, app, "ann", nil); err != nil {
		t.Fatal(err)
	}
	pending.Wait()
	if len(sig.signals) != 2 {
		t.Fatalf("after mark all read: %+v", sig.signals)
	}
	for _, s := range sig.signals {
		if s.state.NotificationID == foreign || (s.state.NotificationID == second && !s.state.State.Read) {
			t.Errorf("signal %+v", s)
		}
	}
}

// Issue 15 item 11: a signal to a run that never reads it ends as "Workflow has unhandled
// signals" in the worker's log. Only runs whose workflow waits on the step are signalled.
func TestInboxSignalsSkipRunsThatDoNotWait(t *testing.T) {
	s, app, _ := setup(t)
	d := s.db
	waitingFlow(t, s, app)
	publish(t, s, app, "plain", `{"steps":[
		{"id":"hi","type":"inApp","content":{"title":"x"},"next":"pause"},
		{"id":"pause","type":"delay","duration":"1h","next":"bye"},
		{"id":"bye","type":"inApp","content":{"title":"y"},"next":"wait"},
		{"id":"wait","type":"waitForRead","step":"bye","timeout":"1h"}]}`)
	sig := &fakeSignaler{}
	signals := NewInboxSignals(d, sig, nil, slog.New(slog.DiscardHandler))
	var pending sync.WaitGroup
	signals.done = pending.Done
	box := inbox.NewService(d, signals)
	ctx := context.Background()
	read := func(id int64) {
		t.Helper()
		pending.Add(1)
		if _, err := box.Apply(ctx, app, "ann", id, inbox.MarkRead); err != nil {
			t.Fatal(err)
		}
		pending.Wait()
	}

	read(inboxRow(t, d, app, "ann", "hi", "flow/plain/r1/ann")) // plain waits on bye only
	finished := inboxRow(t, d, app, "ann", "hi", "flow/wf/r2/ann")
	mustExec(t, d, `UPDATE flow_runs SET status = 'completed' WHERE workflow_id = 'flow/wf/r2/ann'`)
	read(finished)
	if len(sig.signals) != 0 {
		t.Fatalf("runs that do not wait were signalled: %+v", sig.signals)
	}
	waiting := inboxRow(t, d, app, "ann", "bye", "flow/plain/r3/ann")
	read(waiting)
	collector := inboxRow(t, d, app, "ann", "remind", "digest/1/wf/collect/ann") // a step after a digest
	read(collector)
	if len(sig.signals) != 2 || sig.signals[0].state.NotificationID != waiting || sig.signals[1].workflowID != "digest/1/wf/collect/ann" {
		t.Fatalf("signals %+v", sig.signals)
	}

	// Marking everything read skips them too.
	sig.signals = nil
	inboxRow(t, d, app, "bob", "hi", "flow/plain/r4/bob")
	waitingBob := inboxRow(t, d, app, "bob", "bye", "flow/plain/r5/bob")
	pending.Add(1)
	if _, err := box.MarkAllRead(ctx, app, "bob", nil); err != nil {
		t.Fatal(err)
	}
	pending.Wait()
	if len(sig.signals) != 1 || sig.signals[0].state.NotificationID != waitingBob {
		t.Fatalf("after mark all read: %+v", sig.signals)
	}
}
