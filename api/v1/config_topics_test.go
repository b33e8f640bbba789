package v1_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/heraldhq/herald/internal/testkit/stacktest"
)

func TestTopicRoutes(t *testing.T) {
	f := newFixture(t)
	app := f.appPath
	var topic int64
	f.run(t, []call{
		{name: "bad topic", method: "POST", path: app + "/topics", as: f.dev, status: 400, body: map[string]any{"identifier": 1},
			msgs: []string{"name must be a string", "identifier must be a string"}},
		{name: "create", method: "POST", path: app + "/topics", as: f.dev, status: 201, body: map[string]any{"identifier": "weekly", "name": "Weekly"},
			check: func(t *testing.T, res *stacktest.Response) { topic = id(t, res) }},
		{name: "same identifier", method: "POST", path: app + "/topics", as: f.dev, status: 409, body: map[string]any{"identifier": "weekly", "name": "Again"}},
		{name: "list", method: "GET", path: app + "/topics", as: f.viewer, status: 200, check: func(t *testing.T, res *stacktest.Response) {
			if !contains(string(res.Body), `"identifier":"weekly"`) {
				t.Errorf("%s", res.Body)
			}
		}},
	})
	tp := fmt.Sprintf("/v1/topics/%d", topic)
	f.run(t, []call{
		{name: "rename", method: "PATCH", path: tp, as: f.dev, status: 200, body: map[string]any{"name": "Weekly digest"}, check: func(t *testing.T, res *stacktest.Response) {
			if res.Map(t)["name"] != "Weekly digest" {
				t.Errorf("%s", res.Body)
			}
		}},
		{name: "rename empty", method: "PATCH", path: tp, as: f.dev, status: 400, body: map[string]any{"name": ""}, msgs: []string{"name should not be empty"}},
		{name: "attach bad", method: "POST", path: tp + "/users", as: f.dev, status: 400, body: map[string]any{"users": []any{map[string]any{"identifier": "a", "channels": []string{"fax"}}, 3}},
			msgs: []string{"each value in users[0].channels must be one of the following values: inApp, email, sms, whatsapp, webPush, mobilePush, slack, discord, msTeams, webhook",
				"users[1] must be an object"}},
		{name: "attach", method: "POST", path: tp + "/users", as: f.dev, status: 201,
			body: map[string]any{"users": []any{map[string]any{"identifier": "alice", "channels": []string{"email"}}, map[string]any{"identifier": "bob"}, map[string]any{"identifier": "carol"}}},
			check: func(t *testing.T, res *stacktest.Response) {
				if string(res.Body) != `{"count":3}` {
					t.Errorf("%s", res.Body)
				}
			}},
		{name: "bad page", method: "GET", path: tp + "/users?pageNo=0", as: f.viewer, status: 400, msgs: []string{"pageNo must not be less than 1"}},
	})
	var page struct {
		Pagination struct{ TotalCount, PageNo, Limit int }
		Data       []struct {
			ID, UserID int64
			Identifier string
			Channels   []string
		}
	}
	f.do(t, f.viewer, "GET", tp+"/users?limit=2", nil, 200).JSON(t, &page)
	if page.Pagination.TotalCount != 3 || len(page.Data) != 2 || page.Data[0].Identifier != "alice" || fmt.Sprint(page.Data[0].Channels) != "[email]" {
		t.Fatalf("%+v", page)
	}
	alice, bobSub := page.Data[0].UserID, page.Data[1].ID
	f.run(t, []call{
		{name: "detach by user id", method: "DELETE", path: fmt.Sprintf("%s/users/%d", tp, alice), as: f.dev, status: 200},
		{name: "detach again", method: "DELETE", path: fmt.Sprintf("%s/users/%d", tp, alice), as: f.dev, status: 404},
		{name: "delete a subscription", method: "DELETE", path: fmt.Sprintf("%s/subscriptions/%d", tp, bobSub), as: f.dev, status: 200},
		{name: "delete it again", method: "DELETE", path: fmt.Sprintf("%s/subscriptions/%d", tp, bobSub), as: f.dev, status: 404},
		{name: "bad subscription id", method: "DELETE", path: tp + "/subscriptions/-1", as: f.dev, status: 400, msgs: []string{"subscriptionId must be a positive integer"}},
		{name: "one left", method: "GET", path: tp + "/users", as: f.viewer, status: 200, check: func(t *testing.T, res *stacktest.Response) {
			if !contains(string(res.Body), `"totalCount":1`, `"identifier":"carol"`) {
				t.Errorf("%s", res.Body)
			}
		}},
		{name: "delete", method: "DELETE", path: tp, as: f.dev, status: 200},
		{name: "deleted", method: "GET", path: tp + "/users", as: f.viewer, status: 404},
	})
}

