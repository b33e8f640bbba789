package v3_test

import (
	"strings"
	"testing"
)

type topicJSON struct {
	ID                   int64
	Identifier, Name     string
	CreatedAt, UpdatedAt string
}

type subscriptionJSON struct {
	Topic    topicJSON
	User     string
	Channels []string
}

func TestTopicRoutes(t *testing.T) {
	f := newFixture(t)
	e, app := f.e, appH(f.plain)
	res := e.Do("POST", "/v3/topics", map[string]string{"identifier": "weekly", "name": "Weekly digest"}, app)
	var tp topicJSON
	if wantStatus(t, res, 201, "create") {
		res.JSON(t, &tp)
	}
	if tp.Identifier != "weekly" || tp.Name != "Weekly digest" || tp.ID == 0 || tp.CreatedAt == "" || tp.UpdatedAt == "" {
		t.Fatalf("created %+v", tp)
	}
	id := itoa(tp.ID)
	wantError(t, e.Do("POST", "/v3/topics", map[string]string{"identifier": "weekly", "name": "x"}, app), 409, `a topic with identifier "weekly" already exists`, "duplicate")
	res = e.Do("PATCH", "/v3/topics/"+id, map[string]string{"name": "Weekly news", "identifier": "ignored"}, app)
	if res.JSON(t, &tp); tp.Name != "Weekly news" || tp.Identifier != "weekly" {
		t.Errorf("renamed %+v", tp)
	}
	var list []topicJSON
	if e.Do("GET", "/v3/topics", nil, app).JSON(t, &list); len(list) != 1 || list[0].Name != "Weekly news" {
		t.Errorf("list %+v", list)
	}

	attach := map[string]any{"users": []any{
		map[string]any{"identifier": "alice", "channels": []string{"email", "inApp", "email"}},
		map[string]any{"identifier": "bob"},
	}}
	if res = e.Do("POST", "/v3/topics/"+id+"/users", attach, app); string(res.Body) != `{"count":2}` {
		t.Errorf("attach: %d %s", res.Status, res.Body)
	}
	subs := func(user string) []subscriptionJSON {
		var out []subscriptionJSON
		res := e.Do("GET", "/v3/topics/subscriptions/"+user, nil, app)
		if wantStatus(t, res, 200, "subscriptions of "+user) {
			res.JSON(t, &out)
		}
		return out
	}
	if s := subs("alice"); len(s) != 1 || s[0].Topic.ID != tp.ID || s[0].User != "alice" || strings.Join(s[0].Channels, ",") != "email,inApp" {
		t.Errorf("alice's subscriptions %+v", s)
	}
	if s := subs("bob"); len(s) != 1 || len(s[0].Channels) != 0 {
		t.Errorf("bob's subscriptions %+v", s)
	}
	// Attaching again sets the channels.
	e.Do("POST", "/v3/topics/"+id+"/users", map[string]any{"users": []any{map[string]any{"identifier": "bob", "channels": []string{"sms"}}}}, app)
	if s := subs("bob"); len(s) != 1 || strings.Join(s[0].Channels, ",") != "sms" {
		t.Errorf("bob after re-attach %+v", s)
	}
	res = e.Do("PUT", "/v3/topics/"+id+"/users/alice", map[string]any{"channels": []string{"webPush"}}, app)
	var sub subscriptionJSON
	if wantStatus(t, res, 200, "update subscription") {
		if res.JSON(t, &sub); sub.User != "alice" || strings.Join(sub.Channels, ",") != "webPush" || sub.Topic.Identifier != "weekly" {
			t.Errorf("updated %+v", sub)
		}
	}
	wantError(t, e.Do("PUT", "/v3/topics/"+id+"/users/carol", map[string]any{"channels": []string{}}, app), 404, `user "carol" is not subscribed to topic`, "update of a non-subscriber")
	if res = e.Do("POST", "/v3/topics/"+id+"/detachUsers", map[string]any{"users": []string{"alice", "nobody"}}, app); string(res.Body) != `{"count":1}` {
		t.Errorf("detach: %s", res.Body)
	}
	if s := subs("alice"); len(s) != 0 {
		t.Errorf("alice after detach %+v", s)
	}
	wantError(t, e.Do("GET", "/v3/topics/subscriptions/nobody", nil, app), 404, `user "nobody" not found`, "unknown user")
	res = e.Do("DELETE", "/v3/topics/"+id, nil, app)
	if wantStatus(t, res, 200, "delete") && string(res.Body) != `{"message":"topic deleted","statusCode":200}` {
		t.Errorf("delete answer %s", res.Body)
	}
	if s := subs("bob"); len(s) != 0 {
		t.Errorf("bob's subscriptions outlived the topic: %+v", s)
	}
	wantError(t, e.Do("DELETE", "/v3/topics/"+id, nil, app), 404, "topic not found", "delete again")
}

