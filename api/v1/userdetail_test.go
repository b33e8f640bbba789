package v1_test

import (
	"fmt"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/internal/platform/config"
	"github.com/heraldhq/herald/internal/testkit/stacktest"
)

// problems is the list of a 400 answer.
func problems(t *testing.T, res *stacktest.Response) []string {
	t.Helper()
	if res.Status != 400 {
		t.Fatalf("status %d, want 400: %s", res.Status, res.Body)
	}
	var body struct{ Message []string }
	res.JSON(t, &body)
	return body.Message
}

// category creates a category of the tenant's app and returns its id.
func (e *env) category(t *testing.T, tn tenant, identifier string) int64 {
	t.Helper()
	c := must(t, e.Do("POST", tn.appPath("/categories"), map[string]string{"identifier": identifier, "name": identifier}, bearer(tn.tok)), 201, "category").Map(t)
	return int64(c["id"].(float64))
}

type prefRow struct {
	Category *struct {
		ID         int64
		Identifier string
	}
	ChannelPreferences []struct {
		Channel string
		Enabled bool
	}
}

// enabled reads one switch of a preference list.
func enabled(t *testing.T, rows []prefRow, category int64, channel string) bool {
	t.Helper()
	for _, r := range rows {
		if r.Category == nil || r.Category.ID != category {
			continue
		}
		for _, c := range r.ChannelPreferences {
			if c.Channel == channel {
				return c.Enabled
			}
		}
	}
	t.Fatalf("no switch for category %d on %s in %+v", category, channel, rows)
	return false
}

// TestUserPreferencesFromTheConsole: developers change a known user's switches with the body
// of the developer API; every problem is listed and nothing changes; viewers, strangers,
// other clients' apps and unknown users are refused.
func TestUserPreferencesFromTheConsole(t *testing.T) {
	e := newEnv(t)
	a := e.tenant(t, "prefs-a@example.com")
	b := e.tenant(t, "prefs-b@example.com")
	e.users(t, a.appID, "ann")
	e.users(t, b.appID, "ann")
	promo := e.category(t, a, "promo")
	other := e.category(t, b, "news")
	path := a.appPath("/users/ann/preferences")

	var got []prefRow
	body := map[string]any{"preference": []any{map[string]any{"categoryId": promo, "channels": []any{
		map[string]any{"channel": "email", "enabled": false}, map[string]any{"channel": "inApp", "enabled": true}}}}}
	must(t, e.Do("PATCH", path, body, bearer(a.tok)), 200, "set").JSON(t, &got)
	if enabled(t, got, promo, "email") || !enabled(t, got, promo, "inApp") {
		t.Errorf("answer %+v", got)
	}
	var read []prefRow
	must(t, e.Do("GET", path, nil, bearer(a.tok)), 200, "read").JSON(t, &read)
	if enabled(t, read, promo, "email") || !enabled(t, read, promo, "sms") {
		t.Errorf("read back %+v", read)
	}

	// Every problem of the body at once, and nothing changes.
	bad := map[string]any{"preference": []any{map[string]any{"categoryId": promo, "channels": []any{
		map[string]any{"channel": "fax", "enabled": "no"}, map[string]any{"channel": "email", "enabled": true}}}, "x"}}
	if msgs := problems(t, e.Do("PATCH", path, bad, bearer(a.tok))); !slices.Equal(msgs, []string{
		"preference[0].channels[0].channel must be one of the following values: " + strings.Join(herald.Channels, ", "),
		"preference[0].channels[0].enabled must be a boolean value",
		"preference[1] must be an object",
	}) {
		t.Errorf("problems %q", msgs)
	}
	foreign := map[string]any{"preference": []any{map[string]any{"categoryId": other, "channels": []any{map[string]any{"channel": "email", "enabled": true}}}}}
	if msgs := problems(t, e.Do("PATCH", path, foreign, bearer(a.tok))); !slices.Equal(msgs, []string{
		fmt.Sprintf("preference[0].categoryId must be the id of one of the app's categories (%d is not)", other),
	}) {
		t.Errorf("problems %q", msgs)
	}
	if msgs := problems(t, e.Do("PATCH", path, []int{1}, bearer(a.tok))); !slices.Equal(msgs, []string{"body must be a JSON object"}) {
		t.Errorf("problems %q", msgs)
	}
	must(t, e.Do("GET", path, nil, bearer(a.tok)), 200, "read").JSON(t, &read)
	if enabled(t, read, promo, "email") {
		t.Error("a refused change was applied")
	}

	// Unknown users are not created; other clients' apps are not found; viewers read only.
	if res := e.Do("PATCH", a.appPath("/users/nobody/preferences"), body, bearer(a.tok)); res.Status != 404 {
		t.Errorf("unknown user: %d %s", res.Status, res.Body)
	}
	if res := e.Do("GET", a.appPath("/users/nobody/profile"), nil, bearer(a.tok)); res.Status != 404 {
		t.Errorf("the unknown user exists now: %d", res.Status)
	}
	if res := e.Do("PATCH", b.appPath("/users/ann/preferences"), body, bearer(a.tok)); res.Status != 404 {
		t.Errorf("another client's app: %d %s", res.Status, res.Body)
	}
	viewer := e.member(t, a.tok, a.client, "prefs-viewer@example.com", "viewer")
	if res := e.Do("PATCH", path, body, bearer(viewer)); res.Status != 403 {
		t.Errorf("viewer: %d %s", res.Status, res.Body)
	}
	must(t, e.Do("GET", path, nil, bearer(viewer)), 200, "viewer reads")
	if res := e.Do("PATCH", path, body, nil); res.Status != 401 {
		t.Errorf("no credentials: %d", res.Status)
	}
}

