package integration

import (
	"context"
	"encoding/hex"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	coltracepb "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	"google.golang.org/protobuf/proto"

	"github.com/heraldhq/herald/internal/platform/config"
	"github.com/heraldhq/herald/internal/testkit/stacktest"
)

// collector is a local OTLP/HTTP trace receiver recording the spans it gets.
type collector struct {
	*httptest.Server
	mu    sync.Mutex
	spans []span
}

type span struct{ name, trace, id, parent string }

func newCollector(t *testing.T) *collector {
	c := &collector{}
	c.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var req coltracepb.ExportTraceServiceRequest
		if r.URL.Path != "/v1/traces" || proto.Unmarshal(body, &req) != nil {
			http.Error(w, "bad export", http.StatusBadRequest)
			return
		}
		c.mu.Lock()
		for _, rs := range req.ResourceSpans {
			for _, ss := range rs.ScopeSpans {
				for _, s := range ss.Spans {
					c.spans = append(c.spans, span{name: s.Name, trace: hex.EncodeToString(s.TraceId), id: hex.EncodeToString(s.SpanId), parent: hex.EncodeToString(s.ParentSpanId)})
				}
			}
		}
		c.mu.Unlock()
		w.Header().Set("Content-Type", "application/x-protobuf")
		_, _ = w.Write(nil)
	}))
	t.Cleanup(c.Close)
	return c
}

// find returns the first span of the trace whose name starts with prefix.
func (c *collector) find(trace, prefix string) *span {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, s := range c.spans {
		if s.trace == trace && strings.HasPrefix(s.name, prefix) {
			return &s
		}
	}
	return nil
}

// TestOneTraceFromTheAPIToEachActivity sends with a W3C traceparent and finds the API's
// span, the relay's, the workflow's and the activities' in that one trace, exported over
// OTLP to a collector of the test.
func TestOneTraceFromTheAPIToEachActivity(t *testing.T) {
	col := newCollector(t)
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", col.URL)
	e := stacktest.New(t, stacktest.Options{Temporal: true, Configure: func(c *config.Config) {
		c.Ops.TracesExporter, c.Ops.TracesProtocol = "otlp", "http/protobuf"
	}})
	const traceID, parentID = "4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7"
	h := e.AppHeaders()
	h["traceparent"] = "00-" + traceID + "-" + parentID + "-01"
	res := e.Do("POST", "/v3/notifications", `{"notification":{"title":"Traced"},"sendTo":{"recipients":["tracy"]}}`, h)
	if res.Status != 202 {
		t.Fatalf("send: %d %s", res.Status, res.Body)
	}
	e.Eventually(30*time.Second, "the notification in the inbox", func() bool { return len(inbox(t, e, "tracy").Data) == 1 })
	e.Eventually(30*time.Second, "the workflow's span", func() bool {
		_ = e.Stack.Tracing.Flush(context.Background())
		return col.find(traceID, "RunWorkflow:") != nil && col.find(traceID, "RunActivity:") != nil
	})
	api := col.find(traceID, "POST /v3/notifications")
	if api == nil || api.parent != parentID {
		t.Fatalf("API span %+v: want a child of the caller's span %s", api, parentID)
	}
	relay := col.find(traceID, "relay start workflow")
	if relay == nil || relay.parent != api.id {
		t.Fatalf("relay span %+v: want a child of the API span %s", relay, api.id)
	}
	start := col.find(traceID, "StartWorkflow:")
	if start == nil || start.parent != relay.id {
		t.Fatalf("StartWorkflow span %+v: want a child of the relay span", start)
	}
	run := col.find(traceID, "RunWorkflow:")
	if run.parent != start.id {
		t.Errorf("RunWorkflow span %+v: want a child of StartWorkflow %s", run, start.id)
	}
	// The request log fields and the trace reach the metrics too: one request counted.
	metrics := e.Do("GET", "/metrics", nil, e.MetricsHeaders())
	if !regexp.MustCompile(`herald_http_request_duration_seconds_count\{method="POST",route="/v3/notifications",status="202"\} 1`).Match(metrics.Body) {
		t.Errorf("metrics lack the send:\n%s", metrics.Body)
	}
	if !strings.Contains(string(metrics.Body), "temporal_request") {
		t.Errorf("metrics lack the Temporal SDK's")
	}
}
