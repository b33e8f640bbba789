package stack

import (
	"context"
	"log/slog"

	"github.com/google/uuid"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/interceptor"

	v1 "github.com/heraldhq/herald/api/v1"
	"github.com/heraldhq/herald/api/web"
	"github.com/heraldhq/herald/internal/console/appinsights"
	"github.com/heraldhq/herald/internal/delivery/assistant"
	"github.com/heraldhq/herald/internal/ops/analytics"
	"github.com/heraldhq/herald/internal/ops/billing"
	"github.com/heraldhq/herald/internal/ops/billing/stripeprovider"
	"github.com/heraldhq/herald/internal/ops/license"
	"github.com/heraldhq/herald/internal/ops/usage"
	"github.com/heraldhq/herald/internal/platform/config"
	"github.com/heraldhq/herald/internal/platform/telemetry"
	"github.com/heraldhq/herald/internal/send"
)

// OperationsServices are usage and quotas, billing, licensing, default layouts, the
// assistant, app insights, metrics and tracing.
type OperationsServices struct {
	Metrics *telemetry.Metrics
	// Tracing is nil while tracing is off.
	Tracing   *telemetry.Tracing
	Gate      *usage.Gate
	Usage     *usage.Reports
	Insights  *appinsights.Service
	Billing   *billing.Service
	Licenses  *license.Service
	Assistant *assistant.Service
	// Analytics searches message logs and counts deliveries.
	Analytics *analytics.Service
}

// openTelemetry builds the metrics registry and, when the OTEL_* variables ask for it,
// the trace exporter.
func openTelemetry(ctx context.Context, cfg config.Config) (OperationsServices, error) {
	ops := OperationsServices{Metrics: telemetry.NewMetrics()}
	if cfg.Ops.TracesExporter != "" {
		t, err := telemetry.NewTracing(ctx, cfg.Ops.TracesProtocol)
		if err != nil {
			return ops, err
		}
		ops.Tracing = t
	}
	return ops, nil
}

// temporalOptions adds the SDK metrics and the tracing interceptor to the client options;
// workers built from the client inherit both.
func (o OperationsServices) temporalOptions(opts client.Options, log *slog.Logger) (client.Options, error) {
	mh, err := telemetry.TemporalMetrics(o.Metrics, log.With("component", "temporal-metrics"))
	if err != nil {
		return opts, err
	}
	opts.MetricsHandler = mh
	if o.Tracing != nil {
		ti, err := telemetry.TemporalTracing(o.Tracing)
		if err != nil {
			return opts, err
		}
		opts.Interceptors = append(opts.Interceptors, interceptor.ClientInterceptor(ti))
	}
	return opts, nil
}

// relayTrace is the relay's trace hook, nil while tracing is off.
func (s *Stack) relayTrace() func(context.Context, []uuid.UUID) (context.Context, func(error)) {
	if s.Tracing == nil {
		return nil
	}
	return telemetry.RelayTrace(s.Tracing, func(ctx context.Context, ids []uuid.UUID) ([]string, error) {
		rows, err := s.DB.RequestTraceParents(ctx, ids)
		out := make([]string, 0, len(rows))
		for _, r := range rows {
			out = append(out, r.TraceParent)
		}
		return out, err
	})
}

// openOperations builds the usage, billing, licensing, layout, assistant and insight
// services and hooks the quota, metrics and tracing into the accept path.
func (s *Stack) openOperations(log *slog.Logger) error {
	oc := s.Cfg.Ops
	keys, err := license.ParseKeys(oc.LicenseSigningKey, oc.LicensePublicKey)
	if err != nil {
		return err
	}
	s.Licenses = license.NewService(s.DB, keys, oc.LicenseTTL)
	var provider billing.Provider = billing.None{}
	if oc.BillingProvider == "stripe" {
		provider = stripeprovider.New(stripeprovider.Config{SecretKey: oc.StripeSecretKey, WebhookSecret: oc.StripeWebhookSecret,
			PublishableKey: oc.StripePublishableKey, APIURL: oc.StripeAPIURL})
	}
	s.Billing = billing.NewService(s.DB, provider, billing.NewCatalog(oc.Plans), s.Licenses, log.With("component", "billing"))
	quotas := func(ctx context.Context, clientID int64) (usage.Quota, error) {
		e, err := s.Billing.Entitlement(ctx, clientID)
		return usage.Quota{Plan: e.Plan.ID, PlanName: e.Plan.Name, Monthly: e.MonthlyQuota()}, err
	}
	s.Gate = usage.NewGate(s.DB, oc.QuotaMode, quotas, usage.GateOptions{Margin: int64(oc.QuotaExactMargin), Shared: s.Limits,
		OnRefused: func() { s.Metrics.Refused("quota") }})
	s.Usage = usage.NewReports(s.DB, quotas, oc.QuotaMode)
	s.Insights = appinsights.NewService(s.DB)
	s.Assistant = assistant.New(assistant.Config{BaseURL: oc.AIBaseURL, APIKey: oc.AIAPIKey, Model: oc.AIModel, Timeout: oc.AITimeout})

	hooks := send.Hooks{Accepted: func(int64) { s.Metrics.Accepted() }, Overrides: s.Channels.CheckOverride}
	if oc.QuotaMode == usage.Enforce {
		hooks.Quota = s.Gate
	}
	if s.Tracing != nil {
		hooks.TraceParent = telemetry.TraceParent
	}
	s.Notify.SetHooks(hooks)
	s.Metrics.Gauge("herald_outbox_backlog", "Send requests waiting for their workflow to start.", func(ctx context.Context) (float64, error) {
		b, err := s.DB.OutboxBacklog(ctx)
		return float64(b.Waiting), err
	})
	s.Metrics.Gauge("herald_outbox_oldest_seconds", "Age of the oldest send request waiting for its workflow to start.", func(ctx context.Context) (float64, error) {
		b, err := s.DB.OutboxBacklog(ctx)
		return b.OldestSeconds, err
	})
	return nil
}

// operationsHandlers are the /v1 handlers of usage, billing, licensing and the assistant.
func (s *Stack) operationsHandlers(console *v1.Console) *v1.Operations {
	return &v1.Operations{Console: console, Notify: s.Notify, Usage: s.Usage, Gate: s.Gate, Insights: s.Insights,
		Billing: s.Billing, Licenses: s.Licenses, Templates: s.Templates, Assistant: s.Assistant}
}

// httpTelemetry is the request middleware: metrics, log fields, and spans when tracing.
func (s *Stack) httpTelemetry() telemetry.HTTPOptions {
	o := telemetry.HTTPOptions{RequestID: web.RequestID}
	if s.Cfg.Ops.Metrics {
		o.Metrics = s.Metrics
	}
	if s.Tracing != nil {
		o.Tracer = s.Tracing.Tracer
	}
	return o
}
