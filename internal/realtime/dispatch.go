package realtime

import (
	"context"
	"encoding/json"
	"time"

	"github.com/heraldhq/herald/internal/inbox"
	"github.com/heraldhq/herald/internal/inbox/events"
)

// loadTimeout bounds the queries the hub makes for one event.
const loadTimeout = 10 * time.Second

// Deliver turns one bus event into messages for the connections of this process. Only
// users connected here cost a query: one per event for the notifications or counts it
// needs, none when nobody concerned is connected.
//
// Id pairing: NEW_NOTIFICATION pairs UserIDs[i] with NotificationIDs[i]. For the other
// kinds, equal-length lists pair the same way; otherwise every user gets every id.
func (h *Hub) Deliver(ctx context.Context, ev events.Event) {
	switch ev.Kind {
	case events.NewNotification, events.NotificationInteracted:
		h.deliverNotifications(ctx, ev)
	case events.NotificationSeen:
		h.deliverCounts(ctx, ev.AppID, h.connectedOf(ev.AppID, ev.UserIDs))
	case events.NotificationRead, events.NotificationDeleted, events.NotificationSnoozed:
		h.deliverIDs(ev)
	case events.AllNotificationRead, events.AllNotificationDeleted:
		m := &Message{Name: ev.Kind, Data: json.RawMessage(`{}`)}
		for _, u := range h.connectedOf(ev.AppID, ev.UserIDs) {
			h.send(ev.AppID, u, m)
		}
	default:
		h.log.Warn("realtime: ignoring an event of unknown kind", "kind", ev.Kind)
	}
}

// Resync sends every connected user its current unread count (NOTIFICATION_SEEN), after a
// gap in which events may have been lost: one query per app.
func (h *Hub) Resync(ctx context.Context) {
	byApp := map[int64][]int64{}
	h.mu.RLock()
	for k := range h.users {
		byApp[k.app] = append(byApp[k.app], k.user)
	}
	h.mu.RUnlock()
	for app, users := range byApp {
		h.deliverCounts(ctx, app, users)
	}
}

// connectedOf returns the distinct users of ids that have a connection here.
func (h *Hub) connectedOf(app int64, ids []int64) []int64 {
	var out []int64
	seen := map[int64]bool{}
	for _, u := range ids {
		if !seen[u] && h.connected(app, u) {
			out = append(out, u)
		}
		seen[u] = true
	}
	return out
}

// notificationPayload is the payload of the events that carry a notification
// (NEW_NOTIFICATION, NOTIFICATION_INTERACTED): the object, in the shape of the inbox list,
// wrapped as {"notification": {…}}, because the published front-end SDKs read
// data.notification.
type notificationPayload struct {
	Notification inbox.Notification `json:"notification"`
}

// deliverNotifications loads the notifications meant for connected users and sends each to
// its owner (see notificationPayload).
func (h *Hub) deliverNotifications(ctx context.Context, ev events.Event) {
	var ids []int64
	seen := map[int64]bool{}
	for _, p := range pairs(ev) {
		if !seen[p.id] && h.connected(ev.AppID, p.user) {
			ids = append(ids, p.id)
			seen[p.id] = true
		}
	}
	if len(ids) == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, loadTimeout)
	defer cancel()
	rows, err := h.store.ByIDs(ctx, ev.AppID, ids)
	if err != nil {
		h.log.Error("realtime: cannot load notifications", "kind", ev.Kind, "error", err)
		return
	}
	for _, r := range rows {
		data, err := json.Marshal(notificationPayload{r.Notification})
		if err != nil {
			h.log.Error("realtime: cannot encode a notification", "id", r.ID, "error", err)
			continue
		}
		h.send(ev.AppID, r.UserID, &Message{Name: ev.Kind, Data: data})
	}
}

// deliverIDs sends {id} per notification to the connected users concerned.
func (h *Hub) deliverIDs(ev events.Event) {
	for _, p := range pairs(ev) {
		if h.connected(ev.AppID, p.user) {
			data, _ := json.Marshal(struct {
				ID int64 `json:"id"`
			}{p.id})
			h.send(ev.AppID, p.user, &Message{Name: ev.Kind, Data: data})
		}
	}
}

// deliverCounts sends each user its unread count.
func (h *Hub) deliverCounts(ctx context.Context, app int64, users []int64) {
	if len(users) == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, loadTimeout)
	defer cancel()
	counts, err := h.store.UnreadCounts(ctx, app, users)
	if err != nil {
		h.log.Error("realtime: cannot count unread notifications", "error", err)
		return
	}
	for _, u := range users {
		data, _ := json.Marshal(struct {
			Count int64 `json:"unreadNotificationCount"`
		}{counts[u]})
		h.send(app, u, &Message{Name: events.NotificationSeen, Data: data})
	}
}

type pair struct{ user, id int64 }

// pairs lists the (user, notification) pairs of an event (see Deliver).
func pairs(ev events.Event) []pair {
	var out []pair
	if len(ev.UserIDs) == len(ev.NotificationIDs) {
		for i, u := range ev.UserIDs {
			out = append(out, pair{u, ev.NotificationIDs[i]})
		}
		return out
	}
	for _, u := range ev.UserIDs {
		for _, n := range ev.NotificationIDs {
			out = append(out, pair{u, n})
		}
	}
	return out
}
