package flows

import (
	"context"
	"log/slog"
	"sync"
	"testing"

	"github.com/google/uuid"

	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/events"
	"github.com/heraldhq/herald/inbox"
	"github.com/heraldhq/herald/workflows/flow"
)

type recordedSignal struct {
	workflowID string
	state      flow.InboxState
}

type fakeSignaler struct {
	mu      sync.Mutex
	signals []recordedSignal
}

func (f *fakeSignaler) SignalWorkflow(_ context.Context, workflowID, _, name string, arg any) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if name == flow.InboxStateSignal {
		f.signals = append(f.signals, recordedSignal{workflowID, arg.(flow.InboxState)})
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
// would (source key, message log row, running run).
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
		mustExec(t, d, `INSERT INTO flow_runs (app_id, request_id, flow_identifier, user_identifier, workflow_id) VALUES ($1, $2, 'wf', $3, $4)`, appID, req, user, wf)
	}
	return id
}

func mustExec(t *testing.T, d *db.DB, q string, args ...any) {
	t.Helper()
	if _, err := d.Pool.Exec(context.Background(), q, args...); err != nil {
		t.Fatal(err)
	}
}

func TestInboxChangesWakeWaitingRuns(t *testing.T) {
	s, app, other := setup(t)
	d := s.db
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
