package realtime

import (
	"context"
	"encoding/json"
	"log/slog"
	"testing"

	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/internal/inbox"
	"github.com/heraldhq/herald/internal/inbox/events"
	"github.com/heraldhq/herald/internal/testkit/dbtest"
)

// hubFixture is a hub over a fresh database with an app and users.
type hubFixture struct {
	db         *db.DB
	hub        *Hub
	app        int64
	alice, bob int64
}

func newHubFixture(t *testing.T, queue int) *hubFixture {
	t.Helper()
	d := dbtest.New(t)
	f := &hubFixture{db: d, hub: NewHub(inbox.NewService(d, nil), queue, slog.New(slog.DiscardHandler))}
	ctx := context.Background()
	if err := d.Pool.QueryRow(ctx, `INSERT INTO apps (name, api_key, api_secret_hash, api_secret_sealed)
		VALUES ('a', 'k', '\x00', '\x00') RETURNING id`).Scan(&f.app); err != nil {
		t.Fatal(err)
	}
	for _, u := range []struct {
		name string
		id   *int64
	}{{"alice", &f.alice}, {"bob", &f.bob}} {
		if err := d.Pool.QueryRow(ctx, `INSERT INTO users (app_id, identifier) VALUES ($1, $2) RETURNING id`, f.app, u.name).Scan(u.id); err != nil {
			t.Fatal(err)
		}
	}
	return f
}

func (f *hubFixture) notification(t *testing.T, user int64, title string) int64 {
	t.Helper()
	var id int64
	if err := f.db.Pool.QueryRow(context.Background(), `INSERT INTO notifications (app_id, user_id, request_id, title)
		VALUES ($1, $2, gen_random_uuid(), $3) RETURNING id`, f.app, user, title).Scan(&id); err != nil {
		t.Fatal(err)
	}
	return id
}

