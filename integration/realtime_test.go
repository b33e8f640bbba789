package integration

import (
	"context"
	"encoding/json"
	"net/url"
	"testing"
	"time"

	"github.com/heraldhq/herald/internal/inbox/events"
	"github.com/heraldhq/herald/internal/platform/config"
	"github.com/heraldhq/herald/internal/testkit/realtimetest"
	"github.com/heraldhq/herald/internal/testkit/stacktest"
)

// realtimeEnv starts a stack and waits for its realtime listener.
func realtimeEnv(t *testing.T, o stacktest.Options) *stacktest.Env {
	t.Helper()
	e := stacktest.New(t, o)
	select {
	case <-e.Stack.Realtime.Ready():
	case <-time.After(realtimetest.WaitTimeout):
		t.Fatal("the realtime listener never listened")
	}
	return e
}

// sendTo sends a notification to one user through the API.
func sendTo(t *testing.T, e *stacktest.Env, user, title string) {
	t.Helper()
	body := map[string]any{
		"notification": map[string]any{"title": title, "message": "Hello " + user, "url": "https://example.com/o/1", "category": "orders"},
		"category":     "orders",
		"sendTo":       map[string]any{"recipients": []string{user}},
		"data":         map[string]any{"orderId": 42},
	}
	if res := e.Do("POST", "/v3/notifications", body, e.AppHeaders()); res.Status != 202 {
		t.Fatalf("send: %d %s", res.Status, res.Body)
	}
}

// latestInJSON is the newest inbox item of a user, as the list endpoint shows it.
func latestInJSON(t *testing.T, e *stacktest.Env, user string) (json.RawMessage, int64) {
	t.Helper()
	res := e.Do("GET", "/v3/notifications", nil, e.UserHeaders(user))
	var page struct{ Data []json.RawMessage }
	res.JSON(t, &page)
	if len(page.Data) == 0 {
		t.Fatalf("%s's inbox is empty", user)
	}
	var item struct{ ID int64 }
	_ = json.Unmarshal(page.Data[0], &item)
	return page.Data[0], item.ID
}

func sameJSON(t *testing.T, what string, got, want []byte) {
	t.Helper()
	var g, w any
	if json.Unmarshal(got, &g) != nil || json.Unmarshal(want, &w) != nil {
		t.Fatalf("%s: not JSON: %s / %s", what, got, want)
	}
	gb, _ := json.Marshal(g)
	wb, _ := json.Marshal(w)
	if string(gb) != string(wb) {
		t.Errorf("%s:\n got  %s\n want %s", what, gb, wb)
	}
}

// wrapped returns the notification of a NEW_NOTIFICATION payload, failing unless the
// payload is exactly {"notification": {…}} with the title set (the published SDKs read
// data.notification).
func wrapped(t *testing.T, what string, data []byte, title string) json.RawMessage {
	t.Helper()
	var p map[string]json.RawMessage
	if err := json.Unmarshal(data, &p); err != nil || len(p) != 1 || p["notification"] == nil {
		t.Fatalf("%s: payload %s, want {\"notification\": {…}}", what, data)
	}
	var n struct{ Title string }
	if err := json.Unmarshal(p["notification"], &n); err != nil || n.Title != title {
		t.Fatalf("%s: data.notification.title is %q, want %q", what, n.Title, title)
	}
	return p["notification"]
}

func internalUserID(t *testing.T, e *stacktest.Env, appID int64, user string) int64 {
	t.Helper()
	var id int64
	if err := e.Stack.DB.Pool.QueryRow(context.Background(), "SELECT id FROM users WHERE app_id = $1 AND identifier = $2", appID, user).Scan(&id); err != nil {
		t.Fatal(err)
	}
	return id
}

