package v1_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/heraldhq/herald/internal/platform/config"
	"github.com/heraldhq/herald/internal/testkit/smtptest"
	"github.com/heraldhq/herald/internal/testkit/stacktest"
)

// TestFlowScheduleRoutes: the console lists, creates, pauses, resumes and deletes the
// recurring schedules of published workflows; every problem of a bad body at once; viewers
// read only; another client's ids are not found; pausing reaches the Temporal Schedule.
func TestFlowScheduleRoutes(t *testing.T) {
	mail := smtptest.Start(t)
	se := stacktest.New(t, stacktest.Options{Temporal: true, Configure: func(c *config.Config) {
		c.Console.SMTPHost, c.Console.SMTPPort = mail.Host, mail.Port
		c.Console.URL = "https://console.example.com"
		c.Console.Origins = []string{"https://console.example.com"}
		c.Console.FilesDir = t.TempDir()
	}})
	f := fixtureOn(t, &env{Env: se, Mail: mail})
	app := f.appPath
	sp := app + "/workflow-schedules"
	f.do(t, f.dev, "POST", app+"/templates", map[string]any{"identifier": "welcome"}, 201)
	f.do(t, f.dev, "POST", app+"/workflows", map[string]any{"identifier": "digest", "name": "Digest",
		"definition": map[string]any{"steps": []map[string]any{{"id": "mail", "type": "email", "template": "welcome"}}}}, 201)
	good := map[string]any{"workflow": "digest", "cron": "0 9 * * MON-FRI", "timezone": "Europe/Berlin", "sendTo": map[string]any{"recipients": []string{"ann"}}}
	f.run(t, []call{
		{name: "empty list", method: "GET", path: sp, as: f.viewer, status: 200, check: func(t *testing.T, res *stacktest.Response) {
			if string(res.Body) != "[]" {
				t.Errorf("%s", res.Body)
			}
		}},
		{name: "no session", method: "GET", path: sp, status: 401},
		{name: "viewer may not create", method: "POST", path: sp, as: f.viewer, body: good, status: 403},
		{name: "another client's app", method: "GET", path: f.strangerApp + "/workflow-schedules", as: f.owner, status: 404},
		{name: "every problem", method: "POST", path: sp, as: f.dev, status: 400,
			body: map[string]any{"cron": "61 9 * *", "timezone": "Mars/Base", "sendTo": 3},
			msgs: []string{"workflow must be a non-empty string", "cron must have 5 fields (minute hour day-of-month month day-of-week), got 4",
				`timezone: unknown time zone "Mars/Base" (use an IANA name such as Europe/Berlin)`, "sendTo must be an object"}},
		{name: "unpublished", method: "POST", path: sp, as: f.dev, status: 400, body: good, msgs: []string{`workflow "digest" has no published version`}},
	})
	f.do(t, f.dev, "POST", app+"/workflows/digest/publish", nil, 200)
	var created struct {
		ID         int64
		ScheduleID string
		Paused     bool
	}
	f.do(t, f.dev, "POST", sp, good, 201).JSON(t, &created)
	if created.ID == 0 || created.Paused {
		t.Fatalf("created %+v", created)
	}
	one := fmt.Sprintf("%s/%d", sp, created.ID)
	paused := func(want bool) func(t *testing.T, res *stacktest.Response) {
		return func(t *testing.T, res *stacktest.Response) {
			if res.Map(t)["paused"] != want {
				t.Errorf("%s", res.Body)
			}
			desc, err := se.Stack.Temporal.ScheduleClient().GetHandle(context.Background(), created.ScheduleID).Describe(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if desc.Schedule.State.Paused != want {
				t.Errorf("Temporal schedule paused %v, want %v", desc.Schedule.State.Paused, want)
			}
		}
	}
	f.run(t, []call{
		{name: "listed", method: "GET", path: sp, as: f.viewer, status: 200, check: func(t *testing.T, res *stacktest.Response) {
			if !contains(string(res.Body), `"workflow":"digest"`, `"timezone":"Europe/Berlin"`, `"paused":false`) {
				t.Errorf("%s", res.Body)
			}
		}},
		{name: "viewer may not pause", method: "PATCH", path: one, as: f.viewer, body: map[string]any{"paused": true}, status: 403},
		{name: "bad pause body", method: "PATCH", path: sp + "/x", as: f.dev, body: map[string]any{"paused": "yes"}, status: 400,
			msgs: []string{"scheduleId must be a positive integer", "paused must be a boolean"}},
		{name: "missing paused", method: "PATCH", path: one, as: f.dev, body: map[string]any{}, status: 400, msgs: []string{"paused must be a boolean"}},
		{name: "another client's id", method: "PATCH", path: fmt.Sprintf("%s/workflow-schedules/%d", f.strangerApp, created.ID), as: f.stranger, body: map[string]any{"paused": true}, status: 404},
		{name: "pause", method: "PATCH", path: one, as: f.dev, body: map[string]any{"paused": true}, status: 200, check: paused(true)},
		{name: "resume", method: "PATCH", path: one, as: f.dev, body: map[string]any{"paused": false}, status: 200, check: paused(false)},
		{name: "viewer may not delete", method: "DELETE", path: one, as: f.viewer, status: 403},
		{name: "another client's delete", method: "DELETE", path: fmt.Sprintf("%s/workflow-schedules/%d", f.strangerApp, created.ID), as: f.stranger, status: 404},
		{name: "delete", method: "DELETE", path: one, as: f.dev, status: 200},
		{name: "gone", method: "DELETE", path: one, as: f.dev, status: 404},
		{name: "pause a deleted one", method: "PATCH", path: one, as: f.dev, body: map[string]any{"paused": true}, status: 404},
		{name: "empty again", method: "GET", path: sp, as: f.viewer, status: 200, check: func(t *testing.T, res *stacktest.Response) {
			if string(res.Body) != "[]" {
				t.Errorf("%s", res.Body)
			}
		}},
	})
	if _, err := se.Stack.Temporal.ScheduleClient().GetHandle(context.Background(), created.ScheduleID).Describe(context.Background()); err == nil {
		t.Error("the Temporal schedule outlived its deletion")
	}

	// A workflow with a payload schema: every tick would send the same data, so data the
	// published version's schema refuses is refused at creation, every problem listed, and
	// nothing is stored.
	schema := map[string]any{"type": "object", "required": []string{"order"},
		"properties": map[string]any{"order": map[string]any{"type": "object", "properties": map[string]any{"total": map[string]any{"type": "number"}}}}}
	f.do(t, f.dev, "POST", app+"/workflows", map[string]any{"identifier": "orders", "name": "Orders", "payloadSchema": schema,
		"definition": map[string]any{"steps": []map[string]any{{"id": "hi", "type": "inApp", "content": map[string]string{"title": "Hi"}}}}}, 201)
	f.do(t, f.dev, "POST", app+"/workflows/orders/publish", nil, 200)
	withData := func(data map[string]any) map[string]any {
		return map[string]any{"workflow": "orders", "cron": "0 9 * * *", "timezone": "UTC", "sendTo": map[string]any{"recipients": []string{"ann"}}, "data": data}
	}
	f.run(t, []call{
		{name: "data without a required field", method: "POST", path: sp, as: f.dev, status: 400, body: withData(map[string]any{"note": "x"}),
			msgs: []string{`data: missing property 'order' (the payload schema of workflow "orders" version 1)`}},
		{name: "data of the wrong type", method: "POST", path: sp, as: f.dev, status: 400, body: withData(map[string]any{"order": map[string]any{"total": "lots"}}),
			msgs: []string{`data/order/total: got string, want number (the payload schema of workflow "orders" version 1)`}},
		{name: "still empty", method: "GET", path: sp, as: f.viewer, status: 200, check: func(t *testing.T, res *stacktest.Response) {
			if string(res.Body) != "[]" {
				t.Errorf("%s", res.Body)
			}
		}},
		{name: "data the schema accepts", method: "POST", path: sp, as: f.dev, status: 201, body: withData(map[string]any{"order": map[string]any{"total": 3}})},
	})
}