// TestUserDevicesAndInbox: the console reads a known user's devices (push tokens
// shortened) and inbox, newest first; unknown users and other clients' apps are not found.
func TestUserDevicesAndInbox(t *testing.T) {
	e := newEnv(t)
	a := e.tenant(t, "devices-a@example.com")
	b := e.tenant(t, "devices-b@example.com")
	ids := e.users(t, a.appID, "ann", "bob")
	e.users(t, b.appID, "ann")
	old := time.Now().Add(-time.Hour)
	e.exec(t, `INSERT INTO devices (app_id, user_id, device_id, device_type, push_token, last_seen_at) VALUES
		($1, $2, 'phone-1', 'android', 'fcm-token-0123456789abcdef', $3), ($1, $2, 'browser-1', 'browser', NULL, now())`, a.appID, ids["ann"], old)
	e.exec(t, `INSERT INTO web_push_subscriptions (app_id, user_id, device_id, endpoint, p256dh, auth) VALUES
		($1, $2, 'browser-1', 'https://push.example.com/1', 'k', 'a')`, a.appID, ids["ann"])
	e.exec(t, `INSERT INTO devices (app_id, user_id, device_id, device_type) VALUES ($1, $2, 'bob-phone', 'ios')`, a.appID, ids["bob"])

	var devices []struct {
		DeviceID, DeviceType string
		PushToken            *string
		WebPushSubscriptions int
	}
	must(t, e.Do("GET", a.appPath("/users/ann/devices"), nil, bearer(a.tok)), 200, "devices").JSON(t, &devices)
	if len(devices) != 2 || devices[0].DeviceID != "browser-1" || devices[0].PushToken != nil || devices[0].WebPushSubscriptions != 1 ||
		devices[1].DeviceID != "phone-1" || devices[1].DeviceType != "android" || devices[1].PushToken == nil || *devices[1].PushToken != "fcm-token-01…" {
		t.Errorf("devices %+v", devices)
	}
	must(t, e.Do("GET", a.appPath("/users/bob/devices"), nil, bearer(a.tok)), 200, "bob's devices").JSON(t, &devices)
	if len(devices) != 1 || devices[0].DeviceID != "bob-phone" {
		t.Errorf("bob's devices %+v", devices)
	}

	for i, title := range []string{"first", "second", "third"} {
		e.exec(t, `INSERT INTO notifications (app_id, user_id, request_id, title, message, created_at, read_at) VALUES ($1, $2, $3, $4, 'hello', $5, $6)`,
			a.appID, ids["ann"], uuid.New(), title, old.Add(time.Duration(i)*time.Minute), map[bool]*time.Time{true: &old}[i == 0])
	}
	var page struct {
		UnreadCount int
		Pagination  struct{ TotalCount, PageNo, Limit int }
		Data        []struct {
			Title  string
			ReadAt *time.Time
		}
	}
	must(t, e.Do("GET", a.appPath("/users/ann/notifications?limit=2"), nil, bearer(a.tok)), 200, "inbox").JSON(t, &page)
	if page.UnreadCount != 2 || page.Pagination.TotalCount != 3 || page.Pagination.Limit != 2 || len(page.Data) != 2 ||
		page.Data[0].Title != "third" || page.Data[1].Title != "second" {
		t.Errorf("inbox %+v", page)
	}
	must(t, e.Do("GET", a.appPath("/users/ann/notifications?limit=2&pageNo=2"), nil, bearer(a.tok)), 200, "page 2").JSON(t, &page)
	if len(page.Data) != 1 || page.Data[0].Title != "first" || page.Data[0].ReadAt == nil {
		t.Errorf("page 2 %+v", page)
	}
	if msgs := problems(t, e.Do("GET", a.appPath("/users/ann/notifications?limit=50&pageNo=0"), nil, bearer(a.tok))); len(msgs) != 2 {
		t.Errorf("problems %q", msgs)
	}

	viewer := e.member(t, a.tok, a.client, "devices-viewer@example.com", "viewer")
	for _, p := range []string{"/devices", "/notifications"} {
		must(t, e.Do("GET", a.appPath("/users/ann"+p), nil, bearer(viewer)), 200, "viewer reads "+p)
		if res := e.Do("GET", a.appPath("/users/nobody"+p), nil, bearer(a.tok)); res.Status != 404 {
			t.Errorf("unknown user %s: %d", p, res.Status)
		}
		if res := e.Do("GET", b.appPath("/users/ann"+p), nil, bearer(a.tok)); res.Status != 404 {
			t.Errorf("another client's app %s: %d", p, res.Status)
		}
		if res := e.Do("GET", a.appPath("/users/ann"+p), nil, nil); res.Status != 401 {
			t.Errorf("no credentials %s: %d", p, res.Status)
		}
	}
}

