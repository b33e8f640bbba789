package cli

import (
	"encoding/json"
	"errors"
	"strings"

	"github.com/heraldhq/herald/internal/cli/files"
)

// WorkflowSchema builds the JSON Schema (2020-12) of a workflow file from the management
// API's OpenAPI document: its WorkflowDefinition schema — the one the API documents and
// tests against the server's own validation — with the schemas it refers to under $defs.
// Editors that read "$schema" complete and check workflow files with it.
func WorkflowSchema(openAPI []byte) ([]byte, error) {
	var doc struct {
		Components struct {
			Schemas map[string]any `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(openAPI, &doc); err != nil {
		return nil, err
	}
	all := doc.Components.Schemas
	if all["WorkflowDefinition"] == nil {
		return nil, errors.New("the OpenAPI document has no WorkflowDefinition schema")
	}
	defs := map[string]any{}
	var visit func(name string)
	visit = func(name string) {
		if _, ok := defs[name]; ok || all[name] == nil {
			return
		}
		defs[name] = nil
		defs[name] = rewrite(all[name], visit)
	}
	visit("WorkflowDefinition")
	schema := map[string]any{
		"$schema":     "https://json-schema.org/draft/2020-12/schema",
		"title":       "Herald workflow file",
		"description": "workflows/<identifier>.workflow.json as herald pull writes it; see docs/workflows.md for the steps.",
		"type":        "object",
		"required":    []string{"name", "definition"},
		"properties": map[string]any{
			"$schema":       map[string]any{"type": "string"},
			"name":          map[string]any{"type": "string", "minLength": 1, "maxLength": 200, "description": "the workflow's display name"},
			"definition":    map[string]any{"$ref": "#/$defs/WorkflowDefinition"},
			"payloadSchema": map[string]any{"type": "object", "description": "the JSON Schema (draft 2020-12) of the data the workflow's sends carry; a send whose data does not match it is refused (docs/workflows.md#payload-schema)"},
		},
		"additionalProperties": false,
		"$defs":                defs,
	}
	return files.Marshal(schema), nil
}

// rewrite copies a schema, pointing its references at $defs and visiting them.
func rewrite(v any, visit func(string)) any {
	switch t := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, x := range t {
			if s, ok := x.(string); ok && k == "$ref" && strings.HasPrefix(s, "#/components/schemas/") {
				name := strings.TrimPrefix(s, "#/components/schemas/")
				visit(name)
				out[k] = "#/$defs/" + name
				continue
			}
			if k == "discriminator" {
				// OpenAPI's discriminator maps to components; JSON Schema has no such keyword.
				continue
			}
			out[k] = rewrite(x, visit)
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, x := range t {
			out[i] = rewrite(x, visit)
		}
		return out
	}
	return v
}
