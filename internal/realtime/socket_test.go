package realtime_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/heraldhq/herald/internal/inbox/events"
	"github.com/heraldhq/herald/internal/platform/config"
	"github.com/heraldhq/herald/internal/testkit/realtimetest"
	"github.com/heraldhq/herald/internal/testkit/stacktest"
)

func TestSocketHandshakeConnectAndEvents(t *testing.T) {
	e := newEnv(t, stacktest.Options{})
	s := realtimetest.DialRaw(t, e.BaseURL, userQuery(e, "alice"), realtimetest.DialOptions{})
	if s.Open["sid"] == "" || s.Open["pingInterval"] != float64(25000) || s.Open["pingTimeout"] != float64(20000) ||
		s.Open["maxPayload"] == nil {
		t.Fatalf("open packet %v", s.Open)
	}
	s.Send("40")
	f := s.Next()
	if !strings.HasPrefix(f, "40{") || mustJSON(t, f[2:])["sid"] == "" {
		t.Fatalf("CONNECT answer %q", f)
	}
	alice := userID(t, e, e.App.AppID, "alice")
	bob := userID(t, e, e.App.AppID, "bob")
	ctx := context.Background()
	// bob's event is not alice's; alice's arrives.
	e.Stack.Events.Publish(ctx, events.Event{Kind: events.NotificationRead, AppID: e.App.AppID, UserIDs: []int64{bob}, NotificationIDs: []int64{7}})
	e.Stack.Events.Publish(ctx, events.Event{Kind: events.NotificationRead, AppID: e.App.AppID, UserIDs: []int64{alice}, NotificationIDs: []int64{8}})
	if f := s.Next(); f != `42["NOTIFICATION_READ",{"id":8}]` {
		t.Fatalf("event frame %q", f)
	}
	// Another app's user of the same identifier gets nothing: the next frame is alice's.
	other := e.NewApp("other")
	otherAlice := userID(t, e, other.AppID, "alice")
	e.Stack.Events.Publish(ctx, events.Event{Kind: events.AllNotificationRead, AppID: other.AppID, UserIDs: []int64{otherAlice}})
	e.Stack.Events.Publish(ctx, events.Event{Kind: events.AllNotificationDeleted, AppID: e.App.AppID, UserIDs: []int64{alice}})
	if f := s.Next(); f != `42["ALL_NOTIFICATION_DELETED",{}]` {
		t.Fatalf("event frame %q", f)
	}
	// A clean disconnect detaches the connection.
	s.Send("41")
	if _, err := s.Read(); err == nil {
		t.Fatal("the server kept the connection after DISCONNECT")
	}
	e.Eventually(realtimetest.WaitTimeout, "the connection to detach", func() bool { return e.Stack.Realtime.Hub.Stats().Connections == 0 })
}

func TestSocketHandshakeRefusals(t *testing.T) {
	e := newEnv(t, stacktest.Options{})
	for _, tc := range []struct{ query, want string }{
		{"EIO=3&transport=websocket", `{"code":5,"message":"Unsupported protocol version: this server speaks Engine.IO 4 (socket.io-client 3 or later)","status":"error"}`},
		{"EIO=4&transport=carrier-pigeon", `{"code":0,"message":"Transport unknown","status":"error"}`},
		{"EIO=4&transport=websocket&sid=abc", `{"code":1,"message":"Session ID unknown","status":"error"}`},
		{"EIO=4&transport=websocket", `{"code":3,"message":"Bad request: expected a WebSocket upgrade","status":"error"}`},
	} {
		res := e.Do("GET", "/socket.io/?"+tc.query, nil, nil)
		if res.Status != 400 || string(res.Body) != tc.want {
			t.Errorf("%s: %d %s", tc.query, res.Status, res.Body)
		}
	}
}

func TestSocketNamespacesAndMalformedPackets(t *testing.T) {
	e := newEnv(t, stacktest.Options{})
	s := realtimetest.DialRaw(t, e.BaseURL, userQuery(e, "alice"), realtimetest.DialOptions{})
	s.Send("40/admin,")
	if f := s.Next(); f != `44/admin,{"message":"Invalid namespace"}` {
		t.Fatalf("other namespace: %q", f)
	}
	// A probe ping is answered in kind.
	s.Send("2probe")
	if f := s.Next(); f != "3probe" {
		t.Fatalf("probe: %q", f)
	}
	s.Send("40")
	if f := s.Next(); !strings.HasPrefix(f, "40{") {
		t.Fatalf("CONNECT answer %q", f)
	}
	// Client events are ignored; a malformed packet ends the session.
	s.Send(`42["hello",1]`)
	s.Send(`42{"not":"an array"}`)
	if f, err := s.Read(); err == nil {
		t.Fatalf("the server kept the connection after a malformed packet (got %q)", f)
	}
}

// pingFast makes heartbeats quick enough for a test.
const pingFast = 300 * time.Millisecond

func TestSocketHeartbeatClosesSilentPeers(t *testing.T) {
	e := newEnv(t, stacktest.Options{Configure: func(c *config.Config) {
		c.RealtimePingInterval, c.RealtimePingTimeout = pingFast, pingFast
	}})
	silent := realtimetest.DialRaw(t, e.BaseURL, userQuery(e, "alice"), realtimetest.DialOptions{})
	live := realtimetest.DialRaw(t, e.BaseURL, userQuery(e, "alice"), realtimetest.DialOptions{})
	silent.Send("40")
	live.Send("40")
	if f := live.Next(); !strings.HasPrefix(f, "40{") {
		t.Fatalf("live CONNECT answer %q", f)
	}
	// The live peer answers every ping, counting them.
	livePings := make(chan error, 1024)
	go func() {
		for {
			f, err := live.Read()
			if err != nil {
				livePings <- err
				return
			}
			if f == "2" {
				if err := live.Conn.WriteMessage(1, []byte("3")); err != nil {
					livePings <- err
					return
				}
				livePings <- nil
			}
		}
	}()
	// The silent peer reads pings but never answers them: the server drops it.
	pings := 0
	for {
		f, err := silent.Read()
		if err != nil {
			break
		}
		if f == "2" {
			pings++
		}
	}
	if pings == 0 {
		t.Error("the server sent no ping before dropping the silent peer")
	}
	// The live peer is still there after more pings than the silent one got.
	for i := 0; i < pings+3; i++ {
		if err := <-livePings; err != nil {
			t.Fatalf("live peer dropped after %d pings: %v", i, err)
		}
	}
	if n := e.Stack.Realtime.Hub.Stats().Connections; n != 1 {
		t.Errorf("%d connections, want 1", n)
	}
}
