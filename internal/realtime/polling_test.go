package realtime_test

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/heraldhq/herald/internal/inbox/events"
	"github.com/heraldhq/herald/internal/platform/config"
	"github.com/heraldhq/herald/internal/realtime/socketio"
	"github.com/heraldhq/herald/internal/testkit/realtimetest"
	"github.com/heraldhq/herald/internal/testkit/stacktest"
)

// connectPolling opens a polling session for a user and completes its CONNECT.
func connectPolling(t *testing.T, e *stacktest.Env, user string) *realtimetest.RawPolling {
	t.Helper()
	p := realtimetest.OpenPolling(t, e.BaseURL, userQuery(e, user))
	p.Send("40")
	if f := p.Next(); !strings.HasPrefix(f, "40{") || mustJSON(t, f[2:])["sid"] == "" {
		t.Fatalf("CONNECT answer %q", f)
	}
	return p
}

func sessionsGone(e *stacktest.Env) bool {
	return e.Stack.SocketIO.PollingSessions() == 0 && e.Stack.Realtime.Hub.Stats().Connections == 0
}

func TestPollingHandshakeConnectEventsAndClose(t *testing.T) {
	e := newEnv(t, stacktest.Options{})
	p := realtimetest.OpenPolling(t, e.BaseURL, userQuery(e, "alice"))
	if ups, _ := p.Open["upgrades"].([]any); p.SID == "" || len(ups) != 1 || ups[0] != "websocket" ||
		p.Open["pingInterval"] != float64(25000) || p.Open["pingTimeout"] != float64(20000) || p.Open["maxPayload"] != float64(socketio.MaxPayload) {
		t.Fatalf("open packet %v", p.Open)
	}
	if n := e.Stack.SocketIO.PollingSessions(); n != 1 {
		t.Fatalf("%d polling sessions", n)
	}
	// CONNECT with the credentials of the handshake query; the answer comes with the next poll.
	p.Send("40")
	if f := p.Next(); !strings.HasPrefix(f, "40{") || mustJSON(t, f[2:])["sid"] == "" {
		t.Fatalf("CONNECT answer %q", f)
	}
	alice, bob := userID(t, e, e.App.AppID, "alice"), userID(t, e, e.App.AppID, "bob")
	ctx := context.Background()
	e.Stack.Events.Publish(ctx, events.Event{Kind: events.NotificationRead, AppID: e.App.AppID, UserIDs: []int64{bob}, NotificationIDs: []int64{7}})
	e.Stack.Events.Publish(ctx, events.Event{Kind: events.NotificationRead, AppID: e.App.AppID, UserIDs: []int64{alice}, NotificationIDs: []int64{8}})
	e.Stack.Events.Publish(ctx, events.Event{Kind: events.AllNotificationDeleted, AppID: e.App.AppID, UserIDs: []int64{alice}})
	for _, want := range []string{`42["NOTIFICATION_READ",{"id":8}]`, `42["ALL_NOTIFICATION_DELETED",{}]`} {
		if f := p.Next(); f != want {
			t.Fatalf("got %q, want %q", f, want)
		}
	}
	id := insertNotification(t, e, e.App.AppID, alice, "Polled", "over HTTP")
	e.Stack.Events.Publish(ctx, events.Event{Kind: events.NewNotification, AppID: e.App.AppID, UserIDs: []int64{alice}, NotificationIDs: []int64{id}})
	if f := p.Next(); !strings.HasPrefix(f, fmt.Sprintf(`42["NEW_NOTIFICATION",{"notification":{"id":%d,`, id)) || !strings.Contains(f, `"title":"Polled"`) {
		t.Fatalf("NEW_NOTIFICATION frame %q", f)
	}
	// A clean close, as socket.io-client sends it: DISCONNECT, then the Engine.IO close.
	p.Send("41\x1e1")
	e.Eventually(realtimetest.WaitTimeout, "the session to close", func() bool { return sessionsGone(e) })
	// The client's next poll learns it from the close packet; after that the sid is unknown.
	if status, body := p.Get(); status != 200 || body != "1" {
		t.Errorf("poll after the close: %d %q, want the close packet", status, body)
	}
	if status, body := p.Get(); status != 400 || body != `{"code":1,"message":"Session ID unknown","status":"error"}` {
		t.Errorf("poll of a forgotten session: %d %s", status, body)
	}
}