func TestTopicsOfAnotherAppAreNotFound(t *testing.T) {
	f := newFixture(t)
	e := f.e
	id := itoa(f.topic(f.other, "theirs"))
	e.Do("POST", "/v3/topics/"+id+"/users", map[string]any{"users": []any{map[string]any{"identifier": "alice"}}}, appH(f.other))
	app := appH(f.plain)
	for _, r := range []struct {
		method, path string
		body         any
	}{
		{"PATCH", "/v3/topics/" + id, map[string]string{"name": "mine"}},
		{"DELETE", "/v3/topics/" + id, nil},
		{"POST", "/v3/topics/" + id + "/users", map[string]any{"users": []any{map[string]any{"identifier": "alice"}}}},
		{"POST", "/v3/topics/" + id + "/detachUsers", map[string]any{"users": []string{"alice"}}},
		{"PUT", "/v3/topics/" + id + "/users/alice", map[string]any{"channels": []string{}}},
	} {
		wantError(t, e.Do(r.method, r.path, r.body, app), 404, "topic not found", r.method+" "+r.path)
	}
	wantError(t, e.Do("GET", "/v3/topics/subscriptions/alice", nil, app), 404, "not found", "another app's user")
	var subs []subscriptionJSON
	if e.Do("GET", "/v3/topics/subscriptions/alice", nil, appH(f.other)).JSON(t, &subs); len(subs) != 1 || subs[0].Topic.Name != "theirs" {
		t.Errorf("the other app's topic changed: %+v", subs)
	}
	var list []topicJSON
	if e.Do("GET", "/v3/topics", nil, app).JSON(t, &list); len(list) != 0 {
		t.Errorf("another app's topics listed: %+v", list)
	}
}

func TestTopicBadBodies(t *testing.T) {
	f := newFixture(t)
	e, app := f.e, appH(f.plain)
	id := itoa(f.topic(f.plain, "weekly"))
	channels := "inApp, email, sms, whatsapp, webPush, mobilePush, slack, discord, msTeams, webhook"
	cases := []struct {
		method, path string
		body         any
		want         []string
	}{
		{"POST", "/v3/topics", `[]`, []string{"body must be a JSON object"}},
		{"POST", "/v3/topics", `{}`, []string{"name must be a string", "identifier must be a string"}},
		{"POST", "/v3/topics", `{"name":" ","identifier":7}`, []string{"name should not be empty", "identifier must be a string"}},
		{"PATCH", "/v3/topics/" + id, `{"name":5}`, []string{"name must be a string"}},
		{"PATCH", "/v3/topics/x", `{"name":"n"}`, []string{"topicId must be a positive integer number"}},
		{"POST", "/v3/topics/" + id + "/users", `{}`, []string{"users must be an array"}},
		{"POST", "/v3/topics/" + id + "/users", `{"users":[]}`, []string{"users should not be empty"}},
		{"POST", "/v3/topics/" + id + "/users", `{"users":[5,{"identifier":"","channels":["fax"]},{"channels":"email"}]}`, []string{
			"users[0] must be an object", "users[1].identifier should not be empty",
			"each value in users[1].channels must be one of the following values: " + channels,
			"users[2].identifier must be a string", "users[2].channels must be an array of strings"}},
		{"POST", "/v3/topics/" + id + "/users", map[string]any{"users": make([]any, 1001)}, []string{"users must contain no more than 1000 elements"}},
		{"POST", "/v3/topics/" + id + "/detachUsers", `{"users":[1,"a"]}`, []string{"users[0] must be a string"}},
		{"PUT", "/v3/topics/" + id + "/users/alice", `{}`, []string{"channels must be an array of strings"}},
		{"PUT", "/v3/topics/" + id + "/users/alice", `{"channels":["inApp","pigeon"]}`, []string{"each value in channels must be one of the following values: " + channels}},
	}
	for _, tc := range cases {
		wantProblems(t, e.Do(tc.method, tc.path, tc.body, app), tc.method+" "+tc.path, tc.want...)
	}
	var list []topicJSON
	if e.Do("GET", "/v3/topics", nil, app).JSON(t, &list); len(list) != 1 || list[0].Name != "weekly" {
		t.Errorf("refused bodies changed topics: %+v", list)
	}
	if res := e.Do("GET", "/v3/topics/subscriptions/alice", nil, app); res.Status != 404 {
		t.Errorf("refused attach created a user: %d %s", res.Status, res.Body)
	}
}
