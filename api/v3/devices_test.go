package v3_test

import (
	"context"
	"encoding/base64"
	"strings"
	"testing"
)

func TestConnect(t *testing.T) {
	f := newFixture(t)
	e := f.e
	f.seed(f.plain, "alice", 3)
	cat := f.category(f.plain, "news")
	h := with(userH(f.plain, "alice"), prefix+"DEVICE-ID", "browser-1")
	res := e.Do("POST", "/v3/sdk/connect", `{"deviceType":"browser","extra":true}`, h)
	want := `{"unreadCount":3,"app":{"id":"` + itoa(f.plain.AppID) + `","name":"test app","publicKey":null,"enableWebPush":false,"hideBranding":false,` +
		`"channels":["inApp"],"categories":[{"id":` + itoa(cat) + `,"identifier":"news","name":"news","critical":false}]}}`
	if wantStatus(t, res, 200, "connect") && string(res.Body) != want {
		t.Errorf("connect:\n%s\nwant\n%s", res.Body, want)
	}
	// Connecting again updates the same device; a new user is created on connect.
	wantStatus(t, e.Do("POST", "/v3/sdk/connect", `{"deviceType":"android"}`, h), 200, "reconnect")
	wantStatus(t, e.Do("POST", "/v3/sdk/connect", `{"deviceType":"ios"}`, with(userH(f.plain, "newbie"), prefix+"DEVICE-ID", "phone")), 200, "new user")
	rows, err := e.Stack.DB.Pool.Query(context.Background(), "SELECT u.identifier || ':' || d.device_id || ':' || d.device_type FROM devices d JOIN users u ON u.id = d.user_id ORDER BY d.id")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for rows.Next() {
		var s string
		_ = rows.Scan(&s)
		got = append(got, s)
	}
	if strings.Join(got, ",") != "alice:browser-1:android,newbie:phone:ios" {
		t.Errorf("devices %v", got)
	}
	cases := []struct {
		body   string
		device string
		want   []string
	}{
		{`{}`, "d", []string{"deviceType must be one of the following values: browser, android, ios"}},
		{`{"deviceType":"toaster"}`, strings.Repeat("d", 256), []string{"device id must be at most 255 characters", "deviceType must be one of the following values: browser, android, ios"}},
		{`[]`, "d", []string{"body must be a JSON object"}},
	}
	for _, tc := range cases {
		wantProblems(t, e.Do("POST", "/v3/sdk/connect", tc.body, with(userH(f.plain, "carol"), prefix+"DEVICE-ID", tc.device)), "connect "+tc.body, tc.want...)
	}
	// A refused connect creates no user.
	wantError(t, e.Do("GET", "/v3/topics/subscriptions/carol", nil, appH(f.plain)), 404, "not found", "carol after refused connects")
}

