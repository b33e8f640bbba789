package v1_test

import (
	"encoding/json"
	"fmt"
	"testing"
)

// TestWorkflowPayloadSchema: a workflow's payload schema travels with the draft — stored on
// create and update, answered with the workflow, kept by an update that leaves it out (an
// older CLI), removed by null, copied into each published version and into a duplicate; a
// schema that is not valid draft 2020-12, refers outside itself or is not an object schema
// is refused with every problem listed and nothing changed; with the role and tenancy
// checks of the workflow routes.
func TestWorkflowPayloadSchema(t *testing.T) {
	f := newFixture(t)
	wf := f.appPath + "/workflows/order"
	def := map[string]any{"steps": []map[string]any{{"id": "hello", "type": "inApp", "content": map[string]string{"title": "Order {{data.order.id}}"}}}}
	schema := map[string]any{"type": "object", "required": []string{"order"}, "properties": map[string]any{
		"order": map[string]any{"type": "object", "properties": map[string]any{"id": map[string]any{"type": "string"}}}}}
	want := string(mustJSON(t, schema))
	schemaOf := func(v any) string {
		t.Helper()
		var got struct {
			PayloadSchema json.RawMessage `json:"payloadSchema"`
		}
		b, _ := json.Marshal(v)
		if err := json.Unmarshal(b, &got); err != nil {
			t.Fatal(err)
		}
		if len(got.PayloadSchema) == 0 || string(got.PayloadSchema) == "null" {
			return "null"
		}
		var m any
		_ = json.Unmarshal(got.PayloadSchema, &m)
		return string(mustJSON(t, m))
	}

	made := f.do(t, f.dev, "POST", f.appPath+"/workflows", map[string]any{"identifier": "order", "name": "Order", "definition": def}, 201)
	if got := schemaOf(made.Map(t)); got != "null" {
		t.Fatalf("payloadSchema of a new workflow without one: %s", got)
	}
	if got := schemaOf(f.do(t, f.dev, "PUT", wf, map[string]any{"name": "Order", "definition": def, "payloadSchema": schema}, 200).Map(t)); got != want {
		t.Fatalf("PUT answered %s, want %s", got, want)
	}
	// Left out (an older CLI): kept.
	f.do(t, f.dev, "PUT", wf, map[string]any{"name": "Order", "definition": def}, 200)
	if got := schemaOf(f.do(t, f.viewer, "GET", wf, nil, 200).Map(t)); got != want {
		t.Fatalf("GET after an update without payloadSchema: %s", got)
	}

	f.run(t, []call{
		{name: "every problem of a schema", method: "PUT", path: wf, as: f.dev, status: 400,
			body: map[string]any{"name": "Order", "definition": def, "payloadSchema": map[string]any{"type": "object", "properties": map[string]any{
				"a": map[string]any{"type": "strin"}, "b": map[string]any{"minimum": "x"}}}},
			msgs: []string{
				"payloadSchema at /properties/a/type: value must be one of 'array', 'boolean', 'integer', 'null', 'number', 'object', 'string'",
				"payloadSchema at /properties/a/type: got string, want array",
				"payloadSchema at /properties/b/minimum: got string, want number",
			}},
		{name: "remote $ref", method: "PUT", path: wf, as: f.dev, status: 400,
			body: map[string]any{"name": "Order", "definition": def, "payloadSchema": map[string]any{"type": "object", "properties": map[string]any{"a": map[string]any{"$ref": "https://example.com/s.json"}}}},
			msgs: []string{`payloadSchema: remote $ref "https://example.com/s.json" is not allowed: a payload schema must be self-contained`}},
		{name: "not an object schema, with a definition problem too", method: "PUT", path: wf, as: f.dev, status: 400,
			body: map[string]any{"name": "", "definition": def, "payloadSchema": map[string]any{"type": "array", "$schema": "http://json-schema.org/draft-07/schema#"}},
			msgs: []string{
				"name must be 1-200 characters",
				`payloadSchema.$schema must be "https://json-schema.org/draft/2020-12/schema" (draft 2020-12) or left out`,
				`payloadSchema.type must be "object": data is always an object`,
			}},
		{name: "not JSON Schema at all", method: "PUT", path: wf, as: f.dev, status: 400,
			body: map[string]any{"name": "Order", "definition": def, "payloadSchema": "string"}, msgs: []string{"payloadSchema must be a JSON Schema object"}},
		{name: "a viewer may not change it", method: "PUT", path: wf, as: f.viewer, body: map[string]any{"name": "Order", "definition": def, "payloadSchema": nil}, status: 403},
		{name: "no credentials", method: "PUT", path: wf, body: map[string]any{"name": "Order", "definition": def, "payloadSchema": nil}, status: 401},
		{name: "another tenant's app", method: "PUT", path: f.strangerApp + "/workflows/order", as: f.dev, body: map[string]any{"name": "Order", "definition": def, "payloadSchema": schema}, status: 404},
		{name: "another tenant's app, read", method: "GET", path: f.strangerApp + "/workflows/order", as: f.dev, status: 404},
	})
	if got := schemaOf(f.do(t, f.viewer, "GET", wf, nil, 200).Map(t)); got != want {
		t.Fatalf("a refused update changed the schema: %s", got)
	}

	// Published: the version carries it; a duplicate's draft too.
	f.do(t, f.owner, "POST", wf+"/publish", nil, 200)
	var vs []map[string]any
	f.do(t, f.viewer, "GET", wf+"/versions", nil, 200).JSON(t, &vs)
	if len(vs) != 1 || schemaOf(vs[0]) != want {
		t.Fatalf("the version's schema: %v", vs)
	}
	dup := f.do(t, f.dev, "POST", wf+"/duplicate", map[string]any{}, 201)
	if got := schemaOf(dup.Map(t)); got != want {
		t.Fatalf("the duplicate's schema: %s", got)
	}
	// null removes it from the draft; the published version keeps its own.
	if got := schemaOf(f.do(t, f.dev, "PUT", wf, map[string]any{"name": "Order", "definition": def, "payloadSchema": nil}, 200).Map(t)); got != "null" {
		t.Fatalf("after null: %s", got)
	}
	f.do(t, f.viewer, "GET", wf+"/versions", nil, 200).JSON(t, &vs)
	if schemaOf(vs[0]) != want {
		t.Fatalf("removing the draft's schema changed the version: %v", vs[0])
	}
}

