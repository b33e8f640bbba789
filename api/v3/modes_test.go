package v3_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/heraldhq/herald/internal/console/apps"
	"github.com/heraldhq/herald/internal/testkit/stacktest"
)

// routeCase reaches one route successfully for an app's user: setup creates what the
// route needs and returns the path and body.
type routeCase struct {
	method string
	status int
	setup  func(f *fixture, a apps.Credentials, user string) (path string, body any)
}

func fixed(path string, body any) func(*fixture, apps.Credentials, string) (string, any) {
	return func(*fixture, apps.Credentials, string) (string, any) { return path, body }
}

// withNotification seeds one notification and puts its id into the path.
func withNotification(suffix string, body any) func(*fixture, apps.Credentials, string) (string, any) {
	return func(f *fixture, a apps.Credentials, user string) (string, any) {
		return "/v3/notifications/" + itoa(f.seed(a, user, 1)[0]) + suffix, body
	}
}

// category creates a category of the app and returns its id.
func (f *fixture) category(a apps.Credentials, identifier string) int64 {
	f.t.Helper()
	c, err := f.e.Stack.Categories.Create(context.Background(), a.AppID, []byte(`{"identifier":"`+identifier+`","name":"`+identifier+`"}`))
	if err != nil {
		f.t.Fatal(err)
	}
	return c.ID
}

// topic creates a topic of the app and returns its id.
func (f *fixture) topic(a apps.Credentials, identifier string) int64 {
	f.t.Helper()
	tp, err := f.e.Stack.Topics.Create(context.Background(), a.AppID, []byte(`{"identifier":"`+identifier+`","name":"`+identifier+`"}`))
	if err != nil {
		f.t.Fatal(err)
	}
	return tp.ID
}

// connect registers a device of an app's user (as device connect does, whatever the
// app's auth mode).
func (f *fixture) connect(a apps.Credentials, user, device string) {
	f.t.Helper()
	app, err := f.e.Stack.Apps.ByAPIKey(context.Background(), a.APIKey)
	if err != nil {
		f.t.Fatal(err)
	}
	if _, err := f.e.Stack.Devices.Connect(context.Background(), app, user, device, []byte(`{"deviceType":"browser"}`)); err != nil {
		f.t.Fatal(err)
	}
}

var pushBody = map[string]any{
	"endpoint": "https://push.example.com/send/abc", "expirationTime": nil,
	"keys": map[string]string{
		"p256dh": "BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM",
		"auth":   "tBHItJI5svbpez7KI4CCXg",
	},
}

var userRouteCases = []routeCase{
	{"GET", 200, fixed("/v3/notifications", nil)},
	{"POST", 200, fixed("/v3/notifications/markAllNotificationsAsSeen?page=1&limit=10", nil)},
	{"POST", 200, fixed("/v3/notifications/markAllNotificationsAsSeen", nil)},
	{"POST", 200, fixed("/v3/notifications/markAllNotificationsAsRead", nil)},
	{"POST", 200, fixed("/v3/notifications/markAllNotificationsAsDeleted", nil)},
	{"GET", 200, withNotification("", nil)},
	{"DELETE", 200, withNotification("", nil)},
	{"POST", 200, withNotification("/click", nil)},
	{"POST", 200, withNotification("/views", nil)},
	{"DELETE", 200, withNotification("/views", nil)},
	{"POST", 200, withNotification("/reads", nil)},
	{"DELETE", 200, withNotification("/reads", nil)},
	{"PUT", 200, withNotification("/state", map[string]string{"state": "archived"})},
	{"GET", 200, fixed("/v3/profile", nil)},
	{"PUT", 200, fixed("/v3/profile", map[string]string{"name": "Alice"})},
	{"PATCH", 200, fixed("/v3/profile", []map[string]any{{"op": "add", "path": "/name", "value": "Alice"}})},
	{"GET", 200, fixed("/v3/preferences", nil)},
	{"PATCH", 200, func(f *fixture, a apps.Credentials, user string) (string, any) {
		id := f.category(a, "c-"+user)
		return "/v3/preferences", map[string]any{"preference": []any{map[string]any{"categoryId": id, "channels": []any{map[string]any{"channel": "inApp", "enabled": false}}}}}
	}},
	{"GET", 200, fixed("/v3/preferences/channels", nil)},
	{"PUT", 200, fixed("/v3/preferences/channels", map[string]bool{"sms": false})},
	{"GET", 200, fixed("/v3/preferences/workflows", nil)},
	{"PATCH", 200, fixed("/v3/preferences/workflows", map[string]any{"workflows": []any{}})},
	{"GET", 200, fixed("/v3/preferences/quiet-hours", nil)},
	{"PUT", 200, fixed("/v3/preferences/quiet-hours", map[string]any{"start": "22:00", "end": "07:00"})},
	{"GET", 200, fixed("/v3/categories", nil)},
	{"POST", 200, func(f *fixture, a apps.Credentials, user string) (string, any) {
		f.connect(a, user, "dev-"+user)
		return "/v3/devices/dev-" + user + "/webPushSubscription", pushBody
	}},
}

