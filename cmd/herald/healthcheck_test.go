package main

import (
	"bytes"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
)

// livez answers /livez with status, and counts the calls.
func livez(t *testing.T, status int) (*httptest.Server, *int) {
	t.Helper()
	calls := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls++
		if r.URL.Path != "/livez" {
			http.NotFound(w, r)
			return
		}
		w.WriteHeader(status)
	}))
	t.Cleanup(srv.Close)
	return srv, &calls
}

// closedAddr is a loopback address where nothing listens.
func closedAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return addr
}

func healthcheck(t *testing.T, env map[string]string, args ...string) (string, error) {
	var out bytes.Buffer
	err := run(t.Context(), append([]string{"healthcheck"}, args...), func(k string) string { return env[k] }, &out, &bytes.Buffer{})
	return out.String(), err
}

func TestHealthcheckAsksTheAPIListener(t *testing.T) {
	api, calls := livez(t, http.StatusOK)
	// 0.0.0.0 is asked on loopback; the metrics listener is not asked once the API answered.
	port := api.Listener.Addr().(*net.TCPAddr).Port
	env := map[string]string{"HERALD_HTTP_ADDR": net.JoinHostPort("0.0.0.0", strconv.Itoa(port)), "HERALD_METRICS_ADDR": "bad"}
	out, err := healthcheck(t, env)
	if err != nil || *calls != 1 || !strings.Contains(out, "/livez") {
		t.Fatalf("err = %v, calls = %d, out = %q", err, *calls, out)
	}
}

// A worker serves no API: the metrics listener's /livez answers for it.
func TestHealthcheckFallsBackToTheMetricsListener(t *testing.T) {
	metrics, calls := livez(t, http.StatusOK)
	env := map[string]string{"HERALD_HTTP_ADDR": closedAddr(t), "HERALD_METRICS_ADDR": metrics.Listener.Addr().String()}
	if _, err := healthcheck(t, env); err != nil || *calls != 1 {
		t.Fatalf("err = %v, calls = %d", err, *calls)
	}
}

func TestHealthcheckFails(t *testing.T) {
	sick, _ := livez(t, http.StatusServiceUnavailable)
	for name, env := range map[string]map[string]string{
		"nothing listens": {"HERALD_HTTP_ADDR": closedAddr(t), "HERALD_METRICS_ADDR": closedAddr(t)},
		"503":             {"HERALD_HTTP_ADDR": sick.Listener.Addr().String(), "HERALD_METRICS_ADDR": "off"},
	} {
		if _, err := healthcheck(t, env); err == nil || !strings.Contains(err.Error(), "unhealthy") {
			t.Errorf("%s: err = %v", name, err)
		}
	}
	if _, err := healthcheck(t, nil, "--url", sick.URL+"/livez"); err == nil || !strings.Contains(err.Error(), "503") {
		t.Errorf("--url: err = %v", err)
	}
	if _, err := healthcheck(t, nil, "extra"); err == nil || !strings.Contains(err.Error(), "usage") {
		t.Errorf("bad arguments: err = %v", err)
	}
}

func TestHealthcheckURL(t *testing.T) {
	ok, calls := livez(t, http.StatusOK)
	if _, err := healthcheck(t, map[string]string{"HERALD_HTTP_ADDR": closedAddr(t)}, "--url", ok.URL+"/livez"); err != nil || *calls != 1 {
		t.Fatalf("err = %v, calls = %d", err, *calls)
	}
}

// TestHealthcheckURLRules: --url (the compose file's /readyz check) passes on 2xx only,
// follows no redirect, and refuses to become a general HTTP client.
func TestHealthcheckURLRules(t *testing.T) {
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
	env := map[string]string{}
	if _, err := healthcheck(t, env, "--url", srv.URL+"/readyz"); err != nil {
		t.Errorf("ready: %v", err)
	}
	for _, path := range []string{"/draining", "/moved"} {
		if _, err := healthcheck(t, env, "--url", srv.URL+path); err == nil || !strings.Contains(err.Error(), path) {
			t.Errorf("%s: %v, want a failure naming the URL", path, err)
		}
	}
	for _, bad := range []string{"https://127.0.0.1/readyz", "http://example.com/readyz", "http://10.0.0.1:8080/readyz"} {
		if _, err := healthcheck(t, env, "--url", bad); !errors.Is(err, errUsage) {
			t.Errorf("--url %q: %v, want a usage error", bad, err)
		}
	}
}