func TestSocketIOClientReceivesInboxChanges(t *testing.T) {
	e := realtimeEnv(t, stacktest.Options{Temporal: true})
	// As the inbox SDKs do: the client's default options (long-polling, then the upgrade to
	// WebSocket), credentials in the query, the signature variable unset.
	phone := realtimetest.StartNodeClient(t, e.BaseURL, realtimetest.SocketIOOptions{
		Query: map[string]string{"apiKey": e.App.APIKey, "userId": "alice", "userSignature": "undefined"},
	})
	phone.MustConnect()
	// A second device, behind a proxy that blocks WebSocket, stays on long-polling and
	// authenticates with a realtime token in the CONNECT auth payload.
	token := e.Do("POST", "/v3/sdk/realtimeTokenRequests", nil, e.UserHeaders("alice")).Map(t)["token"].(string)
	laptop := realtimetest.StartNodeClient(t, e.BaseURL, realtimetest.SocketIOOptions{Auth: map[string]any{"token": token}, Transports: []string{"polling"}})
	laptop.MustConnect()
	// The phone's upgrade is done once the process holds no polling session but the laptop's.
	e.Eventually(realtimetest.WaitTimeout, "the phone to upgrade", func() bool {
		return e.Stack.SocketIO.PollingSessions() == 1 && e.Stack.Realtime.Hub.Stats().Connections == 2
	})

	sendTo(t, e, "alice", "Order shipped")
	gotPhone, gotLaptop := phone.Event("NEW_NOTIFICATION"), laptop.Event("NEW_NOTIFICATION")
	if gotPhone.Transport != "websocket" || gotLaptop.Transport != "polling" {
		t.Errorf("NEW_NOTIFICATION came over %q to the phone and %q to the laptop, want websocket and polling", gotPhone.Transport, gotLaptop.Transport)
	}
	want, id := latestInJSON(t, e, "alice")
	sameJSON(t, "NEW_NOTIFICATION on the phone", wrapped(t, "phone", gotPhone.Data, "Order shipped"), want)
	sameJSON(t, "NEW_NOTIFICATION on the laptop", wrapped(t, "laptop", gotLaptop.Data, "Order shipped"), want)

	// State changes through the developer API reach every device.
	path := "/v3/notifications/" + itoa(id)
	for _, step := range []struct{ method, path string }{{"POST", path + "/views"}, {"POST", path + "/reads"}, {"DELETE", path}} {
		if res := e.Do(step.method, step.path, nil, e.UserHeaders("alice")); res.Status != 200 {
			t.Fatalf("%s %s: %d %s", step.method, step.path, res.Status, res.Body)
		}
	}
	for _, c := range []*realtimetest.NodeClient{phone, laptop} {
		sameJSON(t, "NOTIFICATION_SEEN", c.Event("NOTIFICATION_SEEN").Data, []byte(`{"unreadNotificationCount":0}`))
		sameJSON(t, "NOTIFICATION_READ", c.Event("NOTIFICATION_READ").Data, []byte(`{"id":`+itoa(id)+`}`))
		sameJSON(t, "NOTIFICATION_DELETED", c.Event("NOTIFICATION_DELETED").Data, []byte(`{"id":`+itoa(id)+`}`))
	}
}

func TestSocketIOClientSeesConnectErrors(t *testing.T) {
	e := realtimeEnv(t, stacktest.Options{})
	for _, tc := range []struct {
		name string
		o    realtimetest.SocketIOOptions
		want string
	}{
		{"unknown key", realtimetest.SocketIOOptions{Query: map[string]string{"apiKey": "nope", "userId": "alice"}}, "Invalid API key"},
		{"no credentials", realtimetest.SocketIOOptions{}, "No authentication parameters found: pass apiKey and userId, or a token"},
		{"bad token", realtimetest.SocketIOOptions{Auth: map[string]any{"token": "hrt_x.y"}}, "the realtime token is invalid or expired: request a new one with POST /v3/sdk/realtimeTokenRequests"},
		{"unknown key over polling only", realtimetest.SocketIOOptions{Transports: []string{"polling"}, Query: map[string]string{"apiKey": "nope", "userId": "alice"}}, "Invalid API key"},
		{"unknown key over websocket only", realtimetest.SocketIOOptions{Transports: []string{"websocket"}, Query: map[string]string{"apiKey": "nope", "userId": "alice"}}, "Invalid API key"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := realtimetest.StartNodeClient(t, e.BaseURL, tc.o)
			// The refusal comes first: no disconnect of a socket that never connected. Transport
			// events (the Engine.IO open, and an upgrade to WebSocket that can finish before the
			// refusal arrives) are not outcomes.
			if l := c.Until("the outcome", func(l realtimetest.Line) bool { return l.Type != "open" && l.Type != "upgrade" }); l.Type != "connect_error" || l.Message != tc.want {
				t.Fatalf("got %+v, want connect_error %q", l, tc.want)
			}
		})
	}
}

