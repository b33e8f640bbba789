package telemetry

import (
	"context"
	"fmt"
	"time"

	"go.opentelemetry.io/otel/exporters/otlp/otlptrace"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracegrpc"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	semconv "go.opentelemetry.io/otel/semconv/v1.26.0"
	"go.opentelemetry.io/otel/trace"
)

// Tracing exports spans over OTLP. The exporter reads the standard OTEL_EXPORTER_OTLP_*
// variables (endpoint, headers, timeout, TLS); the sampler OTEL_TRACES_SAMPLER; the
// resource OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES.
type Tracing struct {
	provider *sdktrace.TracerProvider
	// Tracer makes Herald's own spans (HTTP server, relay).
	Tracer trace.Tracer
}

// NewTracing starts the exporter for protocol http/protobuf or grpc.
func NewTracing(ctx context.Context, protocol string) (*Tracing, error) {
	var exp *otlptrace.Exporter
	var err error
	if protocol == "grpc" {
		exp, err = otlptracegrpc.New(ctx)
	} else {
		exp, err = otlptracehttp.New(ctx)
	}
	if err != nil {
		return nil, fmt.Errorf("OTLP trace exporter: %w", err)
	}
	// Later options win: OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES override the defaults.
	res, err := resource.New(ctx, resource.WithTelemetrySDK(),
		resource.WithAttributes(semconv.ServiceName("herald")), resource.WithFromEnv())
	if err != nil {
		return nil, fmt.Errorf("trace resource: %w", err)
	}
	tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(exp), sdktrace.WithResource(res))
	return &Tracing{provider: tp, Tracer: tp.Tracer("github.com/heraldhq/herald")}, nil
}

// Provider returns the tracer provider (for the Temporal interceptor).
func (t *Tracing) Provider() trace.TracerProvider { return t.provider }

// Flush exports the spans ended so far.
func (t *Tracing) Flush(ctx context.Context) error { return t.provider.ForceFlush(ctx) }

// Shutdown flushes and stops the exporter.
func (t *Tracing) Shutdown() {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = t.provider.Shutdown(ctx)
}

// TraceParent returns the W3C traceparent of the span in ctx, or "" when there is none.
func TraceParent(ctx context.Context) string {
	if !trace.SpanContextFromContext(ctx).IsValid() {
		return ""
	}
	c := propagation.MapCarrier{}
	propagation.TraceContext{}.Inject(ctx, c)
	return c["traceparent"]
}

// ContextOf returns ctx with the remote span context of a traceparent.
func ContextOf(ctx context.Context, traceParent string) context.Context {
	return propagation.TraceContext{}.Extract(ctx, propagation.MapCarrier{"traceparent": traceParent})
}
