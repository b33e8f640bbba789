package realtime_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/heraldhq/herald/internal/inbox/events"
	"github.com/heraldhq/herald/internal/platform/config"
	"github.com/heraldhq/herald/internal/testkit/realtimetest"
	"github.com/heraldhq/herald/internal/testkit/stacktest"
)

// await waits for a line of the stock client, failing if it disconnects first.
func await(t *testing.T, c *realtimetest.NodeClient, what string, match func(realtimetest.Line) bool) realtimetest.Line {
	t.Helper()
	return c.Until(what, func(l realtimetest.Line) bool {
		if l.Type == "disconnect" {
			t.Fatalf("socket.io-client disconnected (%s) while waiting for %s", l.Reason, what)
		}
		return match(l)
	})
}

// notificationTitle is data.notification.title of a NEW_NOTIFICATION, as the published
// SDKs read it.
func notificationTitle(t *testing.T, data json.RawMessage) string {
	t.Helper()
	var p struct {
		Notification struct{ Title string }
	}
	if err := json.Unmarshal(data, &p); err != nil {
		t.Fatalf("NEW_NOTIFICATION payload %s: %v", data, err)
	}
	return p.Notification.Title
}

func TestStockClientWithDefaultOptionsUpgradesToWebSocket(t *testing.T) {
	e := newEnv(t, stacktest.Options{})
	// No transports option: socket.io-client opens on long-polling and upgrades.
	c := realtimetest.StartNodeClient(t, e.BaseURL, realtimetest.SocketIOOptions{Query: map[string]string{"apiKey": e.App.APIKey, "userId": "alice"}})
	if l := await(t, c, "open", func(l realtimetest.Line) bool { return l.Type == "open" }); l.Transport != "polling" {
		t.Fatalf("the default client opened on %q, want polling", l.Transport)
	}
	// The upgrade may finish before or after the CONNECT answer.
	var connected, upgraded bool
	await(t, c, "connect and the upgrade", func(l realtimetest.Line) bool {
		if l.Type == "connect_error" {
			t.Fatalf("connect_error: %s", l.Message)
		}
		connected = connected || l.Type == "connect"
		upgraded = upgraded || (l.Type == "upgrade" && l.Transport == "websocket")
		return connected && upgraded
	})
	e.Eventually(realtimetest.WaitTimeout, "the session to leave polling", func() bool {
		return e.Stack.SocketIO.PollingSessions() == 0 && e.Stack.Realtime.Hub.Stats().Connections == 1
	})
	alice := userID(t, e, e.App.AppID, "alice")
	id := insertNotification(t, e, e.App.AppID, alice, "Upgraded", "hello")
	e.Stack.Events.Publish(context.Background(), events.Event{Kind: events.NewNotification, AppID: e.App.AppID, UserIDs: []int64{alice}, NotificationIDs: []int64{id}})
	l := await(t, c, "NEW_NOTIFICATION", func(l realtimetest.Line) bool { return l.Type == "event" && l.Name == events.NewNotification })
	if title := notificationTitle(t, l.Data); title != "Upgraded" || l.Transport != "websocket" {
		t.Fatalf("data.notification.title %q over %q, want \"Upgraded\" over websocket", title, l.Transport)
	}
	c.Close()
	e.Eventually(realtimetest.WaitTimeout, "the connection to detach", func() bool { return sessionsGone(e) })
}

func TestStockClientPollingOnly(t *testing.T) {
	e := newEnv(t, stacktest.Options{Configure: func(c *config.Config) {
		c.RealtimePingInterval, c.RealtimePingTimeout = pingFast, 2*time.Second
	}})
	// As behind a proxy that blocks WebSocket.
	c := realtimetest.StartNodeClient(t, e.BaseURL, realtimetest.SocketIOOptions{
		Query: map[string]string{"apiKey": e.App.APIKey, "userId": "alice"}, Transports: []string{"polling"},
	})
	if l := c.MustConnect(); l.Transport != "polling" {
		t.Fatalf("connected over %q", l.Transport)
	}
	// Heartbeats keep it alive well past pingInterval: the client answers each ping.
	for range 5 {
		await(t, c, "a ping", func(l realtimetest.Line) bool { return l.Type == "ping" })
	}
	if n, s := e.Stack.SocketIO.PollingSessions(), e.Stack.Realtime.Hub.Stats(); n != 1 || s.Connections != 1 {
		t.Fatalf("%d polling sessions, stats %+v after 5 pings", n, s)
	}
	alice := userID(t, e, e.App.AppID, "alice")
	id := insertNotification(t, e, e.App.AppID, alice, "Polled", "hello")
	ctx := context.Background()
	e.Stack.Events.Publish(ctx, events.Event{Kind: events.NewNotification, AppID: e.App.AppID, UserIDs: []int64{alice}, NotificationIDs: []int64{id}})
	l := await(t, c, "NEW_NOTIFICATION", func(l realtimetest.Line) bool { return l.Type == "event" && l.Name == events.NewNotification })
	if title := notificationTitle(t, l.Data); title != "Polled" || l.Transport != "polling" {
		t.Fatalf("data.notification.title %q over %q", title, l.Transport)
	}
	e.Stack.Events.Publish(ctx, events.Event{Kind: events.NotificationSeen, AppID: e.App.AppID, UserIDs: []int64{alice}})
	l = await(t, c, "NOTIFICATION_SEEN", func(l realtimetest.Line) bool { return l.Type == "event" && l.Name == events.NotificationSeen })
	if string(l.Data) != `{"unreadNotificationCount":1}` {
		t.Fatalf("NOTIFICATION_SEEN %s", l.Data)
	}
	// socket.close() posts DISCONNECT and the Engine.IO close: the session ends at once,
	// and the client saw a clean disconnect, not a transport error.
	var others []realtimetest.Line
	for _, l := range c.Close() {
		if l.Type != "ping" { // heartbeats may still arrive
			others = append(others, l)
		}
	}
	if len(others) != 1 || others[0].Type != "disconnect" || others[0].Reason != "io client disconnect" {
		t.Errorf("lines before the close: %+v, want the disconnect \"io client disconnect\"", others)
	}
	e.Eventually(realtimetest.WaitTimeout, "the session to close", func() bool { return sessionsGone(e) })
}
