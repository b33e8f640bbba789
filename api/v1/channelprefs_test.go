package v1_test

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	herald "github.com/heraldhq/herald"
)

// TestUserChannelPreferencesFromTheConsole: developers turn a known user's channels off for
// everything; every problem is listed and nothing changes; viewers read only; unknown users,
// other clients' apps and missing credentials are refused.
func TestUserChannelPreferencesFromTheConsole(t *testing.T) {
	e := newEnv(t)
	a := e.tenant(t, "chprefs-a@example.com")
	b := e.tenant(t, "chprefs-b@example.com")
	e.users(t, a.appID, "ann")
	e.users(t, b.appID, "ann")
	path := a.appPath("/users/ann/preferences/channels")

	var got map[string]bool
	must(t, e.Do("GET", path, nil, bearer(a.tok)), 200, "read").JSON(t, &got)
	if len(got) != len(herald.Channels) || !got["sms"] || !got["email"] {
		t.Errorf("unset switches %v", got)
	}
	must(t, e.Do("PUT", path, map[string]bool{"sms": false}, bearer(a.tok)), 200, "set").JSON(t, &got)
	if got["sms"] || !got["email"] || len(got) != len(herald.Channels) {
		t.Errorf("answer %v", got)
	}
	must(t, e.Do("GET", path, nil, bearer(a.tok)), 200, "read back").JSON(t, &got)
	if got["sms"] {
		t.Errorf("read back %v", got)
	}
	if msgs := problems(t, e.Do("PUT", path, map[string]any{"fax": true, "email": "off"}, bearer(a.tok))); !slices.Equal(msgs, []string{
		"email must be a boolean value",
		"fax is not a channel: the keys must be among the following values: " + strings.Join(herald.Channels, ", "),
	}) {
		t.Errorf("problems %q", msgs)
	}
	must(t, e.Do("GET", path, nil, bearer(a.tok)), 200, "read").JSON(t, &got)
	if !got["email"] {
		t.Error("a refused change was applied")
	}

	if res := e.Do("PUT", a.appPath("/users/nobody/preferences/channels"), map[string]bool{"sms": false}, bearer(a.tok)); res.Status != 404 {
		t.Errorf("unknown user: %d %s", res.Status, res.Body)
	}
	if res := e.Do("GET", a.appPath("/users/nobody/preferences/channels"), nil, bearer(a.tok)); res.Status != 404 {
		t.Errorf("unknown user read: %d %s", res.Status, res.Body)
	}
	for _, m := range []string{"GET", "PUT"} {
		if res := e.Do(m, b.appPath("/users/ann/preferences/channels"), map[string]bool{"sms": false}, bearer(a.tok)); res.Status != 404 {
			t.Errorf("%s another client's app: %d %s", m, res.Status, res.Body)
		}
	}
	must(t, e.Do("GET", b.appPath("/users/ann/preferences/channels"), nil, bearer(b.tok)), 200, "b reads").JSON(t, &got)
	if !got["sms"] {
		t.Error("the other tenant's ann changed")
	}
	viewer := e.member(t, a.tok, a.client, "chprefs-viewer@example.com", "viewer")
	if res := e.Do("PUT", path, map[string]bool{"sms": true}, bearer(viewer)); res.Status != 403 {
		t.Errorf("viewer: %d %s", res.Status, res.Body)
	}
	must(t, e.Do("GET", path, nil, bearer(viewer)), 200, "viewer reads")
	for _, m := range []string{"GET", "PUT"} {
		if res := e.Do(m, path, map[string]bool{"sms": true}, nil); res.Status != 401 {
			t.Errorf("%s no credentials: %d", m, res.Status)
		}
	}
}

