package config

import (
	"encoding/json"
	"net"
	"net/url"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	herald "github.com/heraldhq/herald"
)

// OperationsConfig configures usage quotas, billing, licensing, the assistant, metrics and
// tracing.
type OperationsConfig struct {
	// QuotaMode is off, report (count and show usage against the plan, never refuse) or
	// enforce (sends over the monthly quota answer 429) (HERALD_QUOTA_MODE).
	QuotaMode string
	// QuotaExactMargin is how close to its quota a client must be before each send is
	// checked exactly, under a per-client lock; farther away a cached count decides
	// (HERALD_QUOTA_EXACT_MARGIN). It must exceed what all API processes accept for one
	// client in about a second.
	QuotaExactMargin int
	// BillingProvider is none (self-hosted: everyone on the free plan, no charges) or stripe
	// (HERALD_BILLING_PROVIDER).
	BillingProvider string
	// Stripe* configure the Stripe provider (HERALD_STRIPE_SECRET_KEY,
	// HERALD_STRIPE_WEBHOOK_SECRET, HERALD_STRIPE_PUBLISHABLE_KEY, HERALD_STRIPE_API_URL);
	// the API URL is for tests and proxies.
	StripeSecretKey, StripeWebhookSecret, StripePublishableKey, StripeAPIURL string
	// Plans are the plans on offer (HERALD_PLANS, a JSON array); one must be "free".
	Plans []PlanConfig
	// LicenseSigningKey issues licenses (HERALD_LICENSE_SIGNING_KEY: base64 Ed25519 seed or
	// private key; only on the licensing server). LicensePublicKey verifies them
	// (HERALD_LICENSE_PUBLIC_KEY: base64 Ed25519 public key; defaults to the signing key's).
	LicenseSigningKey, LicensePublicKey string
	// LicenseTTL is how long an issued license lasts (HERALD_LICENSE_TTL).
	LicenseTTL time.Duration
	// AI* configure the assistant's OpenAI-compatible chat completions endpoint
	// (HERALD_AI_BASE_URL, HERALD_AI_API_KEY, HERALD_AI_MODEL, HERALD_AI_TIMEOUT); off
	// while the base URL is empty.
	AIBaseURL, AIAPIKey, AIModel string
	AITimeout                    time.Duration
	// Metrics serves Prometheus metrics at /metrics on the API (HERALD_METRICS, default
	// true). MetricsAddr serves them on a listener of their own instead, which is how the
	// worker exposes its metrics (HERALD_METRICS_ADDR).
	Metrics     bool
	MetricsAddr string
	// TracesExporter is otlp when tracing is on, "" when off. It comes from the standard
	// variables: OTEL_TRACES_EXPORTER=otlp, or an OTEL_EXPORTER_OTLP_(TRACES_)ENDPOINT, and
	// not OTEL_SDK_DISABLED=true. The exporter reads its other OTEL_* variables itself.
	TracesExporter string
	// TracesProtocol is http/protobuf or grpc (OTEL_EXPORTER_OTLP_TRACES_PROTOCOL or
	// OTEL_EXPORTER_OTLP_PROTOCOL).
	TracesProtocol string
}

// PlanConfig is one plan on offer.
type PlanConfig struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	// MonthlyQuota is the notifications a client may send a month; null means unlimited.
	MonthlyQuota *int64 `json:"monthlyQuota"`
	// Price is the monthly price in the currency's minor unit (cents).
	Price    int64  `json:"price"`
	Currency string `json:"currency"`
	// StripePriceID is the Stripe price of a paid plan.
	StripePriceID string `json:"stripePriceId,omitempty"`
}

// FreePlan is the id of the plan every client has without a subscription or license.
const FreePlan = "free"

func quota(n int64) *int64 { return &n }

// DefaultPlans are the plans when HERALD_PLANS is not set.
func DefaultPlans() []PlanConfig {
	return []PlanConfig{
		{ID: FreePlan, Name: "Free", MonthlyQuota: quota(10_000), Currency: "usd"},
		{ID: "pro", Name: "Pro", MonthlyQuota: quota(100_000), Price: 4900, Currency: "usd"},
		{ID: "business", Name: "Business", MonthlyQuota: quota(1_000_000), Price: 24900, Currency: "usd"},
	}
}

func operationsDefaults() OperationsConfig {
	return OperationsConfig{
		QuotaMode:        "report",
		QuotaExactMargin: 1000,
		BillingProvider:  "none",
		Plans:            DefaultPlans(),
		LicenseTTL:       365 * 24 * time.Hour,
		AITimeout:        60 * time.Second,
		Metrics:          true,
	}
}

