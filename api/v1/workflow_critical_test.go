package v1_test

import (
	"testing"

	"github.com/heraldhq/herald/internal/testkit/stacktest"
)

// TestWorkflowCritical: a workflow is marked critical on creation, by PATCH and by a draft
// update (PUT keeps the mark when the body leaves it out); bad values are listed and change
// nothing; viewers, strangers and missing credentials are refused.
func TestWorkflowCritical(t *testing.T) {
	f := newFixture(t)
	app := f.appPath
	wf := app + "/workflows/otp"
	def := map[string]any{"steps": []map[string]any{{"id": "hi", "type": "inApp", "content": map[string]string{"title": "Your code"}}}}
	critical := func(want bool) func(t *testing.T, res *stacktest.Response) {
		return func(t *testing.T, res *stacktest.Response) {
			if got, _ := res.Map(t)["critical"].(bool); got != want {
				t.Errorf("critical = %v, want %v: %s", got, want, res.Body)
			}
		}
	}
	f.run(t, []call{
		{name: "create critical", method: "POST", path: app + "/workflows", as: f.dev, body: map[string]any{"identifier": "otp", "name": "OTP", "definition": def, "critical": true}, status: 201, check: critical(true)},
		{name: "bad create", method: "POST", path: app + "/workflows", as: f.dev, body: map[string]any{"identifier": "x", "name": "X", "definition": def, "critical": "yes"}, status: 400, msgs: []string{"critical must be a boolean value"}},
		{name: "draft update keeps the mark", method: "PUT", path: wf, as: f.dev, body: map[string]any{"name": "OTP", "definition": def}, status: 200, check: critical(true)},
		{name: "bad patch", method: "PATCH", path: wf, as: f.dev, body: map[string]any{"critical": 1}, status: 400, msgs: []string{"critical must be a boolean"}},
		{name: "viewer may not", method: "PATCH", path: wf, as: f.viewer, body: map[string]any{"critical": false}, status: 403},
		{name: "no credentials", method: "PATCH", path: wf, body: map[string]any{"critical": false}, status: 401},
		{name: "another client's workflow", method: "PATCH", path: wf, as: f.stranger, body: map[string]any{"critical": false}, status: 404},
		{name: "still critical", method: "GET", path: wf, as: f.viewer, status: 200, check: critical(true)},
		{name: "patch off", method: "PATCH", path: wf, as: f.dev, body: map[string]any{"critical": false}, status: 200, check: critical(false)},
		{name: "update on", method: "PUT", path: wf, as: f.dev, body: map[string]any{"name": "OTP", "definition": def, "critical": true}, status: 200, check: critical(true)},
	})
}