// TestCriticalCategoryFromTheConsole: a category is created or marked critical through
// /v1; the user page shows its switches locked with the reason.
func TestCriticalCategoryFromTheConsole(t *testing.T) {
	e := newEnv(t)
	a := e.tenant(t, "crit-a@example.com")
	b := e.tenant(t, "crit-b@example.com")
	e.users(t, a.appID, "ann")
	c := must(t, e.Do("POST", a.appPath("/categories"), map[string]any{"identifier": "otp", "name": "Codes", "critical": true}, bearer(a.tok)), 201, "create").Map(t)
	if c["critical"] != true {
		t.Errorf("created %v", c)
	}
	news := e.category(t, a, "news")
	catPath := fmt.Sprintf("/v1/categories/%d", news)
	u := must(t, e.Do("PUT", catPath, map[string]any{"critical": true}, bearer(a.tok)), 200, "mark").Map(t)
	if u["critical"] != true || u["name"] != "news" {
		t.Errorf("marked %v", u)
	}
	u = must(t, e.Do("PUT", catPath, map[string]any{"name": "News", "critical": false}, bearer(a.tok)), 200, "rename and unmark").Map(t)
	if u["critical"] != false || u["name"] != "News" {
		t.Errorf("updated %v", u)
	}
	if msgs := problems(t, e.Do("PUT", catPath, map[string]any{"critical": "yes"}, bearer(a.tok))); !slices.Equal(msgs, []string{"critical must be a boolean value", "name must be a string"}) {
		t.Errorf("problems %q", msgs)
	}
	if msgs := problems(t, e.Do("PUT", catPath, map[string]any{}, bearer(a.tok))); !slices.Equal(msgs, []string{"name must be a string"}) {
		t.Errorf("empty body problems %q", msgs)
	}
	if res := e.Do("PUT", catPath, map[string]any{"critical": true}, bearer(b.tok)); res.Status != 404 {
		t.Errorf("another client: %d %s", res.Status, res.Body)
	}
	var rows []struct {
		Category     *struct{ Identifier string }
		Critical     bool
		LockedReason string
	}
	must(t, e.Do("GET", a.appPath("/users/ann/preferences"), nil, bearer(a.tok)), 200, "preferences").JSON(t, &rows)
	locked := map[string]string{}
	for _, r := range rows {
		if r.Category != nil && r.Critical {
			locked[r.Category.Identifier] = r.LockedReason
		}
	}
	if len(locked) != 1 || !strings.Contains(locked["otp"], "always delivered") {
		t.Errorf("locked %v", locked)
	}
}

// TestCategoryChannelDefaultsFromTheConsole: an app's default per category × channel is
// set through /v1 (answers list the channels that start off), every bad key and value is
// listed at once and changes nothing, the user page shows an unset switch at its default
// and a user's own choice over it, and another client's category is not found.
func TestCategoryChannelDefaultsFromTheConsole(t *testing.T) {
	e := newEnv(t)
	a := e.tenant(t, "defaults-a@example.com")
	b := e.tenant(t, "defaults-b@example.com")
	e.users(t, a.appID, "ann", "bob")
	c := must(t, e.Do("POST", a.appPath("/categories"), map[string]any{"identifier": "digest", "name": "Digest",
		"channelDefaults": map[string]bool{"email": false, "inApp": true}}, bearer(a.tok)), 201, "create").Map(t)
	if d, _ := c["channelDefaults"].(map[string]any); len(d) != 1 || d["email"] != false {
		t.Errorf("created %v", c)
	}
	catPath := fmt.Sprintf("/v1/categories/%v", c["id"])
	msgs := problems(t, e.Do("PUT", catPath, map[string]any{"channelDefaults": map[string]any{"fax": false, "sms": "off"}}, bearer(a.tok)))
	if !slices.Equal(msgs, []string{"channelDefaults.fax: unknown channel (one of inApp, email, sms, whatsapp, webPush, mobilePush, slack, discord, msTeams, webhook)", "channelDefaults.sms must be a boolean value"}) {
		t.Errorf("problems %q", msgs)
	}
	if msgs := problems(t, e.Do("PUT", catPath, map[string]any{"channelDefaults": []string{"email"}}, bearer(a.tok))); !slices.Equal(msgs, []string{"channelDefaults must be an object of channel: boolean", "name must be a string"}) {
		t.Errorf("array problems %q", msgs)
	}
	u := must(t, e.Do("PUT", catPath, map[string]any{"channelDefaults": map[string]bool{"email": false, "sms": false}}, bearer(a.tok)), 200, "set defaults").Map(t)
	if d, _ := u["channelDefaults"].(map[string]any); len(d) != 2 || u["name"] != "Digest" {
		t.Errorf("updated %v", u)
	}
	if res := e.Do("PUT", catPath, map[string]any{"channelDefaults": map[string]bool{}}, bearer(b.tok)); res.Status != 404 {
		t.Errorf("another client: %d %s", res.Status, res.Body)
	}
	// bob turns sms on for the category; ann never chose.
	cid := c["id"]
	must(t, e.Do("PATCH", a.appPath("/users/bob/preferences"), map[string]any{"preference": []any{map[string]any{"categoryId": cid,
		"channels": []any{map[string]any{"channel": "sms", "enabled": true}}}}}, bearer(a.tok)), 200, "bob's choice")
	switches := func(user string) map[string]bool {
		var rows []struct {
			Category           *struct{ Identifier string }
			ChannelPreferences []struct {
				Channel string
				Enabled bool
			}
		}
		must(t, e.Do("GET", a.appPath("/users/"+user+"/preferences"), nil, bearer(a.tok)), 200, "preferences").JSON(t, &rows)
		out := map[string]bool{}
		for _, r := range rows {
			if r.Category != nil && r.Category.Identifier == "digest" {
				for _, cp := range r.ChannelPreferences {
					out[cp.Channel] = cp.Enabled
				}
			}
		}
		return out
	}
	pick := func(m map[string]bool) map[string]bool {
		return map[string]bool{"inApp": m["inApp"], "email": m["email"], "sms": m["sms"], "slack": m["slack"]}
	}
	if got := pick(switches("ann")); !maps.Equal(got, map[string]bool{"inApp": true, "email": false, "sms": false, "slack": true}) {
		t.Errorf("ann's switches %v, want the defaults", got)
	}
	if got := pick(switches("bob")); !maps.Equal(got, map[string]bool{"inApp": true, "email": false, "sms": true, "slack": true}) {
		t.Errorf("bob's switches %v, want sms on by his choice", got)
	}
}

