package v1_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/heraldhq/herald/internal/platform/config"
	"github.com/heraldhq/herald/internal/testkit/smtptest"
	"github.com/heraldhq/herald/internal/testkit/stacktest"
	"github.com/heraldhq/herald/workflows/flowrun"
)

// TestWorkflowManage: rename and archive (PATCH), duplicate and delete a workflow through
// /v1, with every problem of a bad body listed and nothing changed, the viewer (403), no
// credentials (401) and another client's app (404) on each route. An archived workflow is
// hidden from lists unless ?archived=true and refuses sends (422); a workflow a flow
// schedule sends is not deleted, and the refusal names the schedule.
func TestWorkflowManage(t *testing.T) {
	f := newFixture(t)
	app := f.appPath
	wf := app + "/workflows/welcome"
	def := map[string]any{"steps": []map[string]any{{"id": "hi", "type": "inApp", "content": map[string]string{"title": "Hi"}}}}
	moved := map[string]any{"hi": map[string]any{"x": 10, "y": 20}}
	f.do(t, f.dev, "POST", app+"/workflows", map[string]any{"identifier": "welcome", "name": "Welcome", "definition": def, "positions": moved}, 201)
	f.do(t, f.dev, "POST", wf+"/publish", nil, 200)
	send := map[string]any{"notification": map[string]any{"workflow": map[string]string{"identifier": "welcome"}}, "sendTo": map[string]any{"recipients": []string{"ann"}}}
	identifiers := func(path string) string {
		t.Helper()
		var list []struct{ Identifier string }
		f.do(t, f.viewer, "GET", path, nil, 200).JSON(t, &list)
		ids := make([]string, len(list))
		for i, w := range list {
			ids[i] = w.Identifier
		}
		return strings.Join(ids, ",")
	}
	field := func(k, want string) func(t *testing.T, res *stacktest.Response) {
		return func(t *testing.T, res *stacktest.Response) {
			if got, _ := res.Map(t)[k].(string); got != want {
				t.Errorf("%s = %q, want %q: %s", k, got, want, res.Body)
			}
		}
	}

	// Rename and archive.
	f.run(t, []call{
		{name: "every problem", method: "PATCH", path: wf, as: f.dev, body: map[string]any{"name": " ", "archived": "yes"}, status: 400,
			msgs: []string{"name must be 1-200 characters", "archived must be a boolean"}},
		{name: "nothing to change", method: "PATCH", path: wf, as: f.dev, body: map[string]any{"definition": def}, status: 400,
			msgs: []string{"the body must have name, archived or critical"}},
		{name: "not an object", method: "PATCH", path: wf, as: f.dev, body: []int{1}, status: 400, msgs: []string{"body must be a JSON object"}},
		{name: "viewer may not rename", method: "PATCH", path: wf, as: f.viewer, body: map[string]any{"name": "X"}, status: 403},
		{name: "no credentials", method: "PATCH", path: wf, body: map[string]any{"name": "X"}, status: 401},
		{name: "another client's app", method: "PATCH", path: f.strangerApp + "/workflows/welcome", as: f.stranger, body: map[string]any{"name": "X"}, status: 404},
		{name: "another client's workflow", method: "PATCH", path: wf, as: f.stranger, body: map[string]any{"name": "X"}, status: 404},
		{name: "unknown workflow", method: "PATCH", path: app + "/workflows/nope", as: f.dev, body: map[string]any{"name": "X"}, status: 404},
		{name: "unchanged by refusals", method: "GET", path: wf, as: f.viewer, status: 200, check: field("name", "Welcome")},
		{name: "rename", method: "PATCH", path: wf, as: f.dev, body: map[string]any{"name": "Welcome mail"}, status: 200, check: func(t *testing.T, res *stacktest.Response) {
			m := res.Map(t)
			if m["name"] != "Welcome mail" || m["identifier"] != "welcome" || m["publishedVersion"] != 1.0 || m["archivedAt"] != nil {
				t.Errorf("%s", res.Body)
			}
		}},
		{name: "archive", method: "PATCH", path: wf, as: f.dev, body: map[string]any{"archived": true}, status: 200, check: func(t *testing.T, res *stacktest.Response) {
			if m := res.Map(t); m["archivedAt"] == nil || m["name"] != "Welcome mail" {
				t.Errorf("%s", res.Body)
			}
		}},
		{name: "an archived workflow takes no sends", method: "POST", path: app + "/notifications", as: f.dev, body: send, status: 422, check: func(t *testing.T, res *stacktest.Response) {
			if !strings.Contains(string(res.Body), `workflow \"welcome\" is archived`) {
				t.Errorf("%s", res.Body)
			}
		}},
	})
	if got := identifiers(app + "/workflows"); got != "" {
		t.Errorf("an archived workflow is listed: %q", got)
	}
	if got := identifiers(app + "/workflows?archived=true"); got != "welcome" {
		t.Errorf("?archived=true lists %q", got)
	}
	f.do(t, f.dev, "PATCH", wf, map[string]any{"archived": false}, 200)
	if got := identifiers(app + "/workflows?published=true"); got != "welcome" {
		t.Errorf("unarchived, listed %q", got)
	}
	f.do(t, f.dev, "POST", app+"/notifications", send, 202)

	// Duplicate.
	dup := wf + "/duplicate"
	f.run(t, []call{
		{name: "duplicate: every problem", method: "POST", path: dup, as: f.dev, body: map[string]any{"identifier": "bad id!", "name": 3}, status: 400,
			msgs: []string{"identifier must be 1-100 letters, digits, '_', '.' or '-', starting with a letter or digit", "name must be a string"}},
		{name: "duplicate: viewer", method: "POST", path: dup, as: f.viewer, status: 403},
		{name: "duplicate: no credentials", method: "POST", path: dup, status: 401},
		{name: "duplicate: another client's app", method: "POST", path: f.strangerApp + "/workflows/welcome/duplicate", as: f.stranger, status: 404},
		{name: "duplicate: unknown", method: "POST", path: app + "/workflows/nope/duplicate", as: f.dev, status: 404},
		{name: "duplicate by default", method: "POST", path: dup, as: f.dev, status: 201, check: func(t *testing.T, res *stacktest.Response) {
			m := res.Map(t)
			if m["identifier"] != "welcome-copy" || m["name"] != "Welcome mail (copy)" || m["publishedVersion"] != nil ||
				string(mustJSON(t, m["positions"])) != `{"hi":{"x":10,"y":20}}` || string(mustJSON(t, m["definition"])) != string(mustJSON(t, def)) {
				t.Errorf("%s", res.Body)
			}
		}},
		{name: "the copy's identifier is taken", method: "POST", path: dup, as: f.dev, status: 409, check: func(t *testing.T, res *stacktest.Response) {
			if !strings.Contains(string(res.Body), `welcome-copy`) {
				t.Errorf("%s", res.Body)
			}
		}},
		{name: "duplicate with a name", method: "POST", path: dup, as: f.dev, body: map[string]any{"identifier": "welcome-b", "name": "Variant B"}, status: 201, check: field("name", "Variant B")},
	})
	if got := identifiers(app + "/workflows"); got != "welcome,welcome-b,welcome-copy" {
		t.Errorf("after duplicating: %q", got)
	}

	// Delete: refused while a flow schedule sends it (written as the schedule service
	// does; this stack runs no Temporal), naming the schedule.
	ctx := context.Background()
	if _, err := f.Stack.DB.Pool.Exec(ctx, `INSERT INTO flow_schedules (app_id, schedule_id, flow_identifier, cron, timezone, send_body)
		VALUES ($1, 'recurring/test-sched', 'welcome', '0 9 * * 1', 'UTC', '{}')`, f.appID); err != nil {
		t.Fatal(err)
	}
	f.run(t, []call{
		{name: "delete: viewer", method: "DELETE", path: app + "/workflows/welcome-b", as: f.viewer, status: 403},
		{name: "delete: no credentials", method: "DELETE", path: app + "/workflows/welcome-b", status: 401},
		{name: "delete: another client's app", method: "DELETE", path: f.strangerApp + "/workflows/welcome-b", as: f.stranger, status: 404},
		{name: "delete: another client's workflow", method: "DELETE", path: app + "/workflows/welcome-b", as: f.stranger, status: 404},
		{name: "delete a scheduled one", method: "DELETE", path: wf, as: f.dev, status: 409, check: func(t *testing.T, res *stacktest.Response) {
			if !strings.Contains(string(res.Body), `workflow \"welcome\" is used by flow schedule(s) recurring/test-sched; delete them first`) {
				t.Errorf("%s", res.Body)
			}
		}},
		{name: "delete", method: "DELETE", path: app + "/workflows/welcome-b", as: f.dev, status: 200},
		{name: "deleted", method: "GET", path: app + "/workflows/welcome-b", as: f.viewer, status: 404},
		{name: "delete again", method: "DELETE", path: app + "/workflows/welcome-b", as: f.dev, status: 404},
	})
	if got := identifiers(app + "/workflows"); got != "welcome,welcome-copy" {
		t.Errorf("after deleting: %q", got)
	}
}