func TestWebPushSubscription(t *testing.T) {
	f := newFixture(t)
	e, alice := f.e, userH(f.plain, "alice")
	f.connect(f.plain, "alice", "d1")
	f.connect(f.plain, "bob", "bobs")
	f.connect(f.other, "alice", "d1-other")
	res := e.Do("POST", "/v3/devices/d1/webPushSubscription", pushBody, alice)
	var sub struct {
		DeviceID, Endpoint string
		ExpirationTime     *int64
		Keys               struct{ P256dh, Auth string }
	}
	if wantStatus(t, res, 200, "subscribe") {
		res.JSON(t, &sub)
		if sub.DeviceID != "d1" || sub.Endpoint != pushBody["endpoint"] || sub.ExpirationTime != nil || sub.Keys.Auth != "tBHItJI5svbpez7KI4CCXg" {
			t.Errorf("stored %+v", sub)
		}
	}
	again := map[string]any{"endpoint": pushBody["endpoint"], "expirationTime": 1893456000000, "keys": pushBody["keys"]}
	res = e.Do("POST", "/v3/devices/d1/webPushSubscription", again, alice)
	if res.JSON(t, &sub); sub.ExpirationTime == nil || *sub.ExpirationTime != 1893456000000 {
		t.Errorf("updated %s", res.Body)
	}
	var n int
	if err := e.Stack.DB.Pool.QueryRow(context.Background(), "SELECT count(*) FROM web_push_subscriptions").Scan(&n); err != nil || n != 1 {
		t.Errorf("subscriptions stored: %d (%v)", n, err)
	}
	for name, path := range map[string]string{
		"unregistered device":   "/v3/devices/nope/webPushSubscription",
		"another user's device": "/v3/devices/bobs/webPushSubscription",
		"another app's device":  "/v3/devices/d1-other/webPushSubscription",
	} {
		wantError(t, e.Do("POST", path, pushBody, alice), 404, "not found: register it with POST /v3/sdk/connect first", name)
	}
	wantError(t, e.Do("POST", "/v3/devices/d1/webPushSubscription", pushBody, userH(f.plain, "stranger")), 404, "not found", "unknown user")
	cases := []struct {
		body any
		want []string
	}{
		{`[]`, []string{"body must be a JSON object"}},
		{`{"endpoint":"http://push.example.com/x","expirationTime":"soon","keys":{"p256dh":"abc","auth":"!!"}}`, []string{
			"endpoint must be an https URL of at most 2048 characters",
			"expirationTime must be a time in milliseconds since the epoch, or null",
			"keys.p256dh must be the base64url encoding of an uncompressed P-256 public key (65 bytes)",
			"keys.auth must be the base64url encoding of a 16-byte secret"}},
		{`{"endpoint":"https://push.example.com/x"}`, []string{"keys must be an object"}},
		{`{"endpoint":5,"keys":{}}`, []string{"endpoint must be an https URL of at most 2048 characters",
			"keys.p256dh must be the base64url encoding of an uncompressed P-256 public key (65 bytes)",
			"keys.auth must be the base64url encoding of a 16-byte secret"}},
		{map[string]any{"endpoint": "https://push.example.com/" + strings.Repeat("x", 2048), "keys": pushBody["keys"]}, []string{"endpoint must be an https URL of at most 2048 characters"}},
	}
	for _, tc := range cases {
		wantProblems(t, e.Do("POST", "/v3/devices/d1/webPushSubscription", tc.body, alice), "subscribe", tc.want...)
	}
}

// An app with web push on gets a VAPID key pair on first connect; browsers subscribe with
// its public key, which stays the same afterwards (the private half is sealed).
func TestConnectGivesWebPushAppsTheirPublicKey(t *testing.T) {
	f := newFixture(t)
	e := f.e
	if _, err := e.Stack.DB.Pool.Exec(context.Background(), "UPDATE apps SET enable_web_push = true WHERE id = $1", f.plain.AppID); err != nil {
		t.Fatal(err)
	}
	h := with(userH(f.plain, "alice"), prefix+"DEVICE-ID", "browser-1")
	key := func() string {
		var out struct{ App struct{ PublicKey *string } }
		e.Do("POST", "/v3/sdk/connect", `{"deviceType":"browser"}`, h).JSON(t, &out)
		if out.App.PublicKey == nil {
			t.Fatal("no publicKey for a web push app")
		}
		return *out.App.PublicKey
	}
	first := key()
	if raw, err := base64.RawURLEncoding.DecodeString(first); err != nil || len(raw) != 65 || raw[0] != 4 {
		t.Errorf("publicKey %q is not an uncompressed P-256 point", first)
	}
	if again := key(); again != first {
		t.Errorf("key changed between connects: %s then %s", first, again)
	}
	var sealed []byte
	_ = e.Stack.DB.Pool.QueryRow(context.Background(), "SELECT vapid_private_key_sealed FROM apps WHERE id = $1", f.plain.AppID).Scan(&sealed)
	if len(sealed) == 0 || strings.Contains(string(sealed), first) {
		t.Error("the private key is not stored sealed")
	}
}
