package realtime

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/heraldhq/herald/internal/inbox/events"
)

// Bus carries inbox events between Herald processes: every process publishes, every API
// process listens. Postgres LISTEN/NOTIFY implements it (PGBus); Redis or NATS could
// replace it behind the same interface.
type Bus interface {
	events.Publisher
	// Listen calls deliver, from one goroutine and in order, for every event any process
	// publishes, until ctx ends. After a gap in which events may have been lost (a dropped
	// connection) it calls resync once it listens again.
	Listen(ctx context.Context, deliver func(events.Event), resync func()) error
}

// maxPayload is the largest bus message: Postgres refuses NOTIFY payloads of 8000 bytes or
// more.
const maxPayload = 7999

// encode packs the events of one Publish call into as few messages of at most limit bytes
// as possible: one in the common case, more when a batch names thousands of ids.
func encode(evs []events.Event, limit int) ([]string, error) {
	b, err := json.Marshal(evs)
	if err != nil {
		return nil, err
	}
	if len(b) <= limit {
		return []string{string(b)}, nil
	}
	var left, right []events.Event
	if len(evs) > 1 {
		left, right = evs[:len(evs)/2], evs[len(evs)/2:]
	} else {
		l, r, ok := split(evs[0])
		if !ok {
			return nil, fmt.Errorf("realtime: one %s event of %d bytes exceeds the bus limit of %d", evs[0].Kind, len(b), limit)
		}
		left, right = []events.Event{l}, []events.Event{r}
	}
	a, err := encode(left, limit)
	if err != nil {
		return nil, err
	}
	z, err := encode(right, limit)
	if err != nil {
		return nil, err
	}
	return append(a, z...), nil
}

// split halves an event's ids. A NEW_NOTIFICATION pairs users with notifications, so both
// lists split together; other kinds split their notification ids (every user keeps every
// id) or, with at most one notification id, their users.
func split(ev events.Event) (events.Event, events.Event, bool) {
	l, r := ev, ev
	switch {
	case ev.Kind == events.NewNotification && len(ev.UserIDs) == len(ev.NotificationIDs) && len(ev.UserIDs) > 1:
		h := len(ev.UserIDs) / 2
		l.UserIDs, r.UserIDs = ev.UserIDs[:h], ev.UserIDs[h:]
		l.NotificationIDs, r.NotificationIDs = ev.NotificationIDs[:h], ev.NotificationIDs[h:]
	case ev.Kind != events.NewNotification && len(ev.NotificationIDs) > 1:
		h := len(ev.NotificationIDs) / 2
		l.NotificationIDs, r.NotificationIDs = ev.NotificationIDs[:h], ev.NotificationIDs[h:]
	case ev.Kind != events.NewNotification && len(ev.UserIDs) > 1:
		h := len(ev.UserIDs) / 2
		l.UserIDs, r.UserIDs = ev.UserIDs[:h], ev.UserIDs[h:]
	default:
		return ev, ev, false
	}
	return l, r, true
}

// decode reads one bus message.
func decode(payload string) ([]events.Event, error) {
	var evs []events.Event
	if err := json.Unmarshal([]byte(payload), &evs); err != nil {
		return nil, fmt.Errorf("realtime: unreadable bus message: %w", err)
	}
	return evs, nil
}