func TestPollingBatchesFramesWithTheRecordSeparator(t *testing.T) {
	e := newEnv(t, stacktest.Options{})
	p := connectPolling(t, e, "alice")
	ws := connectRaw(t, e, "alice", realtimetest.DialOptions{})
	alice := userID(t, e, e.App.AppID, "alice")
	// Ten events wait in the polling client's queue: the hub handles bus events one at a
	// time, so once the WebSocket of the same user has the event published after them,
	// they are all queued.
	var ids []int64
	for i := range 10 {
		ids = append(ids, int64(100+i))
	}
	ctx := context.Background()
	e.Stack.Events.Publish(ctx, events.Event{Kind: events.NotificationRead, AppID: e.App.AppID, UserIDs: []int64{alice}, NotificationIDs: ids})
	e.Stack.Events.Publish(ctx, events.Event{Kind: events.AllNotificationRead, AppID: e.App.AppID, UserIDs: []int64{alice}})
	for {
		if f := ws.Next(); f == `42["ALL_NOTIFICATION_READ",{}]` {
			break
		}
	}
	// One poll answers them all, in order, separated by 0x1e.
	var got []string
	for _, f := range p.Poll() {
		if f != "2" {
			got = append(got, f)
		}
	}
	if len(got) < len(ids) {
		t.Fatalf("one poll answered %d frames: %q", len(got), got)
	}
	for i, id := range ids {
		if want := fmt.Sprintf(`42["NOTIFICATION_READ",{"id":%d}]`, id); got[i] != want {
			t.Fatalf("frame %d: %q, want %q", i, got[i], want)
		}
	}
}