// TestWorkflowRunCancel: the console cancels a running test run by its request id through
// /v1 (the same cancellation as /v3's by key): the run stops in Temporal and the timeline
// says cancelled; cancelling again stops nothing; errors, roles and tenancy as elsewhere.
func TestWorkflowRunCancel(t *testing.T) {
	mail := smtptest.Start(t)
	se := stacktest.New(t, stacktest.Options{Temporal: true, Configure: func(c *config.Config) {
		c.Console.SMTPHost, c.Console.SMTPPort = mail.Host, mail.Port
		c.Console.URL = "https://console.example.com"
		c.Console.Origins = []string{"https://console.example.com"}
		c.Console.FilesDir = t.TempDir()
	}})
	f := fixtureOn(t, &env{Env: se, Mail: mail})
	app := f.appPath
	def := map[string]any{"steps": []map[string]any{
		{"id": "wait", "type": "delay", "duration": "1h", "next": "hi"},
		{"id": "hi", "type": "inApp", "content": map[string]string{"title": "Hi"}},
	}}
	f.do(t, f.dev, "POST", app+"/workflows", map[string]any{"identifier": "slow", "name": "Slow", "definition": def}, 201)
	f.do(t, f.dev, "POST", app+"/workflows/slow/publish", nil, 200)
	var sent struct {
		RequestID string `json:"requestId"`
	}
	f.do(t, f.dev, "POST", app+"/notifications", map[string]any{
		"notification": map[string]any{"workflow": map[string]string{"identifier": "slow"}},
		"sendTo":       map[string]any{"recipients": []string{"ann"}},
	}, 202).JSON(t, &sent)
	run := app + "/workflows/slow/runs/" + sent.RequestID
	type timeline struct {
		Runs []struct {
			Status     string `json:"status"`
			WorkflowID string `json:"workflowId"`
		} `json:"runs"`
	}
	// Wait for the run to be registered (the relay and the send workflow start it).
	var tl timeline
	for deadline := time.Now().Add(60 * time.Second); ; {
		f.do(t, f.viewer, "GET", run, nil, 200).JSON(t, &tl)
		if len(tl.Runs) == 1 || time.Now().After(deadline) {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if len(tl.Runs) != 1 || tl.Runs[0].Status != "running" {
		t.Fatalf("the run did not start: %+v", tl)
	}
	f.run(t, []call{
		{name: "viewer may not cancel", method: "POST", path: run + "/cancel", as: f.viewer, status: 403},
		{name: "no credentials", method: "POST", path: run + "/cancel", status: 401},
		{name: "another client's app", method: "POST", path: f.strangerApp + "/workflows/slow/runs/" + sent.RequestID + "/cancel", as: f.stranger, status: 404},
		{name: "another client's run", method: "POST", path: run + "/cancel", as: f.stranger, status: 404},
		{name: "malformed request id", method: "POST", path: app + "/workflows/slow/runs/nope/cancel", as: f.dev, status: 400, msgs: []string{"requestId must be a UUID"}},
		{name: "unknown request", method: "POST", path: app + "/workflows/slow/runs/0190a5c4-0000-7000-8000-000000000009/cancel", as: f.dev, status: 404},
		{name: "unknown workflow", method: "POST", path: app + "/workflows/nope/runs/" + sent.RequestID + "/cancel", as: f.dev, status: 404},
		{name: "cancel", method: "POST", path: run + "/cancel", as: f.dev, status: 200, check: func(t *testing.T, res *stacktest.Response) {
			if string(res.Body) != `{"cancelled":1,"failed":0}` {
				t.Errorf("%s", res.Body)
			}
		}},
		{name: "cancel again", method: "POST", path: run + "/cancel", as: f.dev, status: 200, check: func(t *testing.T, res *stacktest.Response) {
			if string(res.Body) != `{"cancelled":0,"failed":0}` {
				t.Errorf("%s", res.Body)
			}
		}},
	})
	f.do(t, f.viewer, "GET", run, nil, 200).JSON(t, &tl)
	if len(tl.Runs) != 1 || tl.Runs[0].Status != "cancelled" {
		t.Errorf("timeline after cancel: %+v", tl)
	}
	// Temporal closes the run (a cancel request is asynchronous: wait for the close). A run
	// still loading its version when the database said cancelled (a loaded machine) stops
	// there and completes with the outcome cancelled; one already waiting is Canceled.
	var res flowrun.RunResult
	_ = se.Stack.Temporal.GetWorkflow(context.Background(), tl.Runs[0].WorkflowID, "").Get(context.Background(), &res)
	desc, err := se.Stack.Temporal.DescribeWorkflowExecution(context.Background(), tl.Runs[0].WorkflowID, "")
	if err != nil {
		t.Fatal(err)
	}
	switch st := desc.WorkflowExecutionInfo.Status.String(); {
	case st == "Canceled":
	case st == "Completed" && res.Outcome == flowrun.OutcomeCancelled:
		t.Log("the run saw the cancellation while loading and completed as cancelled")
	default:
		t.Errorf("the run is %s in Temporal (outcome %q), want Canceled", st, res.Outcome)
	}
}