func (f *hubFixture) attach(t *testing.T, user int64) *Client {
	t.Helper()
	c, err := f.hub.Attach(f.app, user, "u", nil)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// pending returns the messages queued for a client, without waiting.
func pending(c *Client) []*Message {
	var out []*Message
	for {
		select {
		case m := <-c.Messages():
			out = append(out, m)
		default:
			return out
		}
	}
}

func TestHubSendsEachDeviceTheUsersEventsOnly(t *testing.T) {
	f := newHubFixture(t, 16)
	phone, laptop, bobs := f.attach(t, f.alice), f.attach(t, f.alice), f.attach(t, f.bob)
	n1, n2 := f.notification(t, f.alice, "for alice"), f.notification(t, f.bob, "for bob")
	ctx := context.Background()
	f.hub.Deliver(ctx, events.Event{Kind: events.NewNotification, AppID: f.app, UserIDs: []int64{f.alice, f.bob}, NotificationIDs: []int64{n1, n2}})
	f.hub.Deliver(ctx, events.Event{Kind: events.NotificationSeen, AppID: f.app, UserIDs: []int64{f.alice}})
	// Another app's event naming the same ids reaches nobody.
	f.hub.Deliver(ctx, events.Event{Kind: events.NewNotification, AppID: f.app + 1, UserIDs: []int64{f.alice}, NotificationIDs: []int64{n1}})
	for _, c := range []*Client{phone, laptop} {
		ms := pending(c)
		if len(ms) != 2 || ms[0].Name != events.NewNotification || ms[1].Name != events.NotificationSeen ||
			string(ms[1].Data) != `{"unreadNotificationCount":1}` {
			t.Fatalf("alice's device got %v", ms)
		}
		// Wrapped as {"notification": {…}}: the published SDKs read data.notification.
		var wrapped map[string]json.RawMessage
		var n struct {
			ID    int64
			Title string
		}
		if err := json.Unmarshal(ms[0].Data, &wrapped); err != nil || len(wrapped) != 1 ||
			json.Unmarshal(wrapped["notification"], &n) != nil || n.ID != n1 || n.Title != "for alice" {
			t.Fatalf("NEW_NOTIFICATION payload %s", ms[0].Data)
		}
	}
	if ms := pending(bobs); len(ms) != 1 || ms[0].Name != events.NewNotification {
		t.Fatalf("bob got %v", ms)
	}
	// Closing one device leaves the other attached.
	phone.Close()
	f.hub.Deliver(ctx, events.Event{Kind: events.NotificationDeleted, AppID: f.app, UserIDs: []int64{f.alice}, NotificationIDs: []int64{n1}})
	if ms := pending(laptop); len(ms) != 1 || string(ms[0].Data) != `{"id":`+itoa(n1)+`}` {
		t.Fatalf("laptop got %v", ms)
	}
	if s := f.hub.Stats(); s.Connections != 2 || s.Users != 2 {
		t.Fatalf("stats %+v", s)
	}
}

func TestHubClosesOnlyTheConnectionThatFallsBehind(t *testing.T) {
	const queue = 8
	f := newHubFixture(t, queue)
	slow, fast := f.attach(t, f.alice), f.attach(t, f.alice)
	var closedBy []string
	slow.onClose = func() { closedBy = append(closedBy, "hub") }
	ctx := context.Background()
	received := 0
	for i := range queue * 3 {
		f.hub.Deliver(ctx, events.Event{Kind: events.NotificationRead, AppID: f.app, UserIDs: []int64{f.alice}, NotificationIDs: []int64{int64(i)}})
		received += len(pending(fast)) // the fast device keeps up
	}
	if received != queue*3 {
		t.Errorf("the fast device got %d of %d events", received, queue*3)
	}
	select {
	case <-slow.Done():
	default:
		t.Fatal("the slow device is still attached")
	}
	if len(closedBy) != 1 {
		t.Errorf("the slow connection's socket was closed %d times", len(closedBy))
	}
	if s := f.hub.Stats(); s.Overflows != 1 || s.Connections != 1 {
		t.Errorf("stats %+v", s)
	}
	// The slow device holds what fit in its queue, in order, and nothing after.
	if ms := pending(slow); len(ms) != queue || string(ms[0].Data) != `{"id":0}` {
		t.Errorf("the slow device's queue holds %d messages", len(ms))
	}
}

func TestHubResyncSendsEveryConnectedUserItsCount(t *testing.T) {
	f := newHubFixture(t, 16)
	f.notification(t, f.alice, "1")
	f.notification(t, f.alice, "2")
	a, b := f.attach(t, f.alice), f.attach(t, f.bob)
	f.hub.Resync(context.Background())
	if ms := pending(a); len(ms) != 1 || ms[0].Name != events.NotificationSeen || string(ms[0].Data) != `{"unreadNotificationCount":2}` {
		t.Errorf("alice got %v", ms)
	}
	if ms := pending(b); len(ms) != 1 || string(ms[0].Data) != `{"unreadNotificationCount":0}` {
		t.Errorf("bob got %v", ms)
	}
	f.hub.Close()
	if _, err := f.hub.Attach(f.app, f.alice, "alice", nil); err != ErrClosed {
		t.Errorf("attach after close: %v", err)
	}
	if s := f.hub.Stats(); s.Connections != 0 {
		t.Errorf("connections after close: %+v", s)
	}
}

func TestPairs(t *testing.T) {
	got := pairs(events.Event{UserIDs: []int64{1, 2}, NotificationIDs: []int64{10, 20}})
	if len(got) != 2 || got[0] != (pair{1, 10}) || got[1] != (pair{2, 20}) {
		t.Errorf("equal lengths pair up: %v", got)
	}
	got = pairs(events.Event{UserIDs: []int64{1}, NotificationIDs: []int64{10, 20, 30}})
	if len(got) != 3 || got[2] != (pair{1, 30}) {
		t.Errorf("one user gets every id: %v", got)
	}
}

func itoa(n int64) string { b, _ := json.Marshal(n); return string(b) }

func TestHubCountsConnections(t *testing.T) {
	h := NewHub(nil, 1, slog.New(slog.DiscardHandler))
	a, err := h.Attach(1, 10, "alice", nil)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = h.Attach(1, 10, "alice", nil) // a second device of the same user
	_, _ = h.Attach(2, 20, "bob", nil)
	if n := h.Connections(); n != 3 || h.Stats().Connections != 3 {
		t.Fatalf("%d connections, stats %+v", n, h.Stats())
	}
	a.Close()
	a.Close() // a second close counts nothing
	if n := h.Connections(); n != 2 {
		t.Errorf("after one close: %d", n)
	}
	h.Close()
	if n := h.Connections(); n != 0 {
		t.Errorf("after the hub closed: %d", n)
	}
}

// TestHubPayloadsMatchTheSDKContract checks each event's payload shape: the events that
// carry a notification wrap it as {"notification": {…}}, the others carry ids or counts.
func TestHubPayloadsMatchTheSDKContract(t *testing.T) {
	f := newHubFixture(t, 16)
	c := f.attach(t, f.alice)
	n := f.notification(t, f.alice, "hello")
	ctx := context.Background()
	one := func(kind string) events.Event {
		return events.Event{Kind: kind, AppID: f.app, UserIDs: []int64{f.alice}, NotificationIDs: []int64{n}}
	}
	for _, kind := range []string{events.NewNotification, events.NotificationInteracted} {
		f.hub.Deliver(ctx, one(kind))
		ms := pending(c)
		if len(ms) != 1 || ms[0].Name != kind {
			t.Fatalf("%s: got %v", kind, ms)
		}
		var got struct {
			Notification *struct {
				ID    int64
				Title string
			}
		}
		var keys map[string]json.RawMessage
		if json.Unmarshal(ms[0].Data, &keys) != nil || len(keys) != 1 || json.Unmarshal(ms[0].Data, &got) != nil ||
			got.Notification == nil || got.Notification.ID != n || got.Notification.Title != "hello" {
			t.Errorf("%s payload %s, want {\"notification\":{\"id\":%d,\"title\":\"hello\",…}}", kind, ms[0].Data, n)
		}
	}
	for _, tc := range []struct {
		ev   events.Event
		want string
	}{
		{one(events.NotificationRead), `{"id":` + itoa(n) + `}`},
		{one(events.NotificationDeleted), `{"id":` + itoa(n) + `}`},
		{one(events.NotificationSeen), `{"unreadNotificationCount":1}`},
		{one(events.AllNotificationRead), `{}`},
		{one(events.AllNotificationDeleted), `{}`},
	} {
		f.hub.Deliver(ctx, tc.ev)
		if ms := pending(c); len(ms) != 1 || ms[0].Name != tc.ev.Kind || string(ms[0].Data) != tc.want {
			t.Errorf("%s: got %v, want %s", tc.ev.Kind, ms, tc.want)
		}
	}
}
