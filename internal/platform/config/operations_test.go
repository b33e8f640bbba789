package config

import (
	"fmt"
	"strings"
	"testing"
)

func TestOperationsSettings(t *testing.T) {
	c, err := Load(func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	o := c.Ops
	if o.QuotaMode != "report" || o.BillingProvider != "none" || len(o.Plans) != 3 || o.Plans[0].ID != "free" || !o.Metrics || o.TracesExporter != "" {
		t.Errorf("defaults %+v", o)
	}
	env := map[string]string{
		"HERALD_QUOTA_MODE": "enforce", "HERALD_BILLING_PROVIDER": "stripe",
		"HERALD_STRIPE_SECRET_KEY": "sk_live_secret", "HERALD_STRIPE_WEBHOOK_SECRET": "whsec_secret",
		"HERALD_PLANS":       `[{"id":"free","name":"Free","monthlyQuota":100},{"id":"team","name":"Team","monthlyQuota":null,"price":900,"stripePriceId":"price_1","maxSendsInFlight":4,"maxProviderCalls":20}]`,
		"HERALD_AI_BASE_URL": "https://user:pw@ai.example.com/v1", "HERALD_AI_MODEL": "m", "HERALD_AI_API_KEY": "sk-ai-secret",
		"OTEL_EXPORTER_OTLP_ENDPOINT": "http://collector:4318", "HERALD_LICENSE_SIGNING_KEY": "seed-secret",
	}
	c, err = Load(func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	if p := c.Ops.Plans[1]; p.MaxSendsInFlight != 4 || p.MaxProviderCalls != 20 || !c.Ops.Plans.HasConcurrencyLimits() {
		t.Errorf("plan limits not loaded: %+v", p)
	}
	if Plans(DefaultPlans()).HasConcurrencyLimits() {
		t.Error("the default plans limit concurrency; they must not (0: no limit)")
	}
	if c.Ops.Plans[1].MonthlyQuota != nil || c.Ops.TracesExporter != "otlp" || c.Ops.TracesProtocol != "http/protobuf" {
		t.Errorf("loaded %+v", c.Ops)
	}
	summary := fmt.Sprint(c.Summary()...)
	for _, secret := range []string{"sk_live_secret", "whsec_secret", "sk-ai-secret", "seed-secret", ":pw@"} {
		if strings.Contains(summary, secret) {
			t.Errorf("the startup summary shows %q: %s", secret, summary)
		}
	}
	for _, want := range []string{"quota", "enforce", "billing", "stripe", "tracing", "otlp"} {
		if !strings.Contains(summary, want) {
			t.Errorf("the summary lacks %q: %s", want, summary)
		}
	}
	env["OTEL_SDK_DISABLED"] = "true"
	if c, _ = Load(func(k string) string { return env[k] }); c.Ops.TracesExporter != "" {
		t.Error("OTEL_SDK_DISABLED=true leaves tracing on")
	}

	bad := map[string]string{
		"HERALD_QUOTA_MODE": "strict", "HERALD_BILLING_PROVIDER": "stripe", "HERALD_PLANS": `[{"id":"Pro!","name":"","price":-1,"maxSendsInFlight":-1,"maxProviderCalls":-2}]`,
		"HERALD_AI_BASE_URL": "ftp://x", "HERALD_METRICS": "maybe", "OTEL_TRACES_EXPORTER": "zipkin", "HERALD_LICENSE_TTL": "0s",
		"OTEL_EXPORTER_OTLP_PROTOCOL": "http/json",
	}
	_, err = Load(func(k string) string { return bad[k] })
	for _, want := range []string{"HERALD_QUOTA_MODE must be off, report or enforce", "HERALD_STRIPE_SECRET_KEY must be set", "HERALD_STRIPE_WEBHOOK_SECRET must be set",
		"HERALD_PLANS[0].id must be", "HERALD_PLANS[0].name should not be empty", "HERALD_PLANS[0].price must be at least 0", "HERALD_PLANS[0].stripePriceId must be set",
		"HERALD_PLANS[0].maxSendsInFlight must be at least 0 (0: no limit), got -1", "HERALD_PLANS[0].maxProviderCalls must be at least 0 (0: no limit), got -2",
		`HERALD_PLANS must include a plan with id "free"`, "HERALD_AI_BASE_URL must be an http(s) URL", "HERALD_AI_MODEL must be set", "HERALD_METRICS must be true or false",
		"OTEL_TRACES_EXPORTER must be otlp or none", "HERALD_LICENSE_TTL must be a positive duration", "OTEL_EXPORTER_OTLP_PROTOCOL must be http/protobuf or grpc"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error %v does not say %q", err, want)
		}
	}
}

// The console summary joins host and port so an IPv6 SMTP host reads as an address.
func TestSummaryJoinsIPv6HostAndPort(t *testing.T) {
	c, err := Load(func(k string) string {
		return map[string]string{"HERALD_SMTP_HOST": "::1", "HERALD_SMTP_PORT": "2525"}[k]
	})
	if err != nil {
		t.Fatal(err)
	}
	if summary := fmt.Sprint(c.Summary()...); !strings.Contains(summary, "[::1]:2525") {
		t.Errorf("summary %s", summary)
	}
}
