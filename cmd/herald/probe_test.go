package main

import (
	"bytes"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/heraldhq/herald/internal/cli"
)

// herald probe is the health check of the compose services api and worker: it must pass
// on 2xx only, and refuse to become a general HTTP client.
func TestProbe(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/readyz":
			w.Write([]byte(`{"status":"ready"}`))
		case "/moved":
			http.Redirect(w, r, "/readyz", http.StatusFound)
		default:
			http.Error(w, "not ready", http.StatusServiceUnavailable)
		}
	}))
	defer srv.Close()
	probe := func(args ...string) (string, error) {
		var out bytes.Buffer
		err := run(t.Context(), append([]string{"probe"}, args...), func(string) string { return "" }, &out, &out)
		return out.String(), err
	}
	if out, err := probe(srv.URL + "/readyz"); err != nil {
		t.Errorf("ready: %v %s", err, out)
	}
	for _, path := range []string{"/draining", "/moved"} {
		if out, err := probe(srv.URL + path); !errors.Is(err, cli.ErrFailed) || !strings.Contains(out, path) {
			t.Errorf("%s: %v %q, want a failure naming the URL", path, err, out)
		}
	}
	if _, err := probe("http://127.0.0.1:1/readyz"); !errors.Is(err, cli.ErrFailed) {
		t.Errorf("nothing listening: %v", err)
	}
	for _, bad := range [][]string{{}, {"https://127.0.0.1/readyz"}, {"http://example.com/readyz"}, {"http://10.0.0.1:8080/readyz"}, {"a", "b"}} {
		if _, err := probe(bad...); !errors.Is(err, errUsage) {
			t.Errorf("probe %q: %v, want a usage error", bad, err)
		}
	}
}