var planID = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]{0,31}$`)

// loadOperations reads the quota, billing, licensing, assistant and telemetry variables.
func loadOperations(getenv func(string) string, c *Config, p *herald.Problems) {
	o := &c.Ops
	str := func(name string, dst *string) {
		if v := strings.TrimSpace(getenv(name)); v != "" {
			*dst = v
		}
	}
	str("HERALD_QUOTA_MODE", &o.QuotaMode)
	if v := strings.TrimSpace(getenv("HERALD_QUOTA_EXACT_MARGIN")); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			p.Addf("HERALD_QUOTA_EXACT_MARGIN must be an integer of at least 0, got %q", v)
		} else {
			o.QuotaExactMargin = n
		}
	}
	str("HERALD_BILLING_PROVIDER", &o.BillingProvider)
	o.StripeSecretKey = strings.TrimSpace(getenv("HERALD_STRIPE_SECRET_KEY"))
	o.StripeWebhookSecret = strings.TrimSpace(getenv("HERALD_STRIPE_WEBHOOK_SECRET"))
	str("HERALD_STRIPE_PUBLISHABLE_KEY", &o.StripePublishableKey)
	str("HERALD_STRIPE_API_URL", &o.StripeAPIURL)
	if v := strings.TrimSpace(getenv("HERALD_PLANS")); v != "" {
		var plans []PlanConfig
		if err := json.Unmarshal([]byte(v), &plans); err != nil {
			p.Addf("HERALD_PLANS must be a JSON array of {id, name, monthlyQuota, price, currency, stripePriceId}: %v", err)
		} else {
			o.Plans = plans
		}
	}
	o.LicenseSigningKey = strings.TrimSpace(getenv("HERALD_LICENSE_SIGNING_KEY"))
	str("HERALD_LICENSE_PUBLIC_KEY", &o.LicensePublicKey)
	if v := strings.TrimSpace(getenv("HERALD_LICENSE_TTL")); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			p.Addf("HERALD_LICENSE_TTL must be a positive duration such as 8760h, got %q", v)
		} else {
			o.LicenseTTL = d
		}
	}
	str("HERALD_AI_BASE_URL", &o.AIBaseURL)
	o.AIAPIKey = strings.TrimSpace(getenv("HERALD_AI_API_KEY"))
	str("HERALD_AI_MODEL", &o.AIModel)
	if v := strings.TrimSpace(getenv("HERALD_AI_TIMEOUT")); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			p.Addf("HERALD_AI_TIMEOUT must be a positive duration such as 60s, got %q", v)
		} else {
			o.AITimeout = d
		}
	}
	if v := strings.TrimSpace(getenv("HERALD_METRICS")); v != "" {
		b, err := strconv.ParseBool(v)
		if err != nil {
			p.Addf("HERALD_METRICS must be true or false, got %q", v)
		} else {
			o.Metrics = b
		}
	}
	str("HERALD_METRICS_ADDR", &o.MetricsAddr)
	loadTracing(getenv, o, p)
	o.check(p)
}

// loadTracing decides from the standard OTEL_* variables whether traces are exported.
func loadTracing(getenv func(string) string, o *OperationsConfig, p *herald.Problems) {
	exporter := strings.ToLower(strings.TrimSpace(getenv("OTEL_TRACES_EXPORTER")))
	endpoint := getenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") + getenv("OTEL_EXPORTER_OTLP_ENDPOINT")
	disabled, _ := strconv.ParseBool(strings.TrimSpace(getenv("OTEL_SDK_DISABLED")))
	switch {
	case disabled || exporter == "none":
	case exporter == "otlp" || (exporter == "" && strings.TrimSpace(endpoint) != ""):
		o.TracesExporter = "otlp"
	case exporter != "":
		p.Addf("OTEL_TRACES_EXPORTER must be otlp or none, got %q", exporter)
	}
	o.TracesProtocol = "http/protobuf"
	for _, name := range []string{"OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", "OTEL_EXPORTER_OTLP_PROTOCOL"} {
		if v := strings.TrimSpace(getenv(name)); v != "" {
			if v != "http/protobuf" && v != "grpc" {
				p.Addf("%s must be http/protobuf or grpc, got %q", name, v)
			}
			o.TracesProtocol = v
			break
		}
	}
}

func (o *OperationsConfig) check(p *herald.Problems) {
	switch o.QuotaMode {
	case "off", "report", "enforce":
	default:
		p.Addf("HERALD_QUOTA_MODE must be off, report or enforce, got %q", o.QuotaMode)
	}
	switch o.BillingProvider {
	case "none":
	case "stripe":
		if o.StripeSecretKey == "" {
			p.Addf("HERALD_STRIPE_SECRET_KEY must be set with HERALD_BILLING_PROVIDER=stripe")
		}
		if o.StripeWebhookSecret == "" {
			p.Addf("HERALD_STRIPE_WEBHOOK_SECRET must be set with HERALD_BILLING_PROVIDER=stripe (the endpoint's signing secret, whsec_…)")
		}
	default:
		p.Addf("HERALD_BILLING_PROVIDER must be none or stripe, got %q", o.BillingProvider)
	}
	if o.StripeAPIURL != "" {
		if u, err := url.Parse(o.StripeAPIURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			p.Addf("HERALD_STRIPE_API_URL must be an http(s) URL, got %q", o.StripeAPIURL)
		}
	}
	if o.AIBaseURL != "" {
		if u, err := url.Parse(o.AIBaseURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			p.Addf("HERALD_AI_BASE_URL must be an http(s) URL such as https://api.openai.com/v1, got %q", o.AIBaseURL)
		}
		if o.AIModel == "" {
			p.Addf("HERALD_AI_MODEL must be set with HERALD_AI_BASE_URL")
		}
	}
	checkPlans(o, p)
}

func checkPlans(o *OperationsConfig, p *herald.Problems) {
	seen := map[string]bool{}
	for i, pl := range o.Plans {
		if !planID.MatchString(pl.ID) {
			p.Addf("HERALD_PLANS[%d].id must be 1 to 32 lowercase letters, digits, - or _, got %q", i, pl.ID)
		}
		if seen[pl.ID] {
			p.Addf("HERALD_PLANS lists plan %q twice", pl.ID)
		}
		seen[pl.ID] = true
		if strings.TrimSpace(pl.Name) == "" {
			p.Addf("HERALD_PLANS[%d].name should not be empty", i)
		}
		if pl.MonthlyQuota != nil && *pl.MonthlyQuota < 0 {
			p.Addf("HERALD_PLANS[%d].monthlyQuota must be at least 0 (or null for unlimited)", i)
		}
		if pl.Price < 0 {
			p.Addf("HERALD_PLANS[%d].price must be at least 0", i)
		}
		if pl.ID == FreePlan && pl.Price != 0 {
			p.Addf("HERALD_PLANS: the free plan must have price 0")
		}
		if o.BillingProvider == "stripe" && pl.ID != FreePlan && pl.StripePriceID == "" {
			p.Addf("HERALD_PLANS[%d].stripePriceId must be set with HERALD_BILLING_PROVIDER=stripe", i)
		}
	}
	if !seen[FreePlan] {
		p.Addf("HERALD_PLANS must include a plan with id \"free\"")
	}
}

// summary describes the console settings with secrets masked.
func (cc ConsoleConfig) summary(dataDir string) []any {
	smtp := "log (HERALD_SMTP_HOST unset)"
	if cc.SMTPHost != "" {
		smtp = net.JoinHostPort(cc.SMTPHost, strconv.Itoa(cc.SMTPPort))
	}
	files := "dir " + cc.FilesDir
	if cc.FilesDir == "" {
		files = "dir " + filepath.Join(dataDir, "files")
	}
	if cc.FilesS3Bucket != "" {
		files = "s3 " + cc.FilesS3Endpoint + "/" + cc.FilesS3Bucket
	}
	captcha, codehost := "off", "off"
	if cc.CaptchaSecret != "" {
		captcha = "on"
	}
	if cc.CodeHostClientID != "" {
		codehost = cc.CodeHostName
	}
	return []any{"console", cc.URL, "smtp", smtp, "files", files, "captcha", captcha, "codehost", codehost}
}

// summary describes the operations settings with secrets masked.
func (o OperationsConfig) summary() []any {
	set := func(s string) string {
		if s == "" {
			return "unset"
		}
		return "set"
	}
	ai := "off"
	if o.AIBaseURL != "" {
		ai = MaskURL(o.AIBaseURL) + " model=" + o.AIModel + " key=" + set(o.AIAPIKey)
	}
	tracing := "off"
	if o.TracesExporter != "" {
		tracing = o.TracesExporter + " " + o.TracesProtocol
	}
	metrics := "off"
	if o.Metrics {
		metrics = "/metrics"
		if o.MetricsAddr != "" {
			metrics = o.MetricsAddr + "/metrics"
		}
	}
	return []any{
		"quota", o.QuotaMode, "billing", o.BillingProvider, "stripeKey", set(o.StripeSecretKey),
		"stripeWebhookSecret", set(o.StripeWebhookSecret), "plans", len(o.Plans),
		"licenseSigningKey", set(o.LicenseSigningKey), "licensePublicKey", set(o.LicensePublicKey),
		"assistant", ai, "metrics", metrics, "tracing", tracing,
	}
}
