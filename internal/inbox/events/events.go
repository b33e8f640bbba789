// Package events is the contract between the parts of Herald that change inboxes (the API's
// inbox service, the worker's delivery activities) and the realtime layer that pushes the
// changes to connected clients. Publishers call Publish after their transaction commits;
// events carry ids, never bodies, so a bus (Postgres NOTIFY, Redis, NATS) can carry them
// cheaply and the realtime hub loads what it needs for the users it has connected.
package events

import "context"

// Event kinds; the names are those the realtime clients receive (docs/decisions.md#realtime).
const (
	NewNotification        = "NEW_NOTIFICATION"         // payload {"notification": {…}}
	NotificationRead       = "NOTIFICATION_READ"        // payload {id}
	NotificationSeen       = "NOTIFICATION_SEEN"        // payload {unreadNotificationCount}
	NotificationDeleted    = "NOTIFICATION_DELETED"     // payload {id}
	NotificationInteracted = "NOTIFICATION_INTERACTED"  // payload {"notification": {…}}, after a state change
	NotificationSnoozed    = "NOTIFICATION_SNOOZED"     // payload {id}: it leaves the list until it wakes (then NEW_NOTIFICATION)
	AllNotificationRead    = "ALL_NOTIFICATION_READ"    // payload {}
	AllNotificationDeleted = "ALL_NOTIFICATION_DELETED" // payload {}
)

// Event is one change to one or more users' inboxes of an app.
type Event struct {
	Kind  string `json:"k"`
	AppID int64  `json:"a"`
	// UserIDs are internal user ids (users.id), one per affected user. For NewNotification,
	// UserIDs[i] received NotificationIDs[i].
	UserIDs []int64 `json:"u"`
	// NotificationIDs are the notifications concerned, when the kind names some.
	NotificationIDs []int64 `json:"n,omitempty"`
}

// Publisher announces committed inbox changes. It must not block the caller for long and
// never fails it: realtime delivery is best effort, and clients resync their unread count
// after a reconnect.
type Publisher interface {
	Publish(ctx context.Context, evs ...Event)
}

// Nop drops events; used where no realtime bus is wired.
type Nop struct{}

// Publish does nothing.
func (Nop) Publish(context.Context, ...Event) {}