func TestPollingRefusals(t *testing.T) {
	e := newEnv(t, stacktest.Options{})
	q := "EIO=4&transport=polling"
	for _, tc := range []struct{ method, query, body, want string }{
		{"GET", "EIO=3&transport=polling", "", `{"code":5,"message":"Unsupported protocol version: this server speaks Engine.IO 4 (socket.io-client 3 or later)","status":"error"}`},
		{"GET", q + "&sid=nope", "", `{"code":1,"message":"Session ID unknown","status":"error"}`},
		{"POST", q + "&sid=nope", "3", `{"code":1,"message":"Session ID unknown","status":"error"}`},
		{"POST", q, "40", `{"code":2,"message":"Bad handshake method: open a session with GET","status":"error"}`},
		{"POST", "EIO=4&transport=websocket&sid=x", "3", `{"code":0,"message":"Transport unknown","status":"error"}`},
		{"GET", "EIO=4&transport=websocket&sid=nope", "", `{"code":1,"message":"Session ID unknown","status":"error"}`},
	} {
		res := e.Do(tc.method, "/socket.io/?"+tc.query, tc.body, nil)
		if res.Status != 400 || string(res.Body) != tc.want {
			t.Errorf("%s %s: %d %s", tc.method, tc.query, res.Status, res.Body)
		}
	}
	// Each of these ends the session: the client broke the protocol.
	for _, tc := range []struct {
		name   string
		act    func(p *realtimetest.RawPolling) (int, string)
		status int
		body   string
	}{
		{"payload over maxPayload", func(p *realtimetest.RawPolling) (int, string) {
			return p.Post(`42["x","` + strings.Repeat("a", socketio.MaxPayload) + `"]`)
		}, 413, fmt.Sprintf(`{"code":3,"message":"Bad request: the payload is larger than maxPayload (%d bytes)","status":"error"}`, socketio.MaxPayload)},
		{"empty packet", func(p *realtimetest.RawPolling) (int, string) { return p.Post("3\x1e\x1e3") }, 400,
			`{"code":3,"message":"Bad request: engine.io: malformed payload: empty packet","status":"error"}`},
		{"bad base64", func(p *realtimetest.RawPolling) (int, string) { return p.Post("b!!") }, 400,
			`{"code":3,"message":"Bad request: engine.io: malformed payload: invalid base64 data","status":"error"}`},
		{"malformed Socket.IO packet", func(p *realtimetest.RawPolling) (int, string) { return p.Post(`42{"not":"an array"}`) }, 200, "ok"},
		{"upgrade packet over polling", func(p *realtimetest.RawPolling) (int, string) { return p.Post("5") }, 200, "ok"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := connectPolling(t, e, "alice")
			if status, body := tc.act(p); status != tc.status || body != tc.body {
				t.Fatalf("got %d %s, want %d %s", status, body, tc.status, tc.body)
			}
			e.Eventually(realtimetest.WaitTimeout, "the session to close", func() bool { return sessionsGone(e) })
			if status, body := p.Get(); status != 200 || body != "1" {
				t.Errorf("poll after the refusal: %d %q, want the close packet", status, body)
			}
		})
	}
	// Two polls at once: whichever comes second is refused and the session ends, so the
	// other one answers the close packet.
	p := connectPolling(t, e, "alice")
	bodies := make(chan string, 2)
	for range 2 {
		go func() {
			status, body := p.Get()
			bodies <- fmt.Sprint(status, " ", body)
		}()
	}
	got := []string{<-bodies, <-bodies}
	refused := `400 {"code":3,"message":"Bad request: overlapping polls","status":"error"}`
	if !(got[0] == refused && got[1] == "200 1") && !(got[1] == refused && got[0] == "200 1") {
		t.Errorf("two polls at once: %q", got)
	}
	e.Eventually(realtimetest.WaitTimeout, "the session to close", func() bool { return sessionsGone(e) })
}

func TestPollingConnectErrorsEndTheSession(t *testing.T) {
	e := newEnv(t, stacktest.Options{})
	p := realtimetest.OpenPolling(t, e.BaseURL, url.Values{"apiKey": {"nope"}, "userId": {"alice"}})
	// Another namespace is refused without ending the session.
	p.Send("40/admin,")
	if f := p.Next(); f != `44/admin,{"message":"Invalid namespace"}` {
		t.Fatalf("other namespace: %q", f)
	}
	p.Send("40")
	if frames := p.Poll(); len(frames) != 1 || frames[0] != `44{"message":"Invalid API key"}` {
		t.Fatalf("refused CONNECT: %q, want the error alone", frames)
	}
	// The session is over: the next poll gets the close packet.
	e.Eventually(realtimetest.WaitTimeout, "the session to close", func() bool { return sessionsGone(e) })
	if status, body := p.Get(); status != 200 || body != "1" {
		t.Errorf("poll after the refusal: %d %q, want the close packet", status, body)
	}
}

