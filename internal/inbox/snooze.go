package inbox

import (
	"context"
	"log/slog"
	"time"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/internal/inbox/events"
	js "github.com/heraldhq/herald/internal/platform/jsonshape"
	"github.com/heraldhq/herald/internal/platform/jsontime"
)

// Limits of snoozing (docs/inbox-widget.md#snooze).
const (
	// MaxSnooze is how far ahead a notification can be snoozed.
	MaxSnooze = 366 * 24 * time.Hour
	// WakeBatch is how many due notifications one tick of the waker brings back.
	WakeBatch = 500
)

// Snoozed is the answer of a snooze: the notification and when it comes back.
type Snoozed struct {
	ID           int64 `json:"id"`
	SnoozedUntil Time  `json:"snoozedUntil"`
}

// ParseSnooze reads the body of PUT /{id}/snooze, {until}: an RFC 3339 time after now and
// at most MaxSnooze ahead.
func ParseSnooze(body []byte, now time.Time) (time.Time, error) {
	f := js.Fields(body)
	if f == nil {
		return time.Time{}, herald.Invalid("body must be a JSON object")
	}
	var p herald.Problems
	for k := range f {
		if k != "until" {
			p.Addf("%s is not a field of a snooze (fields: until)", k)
		}
	}
	raw, ok := js.String(f["until"])
	var until time.Time
	switch {
	case !ok:
		p.Addf("until must be a string (an RFC 3339 date-time)")
	default:
		t, err := time.Parse(time.RFC3339Nano, raw)
		switch {
		case err != nil:
			p.Addf("until must be an RFC 3339 date-time, such as 2025-01-31T09:30:00Z")
		case !t.After(now):
			p.Addf("until must be in the future")
		case t.Sub(now) > MaxSnooze:
			p.Addf("until must be at most 366 days ahead")
		default:
			until = t.UTC()
		}
	}
	if err := p.Err(); err != nil {
		return time.Time{}, err
	}
	return until, nil
}

// snoozeSQL snoozes one notification of the user's inbox: it leaves the list and the counts
// (the counters' trigger of 00250) and will come back unread, so read and seen are cleared
// now (retention treats it as unread meanwhile). Snoozing it again moves the time.
const snoozeSQL = `UPDATE notifications SET snoozed_until = $4, read_at = NULL, seen_at = NULL
WHERE id = $1 AND app_id = $2 AND user_id = $3 AND deleted_at IS NULL
RETURNING id`

// unsnoozeSQL brings one snoozed notification back now; no row when it is not snoozed.
const unsnoozeSQL = `UPDATE notifications SET snoozed_until = NULL
WHERE id = $1 AND app_id = $2 AND user_id = $3 AND deleted_at IS NULL AND snoozed_until IS NOT NULL
RETURNING id`

// wakeSQL brings back the notifications whose time has come, oldest first, a batch at a
// time; SKIP LOCKED lets several relays share the work.
const wakeSQL = `WITH due AS (
	SELECT id FROM notifications
	WHERE snoozed_until IS NOT NULL AND snoozed_until <= now()
	ORDER BY snoozed_until, id
	LIMIT $1
	FOR UPDATE SKIP LOCKED
)
UPDATE notifications n SET snoozed_until = NULL
FROM due WHERE n.id = due.id AND n.deleted_at IS NULL
RETURNING n.id, n.app_id, n.user_id`

// anyDueSQL tells whether a snoozed notification's time has come, from the partial index
// on snoozed_until. Wake asks it first: an UPDATE that matches no row still fires the
// statement triggers of notifications (inbox counters, analytics, webhooks), and the
// waker runs once a second in every relay process.
const anyDueSQL = `SELECT EXISTS (SELECT 1 FROM notifications WHERE snoozed_until IS NOT NULL AND snoozed_until <= now())`

