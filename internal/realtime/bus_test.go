package realtime

import (
	"context"
	"log/slog"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/internal/inbox/events"
	"github.com/heraldhq/herald/internal/testkit/dbtest"
)

func TestEncodeKeepsSmallBatchesInOneMessage(t *testing.T) {
	evs := []events.Event{
		{Kind: events.NewNotification, AppID: 1, UserIDs: []int64{1, 2}, NotificationIDs: []int64{10, 11}},
		{Kind: events.NotificationSeen, AppID: 1, UserIDs: []int64{1}},
	}
	out, err := encode(evs, maxPayload)
	if err != nil || len(out) != 1 {
		t.Fatalf("encode = %d messages, %v", len(out), err)
	}
	back, err := decode(out[0])
	if err != nil || len(back) != 2 || back[0].Kind != events.NewNotification || !slices.Equal(back[0].NotificationIDs, []int64{10, 11}) ||
		back[1].NotificationIDs != nil {
		t.Fatalf("decode = %+v, %v", back, err)
	}
}

func TestEncodeChunksLargeBatchesUnderTheLimit(t *testing.T) {
	const n = 3000
	big := func(i int) int64 { return 1_000_000_000_000 + int64(i) }
	users, ids := make([]int64, n), make([]int64, n)
	for i := range n {
		users[i], ids[i] = big(i), big(n+i)
	}
	for _, tc := range []struct {
		name string
		ev   events.Event
		// check the chunks of ev reassembled
		check func(t *testing.T, chunks []events.Event)
	}{
		{"pairs split together", events.Event{Kind: events.NewNotification, AppID: 7, UserIDs: users, NotificationIDs: ids}, func(t *testing.T, chunks []events.Event) {
			var u, n []int64
			for _, c := range chunks {
				if len(c.UserIDs) != len(c.NotificationIDs) {
					t.Fatalf("a chunk lost its pairing: %d users, %d ids", len(c.UserIDs), len(c.NotificationIDs))
				}
				u, n = append(u, c.UserIDs...), append(n, c.NotificationIDs...)
			}
			if !slices.Equal(u, users) || !slices.Equal(n, ids) {
				t.Fatal("pairs lost or reordered")
			}
		}},
		{"one user, many ids", events.Event{Kind: events.NotificationRead, AppID: 7, UserIDs: users[:1], NotificationIDs: ids}, func(t *testing.T, chunks []events.Event) {
			var n []int64
			for _, c := range chunks {
				if !slices.Equal(c.UserIDs, users[:1]) {
					t.Fatalf("a chunk lost its user: %v", c.UserIDs)
				}
				n = append(n, c.NotificationIDs...)
			}
			if !slices.Equal(n, ids) {
				t.Fatal("ids lost or reordered")
			}
		}},
		{"many users", events.Event{Kind: events.AllNotificationRead, AppID: 7, UserIDs: users}, func(t *testing.T, chunks []events.Event) {
			var u []int64
			for _, c := range chunks {
				u = append(u, c.UserIDs...)
			}
			if !slices.Equal(u, users) {
				t.Fatal("users lost or reordered")
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, err := encode([]events.Event{tc.ev}, maxPayload)
			if err != nil {
				t.Fatal(err)
			}
			if len(out) < 2 {
				t.Fatalf("%d messages; the batch does not fit in one", len(out))
			}
			var chunks []events.Event
			for _, p := range out {
				if len(p) > maxPayload {
					t.Fatalf("a message of %d bytes", len(p))
				}
				evs, err := decode(p)
				if err != nil {
					t.Fatal(err)
				}
				for _, ev := range evs {
					if ev.Kind != tc.ev.Kind || ev.AppID != 7 {
						t.Fatalf("chunk %+v", ev)
					}
				}
				chunks = append(chunks, evs...)
			}
			tc.check(t, chunks)
		})
	}
	if _, err := encode([]events.Event{{Kind: strings.Repeat("x", maxPayload), AppID: 1}}, maxPayload); err == nil {
		t.Error("an event that cannot be split was encoded over the limit")
	}
}

// listen runs a bus listener for the test and returns its deliveries and resyncs.
func listen(t *testing.T, b *PGBus) (<-chan events.Event, <-chan struct{}) {
	ctx, cancel := context.WithCancel(context.Background())
	got, resyncs := make(chan events.Event, 10000), make(chan struct{}, 100)
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = b.Listen(ctx, func(ev events.Event) { got <- ev }, func() { resyncs <- struct{}{} })
	}()
	t.Cleanup(func() { cancel(); <-done })
	return got, resyncs
}

func wait[T any](t *testing.T, c <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-c:
		return v
	case <-time.After(time.Minute):
		t.Fatalf("nothing for a minute while waiting for %s", what)
	}
	var zero T
	return zero
}

func TestPGBusDeliversAcrossConnectionsAndResyncsAfterReconnect(t *testing.T) {
	url := dbtest.URL(t)
	pub, err := db.Open(context.Background(), url, db.PoolSize{MaxConns: 4})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pub.Close)
	log := slog.New(slog.DiscardHandler)
	publisher := NewPGBus(pub, url, log)
	listener := NewPGBus(pub, url, log)
	listener.IdleCheck = 200 * time.Millisecond // exercise the idle ping too
	listener.MinBackoff, listener.MaxBackoff = 10*time.Millisecond, 100*time.Millisecond
	got, resyncs := listen(t, listener)
	wait(t, resyncs, "the first LISTEN")

	ctx := context.Background()
	publisher.Publish(ctx, events.Event{Kind: events.NotificationRead, AppID: 1, UserIDs: []int64{2}, NotificationIDs: []int64{3}},
		events.Event{Kind: events.AllNotificationDeleted, AppID: 1, UserIDs: []int64{2}})
	if ev := wait(t, got, "the first event"); ev.Kind != events.NotificationRead || ev.NotificationIDs[0] != 3 {
		t.Fatalf("first event %+v", ev)
	}
	if ev := wait(t, got, "the second event"); ev.Kind != events.AllNotificationDeleted {
		t.Fatalf("second event %+v", ev)
	}
	// A batch over Postgres's payload limit arrives whole, in chunks.
	ids := make([]int64, 5000)
	for i := range ids {
		ids[i] = int64(i + 1)
	}
	publisher.Publish(ctx, events.Event{Kind: events.NewNotification, AppID: 1, UserIDs: ids, NotificationIDs: ids})
	var all []int64
	for len(all) < len(ids) {
		all = append(all, wait(t, got, "the chunks").NotificationIDs...)
	}
	if !slices.Equal(all, ids) {
		t.Fatal("the chunks do not add up to the batch")
	}

	// Kill the listening connection: the listener reconnects, resyncs, and delivers again.
	var killed bool
	if err := pub.Pool.QueryRow(ctx, `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
		WHERE application_name = $1 AND datname = current_database()`, ListenerAppName).Scan(&killed); err != nil || !killed {
		t.Fatalf("terminate the listener: %v %v", killed, err)
	}
	wait(t, resyncs, "a resync after the reconnect")
	publisher.Publish(ctx, events.Event{Kind: events.NotificationSeen, AppID: 1, UserIDs: []int64{9}})
	if ev := wait(t, got, "an event after the reconnect"); ev.Kind != events.NotificationSeen || ev.UserIDs[0] != 9 {
		t.Fatalf("event after reconnect %+v", ev)
	}
}
