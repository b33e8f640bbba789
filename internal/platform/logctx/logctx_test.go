package logctx

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"testing"

	"go.opentelemetry.io/otel/trace"
)

func TestHandlerAddsRequestFieldsAndTraceIDs(t *testing.T) {
	var buf bytes.Buffer
	log := slog.New(Wrap(slog.NewJSONHandler(&buf, nil)))
	ctx, _ := With(context.Background(), "req-1")
	SetApp(ctx, 7)
	SetClient(ctx, 3)
	tid, _ := trace.TraceIDFromHex("4bf92f3577b34da6a3ce929d0e0e4736")
	sid, _ := trace.SpanIDFromHex("00f067aa0ba902b7")
	ctx = trace.ContextWithSpanContext(ctx, trace.NewSpanContext(trace.SpanContextConfig{TraceID: tid, SpanID: sid, TraceFlags: trace.FlagsSampled}))
	log.With("component", "test").InfoContext(ctx, "hello", "requestId", "req-1")
	var line map[string]any
	if err := json.Unmarshal(buf.Bytes(), &line); err != nil {
		t.Fatal(err)
	}
	if line["requestId"] != "req-1" || line["appId"] != 7.0 || line["clientId"] != 3.0 || line["component"] != "test" ||
		line["traceId"] != tid.String() || line["spanId"] != sid.String() {
		t.Errorf("log line %v", line)
	}
	if bytes.Count(buf.Bytes(), []byte(`"requestId"`)) != 1 {
		t.Errorf("requestId twice: %s", buf.Bytes())
	}
	buf.Reset()
	log.InfoContext(context.Background(), "plain")
	SetApp(context.Background(), 1) // no fields: nothing happens
	if bytes.Contains(buf.Bytes(), []byte("appId")) || bytes.Contains(buf.Bytes(), []byte("traceId")) {
		t.Errorf("fields without a request: %s", buf.Bytes())
	}
}