func TestEveryUserRouteInEveryUserMode(t *testing.T) {
	f := newFixture(t)
	modes := []struct {
		name    string
		app     apps.Credentials
		headers func(user string) stacktest.Headers
	}{
		{"user", f.plain, func(u string) stacktest.Headers { return userH(f.plain, u) }},
		{"bearer", f.plain, func(u string) stacktest.Headers { return bearerH(f.token(f.plain, u)) }},
		{"hmac", f.hmac, func(u string) stacktest.Headers { return sigH(f.hmac, u) }},
		{"secure", f.secure, func(u string) stacktest.Headers { return bearerH(f.token(f.secure, u)) }},
	}
	for i, rc := range userRouteCases {
		for _, m := range modes {
			user := fmt.Sprintf("u%d-%s", i, m.name)
			path, body := rc.setup(f, m.app, user)
			res := f.e.Do(rc.method, path, body, m.headers(user))
			wantStatus(t, res, rc.status, rc.method+" "+path+" in "+m.name+" mode")
		}
	}
	// Device connect takes the same modes plus the device id.
	for _, m := range modes {
		h := with(m.headers("device-user"), prefix+"DEVICE-ID", "dev")
		wantStatus(t, f.e.Do("POST", "/v3/sdk/connect", `{"deviceType":"ios"}`, h), 200, "connect in "+m.name+" mode")
	}
}

var appRouteCases = []routeCase{
	{"POST", 202, fixed("/v3/notifications", `{"notification":{"title":"Hi"},"sendTo":{"recipients":["alice"]}}`)},
	{"GET", 200, fixed("/v3/notifications?userIdentifier=alice", nil)},
	{"POST", 200, fixed("/v3/users", map[string]any{"identifier": "carol", "profile": map[string]any{"plan": "pro"}})},
	{"PUT", 200, fixed("/v3/users/dave", map[string]any{"plan": "pro"})},
	{"DELETE", 200, func(f *fixture, a apps.Credentials, _ string) (string, any) {
		f.seed(a, "erin", 1)
		return "/v3/users/erin", nil
	}},
	{"POST", 201, fixed("/v3/topics", map[string]string{"identifier": "weekly", "name": "Weekly"})},
	{"GET", 200, fixed("/v3/topics", nil)},
	{"PATCH", 200, func(f *fixture, a apps.Credentials, _ string) (string, any) {
		return "/v3/topics/" + itoa(f.topic(a, "t-patch")), map[string]string{"name": "Renamed"}
	}},
	{"DELETE", 200, func(f *fixture, a apps.Credentials, _ string) (string, any) {
		return "/v3/topics/" + itoa(f.topic(a, "t-delete")), nil
	}},
	{"POST", 200, func(f *fixture, a apps.Credentials, _ string) (string, any) {
		return "/v3/topics/" + itoa(f.topic(a, "t-attach")) + "/users", map[string]any{"users": []any{map[string]any{"identifier": "alice"}}}
	}},
	{"POST", 200, func(f *fixture, a apps.Credentials, _ string) (string, any) {
		return "/v3/topics/" + itoa(f.topic(a, "t-detach")) + "/detachUsers", map[string]any{"users": []string{"alice"}}
	}},
	{"PUT", 200, func(f *fixture, a apps.Credentials, _ string) (string, any) {
		id := itoa(f.topic(a, "t-put"))
		f.e.Do("POST", "/v3/topics/"+id+"/users", map[string]any{"users": []any{map[string]any{"identifier": "alice"}}}, appH(a))
		return "/v3/topics/" + id + "/users/alice", map[string]any{"channels": []string{"email"}}
	}},
	{"GET", 200, func(f *fixture, a apps.Credentials, _ string) (string, any) {
		f.seed(a, "frank", 1)
		return "/v3/topics/subscriptions/frank", nil
	}},
}

func TestEveryAppRouteWithAppCredentials(t *testing.T) {
	f := newFixture(t)
	for _, rc := range appRouteCases {
		path, body := rc.setup(f, f.plain, "")
		wantStatus(t, f.e.Do(rc.method, path, body, appH(f.plain)), rc.status, rc.method+" "+path)
	}
	// Category create and delete take the secret in either header.
	for name, h := range map[string]stacktest.Headers{
		"API-SECRET": appH(f.plain),
		"SECRET-KEY": {prefix + "API-KEY": f.plain.APIKey, prefix + "SECRET-KEY": f.plain.APISecret},
	} {
		res := f.e.Do("POST", "/v3/categories", map[string]string{"identifier": "cat-" + name, "name": "C"}, h)
		if !wantStatus(t, res, 200, "create category with "+name) {
			continue
		}
		id := int64(res.Map(t)["id"].(float64))
		wantStatus(t, f.e.Do("DELETE", "/v3/categories/"+itoa(id), nil, h), 200, "delete category with "+name)
	}
}
