package security

import (
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/gofiber/fiber/v2"

	"github.com/heraldhq/herald/internal/testkit/stacktest"
)

// route is one registered method and path.
type route struct {
	method, path string
	params       []string
}

func (r route) String() string { return r.method + " " + r.path }

// paramPattern matches a path parameter: :name, optionally :name? (Fiber's syntax).
var paramPattern = regexp.MustCompile(`:([A-Za-z0-9_]+)\??`)

// registeredRoutes lists the API's routes from Fiber's route table (HEAD routes, which
// Fiber adds for every GET, are left out).
func registeredRoutes(t *testing.T, e *stacktest.Env) []route {
	t.Helper()
	seen := map[string]bool{}
	var out []route
	for _, r := range e.Stack.HTTP().GetRoutes(true) {
		if r.Method == fiber.MethodHead || seen[r.Method+" "+r.Path] {
			continue
		}
		seen[r.Method+" "+r.Path] = true
		if strings.ContainsAny(r.Path, "*+") {
			t.Errorf("%s %s: wildcard paths are not covered by the route-driven suites; teach route_test.go their syntax", r.Method, r.Path)
			continue
		}
		rt := route{method: r.Method, path: r.Path}
		for _, m := range paramPattern.FindAllStringSubmatch(r.Path, -1) {
			rt.params = append(rt.params, m[1])
		}
		out = append(out, rt)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].String() < out[j].String() })
	if len(out) < 90 {
		t.Fatalf("only %d routes registered: is the route table read correctly?", len(out))
	}
	return out
}

// fill puts values into a route's parameters.
func (r route) fill(values map[string]string) string {
	return paramPattern.ReplaceAllStringFunc(r.path, func(m string) string {
		name := strings.TrimSuffix(strings.TrimPrefix(m, ":"), "?")
		return values[name]
	})
}
