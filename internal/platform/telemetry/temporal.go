package telemetry

import (
	"context"
	"log/slog"

	"github.com/google/uuid"
	otelprom "go.opentelemetry.io/otel/exporters/prometheus"
	"go.opentelemetry.io/otel/propagation"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/trace"
	"go.temporal.io/sdk/client"
	temporalotel "go.temporal.io/sdk/contrib/opentelemetry"
	"go.temporal.io/sdk/interceptor"
)

// TemporalMetrics returns a Temporal metrics handler that feeds the SDK's metrics (worker
// task slots and latencies, workflow and activity outcomes, client requests) into the
// registry of m, through OpenTelemetry's Prometheus bridge.
func TemporalMetrics(m *Metrics, log *slog.Logger) (client.MetricsHandler, error) {
	exp, err := otelprom.New(otelprom.WithRegisterer(m.Registry), otelprom.WithoutScopeInfo(), otelprom.WithoutTargetInfo())
	if err != nil {
		return nil, err
	}
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(exp))
	return temporalotel.NewMetricsHandler(temporalotel.MetricsHandlerOptions{
		Meter:   mp.Meter("temporal-sdk-go"),
		OnError: func(err error) { log.Warn("temporal metrics", "error", err) },
	}), nil
}

// TemporalTracing returns the interceptor that carries the trace from the client that
// starts a workflow into the workflow and each of its activities (W3C trace context in the
// Temporal headers). Workers built from a client with it trace their tasks too.
func TemporalTracing(t *Tracing) (interceptor.Interceptor, error) {
	return temporalotel.NewTracingInterceptor(temporalotel.TracerOptions{
		Tracer:            t.provider.Tracer("temporal-sdk-go"),
		TextMapPropagator: propagation.TraceContext{},
		DisableBaggage:    true,
	})
}

// RelayTrace returns the relay's trace hook: the start of a workflow becomes a span in the
// trace of the first request it carries (read with parents), linked to the traces of the
// others, so the Temporal interceptor continues that trace into the workflow.
func RelayTrace(t *Tracing, parents func(ctx context.Context, ids []uuid.UUID) ([]string, error)) func(context.Context, []uuid.UUID) (context.Context, func(error)) {
	return func(ctx context.Context, ids []uuid.UUID) (context.Context, func(error)) {
		tps, err := parents(ctx, ids)
		if err != nil || len(tps) == 0 {
			return ctx, func(error) {}
		}
		parent := ContextOf(ctx, tps[0])
		var links []trace.Link
		for _, tp := range tps[1:] {
			if sc := trace.SpanContextFromContext(ContextOf(ctx, tp)); sc.IsValid() {
				links = append(links, trace.Link{SpanContext: sc})
			}
		}
		sctx, span := t.Tracer.Start(parent, "relay start workflow", trace.WithLinks(links...), trace.WithSpanKind(trace.SpanKindProducer))
		return sctx, func(err error) {
			if err != nil {
				span.RecordError(err)
			}
			span.End()
		}
	}
}
