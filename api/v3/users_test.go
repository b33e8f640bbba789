package v3_test

import (
	"context"
	"strings"
	"testing"
)

type userJSON struct {
	Identifier           string
	Profile              map[string]any
	CreatedAt, UpdatedAt string
}

func TestUserRoutes(t *testing.T) {
	f := newFixture(t)
	e, app := f.e, appH(f.plain)
	res := e.Do("POST", "/v3/users", map[string]any{"identifier": "carol", "profile": map[string]any{"plan": "free", "tz": "UTC"}, "unknown": 1}, app)
	var u userJSON
	if wantStatus(t, res, 200, "create") {
		res.JSON(t, &u)
		if u.Identifier != "carol" || u.Profile["plan"] != "free" || u.CreatedAt == "" || u.UpdatedAt == "" {
			t.Errorf("created %+v", u)
		}
	}
	// POST again merges the profile into the existing user.
	res = e.Do("POST", "/v3/users", map[string]any{"identifier": "carol", "profile": map[string]any{"plan": "pro"}}, app)
	if res.JSON(t, &u); u.Profile["plan"] != "pro" || u.Profile["tz"] != "UTC" {
		t.Errorf("merged %+v", u)
	}
	// PUT creates, then merges; identifiers may hold any character when percent-encoded.
	for i, body := range []map[string]any{{"email": "d@example.com"}, {"name": "Dee"}} {
		res = e.Do("PUT", "/v3/users/dee%20%2F%20x@example.com", body, app)
		if wantStatus(t, res, 200, "put") {
			res.JSON(t, &u)
			if u.Identifier != "dee / x@example.com" || u.Profile["email"] != "d@example.com" || (i == 1 && u.Profile["name"] != "Dee") {
				t.Errorf("put %d: %+v", i, u)
			}
		}
	}
	if res = e.Do("GET", "/v3/profile", nil, userH(f.plain, "dee / x@example.com")); string(res.Body) != `{"name":"Dee","email":"d@example.com"}` {
		t.Errorf("profile of the PUT user: %s", res.Body)
	}
}

func TestUserBadBodies(t *testing.T) {
	f := newFixture(t)
	e, app := f.e, appH(f.plain)
	idKey := "profile must not contain the key identifier: the identifier is not part of the profile"
	cases := []struct {
		method, path string
		body         any
		want         []string
	}{
		{"POST", "/v3/users", `[1]`, []string{"body must be a JSON object"}},
		{"POST", "/v3/users", `not json`, []string{"body must be a JSON object"}},
		{"POST", "/v3/users", `{"identifier":5,"profile":"x"}`, []string{"identifier must be a string", "profile must be an object"}},
		{"POST", "/v3/users", `{"identifier":"","profile":{"identifier":"x"}}`, []string{"identifier should not be empty", idKey}},
		{"POST", "/v3/users", map[string]string{"identifier": strings.Repeat("x", 256)}, []string{"identifier must be at most 255 characters"}},
		{"PUT", "/v3/users/carol", `{"identifier":"y","a":1}`, []string{idKey}},
		{"PUT", "/v3/users/carol", `[1]`, []string{"body must be a JSON object of profile keys"}},
		{"PUT", "/v3/users/" + strings.Repeat("x", 256), `{}`, []string{"identifier must be at most 255 characters"}},
	}
	for _, tc := range cases {
		wantProblems(t, e.Do(tc.method, tc.path, tc.body, app), tc.method+" "+tc.path, tc.want...)
	}
	var n int
	if err := e.Stack.DB.Pool.QueryRow(context.Background(), "SELECT count(*) FROM users").Scan(&n); err != nil || n != 0 {
		t.Errorf("bad bodies created %d users (%v)", n, err)
	}
}

func TestDeleteUserTakesEverythingWithIt(t *testing.T) {
	f := newFixture(t)
	e, app := f.e, appH(f.plain)
	ctx := context.Background()
	cat := f.category(f.plain, "news")
	f.seed(f.plain, "erin", 3)
	f.seed(f.plain, "keep", 1)
	alice := userH(f.plain, "erin")
	wantStatus(t, e.Do("PATCH", "/v3/preferences", map[string]any{"preference": []any{map[string]any{"categoryId": cat, "channels": []any{map[string]any{"channel": "email", "enabled": false}}}}}, alice), 200, "preference")
	topic := itoa(f.topic(f.plain, "weekly"))
	wantStatus(t, e.Do("POST", "/v3/topics/"+topic+"/users", map[string]any{"users": []any{map[string]any{"identifier": "erin"}, map[string]any{"identifier": "keep"}}}, app), 200, "subscribe")
	f.connect(f.plain, "erin", "d1")
	wantStatus(t, e.Do("POST", "/v3/devices/d1/webPushSubscription", pushBody, alice), 200, "push subscription")

	// Another app cannot delete it.
	wantError(t, e.Do("DELETE", "/v3/users/erin", nil, appH(f.other)), 404, "user not found", "another app")
	res := e.Do("DELETE", "/v3/users/erin", nil, app)
	if wantStatus(t, res, 200, "delete") {
		var out struct {
			StatusCode int
			Message    string
			Erased     map[string]int
		}
		res.JSON(t, &out)
		if out.StatusCode != 200 || out.Message != "user deleted" || out.Erased["profile"] != 1 || out.Erased["notifications"] != 3 ||
			out.Erased["topicSubscriptions"] != 1 || out.Erased["devices"] != 2 || out.Erased["preferences"] < 1 {
			t.Errorf("delete answer %s", res.Body)
		}
	}
	wantError(t, e.Do("DELETE", "/v3/users/erin", nil, app), 404, "user not found", "delete again")
	for _, table := range []string{"users", "notifications", "preferences", "topic_subscriptions", "devices", "web_push_subscriptions"} {
		var left int
		q := "SELECT count(*) FROM " + table + " t WHERE "
		if table == "users" {
			q += "t.identifier = 'erin'"
		} else {
			q += "NOT EXISTS (SELECT 1 FROM users u WHERE u.id = t.user_id AND u.identifier = 'keep')"
		}
		if err := e.Stack.DB.Pool.QueryRow(ctx, q).Scan(&left); err != nil || left != 0 {
			t.Errorf("%s: %d rows of the deleted user left (%v)", table, left, err)
		}
	}
	if res = e.Do("GET", "/v3/notifications", nil, userH(f.plain, "keep")); !strings.Contains(string(res.Body), `"totalCount":1`) {
		t.Errorf("another user's inbox went too: %s", res.Body)
	}
}
