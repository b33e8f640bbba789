package flow

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"go.temporal.io/api/serviceerror"

	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/db/dbsqlc"
	"github.com/heraldhq/herald/internal/flow/flowdef"
	"github.com/heraldhq/herald/internal/inbox/events"
	"github.com/heraldhq/herald/workflows/flowrun"
)

// Signaler signals a workflow run (the Temporal client does).
type Signaler interface {
	SignalWorkflow(ctx context.Context, workflowID, runID, signalName string, arg any) error
}

// Limits of InboxSignals.
const (
	// maxSignalers bounds the lookups and signals in progress; events beyond are dropped
	// (a waiting run re-reads the state at its timeout anyway).
	maxSignalers = 16
	// maxRunsPerBulkMark bounds the runs one "mark all read" wakes.
	maxRunsPerBulkMark = 100
	signalTimeout      = 10 * time.Second
)

// InboxSignals wakes the workflow runs that wait on a notification (a waitForRead step)
// when the notification changes state: it passes every inbox event on to the next
// publisher at once and, off the request path, finds which of the event's notifications
// were written by workflow steps and signals each one's run with its new state. Rows not
// written by workflows cost one indexed lookup in the background, never request latency.
type InboxSignals struct {
	next     events.Publisher
	db       *db.DB
	signaler Signaler
	log      *slog.Logger
	slots    chan struct{}
	// done is called after each background lookup (tests wait on it).
	done func()
}

// NewInboxSignals returns the publisher to give the inbox service: next receives every
// event unchanged.
func NewInboxSignals(d *db.DB, signaler Signaler, next events.Publisher, log *slog.Logger) *InboxSignals {
	if next == nil {
		next = events.Nop{}
	}
	return &InboxSignals{next: next, db: d, signaler: signaler, log: log, slots: make(chan struct{}, maxSignalers), done: func() {}}
}

// Publish passes the events on and schedules the signals of state changes.
func (s *InboxSignals) Publish(ctx context.Context, evs ...events.Event) {
	s.next.Publish(ctx, evs...)
	for _, ev := range evs {
		switch ev.Kind {
		case events.NotificationSeen, events.NotificationRead, events.NotificationInteracted, events.AllNotificationRead:
		default:
			continue
		}
		select {
		case s.slots <- struct{}{}:
			go func() {
				defer func() { <-s.slots; s.done() }()
				sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), signalTimeout)
				defer cancel()
				s.signal(sctx, ev)
			}()
		default:
			s.log.Warn("workflow inbox signal dropped: too many in progress", "kind", ev.Kind, "app", ev.AppID)
		}
	}
}

// signal finds the workflow-written notifications of an event and signals their runs.
func (s *InboxSignals) signal(ctx context.Context, ev events.Event) {
	var rows []dbsqlc.FlowInboxRunsRow
	switch {
	case len(ev.NotificationIDs) > 0:
		var err error
		if rows, err = s.db.FlowInboxRuns(ctx, dbsqlc.FlowInboxRunsParams{AppID: ev.AppID, Ids: ev.NotificationIDs}); err != nil {
			s.log.Warn("workflow inbox signal: lookup failed", "error", db.MapError(err))
			return
		}
	case ev.Kind == events.AllNotificationRead:
		for _, uid := range ev.UserIDs {
			more, err := s.db.FlowInboxRunsOfUser(ctx, dbsqlc.FlowInboxRunsOfUserParams{AppID: ev.AppID, UserID: uid, MaxRows: maxRunsPerBulkMark})
			if err != nil {
				s.log.Warn("workflow inbox signal: lookup failed", "error", db.MapError(err))
				return
			}
			for _, r := range more {
				rows = append(rows, dbsqlc.FlowInboxRunsRow(r))
			}
		}
	}
	for _, r := range rows {
		st := flowrun.InboxState{NotificationID: r.ID, State: flowdef.StepState{
			Delivered: true, Seen: r.SeenAt != nil || r.ReadAt != nil, Read: r.ReadAt != nil,
			Clicked: r.ClickedAt != nil, Interacted: r.ClickedAt != nil || r.State != nil,
		}}
		err := s.signaler.SignalWorkflow(ctx, r.WorkflowID, "", flowrun.InboxStateSignal, st)
		var nf *serviceerror.NotFound
		if err != nil && !errors.As(err, &nf) { // a finished run needs no signal
			s.log.Warn("workflow inbox signal failed", "workflowId", r.WorkflowID, "error", err)
		}
	}
}