func TestSSEReceivesInboxChanges(t *testing.T) {
	e := realtimeEnv(t, stacktest.Options{Temporal: true})
	q := url.Values{"apiKey": {e.App.APIKey}, "userId": {"bob"}}
	c := realtimetest.OpenSSE(t, e.BaseURL+"/v3/realtime?"+q.Encode(), nil)
	if c.Status != 200 {
		t.Fatalf("SSE: %d %s", c.Status, c.Body)
	}
	e.Eventually(realtimetest.WaitTimeout, "the stream to attach", func() bool { return e.Stack.Realtime.Hub.Stats().Connections == 1 })
	sendTo(t, e, "bob", "Invoice ready")
	got := c.Event("NEW_NOTIFICATION")
	want, id := latestInJSON(t, e, "bob")
	sameJSON(t, "NEW_NOTIFICATION over SSE", wrapped(t, "SSE", []byte(got.Data), "Invoice ready"), want)
	for _, step := range []struct{ method, path string }{{"POST", "/v3/notifications/" + itoa(id) + "/reads"}, {"DELETE", "/v3/notifications/" + itoa(id)}} {
		if res := e.Do(step.method, step.path, nil, e.UserHeaders("bob")); res.Status != 200 {
			t.Fatalf("%s %s: %d %s", step.method, step.path, res.Status, res.Body)
		}
	}
	sameJSON(t, "NOTIFICATION_READ over SSE", []byte(c.Event("NOTIFICATION_READ").Data), []byte(`{"id":`+itoa(id)+`}`))
	sameJSON(t, "NOTIFICATION_DELETED over SSE", []byte(c.Event("NOTIFICATION_DELETED").Data), []byte(`{"id":`+itoa(id)+`}`))
}

func TestRealtimeAcrossTwoAPIProcesses(t *testing.T) {
	// One with the worker (sends are delivered there), one API only, on the same database.
	one := realtimeEnv(t, stacktest.Options{Temporal: true})
	two := realtimeEnv(t, stacktest.Options{Configure: func(c *config.Config) {
		c.DatabaseURL, c.SecretKey = one.Cfg.DatabaseURL, one.Cfg.SecretKey
	}})
	// A token issued by one process is good on the other.
	token := one.Do("POST", "/v3/sdk/realtimeTokenRequests", nil, one.UserHeaders("carol")).Map(t)["token"].(string)
	onTwo := realtimetest.StartNodeClient(t, two.BaseURL, realtimetest.SocketIOOptions{Auth: map[string]any{"token": token}})
	onTwo.MustConnect()
	onOne := realtimetest.StartNodeClient(t, one.BaseURL, realtimetest.SocketIOOptions{Query: map[string]string{"apiKey": one.App.APIKey, "userId": "carol"}})
	onOne.MustConnect()

	sendTo(t, one, "carol", "Across processes")
	gotTwo, gotOne := onTwo.Event("NEW_NOTIFICATION"), onOne.Event("NEW_NOTIFICATION")
	want, id := latestInJSON(t, one, "carol")
	sameJSON(t, "NEW_NOTIFICATION on the other process", wrapped(t, "other process", gotTwo.Data, "Across processes"), want)
	sameJSON(t, "NEW_NOTIFICATION on the sending process", wrapped(t, "sending process", gotOne.Data, "Across processes"), want)
	// A change published by the second process reaches a socket on the first.
	carol := internalUserID(t, one, one.App.AppID, "carol")
	two.Stack.Events.Publish(context.Background(), events.Event{Kind: events.NotificationRead, AppID: one.App.AppID, UserIDs: []int64{carol}, NotificationIDs: []int64{id}})
	sameJSON(t, "NOTIFICATION_READ from the other process", onOne.Event("NOTIFICATION_READ").Data, []byte(`{"id":`+itoa(id)+`}`))
	sameJSON(t, "NOTIFICATION_READ on the publishing process", onTwo.Event("NOTIFICATION_READ").Data, []byte(`{"id":`+itoa(id)+`}`))
}
