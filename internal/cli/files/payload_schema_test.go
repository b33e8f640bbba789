package files_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/heraldhq/herald/internal/cli/files"
)

// TestPayloadSchemaRoundTrip: a workflow's payload schema is written into its file only
// when set (a folder of workflows without one renders as before) and reads back the same.
func TestPayloadSchemaRoundTrip(t *testing.T) {
	def := json.RawMessage(`{"steps":[{"id":"a","type":"inApp","content":{"title":"{{data.order.id}}"}}]}`)
	schema := json.RawMessage(`{"type":"object","required":["order"],"properties":{"order":{"type":"object","properties":{"id":{"type":"string"}}}}}`)
	set := files.Set{Workflows: []files.Workflow{
		{Identifier: "plain", Name: "Plain", Definition: def},
		{Identifier: "typed", Name: "Typed", Definition: def, PayloadSchema: schema},
	}}
	out := files.Render(set, nil)
	if plain := string(out["workflows/plain.workflow.json"]); strings.Contains(plain, "payloadSchema") {
		t.Errorf("a workflow without a schema has one in its file:\n%s", plain)
	}
	typed := string(out["workflows/typed.workflow.json"])
	if !strings.Contains(typed, `"payloadSchema": {`) {
		t.Fatalf("no payloadSchema in the file:\n%s", typed)
	}
	back, probs := files.Parse(&files.Folder{Files: out})
	if len(probs) > 0 {
		t.Fatal(probs)
	}
	if len(back.Workflows) != 2 || back.Workflows[0].PayloadSchema != nil {
		t.Fatalf("read back %+v", back.Workflows)
	}
	if got, want := string(files.Marshal(files.Canonical(back.Workflows[1].PayloadSchema))), string(files.Marshal(files.Canonical(schema))); got != want {
		t.Errorf("schema read back %s, want %s", got, want)
	}
	again := files.Render(back, nil)
	for k, v := range out {
		if string(again[k]) != string(v) {
			t.Errorf("%s renders differently after a round trip", k)
		}
	}
}
