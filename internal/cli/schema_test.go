package cli

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	v1 "github.com/heraldhq/herald/api/v1"
)

// TestWorkflowSchema: the schema pull writes compiles as JSON Schema 2020-12, accepts a
// workflow file and rejects one with an unknown step type or a missing name, the way an
// editor would flag them.
func TestWorkflowSchema(t *testing.T) {
	raw, err := WorkflowSchema(v1.Document)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("workflow.schema.json", doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("workflow.schema.json")
	if err != nil {
		t.Fatalf("the schema does not compile: %v", err)
	}
	check := func(file string) error {
		v, err := jsonschema.UnmarshalJSON(strings.NewReader(file))
		if err != nil {
			t.Fatal(err)
		}
		return sch.Validate(v)
	}
	good := `{"$schema": "./workflow.schema.json", "name": "Welcome", "definition": {"steps": [
		{"id": "hello", "type": "inApp", "template": "welcome", "next": "pause"},
		{"id": "pause", "type": "delay", "duration": "1d"}]}}`
	if err := check(good); err != nil {
		t.Errorf("a valid workflow file is refused: %v", err)
	}
	for _, bad := range []string{
		`{"name": "W", "definition": {"steps": [{"id": "a", "type": "teleport"}]}}`,
		`{"definition": {"steps": [{"id": "a", "type": "inApp", "template": "t"}]}}`,
		`{"name": "W", "definition": {"steps": []}, "extra": 1}`,
	} {
		if check(bad) == nil {
			t.Errorf("the schema accepts %s", bad)
		}
	}
	var m map[string]any
	_ = json.Unmarshal(raw, &m)
	if m["$defs"].(map[string]any)["WorkflowDefinition"] == nil {
		t.Error("no WorkflowDefinition in $defs")
	}
}
