package stacktest

import (
	"net/http"
	"strings"
	"testing"
)

// TestContractsLoad: both served documents load and pass kin-openapi's validation.
func TestContractsLoad(t *testing.T) {
	cs, err := Contracts()
	if err != nil {
		t.Fatal(err)
	}
	if len(cs) != 2 || cs[0].Doc.OpenAPI != "3.1.0" || cs[1].Doc.OpenAPI != "3.0.3" {
		t.Fatalf("contracts: %d", len(cs))
	}
}

const petDoc = `{
  "openapi": "3.0.3",
  "info": {"title": "t", "version": "1"},
  "paths": {
    "/v9/pets/{id}": {
      "put": {
        "parameters": [{"name": "id", "in": "path", "required": true, "schema": {"type": "integer"}}],
        "requestBody": {"required": true, "content": {"application/json": {"schema": {
          "type": "object", "required": ["name"], "properties": {"name": {"type": "string"}}}}}},
        "responses": {
          "200": {"description": "ok", "content": {"application/json": {"schema": {
            "type": "object", "required": ["id"], "properties": {"id": {"type": "integer"}}}}}},
          "400": {"description": "bad", "content": {"application/json": {"schema": {
            "type": "object", "required": ["status", "message"], "properties": {"status": {"type": "string"}, "message": {"type": "array", "items": {"type": "string"}}}}}}}
        }
      }
    }
  }
}`

// TestContractCheckFindsDrift: the checks the handler tests rely on fail on each kind of
// drift, and pass a faithful exchange and a deliberately broken request that got its 400.
func TestContractCheckFindsDrift(t *testing.T) {
	c, err := LoadContract("/v9/", []byte(petDoc))
	if err != nil {
		t.Fatal(err)
	}
	json := http.Header{"Content-Type": {"application/json"}}
	for _, tc := range []struct {
		name, path, body string
		status           int
		resp             string
		want             string // "" passes; else a part of the error
	}{
		{"faithful", "/v9/pets/1", `{"name":"rex"}`, 200, `{"id":1}`, ""},
		{"broken request answered 400", "/v9/pets/1", `{"name":7}`, 400, `{"status":"error","message":["name must be a string"]}`, ""},
		{"unknown path is not checked", "/v9/cats/1", `{}`, 200, `{}`, ""},
		{"wrong response field type", "/v9/pets/1", `{"name":"rex"}`, 200, `{"id":"1"}`, "body the document does not allow"},
		{"missing response field", "/v9/pets/1", `{"name":"rex"}`, 200, `{}`, "body the document does not allow"},
		{"undocumented success status", "/v9/pets/1", `{"name":"rex"}`, 201, `{"id":1}`, "does not list"},
		{"undocumented error status", "/v9/pets/1", `{"name":"rex"}`, 404, `{"status":"error","message":"no"}`, "status is not supported"},
		{"error body of the wrong shape", "/v9/pets/1", `{"name":7}`, 400, `{"status":"error","message":"one string"}`, "body the document does not allow"},
		{"2xx to an invalid body", "/v9/pets/1", `{"name":7}`, 200, `{"id":1}`, "request the document calls invalid"},
		{"2xx to an invalid path parameter", "/v9/pets/x", `{"name":"rex"}`, 200, `{"id":1}`, "request the document calls invalid"},
	} {
		req, _ := http.NewRequest("PUT", "http://127.0.0.1:1"+tc.path, strings.NewReader(tc.body))
		req.Header.Set("Content-Type", "application/json")
		err := c.Check(req, []byte(tc.body), &Response{Status: tc.status, Body: []byte(tc.resp), Header: json})
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: got %v, want an error with %q", tc.name, err, tc.want)
		}
	}
}
