package telemetry_test

import (
	"regexp"
	"testing"

	"github.com/heraldhq/herald/internal/platform/config"
	"github.com/heraldhq/herald/internal/testkit/stacktest"
)

func TestMain(m *testing.M) { stacktest.Main(m) }

func has(t *testing.T, body []byte, pattern string) {
	t.Helper()
	if !regexp.MustCompile(pattern).Match(body) {
		t.Errorf("metrics lack %s", pattern)
	}
}

func TestMetricsCountRequestsSendsAndTheOutbox(t *testing.T) {
	e := stacktest.New(t, stacktest.Options{})
	for i := 0; i < 3; i++ {
		if res := e.Do("POST", "/v3/notifications", `{"notification":{"title":"x"},"sendTo":{"recipients":["a"]}}`, e.AppHeaders()); res.Status != 202 {
			t.Fatalf("send: %d %s", res.Status, res.Body)
		}
	}
	e.Do("POST", "/v3/notifications", `{}`, e.AppHeaders())
	e.Do("POST", "/v3/notifications", `{}`, nil)
	e.Do("GET", "/v1/no/such/route/1", nil, nil)
	e.Do("GET", "/v3/no/such/route/2", nil, nil)
	// Console pages (every other GET serves the console web app) share one series too.
	e.Do("GET", "/apps/1/settings", nil, nil)
	e.Do("GET", "/signin", nil, nil)
	res := e.Do("GET", "/metrics", nil, e.MetricsHeaders())
	if res.Status != 200 {
		t.Fatalf("/metrics: %d", res.Status)
	}
	has(t, res.Body, `herald_http_request_duration_seconds_count\{method="POST",route="/v3/notifications",status="202"\} 3\n`)
	has(t, res.Body, `herald_http_request_duration_seconds_count\{method="POST",route="/v3/notifications",status="400"\} 1\n`)
	has(t, res.Body, `herald_http_request_duration_seconds_count\{method="POST",route="/v3/notifications",status="401"\} 1\n`)
	// Unknown paths share one series, whatever they are.
	has(t, res.Body, `herald_http_request_duration_seconds_count\{method="GET",route="unmatched",status="404"\} 2\n`)
	has(t, res.Body, `herald_http_request_duration_seconds_count\{method="GET",route="/",status="200"\} 2\n`)
	has(t, res.Body, `herald_sends_accepted_total 3\n`)
	// Without Temporal nothing starts: the three sends wait in the outbox.
	has(t, res.Body, `herald_outbox_backlog 3\n`)
	has(t, res.Body, `herald_outbox_oldest_seconds \d`)
	has(t, res.Body, `go_goroutines \d+`)
}

func TestMetricsCanBeTurnedOff(t *testing.T) {
	e := stacktest.New(t, stacktest.Options{Configure: func(c *config.Config) { c.Ops.Metrics = false }})
	if res := e.Do("GET", "/metrics", nil, e.MetricsHeaders()); res.Status != 404 {
		t.Errorf("/metrics with HERALD_METRICS=false: %d", res.Status)
	}
}
