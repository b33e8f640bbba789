package v3_test

import (
	"encoding/json"
	"regexp"
	"sort"
	"strings"
	"testing"

	v3 "github.com/heraldhq/herald/api/v3"
	"github.com/heraldhq/herald/internal/testkit/stacktest"
)

var fiberParam = regexp.MustCompile(`:([A-Za-z0-9_]+)`)

type openAPIDoc struct {
	OpenAPI string `json:"openapi"`
	Paths   map[string]map[string]struct {
		OperationID string                     `json:"operationId"`
		Security    *[]map[string][]string     `json:"security"`
		Responses   map[string]json.RawMessage `json:"responses"`
		Deprecated  string                     `json:"x-deprecated-form"`
	} `json:"paths"`
	Components struct {
		Schemas         map[string]json.RawMessage `json:"schemas"`
		SecuritySchemes map[string]json.RawMessage `json:"securitySchemes"`
	} `json:"components"`
}

func loadDoc(t *testing.T) (openAPIDoc, map[string]any) {
	t.Helper()
	var doc openAPIDoc
	var raw map[string]any
	if err := json.Unmarshal(v3.OpenAPI, &doc); err != nil {
		t.Fatalf("openapi.json: %v", err)
	}
	_ = json.Unmarshal(v3.OpenAPI, &raw)
	return doc, raw
}

func TestOpenAPIDocumentMatchesTheRoutes(t *testing.T) {
	e := stacktest.New(t, stacktest.Options{})
	doc, _ := loadDoc(t)
	registered := map[string]bool{}
	for _, r := range e.Stack.HTTP().GetRoutes(true) {
		// OPTIONS routes are CORS preflights of the browser routes, not operations.
		if r.Method == "HEAD" || r.Method == "OPTIONS" || !strings.HasPrefix(r.Path, "/v3/") {
			continue
		}
		registered[r.Method+" "+fiberParam.ReplaceAllString(strings.TrimPrefix(r.Path, "/v3"), "{$1}")] = true
	}
	documented := map[string]bool{}
	for path, ops := range doc.Paths {
		for method := range ops {
			documented[strings.ToUpper(method)+" "+path] = true
		}
	}
	var missing, extra []string
	for r := range registered {
		if !documented[r] {
			missing = append(missing, r)
		}
	}
	for r := range documented {
		if !registered[r] {
			extra = append(extra, r)
		}
	}
	sort.Strings(missing)
	sort.Strings(extra)
	if len(missing) > 0 {
		t.Errorf("registered routes missing from openapi.json: %v", missing)
	}
	if len(extra) > 0 {
		t.Errorf("documented routes that are not registered: %v", extra)
	}
	if len(registered) < 35 {
		t.Errorf("only %d /v3 routes found: is GetRoutes still the way to list them?", len(registered))
	}
}

func TestOpenAPIDocumentIsComplete(t *testing.T) {
	doc, raw := loadDoc(t)
	if doc.OpenAPI != "3.0.3" {
		t.Errorf("openapi version %q", doc.OpenAPI)
	}
	ids := map[string]bool{}
	for path, ops := range doc.Paths {
		for method, op := range ops {
			name := strings.ToUpper(method) + " " + path
			if op.OperationID == "" || ids[op.OperationID] {
				t.Errorf("%s: operationId %q missing or repeated", name, op.OperationID)
			}
			ids[op.OperationID] = true
			if op.Security == nil {
				t.Errorf("%s: no security requirement", name)
			}
			if len(op.Responses) == 0 {
				t.Errorf("%s: no responses", name)
			}
		}
	}
	// Every $ref points at a component that exists.
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			if ref, ok := x["$ref"].(string); ok {
				parts := strings.Split(strings.TrimPrefix(ref, "#/"), "/")
				var cur any = raw
				for _, p := range parts {
					m, _ := cur.(map[string]any)
					cur = m[p]
				}
				if cur == nil {
					t.Errorf("dangling $ref %s", ref)
				}
			}
			for _, c := range x {
				walk(c)
			}
		case []any:
			for _, c := range x {
				walk(c)
			}
		}
	}
	walk(raw)
	// The deprecated forms are marked.
	var send struct {
		Properties map[string]struct {
			Deprecated bool `json:"deprecated"`
		} `json:"properties"`
	}
	_ = json.Unmarshal(doc.Components.Schemas["SendRequest"], &send)
	for _, field := range []string{"recipients", "category"} {
		if !send.Properties[field].Deprecated {
			t.Errorf("SendRequest.%s is not marked deprecated", field)
		}
	}
	if !strings.Contains(doc.Paths["/notifications/markAllNotificationsAsSeen"]["post"].Deprecated, "first 15 unseen") {
		t.Errorf("the deprecated bulk-seen form is not marked")
	}
	if !strings.Contains(string(doc.Components.SecuritySchemes["userSignature"]), `"x-deprecated": true`) {
		t.Errorf("the signature header is not marked deprecated")
	}
}

func TestOpenAPIIsServed(t *testing.T) {
	e := stacktest.New(t, stacktest.Options{})
	res := e.Do("GET", "/v3/openapi.json", nil, nil)
	if !wantStatus(t, res, 200, "openapi.json") {
		return
	}
	if ct := res.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Errorf("content type %q", ct)
	}
	if string(res.Body) != string(v3.OpenAPI) {
		t.Errorf("served document differs from the embedded one")
	}
}
