package api

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/gofiber/fiber/v2"

	v1 "github.com/heraldhq/herald/api/v1"
)

// probe calls path on an app serving p and decodes the answer.
func probe(t *testing.T, p *Probes, path string) (int, map[string]any) {
	t.Helper()
	app := fiber.New()
	p.Register(app)
	res, err := app.Test(httptest.NewRequest("GET", path, nil))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(res.Body)
	var body map[string]any
	if err := json.Unmarshal(b, &body); err != nil {
		t.Fatalf("%s: %v %s", path, err, b)
	}
	return res.StatusCode, body
}

func reasons(body map[string]any) []string {
	var out []string
	for _, r := range body["reasons"].([]any) {
		out = append(out, r.(string))
	}
	return out
}

func TestProbes(t *testing.T) {
	up := func(context.Context) error { return nil }
	down := func(context.Context) error { return errors.New("dial tcp 10.0.0.7:5432: connection refused") }
	draining := false
	p := &Probes{Checks: map[string]v1.Check{"database": up, "temporal": up}, Draining: func() bool { return draining }}

	if code, body := probe(t, p, "/readyz"); code != 200 || body["status"] != "ready" || len(reasons(body)) != 0 {
		t.Errorf("ready: %d %v", code, body)
	}
	p.Checks["database"] = down
	code, body := probe(t, p, "/readyz")
	if code != 503 || !slices.Equal(reasons(body), []string{"database: unreachable"}) {
		t.Errorf("Postgres down: %d %v, want 503 naming the database", code, body)
	}
	if b, _ := json.Marshal(body); strings.Contains(string(b), "10.0.0.7") {
		t.Errorf("/readyz shows the error text: %s", b)
	}
	// Liveness asks no dependency: the process answers although Postgres does not.
	if code, body := probe(t, p, "/livez"); code != 200 || body["status"] != "alive" {
		t.Errorf("livez with Postgres down: %d %v", code, body)
	}
	p.Checks["database"] = up
	draining = true
	if code, body := probe(t, p, "/readyz"); code != 503 || !slices.Equal(reasons(body), []string{"draining: the process is shutting down"}) {
		t.Errorf("draining: %d %v, want 503", code, body)
	}
	if code, _ := probe(t, p, "/livez"); code != 200 {
		t.Errorf("livez while draining: %d", code)
	}
}