// TestPromotedWorkflowKeepsItsPayloadSchema: publishing a commit into another app carries
// the draft's and the published version's payload schemas; a commit that changes only the
// schema publishes a new version there.
func TestPromotedWorkflowKeepsItsPayloadSchema(t *testing.T) {
	f := newFixture(t)
	dev := f.appPath
	prodID := int64(f.app2(t, "Production")["id"].(float64))
	prod := fmt.Sprintf("/v1/apps/%d", prodID)
	def := map[string]any{"steps": []map[string]any{{"id": "hello", "type": "inApp", "content": map[string]string{"title": "Hi"}}}}
	v1 := map[string]any{"type": "object", "required": []string{"a"}}
	v2 := map[string]any{"type": "object", "required": []string{"b"}}
	f.do(t, f.dev, "POST", dev+"/workflows", map[string]any{"identifier": "order", "name": "Order", "definition": def, "payloadSchema": v1}, 201)
	f.do(t, f.dev, "POST", dev+"/workflows/order/publish", nil, 200)
	promote := func(msg string) {
		t.Helper()
		c := int64(f.do(t, f.dev, "POST", dev+"/commits", map[string]any{"message": msg}, 201).Map(t)["id"].(float64))
		f.do(t, f.owner, "POST", dev+"/publish", map[string]any{"commitId": c, "publishTo": prodID}, 200)
	}
	check := func(want map[string]any, version float64) {
		t.Helper()
		w := string(mustJSON(t, want))
		got := f.do(t, f.viewer, "GET", prod+"/workflows/order", nil, 200).Map(t)
		if string(mustJSON(t, got["payloadSchema"])) != w || got["publishedVersion"] != version {
			t.Fatalf("production's draft: schema %v, version %v; want %s, v%v", got["payloadSchema"], got["publishedVersion"], w, version)
		}
		var vs []map[string]any
		f.do(t, f.viewer, "GET", prod+"/workflows/order/versions", nil, 200).JSON(t, &vs)
		if string(mustJSON(t, vs[0]["payloadSchema"])) != w {
			t.Fatalf("production's published version: %v, want %s", vs[0]["payloadSchema"], w)
		}
	}
	promote("first")
	check(v1, 1)
	// Only the schema changes: production publishes a new version with it.
	f.do(t, f.dev, "PUT", dev+"/workflows/order", map[string]any{"name": "Order", "definition": def, "payloadSchema": v2}, 200)
	f.do(t, f.dev, "POST", dev+"/workflows/order/publish", nil, 200)
	promote("second")
	check(v2, 2)
}
