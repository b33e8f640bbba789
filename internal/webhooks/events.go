// Package webhooks sends Herald's events to the apps' own HTTP endpoints, signed as the
// Standard Webhooks specification says (https://www.standardwebhooks.com): endpoints and
// their secrets (Service), the signature (Sign), the delivery of due events in batches
// (Deliverer, run by the activity of workflows/webhook) and the relay that starts one
// delivery workflow per endpoint with events due (Relay).
//
// Events are recorded by triggers of migration 00230 in the transaction of the change they
// describe (a message log row, an inbox item, a flow run, a preference), one
// webhook_deliveries row per event × subscribed endpoint; see docs/webhooks.md.
package webhooks

import "slices"

// Event types. The names are part of the API (docs/webhooks.md, the webhooks section of
// /v1/openapi.json).
const (
	MessageSent          = "message.sent"
	MessageDelivered     = "message.delivered"
	MessageFailed        = "message.failed"
	MessageBounced       = "message.bounced"
	MessageOpened        = "message.opened"
	MessageClicked       = "message.clicked"
	NotificationSeen     = "notification.seen"
	NotificationRead     = "notification.read"
	NotificationClicked  = "notification.clicked"
	NotificationArchived = "notification.archived"
	NotificationDeleted  = "notification.deleted"
	FlowRunCompleted     = "flow_run.completed"
	FlowRunFailed        = "flow_run.failed"
	PreferenceChanged    = "preference.changed"
	UserUnsubscribed     = "user.unsubscribed"
)

// EventTypes lists every event type, in the order the console shows them.
var EventTypes = []string{
	MessageSent, MessageDelivered, MessageFailed, MessageBounced, MessageOpened, MessageClicked,
	NotificationSeen, NotificationRead, NotificationClicked, NotificationArchived, NotificationDeleted,
	FlowRunCompleted, FlowRunFailed, PreferenceChanged, UserUnsubscribed,
}

// KnownEventType reports whether t is an event type.
func KnownEventType(t string) bool { return slices.Contains(EventTypes, t) }
