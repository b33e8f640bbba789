package v1_test

import (
	"encoding/json"
	"testing"

	"github.com/heraldhq/herald/internal/testkit/stacktest"
)

// TestWorkflowPositions: the designer's node positions travel with the draft — stored on
// create and update, answered with the workflow, kept by an update that leaves them out
// (the CLI), refused with every problem listed and nothing changed when malformed, never
// part of a published version; with the role and tenancy checks of the workflow routes.
func TestWorkflowPositions(t *testing.T) {
	f := newFixture(t)
	wf := f.appPath + "/workflows/nudge"
	def := map[string]any{"steps": []map[string]any{
		{"id": "hello", "type": "inApp", "content": map[string]string{"title": "Hi"}, "next": "wait"},
		{"id": "wait", "type": "delay", "duration": "8s"},
	}}
	positions := func(res *stacktest.Response) string {
		t.Helper()
		var got struct {
			Positions map[string]any `json:"positions"`
		}
		res.JSON(t, &got)
		if got.Positions == nil {
			return "null"
		}
		return string(mustJSON(t, got.Positions)) // keys sorted
	}

	// Made without positions: {}.
	made := f.do(t, f.dev, "POST", f.appPath+"/workflows", map[string]any{"identifier": "nudge", "name": "Nudge", "definition": def}, 201)
	if got := positions(made); got != "{}" {
		t.Fatalf("positions of a new workflow: %s", got)
	}
	// Saved with positions: answered and read back.
	moved := map[string]any{"hello": map[string]any{"x": 12.5, "y": -40}, "wait": map[string]any{"x": 300, "y": 220}}
	want := `{"hello":{"x":12.5,"y":-40},"wait":{"x":300,"y":220}}`
	if got := positions(f.do(t, f.dev, "PUT", wf, map[string]any{"name": "Nudge", "definition": def, "positions": moved}, 200)); got != want {
		t.Fatalf("PUT answered positions %s, want %s", got, want)
	}
	if got := positions(f.do(t, f.viewer, "GET", wf, nil, 200)); got != want {
		t.Fatalf("GET: positions %s, want %s", got, want)
	}
	// An update without positions (the herald CLI's push) keeps them; null too.
	def["steps"].([]map[string]any)[1]["duration"] = "9s"
	f.do(t, f.dev, "PUT", wf, map[string]any{"name": "Nudge", "definition": def}, 200)
	f.do(t, f.dev, "PUT", wf, map[string]any{"name": "Nudge", "definition": def, "positions": nil}, 200)
	if got := positions(f.do(t, f.viewer, "GET", wf, nil, 200)); got != want {
		t.Fatalf("after updates without positions: %s, want %s", got, want)
	}

	// Malformed: every problem listed, nothing changed (not the definition either).
	bad := map[string]any{"name": "Nudge", "definition": map[string]any{"steps": []map[string]any{{"id": "hello", "type": "inApp", "content": map[string]string{"title": "changed"}}}},
		"positions": map[string]any{
			"hello": map[string]any{"x": "12", "y": 1},
			"wait":  map[string]any{"x": 1},
			"ghost": map[string]any{"x": 1, "y": 2},
			"far":   map[string]any{"x": 1e7, "y": 0},
		}}
	f.run(t, []call{
		{name: "malformed positions", method: "PUT", path: wf, as: f.dev, body: bad, status: 400, msgs: []string{
			"positions.far: no step with that id",
			"positions.ghost: no step with that id",
			"positions.hello must be {x, y} with numbers between -1e+06 and 1e+06",
			"positions.wait: no step with that id",
		}},
		{name: "positions not an object", method: "PUT", path: wf, as: f.dev, body: map[string]any{"name": "Nudge", "definition": def, "positions": []int{1}}, status: 400,
			msgs: []string{"positions must be an object from step ids to {x, y}"}},
		{name: "coordinates out of bounds, extra members", method: "PUT", path: wf, as: f.dev, status: 400,
			body: map[string]any{"name": "Nudge", "definition": def, "positions": map[string]any{"hello": map[string]any{"x": 1e7, "y": 0}, "wait": map[string]any{"x": 1, "y": 2, "z": 3}}},
			msgs: []string{
				"positions.hello must be {x, y} with numbers between -1e+06 and 1e+06",
				"positions.wait must be {x, y} with numbers between -1e+06 and 1e+06",
			}},
		{name: "a viewer may not move steps", method: "PUT", path: wf, as: f.viewer, body: map[string]any{"name": "Nudge", "definition": def, "positions": moved}, status: 403},
		{name: "no credentials", method: "PUT", path: wf, body: map[string]any{"name": "Nudge", "definition": def, "positions": moved}, status: 401},
		{name: "another tenant's app", method: "PUT", path: f.strangerApp + "/workflows/nudge", as: f.dev, body: map[string]any{"name": "Nudge", "definition": def, "positions": moved}, status: 404},
	})
	got := f.do(t, f.viewer, "GET", wf, nil, 200)
	if p := positions(got); p != want {
		t.Fatalf("a refused update changed the positions: %s", p)
	}
	if d := string(mustJSON(t, got.Map(t)["definition"])); d != string(mustJSON(t, def)) {
		t.Fatalf("a refused update changed the definition: %s", d)
	}

	// Published versions hold the definition only.
	f.do(t, f.owner, "POST", wf+"/publish", nil, 200)
	var vs []map[string]any
	f.do(t, f.viewer, "GET", wf+"/versions", nil, 200).JSON(t, &vs)
	if len(vs) != 1 || vs[0]["positions"] != nil || vs[0]["definition"].(map[string]any)["positions"] != nil {
		t.Fatalf("a version carries positions: %v", vs)
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
