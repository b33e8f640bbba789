package v1_test

import (
	"bytes"
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/gofiber/fiber/v2"

	v1 "github.com/heraldhq/herald/api/v1"
	"github.com/heraldhq/herald/internal/console/audit"
	"github.com/heraldhq/herald/internal/testkit/stacktest"
)

var fiberParam = regexp.MustCompile(`:([A-Za-z]+)`)

// TestOpenAPIListsEveryRoute fails when a /v1 route is registered but not documented, or
// documented but not registered.
func TestOpenAPIListsEveryRoute(t *testing.T) {
	e := newEnv(t)
	var doc struct {
		OpenAPI string                               `json:"openapi"`
		Paths   map[string]map[string]map[string]any `json:"paths"`
	}
	must(t, e.Do("GET", "/v1/openapi.json", nil, nil), 200, "openapi").JSON(t, &doc)
	if doc.OpenAPI != "3.1.0" {
		t.Errorf("openapi %q", doc.OpenAPI)
	}
	var documented []string
	for path, item := range doc.Paths {
		for method, op := range item {
			documented = append(documented, strings.ToUpper(method)+" "+path)
			if op["summary"] == "" || op["responses"] == nil {
				t.Errorf("%s %s has no summary or responses", method, path)
			}
		}
	}
	// Fiber registers HEAD with every GET: a HEAD route counts only where it is documented
	// (the provider callback lists HEAD on its own), and a documented one must be registered.
	var registered []string
	for _, r := range e.Stack.HTTP().GetRoutes(true) {
		route := r.Method + " " + fiberParam.ReplaceAllString(r.Path, "{$1}")
		if !strings.HasPrefix(r.Path, "/v1/") || (r.Method == fiber.MethodHead && !slices.Contains(documented, route)) {
			continue
		}
		registered = append(registered, route)
	}
	slices.Sort(documented)
	slices.Sort(registered)
	registered = slices.Compact(registered)
	for _, r := range registered {
		if !slices.Contains(documented, r) {
			t.Errorf("registered but not in /v1/openapi.json: %s", r)
		}
	}
	for _, d := range documented {
		if !slices.Contains(registered, d) {
			t.Errorf("in /v1/openapi.json but not registered: %s", d)
		}
	}
	if len(registered) < 60 {
		t.Errorf("only %d routes registered", len(registered))
	}

	// Every schema reference resolves.
	raw := e.Do("GET", "/v1/openapi.json", nil, nil).Body
	var full struct {
		Components struct{ Schemas map[string]json.RawMessage }
	}
	json.Unmarshal(raw, &full)
	for _, m := range regexp.MustCompile(`"#/components/schemas/([A-Za-z]+)"`).FindAllStringSubmatch(string(raw), -1) {
		if _, ok := full.Components.Schemas[m[1]]; !ok {
			t.Errorf("schema %s is referenced but not defined", m[1])
		}
	}
}

// TestOpenAPIIsServedAsCommitted: GET /v1/openapi.json answers openapi.json byte for byte
// (what openapi-typescript reads), and the values the document copies from the code still
// match it.
func TestOpenAPIIsServedAsCommitted(t *testing.T) {
	e := newEnv(t)
	res := must(t, e.Do("GET", "/v1/openapi.json", nil, nil), 200, "openapi")
	if !bytes.Equal(res.Body, v1.Document) {
		t.Errorf("served document differs from api/v1/openapi.json")
	}
	if ct := res.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Errorf("content type %q", ct)
	}
	cs, err := stacktest.Contracts()
	if err != nil {
		t.Fatal(err)
	}
	action := cs[0].Doc.Components.Schemas["AuditLogEntry"].Value.Properties["action"].Value
	var documented []string
	for _, a := range action.Enum {
		documented = append(documented, a.(string))
	}
	if !slices.Equal(documented, audit.Actions) {
		t.Errorf("AuditLogEntry.action lists %v, the audit log writes %v", documented, audit.Actions)
	}
}