// TestCodeHostOptions: the sign-in page learns whether to show a code-host button.
func TestCodeHostOptions(t *testing.T) {
	off := newEnv(t)
	if got := string(must(t, off.Do("GET", "/v1/ee/auth/codehost/options", nil, nil), 200, "off").Body); got != `{"codeHosts":[]}` {
		t.Errorf("not configured: %s", got)
	}
	on := newEnv(t, func(c *config.Config) {
		c.Console.CodeHostName, c.Console.CodeHostClientID, c.Console.CodeHostClientSecret = "gitea", "cid", "csecret"
	})
	if got := string(must(t, on.Do("GET", "/v1/ee/auth/codehost/options", nil, nil), 200, "on").Body); got != `{"codeHosts":[{"name":"gitea"}]}` {
		t.Errorf("configured: %s", got)
	}
}

// TestMessageLogTemporalLinks: with HERALD_TEMPORAL_UI_URL each log row links to its run;
// without it no row carries a link.
func TestMessageLogTemporalLinks(t *testing.T) {
	for _, base := range []string{"", "https://temporal.example.com/"} {
		e := newEnv(t, func(c *config.Config) { c.TemporalUIURL, c.TemporalNamespace = base, "prod ns" })
		a := e.tenant(t, "links@example.com")
		req := uuid.New()
		e.seedLogs(t, a.appID, e.users(t, a.appID, "ann"), logRow{req: req, user: "ann", channel: "inApp", status: "delivered", at: time.Now().Add(-time.Minute)})
		var page struct{ Data []map[string]any }
		must(t, e.Do("GET", a.appPath("/logs"), nil, bearer(a.tok)), 200, "logs").JSON(t, &page)
		link, has := page.Data[0]["temporalUrl"]
		want := "https://temporal.example.com/namespaces/prod%20ns/workflows/" + url.PathEscape("send/"+req.String())
		if base == "" && has {
			t.Errorf("a link without a Temporal UI: %v", link)
		}
		if base != "" && link != want {
			t.Errorf("link %v, want %s", link, want)
		}
	}
}
