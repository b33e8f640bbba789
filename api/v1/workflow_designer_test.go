package v1_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/heraldhq/herald/internal/platform/config"
)

// TestWorkflowVersionsAndRunTimeline covers what the console's workflow designer reads:
// the version history of a workflow and the timeline of a test run's runs, with the
// credential, role and tenancy checks and the errors of each.
func TestWorkflowVersionsAndRunTimeline(t *testing.T) {
	e := newEnv(t, func(c *config.Config) { c.TemporalUIURL = "http://temporal.example:8233/" })
	f := &fixture{env: e}
	f.owner = e.user(t, "owner@example.com")
	f.client = e.client(t, f.owner, "Acme")
	f.appEnt = e.app(t, f.owner, f.client, "Development")
	f.appID = int64(f.appEnt["id"].(float64))
	app := fmt.Sprintf("/v1/apps/%d", f.appID)
	f.viewer = e.member(t, f.owner, f.client, "viewer@example.com", "viewer")
	f.stranger = e.user(t, "stranger@example.com")
	theirs := e.app(t, f.stranger, e.client(t, f.stranger, "Other"), "Theirs")
	theirApp := fmt.Sprintf("/v1/apps/%v", theirs["id"])

	def := func(title string) map[string]any {
		return map[string]any{"steps": []map[string]any{{"id": "hi", "type": "inApp", "content": map[string]string{"title": title}}}}
	}
	f.do(t, f.owner, "POST", app+"/workflows", map[string]any{"identifier": "welcome", "name": "Welcome", "definition": def("v1")}, 201)
	f.do(t, f.stranger, "POST", theirApp+"/workflows", map[string]any{"identifier": "welcome", "name": "Theirs", "definition": def("theirs")}, 201)

	// Versions: none before the first publish, then newest first with their definitions.
	var vs []map[string]any
	f.do(t, f.viewer, "GET", app+"/workflows/welcome/versions", nil, 200).JSON(t, &vs)
	if len(vs) != 0 {
		t.Fatalf("versions before publishing: %v", vs)
	}
	f.do(t, f.owner, "POST", app+"/workflows/welcome/publish", nil, 200)
	f.do(t, f.owner, "PUT", app+"/workflows/welcome", map[string]any{"name": "Welcome", "definition": def("v2")}, 200)
	f.do(t, f.owner, "POST", app+"/workflows/welcome/publish", nil, 200)
	f.do(t, f.viewer, "GET", app+"/workflows/welcome/versions", nil, 200).JSON(t, &vs)
	title := func(v map[string]any) any {
		return v["definition"].(map[string]any)["steps"].([]any)[0].(map[string]any)["content"].(map[string]any)["title"]
	}
	if len(vs) != 2 || vs[0]["version"] != 2.0 || title(vs[0]) != "v2" || vs[1]["version"] != 1.0 || title(vs[1]) != "v1" || vs[0]["publishedAt"] == nil {
		t.Fatalf("versions: %v", vs)
	}

	// A test run: the console sends, then reads the runs of its request.
	var sent struct {
		RequestID string `json:"requestId"`
	}
	f.do(t, f.owner, "POST", app+"/notifications", map[string]any{
		"notification": map[string]any{"workflow": map[string]string{"identifier": "welcome"}},
		"sendTo":       map[string]any{"recipients": []string{"ann"}},
	}, 202).JSON(t, &sent)
	run := app + "/workflows/welcome/runs/" + sent.RequestID
	var tl struct {
		RequestID string           `json:"requestId"`
		Workflow  string           `json:"workflow"`
		Runs      []map[string]any `json:"runs"`
	}
	f.do(t, f.viewer, "GET", run, nil, 200).JSON(t, &tl)
	if tl.RequestID != sent.RequestID || tl.Workflow != "welcome" || tl.Runs == nil || len(tl.Runs) != 0 {
		t.Fatalf("timeline before the run starts (no worker here): %+v", tl)
	}
	// The run as the worker records it: the run row and its step outcomes.
	ctx := context.Background()
	if _, err := e.Stack.DB.Pool.Exec(ctx, `INSERT INTO flow_runs (app_id, request_id, flow_identifier, user_identifier, workflow_id)
		VALUES ($1, $2, 'welcome', 'ann', 'flow/welcome/x/ann')`, f.appID, sent.RequestID); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Stack.DB.Pool.Exec(ctx, `INSERT INTO flow_logs (app_id, request_id, flow_identifier, flow_version, user_identifier, step_id, step_type, outcome, detail, workflow_id)
		VALUES ($1, $2, 'welcome', 2, 'ann', 'hi', 'inApp', 'sent', '', 'flow/welcome/x/ann')`, f.appID, sent.RequestID); err != nil {
		t.Fatal(err)
	}
	f.do(t, f.viewer, "GET", run, nil, 200).JSON(t, &tl)
	if len(tl.Runs) != 1 {
		t.Fatalf("timeline: %+v", tl)
	}
	r := tl.Runs[0]
	steps, _ := r["steps"].([]any)
	if r["userIdentifier"] != "ann" || r["status"] != "running" || r["finishedAt"] != nil || len(steps) != 1 ||
		steps[0].(map[string]any)["outcome"] != "sent" || steps[0].(map[string]any)["version"] != 2.0 {
		t.Errorf("run: %v", r)
	}
	if r["temporalUrl"] != "http://temporal.example:8233/namespaces/default/workflows/flow%2Fwelcome%2Fx%2Fann" {
		t.Errorf("temporalUrl = %v", r["temporalUrl"])
	}

	// Errors: a malformed request id, unknown ones, another app's, unknown workflows.
	f.run(t, []call{
		{name: "malformed request id", method: "GET", path: app + "/workflows/welcome/runs/nope", as: f.viewer, status: 400, msgs: []string{"requestId must be a UUID"}},
		{name: "unknown request", method: "GET", path: app + "/workflows/welcome/runs/0190a5c4-0000-7000-8000-000000000009", as: f.viewer, status: 404},
		{name: "unknown workflow", method: "GET", path: app + "/workflows/nope/runs/" + sent.RequestID, as: f.viewer, status: 404},
		{name: "unknown workflow's versions", method: "GET", path: app + "/workflows/nope/versions", as: f.viewer, status: 404},
		{name: "the request through another app", method: "GET", path: theirApp + "/workflows/welcome/runs/" + sent.RequestID, as: f.stranger, status: 404},
		{name: "another client's app", method: "GET", path: run, as: f.stranger, status: 404},
		{name: "another client's versions", method: "GET", path: app + "/workflows/welcome/versions", as: f.stranger, status: 404},
		{name: "no token", method: "GET", path: run, status: 401},
		{name: "no token, versions", method: "GET", path: app + "/workflows/welcome/versions", status: 401},
	})
	var theirVs []map[string]any
	f.do(t, f.stranger, "GET", theirApp+"/workflows/welcome/versions", nil, 200).JSON(t, &theirVs)
	if len(theirVs) != 0 {
		t.Errorf("the other app's workflow has no version: %v", theirVs)
	}
}