func TestWorkflowAndScheduleRoutes(t *testing.T) {
	f := newFixture(t)
	app := f.appPath
	f.do(t, f.dev, "POST", app+"/templates", map[string]any{"identifier": "welcome"}, 201)
	def := func(tpl string) map[string]any {
		return map[string]any{"steps": []map[string]any{{"id": "wait", "type": "delay", "duration": "1h", "next": "mail"}, {"id": "mail", "type": "email", "template": tpl}}}
	}
	f.run(t, []call{
		{name: "missing template", method: "POST", path: app + "/workflows", as: f.dev, status: 400,
			body: map[string]any{"identifier": "onboarding", "name": "Onboarding", "definition": def("nope")},
			check: func(t *testing.T, res *stacktest.Response) {
				if m := errMessages(t, res); len(m) != 1 || !contains(m[0], "nope") {
					t.Errorf("%q", m)
				}
			}},
		{name: "bad workflow", method: "POST", path: app + "/workflows", as: f.dev, status: 400, body: map[string]any{"identifier": "-x", "name": "", "definition": []int{}},
			msgs: []string{"identifier must be 1-100 letters, digits, '_', '.' or '-', starting with a letter or digit", "name must be 1-200 characters", "definition must be an object"}},
		{name: "create", method: "POST", path: app + "/workflows", as: f.dev, status: 201, body: map[string]any{"identifier": "onboarding", "name": "Onboarding", "definition": def("welcome")},
			check: func(t *testing.T, res *stacktest.Response) {
				if m := res.Map(t); m["identifier"] != "onboarding" || m["publishedVersion"] != nil {
					t.Errorf("%v", m)
				}
			}},
		{name: "draft", method: "POST", path: app + "/workflows", as: f.dev, status: 201, body: map[string]any{"identifier": "draft-only", "name": "Draft", "definition": def("welcome")}},
		{name: "same identifier", method: "POST", path: app + "/workflows", as: f.dev, status: 409, body: map[string]any{"identifier": "onboarding", "name": "x", "definition": def("welcome")}},
		{name: "update", method: "PUT", path: app + "/workflows/onboarding", as: f.dev, status: 200, body: map[string]any{"name": "Onboarding v2", "definition": def("welcome")}},
		{name: "update a missing one", method: "PUT", path: app + "/workflows/nope", as: f.dev, status: 404, body: map[string]any{"name": "x", "definition": def("welcome")}},
		{name: "publish", method: "POST", path: app + "/workflows/onboarding/publish", as: f.dev, status: 200, check: func(t *testing.T, res *stacktest.Response) {
			if !contains(string(res.Body), `"version":1`, `"publishedVersion":1`) {
				t.Errorf("%s", res.Body)
			}
		}},
		{name: "publish a missing one", method: "POST", path: app + "/workflows/nope/publish", as: f.dev, status: 404},
		{name: "get", method: "GET", path: app + "/workflows/onboarding", as: f.viewer, status: 200, check: func(t *testing.T, res *stacktest.Response) {
			if m := res.Map(t); m["name"] != "Onboarding v2" || m["publishedVersion"] != 1.0 {
				t.Errorf("%v", m)
			}
		}},
		{name: "published", method: "GET", path: app + "/workflows?published=true", as: f.viewer, status: 200, check: func(t *testing.T, res *stacktest.Response) {
			if !contains(string(res.Body), `"identifier":"onboarding"`) || contains(string(res.Body), "draft-only") {
				t.Errorf("%s", res.Body)
			}
		}},
		{name: "unpublished", method: "GET", path: app + "/workflows?published=false", as: f.viewer, status: 200, check: func(t *testing.T, res *stacktest.Response) {
			if !contains(string(res.Body), `"identifier":"draft-only"`) || contains(string(res.Body), `"onboarding"`) {
				t.Errorf("%s", res.Body)
			}
		}},
		{name: "all", method: "GET", path: app + "/workflows", as: f.viewer, status: 200, check: func(t *testing.T, res *stacktest.Response) {
			if !contains(string(res.Body), `"draft-only"`, `"onboarding"`) {
				t.Errorf("%s", res.Body)
			}
		}},
		{name: "logs", method: "GET", path: app + "/workflows/logs?page=1&limit=5", as: f.viewer, status: 200, check: func(t *testing.T, res *stacktest.Response) {
			if string(res.Body) != `{"pagination":{"totalCount":0,"page":1,"limit":5},"data":[]}` {
				t.Errorf("%s", res.Body)
			}
		}},
		{name: "bad logs page", method: "GET", path: app + "/workflows/logs?limit=x", as: f.viewer, status: 400, msgs: []string{"limit must be an integer number"}},
	})

	creds := stacktest.Headers{f.Cfg.HeaderPrefix + "API-KEY": f.appEnt["apiKey"].(string), f.Cfg.HeaderPrefix + "API-SECRET": f.appEnt["apiSecret"].(string)}
	at := time.Now().Add(2 * time.Hour).UTC().Format(time.RFC3339)
	must(t, f.Do("POST", "/v3/notifications", map[string]any{"notification": map[string]string{"title": "Later"},
		"sendTo": map[string]any{"recipients": []string{"u1", "u2"}}, "sendAt": at}, creds), 202, "schedule")
	var list []struct {
		ID             int64
		Status         string
		RecipientCount int
		Notification   struct{ Title string }
	}
	f.do(t, f.viewer, "GET", app+"/scheduled-notifications", nil, 200).JSON(t, &list)
	if len(list) != 1 || list[0].Status != "scheduled" || list[0].Notification.Title != "Later" {
		t.Fatalf("%+v", list)
	}
	sp := fmt.Sprintf("%s/scheduled-notifications/%d", app, list[0].ID)
	f.run(t, []call{
		{name: "cancel", method: "DELETE", path: sp, as: f.dev, status: 200},
		{name: "cancel again", method: "DELETE", path: sp, as: f.dev, status: 409},
		{name: "cancelled ones are hidden", method: "GET", path: app + "/scheduled-notifications", as: f.viewer, status: 200, check: func(t *testing.T, res *stacktest.Response) {
			if string(res.Body) != "[]" {
				t.Errorf("%s", res.Body)
			}
		}},
		{name: "unless asked for", method: "GET", path: app + "/scheduled-notifications?all=true", as: f.viewer, status: 200, check: func(t *testing.T, res *stacktest.Response) {
			if !contains(string(res.Body), `"status":"cancelled"`) {
				t.Errorf("%s", res.Body)
			}
		}},
		{name: "another app's id", method: "DELETE", path: fmt.Sprintf("%s/scheduled-notifications/%d", f.strangerApp, list[0].ID), as: f.stranger, status: 404},
		{name: "bad id", method: "DELETE", path: app + "/scheduled-notifications/x", as: f.dev, status: 400, msgs: []string{"scheduledNotificationId must be a positive integer"}},
	})
}