// Snooze hides a notification of the user's inbox until until, announcing
// NOTIFICATION_SNOOZED (every tab drops it). Another user's or app's, or a deleted one, is
// not found.
func (s *Service) Snooze(ctx context.Context, appID int64, userIdentifier string, id int64, until time.Time) (Snoozed, error) {
	uid, ok, err := s.userID(ctx, appID, userIdentifier)
	if err != nil {
		return Snoozed{}, err
	}
	if !ok {
		return Snoozed{}, herald.NotFound("notification")
	}
	var got int64
	if err := s.db.Pool.QueryRow(ctx, snoozeSQL, id, appID, uid, until).Scan(&got); err != nil {
		return Snoozed{}, notFoundAs(db.MapError(err), "notification")
	}
	s.publish(ctx, events.NotificationSnoozed, appID, uid, []int64{id})
	return Snoozed{ID: id, SnoozedUntil: jsontime.Time(until)}, nil
}

// Unsnooze brings a snoozed notification back now (unread), announced as a new
// notification. One that is not snoozed (or not the user's) is not found.
func (s *Service) Unsnooze(ctx context.Context, appID int64, userIdentifier string, id int64) (Notification, error) {
	uid, ok, err := s.userID(ctx, appID, userIdentifier)
	if err != nil {
		return Notification{}, err
	}
	if !ok {
		return Notification{}, herald.NotFound("snoozed notification")
	}
	var got int64
	if err := s.db.Pool.QueryRow(ctx, unsnoozeSQL, id, appID, uid).Scan(&got); err != nil {
		return Notification{}, notFoundAs(db.MapError(err), "snoozed notification")
	}
	s.publish(ctx, events.NewNotification, appID, uid, []int64{id})
	items, err := s.load(ctx, appID, uid, []int64{id})
	if err != nil || len(items) == 0 {
		return Notification{}, notFoundAs(err, "snoozed notification")
	}
	return items[0], nil
}

// Wake brings back up to limit notifications whose snooze has ended and announces each as
// a new notification (NEW_NOTIFICATION, unread: every tab shows it and counts it). It
// returns how many came back.
func (s *Service) Wake(ctx context.Context, limit int) (int, error) {
	var due bool
	if err := s.db.Pool.QueryRow(ctx, anyDueSQL).Scan(&due); err != nil || !due {
		return 0, db.MapError(err)
	}
	rows, err := s.db.Pool.Query(ctx, wakeSQL, limit)
	if err != nil {
		return 0, db.MapError(err)
	}
	defer rows.Close()
	byApp := map[int64]*events.Event{}
	var order []int64
	n := 0
	for rows.Next() {
		var id, app, user int64
		if err := rows.Scan(&id, &app, &user); err != nil {
			return n, db.MapError(err)
		}
		ev := byApp[app]
		if ev == nil {
			ev = &events.Event{Kind: events.NewNotification, AppID: app}
			byApp[app] = ev
			order = append(order, app)
		}
		ev.UserIDs = append(ev.UserIDs, user)
		ev.NotificationIDs = append(ev.NotificationIDs, id)
		n++
	}
	if err := rows.Err(); err != nil {
		return n, db.MapError(err)
	}
	evs := make([]events.Event, 0, len(order))
	for _, app := range order {
		evs = append(evs, *byApp[app])
	}
	if len(evs) > 0 {
		s.pub.Publish(ctx, evs...)
	}
	return n, nil
}

// Waker runs Wake every Interval (in the relay process, beside the outbox and webhook
// relays): the snooze lives in the row, so a restart loses nothing and a late tick only
// brings notifications back later (docs/decisions.md#snooze).
type Waker struct {
	Inbox    *Service
	Interval time.Duration
	Log      *slog.Logger
}

// Run wakes due notifications until ctx ends; a full batch is followed at once by another.
func (w *Waker) Run(ctx context.Context) {
	t := time.NewTicker(w.Interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		for ctx.Err() == nil {
			n, err := w.Inbox.Wake(ctx, WakeBatch)
			if err != nil {
				if ctx.Err() == nil {
					w.Log.Warn("snooze: cannot wake due notifications; will retry", "error", err)
				}
				break
			}
			if n < WakeBatch {
				break
			}
		}
	}
}