func TestPollingCORS(t *testing.T) {
	e := newEnv(t, stacktest.Options{})
	const allowed, stranger = "https://app.example", "https://evil.example"
	if err := e.Stack.Apps.SetAllowedOrigins(context.Background(), e.App.AppID, []string{allowed}); err != nil {
		t.Fatal(err)
	}
	open := "/socket.io/?EIO=4&transport=polling&apiKey=" + url.QueryEscape(e.App.APIKey)
	// A page of an origin the app allows may read the handshake.
	res := e.Do("GET", open, nil, stacktest.Headers{"Origin": allowed})
	if res.Status != 200 || res.Header.Get("Access-Control-Allow-Origin") != allowed || res.Header.Get("Content-Type") != "text/plain; charset=UTF-8" {
		t.Fatalf("open from an allowed origin: %d %v", res.Status, res.Header)
	}
	// Another origin, or no app named in the query, gets no CORS header: the browser hides the answer.
	for _, tc := range []struct{ path, origin string }{{open, stranger}, {"/socket.io/?EIO=4&transport=polling", allowed}} {
		res = e.Do("GET", tc.path, nil, stacktest.Headers{"Origin": tc.origin})
		if got := res.Header.Get("Access-Control-Allow-Origin"); got != "" {
			t.Errorf("GET %s from %s: Access-Control-Allow-Origin %q, want none", tc.path, tc.origin, got)
		}
	}
	// Preflights (clients that add headers send one) follow the same rule.
	pre := func(origin string) *stacktest.Response {
		return e.Do("OPTIONS", open, nil, stacktest.Headers{"Origin": origin,
			"Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "content-type"})
	}
	if res = pre(allowed); res.Status != 204 || res.Header.Get("Access-Control-Allow-Origin") != allowed ||
		!strings.Contains(res.Header.Get("Access-Control-Allow-Methods"), "POST") {
		t.Fatalf("preflight from an allowed origin: %d %v", res.Status, res.Header)
	}
	if res = pre(stranger); res.Header.Get("Access-Control-Allow-Origin") != "" {
		t.Fatalf("preflight from another origin: %d %v", res.Status, res.Header)
	}
}

func TestPollingHeartbeat(t *testing.T) {
	e := newEnv(t, stacktest.Options{Configure: func(c *config.Config) {
		c.RealtimePingInterval, c.RealtimePingTimeout = pingFast, 2*time.Second
	}})
	// A client that stops polling never sees its ping, so it cannot answer: dropped.
	silent := connectPolling(t, e, "bob")
	live := connectPolling(t, e, "alice")
	// Pongs posted blindly do not count: only the answer to a ping the client received.
	for range 3 {
		silent.Send("3")
	}
	// The live client polls and answers pings (Next does both) past several intervals.
	pings := 0
	for pings < 5 {
		for _, f := range live.Poll() {
			if f == "2" {
				pings++
				live.Send("3")
			}
		}
	}
	e.Eventually(realtimetest.WaitTimeout, "the silent session to be dropped", func() bool {
		return e.Stack.SocketIO.PollingSessions() == 1 && e.Stack.Realtime.Hub.Stats().Connections == 1
	})
	if status, body := silent.Get(); status != 200 || body != "1" {
		t.Errorf("silent client's poll: %d %q, want the close packet", status, body)
	}
	// The live one still gets its events.
	alice := userID(t, e, e.App.AppID, "alice")
	e.Stack.Events.Publish(context.Background(), events.Event{Kind: events.NotificationDeleted, AppID: e.App.AppID, UserIDs: []int64{alice}, NotificationIDs: []int64{3}})
	if f := live.Next(); f != `42["NOTIFICATION_DELETED",{"id":3}]` {
		t.Fatalf("live client got %q", f)
	}
}

func TestPollingSlowPollerIsDropped(t *testing.T) {
	const queue = 4
	e := newEnv(t, stacktest.Options{Configure: func(c *config.Config) { c.RealtimeQueue = queue }})
	slow := connectPolling(t, e, "alice")
	fast := connectPolling(t, e, "alice")
	alice := userID(t, e, e.App.AppID, "alice")
	// The fast client polls each event before the next is published; the slow one never
	// polls, so its queue fills and the hub drops it instead of buffering more.
	for i := range queue * 3 {
		e.Stack.Events.Publish(context.Background(), events.Event{Kind: events.NotificationRead, AppID: e.App.AppID, UserIDs: []int64{alice}, NotificationIDs: []int64{int64(i)}})
		if f := fast.Next(); f != fmt.Sprintf(`42["NOTIFICATION_READ",{"id":%d}]`, i) {
			t.Fatalf("event %d on the fast client: %q", i, f)
		}
	}
	if s := e.Stack.Realtime.Hub.Stats(); s.Overflows != 1 || s.Connections != 1 || e.Stack.SocketIO.PollingSessions() != 1 {
		t.Fatalf("stats %+v, %d polling sessions", s, e.Stack.SocketIO.PollingSessions())
	}
	// It learns with a clear close when it polls again.
	if status, body := slow.Get(); status != 200 || body != "1" {
		t.Errorf("slow client's poll: %d %q, want the close packet", status, body)
	}
}

func TestPollingUpgradesToWebSocket(t *testing.T) {
	e := newEnv(t, stacktest.Options{})
	p := connectPolling(t, e, "alice")
	alice := userID(t, e, e.App.AppID, "alice")
	ctx := context.Background()
	// A probe that is not "2probe" ends that WebSocket; the session stays on polling.
	bad := realtimetest.DialRaw(t, e.BaseURL, nil, realtimetest.DialOptions{SID: p.SID})
	bad.Send("2hello")
	if f, err := bad.Read(); err == nil {
		t.Fatalf("the server kept a WebSocket that did not probe (got %q)", f)
	}
	e.Stack.Events.Publish(ctx, events.Event{Kind: events.NotificationRead, AppID: e.App.AppID, UserIDs: []int64{alice}, NotificationIDs: []int64{1}})
	if f := p.Next(); f != `42["NOTIFICATION_READ",{"id":1}]` {
		t.Fatalf("after a failed probe: %q", f)
	}

	// The client's poll waits while it opens the WebSocket and probes.
	polled := make(chan string, 1)
	go func() { _, body := p.Get(); polled <- body }()
	ws := realtimetest.DialRaw(t, e.BaseURL, nil, realtimetest.DialOptions{SID: p.SID})
	ws.Send("2probe")
	if f := ws.Next(); f != "3probe" {
		t.Fatalf("probe answer %q", f)
	}
	// A second WebSocket cannot upgrade the same session.
	if status := realtimetest.TryUpgrade(t, e.BaseURL, p.SID); status != 400 {
		t.Errorf("a second upgrade: %d, want 400", status)
	}
	// The waiting poll is answered a noop, so the client can pause polling.
	if body := <-polled; body != "6" {
		t.Fatalf("the waiting poll got %q, want a noop", body)
	}
	// An event published now waits for the transport the session ends up on.
	e.Stack.Events.Publish(ctx, events.Event{Kind: events.NotificationRead, AppID: e.App.AppID, UserIDs: []int64{alice}, NotificationIDs: []int64{2}})
	ws.Send("5")
	if f := ws.Next(); f != `42["NOTIFICATION_READ",{"id":2}]` {
		t.Fatalf("first frame on the upgraded WebSocket %q", f)
	}
	e.Stack.Events.Publish(ctx, events.Event{Kind: events.NotificationRead, AppID: e.App.AppID, UserIDs: []int64{alice}, NotificationIDs: []int64{3}})
	if f := ws.Next(); f != `42["NOTIFICATION_READ",{"id":3}]` {
		t.Fatalf("event on the upgraded WebSocket %q", f)
	}
	// Polling is over for this session; one connection remains, on the WebSocket.
	if status, body := p.Get(); status != 400 {
		t.Errorf("poll after the upgrade: %d %s", status, body)
	}
	if n, s := e.Stack.SocketIO.PollingSessions(), e.Stack.Realtime.Hub.Stats(); n != 0 || s.Connections != 1 {
		t.Fatalf("%d polling sessions, stats %+v", n, s)
	}
	// It closes like any WebSocket session, and the session with it.
	ws.Send("41")
	if _, err := ws.Read(); err == nil {
		t.Fatal("the server kept the connection after DISCONNECT")
	}
	e.Eventually(realtimetest.WaitTimeout, "the connection to detach", func() bool { return sessionsGone(e) })
}