// TestUserFlowPreferencesFromTheConsole: developers set a known user's switches per
// workflow with the developer API's body; problems are listed; viewers read only; unknown
// users, other clients' apps and missing credentials are refused.
func TestUserFlowPreferencesFromTheConsole(t *testing.T) {
	e := newEnv(t)
	a := e.tenant(t, "flowprefs-a@example.com")
	b := e.tenant(t, "flowprefs-b@example.com")
	e.users(t, a.appID, "ann")
	e.users(t, b.appID, "ann")
	if _, err := e.Stack.DB.Pool.Exec(context.Background(), `INSERT INTO flows (app_id, identifier, name, draft, published_version) VALUES ($1, 'reminder', 'Reminder', '{"steps":[]}', 1)`, a.appID); err != nil {
		t.Fatal(err)
	}
	path := a.appPath("/users/ann/preferences/workflows")
	var got []struct {
		Workflow struct{ Identifier string }
		Enabled  bool
		Channels map[string]bool
	}
	body := map[string]any{"workflows": []any{map[string]any{"identifier": "reminder", "channels": map[string]bool{"sms": false}}}}
	must(t, e.Do("PATCH", path, body, bearer(a.tok)), 200, "set").JSON(t, &got)
	if len(got) != 1 || !got[0].Enabled || got[0].Channels["sms"] || len(got[0].Channels) != 1 {
		t.Errorf("answer %+v", got)
	}
	must(t, e.Do("GET", path, nil, bearer(a.tok)), 200, "read").JSON(t, &got)
	if len(got) != 1 || got[0].Channels["sms"] {
		t.Errorf("read back %+v", got)
	}
	if msgs := problems(t, e.Do("PATCH", path, map[string]any{"workflows": []any{map[string]any{"identifier": "nope", "enabled": false}}}, bearer(a.tok))); !slices.Equal(msgs, []string{
		`workflows[0].identifier must name one of the app's workflows ("nope" does not)`,
	}) {
		t.Errorf("problems %q", msgs)
	}
	if res := e.Do("PATCH", a.appPath("/users/nobody/preferences/workflows"), body, bearer(a.tok)); res.Status != 404 {
		t.Errorf("unknown user: %d %s", res.Status, res.Body)
	}
	for _, m := range []string{"GET", "PATCH"} {
		if res := e.Do(m, b.appPath("/users/ann/preferences/workflows"), body, bearer(a.tok)); res.Status != 404 {
			t.Errorf("%s another client's app: %d %s", m, res.Status, res.Body)
		}
		if res := e.Do(m, path, body, nil); res.Status != 401 {
			t.Errorf("%s no credentials: %d", m, res.Status)
		}
	}
	viewer := e.member(t, a.tok, a.client, "flowprefs-viewer@example.com", "viewer")
	if res := e.Do("PATCH", path, body, bearer(viewer)); res.Status != 403 {
		t.Errorf("viewer: %d %s", res.Status, res.Body)
	}
	must(t, e.Do("GET", path, nil, bearer(viewer)), 200, "viewer reads")
}
