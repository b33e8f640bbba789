package realtime_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/heraldhq/herald/internal/inbox/events"
	"github.com/heraldhq/herald/internal/platform/config"
	"github.com/heraldhq/herald/internal/realtime"
	"github.com/heraldhq/herald/internal/testkit/realtimetest"
	"github.com/heraldhq/herald/internal/testkit/stacktest"
)

func connectRaw(t *testing.T, e *stacktest.Env, user string, o realtimetest.DialOptions) *realtimetest.RawSocket {
	t.Helper()
	s := realtimetest.DialRaw(t, e.BaseURL, userQuery(e, user), o)
	s.Send("40")
	if f := s.Next(); !strings.HasPrefix(f, "40{") {
		t.Fatalf("CONNECT answer %q", f)
	}
	return s
}

func TestBackpressureClosesOnlyTheSlowConnection(t *testing.T) {
	const queue, count = 16, 300
	e := newEnv(t, stacktest.Options{Configure: func(c *config.Config) { c.RealtimeQueue = queue }})
	alice := userID(t, e, e.App.AppID, "alice")
	// Large notifications fill the slow reader's socket buffers after a few messages.
	body := strings.Repeat("x", 100<<10)
	ids := make([]int64, count)
	for i := range ids {
		ids[i] = insertNotification(t, e, e.App.AppID, alice, "big", body)
	}
	slow := connectRaw(t, e, "alice", realtimetest.DialOptions{ReceiveBuffer: 4096})
	fast := connectRaw(t, e, "alice", realtimetest.DialOptions{})
	// The next event is published once the fast connection has the previous one: it keeps
	// up by construction, while the slow one never reads.
	for i, id := range ids {
		e.Stack.Events.Publish(context.Background(), events.Event{Kind: events.NewNotification, AppID: e.App.AppID,
			UserIDs: []int64{alice}, NotificationIDs: []int64{id}})
		if f := fast.Next(); !strings.HasPrefix(f, fmt.Sprintf(`42["NEW_NOTIFICATION",{"notification":{"id":%d,`, id)) {
			t.Fatalf("event %d on the fast connection: %.80q", i, f)
		}
	}
	e.Eventually(realtimetest.WaitTimeout, "the slow connection to be dropped", func() bool { return e.Stack.Realtime.Hub.Stats().Overflows == 1 })
	// The slow client finds the stream cut short once it reads what was buffered.
	n := 0
	for {
		f, err := slow.Read()
		if err != nil {
			break
		}
		if strings.HasPrefix(f, "42") {
			n++
		}
	}
	if n >= count {
		t.Errorf("the slow connection got all %d events", n)
	}
	if s := e.Stack.Realtime.Hub.Stats(); s.Connections != 1 || s.Overflows != 1 {
		t.Errorf("stats %+v", s)
	}
}

func TestListenerResyncsUnreadCountsAfterReconnecting(t *testing.T) {
	e := newEnv(t, stacktest.Options{})
	alice := userID(t, e, e.App.AppID, "alice")
	s := connectRaw(t, e, "alice", realtimetest.DialOptions{})
	sse := realtimetest.OpenSSE(t, e.BaseURL+"/v3/realtime?"+userQuery(e, "alice").Encode(), nil)
	e.Eventually(realtimetest.WaitTimeout, "both connections", func() bool { return e.Stack.Realtime.Hub.Stats().Connections == 2 })
	// Changes whose events are lost: rows written without publishing.
	insertNotification(t, e, e.App.AppID, alice, "missed 1", "")
	insertNotification(t, e, e.App.AppID, alice, "missed 2", "")
	var killed bool
	if err := e.Stack.DB.Pool.QueryRow(context.Background(), `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
		WHERE application_name = $1 AND datname = current_database()`, realtime.ListenerAppName).Scan(&killed); err != nil || !killed {
		t.Fatalf("terminate the listener: %v %v", killed, err)
	}
	want := `{"unreadNotificationCount":2}`
	if f := s.Next(); f != `42["NOTIFICATION_SEEN",`+want+`]` {
		t.Fatalf("socket got %q after the listener reconnected", f)
	}
	if ev := sse.Event(events.NotificationSeen); ev.Data != want {
		t.Fatalf("SSE got %+v after the listener reconnected", ev)
	}
	// And the bus works again.
	e.Stack.Events.Publish(context.Background(), events.Event{Kind: events.NotificationDeleted, AppID: e.App.AppID, UserIDs: []int64{alice}, NotificationIDs: []int64{5}})
	if f := s.Next(); f != `42["NOTIFICATION_DELETED",{"id":5}]` {
		t.Fatalf("socket got %q after the reconnect", f)
	}
}
