package cli_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/heraldhq/herald/internal/testkit/stacktest"
)

// TestPayloadSchemaTravels: a payload schema set in a workflow file is checked by validate
// (a remote $ref is refused), pushed into production (draft and published version), shown
// by diff, and pulled back byte for byte; a workflow without one keeps a file without it.
func TestPayloadSchemaTravels(t *testing.T) {
	w := newWorld(t)
	env := []string{"HERALD_URL=" + w.e.BaseURL, "HERALD_TOKEN=" + w.token}
	dir := filepath.Join(t.TempDir(), "n")
	if r := w.herald(env, "pull", "--app", "development", dir); r.code != 0 {
		t.Fatalf("pull: %s%s", r.stdout, r.stderr)
	}
	flowFile := filepath.Join(dir, "workflows", "welcome.workflow.json")
	flow, err := os.ReadFile(flowFile)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(flow), "payloadSchema") {
		t.Fatalf("a workflow without a schema pulled with one:\n%s", flow)
	}
	write := func(schema string) {
		t.Helper()
		s := strings.Replace(string(flow), "\n  \"definition\"", "\n  \"payloadSchema\": "+schema+",\n  \"definition\"", 1)
		if err := os.WriteFile(flowFile, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(`{"type": "object", "properties": {"name": {"$ref": "https://example.com/name.json"}}}`)
	r := w.herald(env, "validate", dir)
	if r.code == 0 || !strings.Contains(r.stdout+r.stderr, "remote $ref") {
		t.Fatalf("validate with a remote $ref: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	write(`{"type": "object", "required": ["name"], "properties": {"name": {"type": "string"}}}`)
	if r := w.herald(env, "validate", dir); r.code != 0 {
		t.Fatalf("validate: %s%s", r.stdout, r.stderr)
	}
	r = w.herald(env, "push", "--app", "production", dir)
	if r.code != 0 || !strings.Contains(r.stdout, "+ workflow welcome (published)") {
		t.Fatalf("push: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r := w.herald(env, "diff", "--app", "production", "--exit-code", dir); r.code != 0 {
		t.Fatalf("diff after push: %s%s", r.stdout, r.stderr)
	}
	got := w.api("GET", fmt.Sprintf("/v1/apps/%d/workflows/welcome", w.prod), nil, 200)
	if s, _ := got["payloadSchema"].(map[string]any); s == nil || s["required"] == nil {
		t.Fatalf("production's draft schema: %v", got["payloadSchema"])
	}
	// The published version carries it (accept checks sends against it).
	vs := w.e.Must(w.e.Do("GET", fmt.Sprintf("/v1/apps/%d/workflows/welcome/versions", w.prod), nil, stacktest.Bearer(w.owner.AccessToken)), 200, "versions")
	if !strings.Contains(string(vs.Body), `"payloadSchema":{`) {
		t.Errorf("production's published version has no schema: %s", vs.Body)
	}
	back := filepath.Join(t.TempDir(), "back")
	if r := w.herald(env, "pull", "--app", "production", back); r.code != 0 {
		t.Fatalf("pull back: %s%s", r.stdout, r.stderr)
	}
	// The same files, the schema pretty-printed as pull writes JSON.
	a, b := readTree(t, dir), readTree(t, back)
	for f, c := range a {
		var x, y any
		if json.Unmarshal([]byte(c), &x) != nil {
			x, y = c, b[f]
		} else if err := json.Unmarshal([]byte(b[f]), &y); err != nil {
			t.Errorf("%s pulled back: %v", f, err)
		}
		if !reflect.DeepEqual(x, y) {
			t.Errorf("%s differs when pulled back:\n%s\n---\n%s", f, c, b[f])
		}
	}
	// Changing the schema in the folder is a change diff reports.
	write(`{"type": "object"}`)
	if r := w.herald(env, "diff", "--app", "production", dir); !strings.Contains(r.stdout, "payloadSchema") {
		t.Errorf("diff after changing the schema:\n%s%s", r.stdout, r.stderr)
	}
}
