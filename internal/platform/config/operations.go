package config

import (
	"encoding/json"
	"errors"
	"net"
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
	// enforce (sends over the monthly quota answer 429).
	QuotaMode string `env:"HERALD_QUOTA_MODE" envDefault:"report" oneof:"off report enforce" example:"enforce" desc:"off, report (usage is shown against the plan, sends are never refused) or enforce (sends over the monthly quota answer 429)"`
	// QuotaExactMargin is how close to its quota a client must be before each send is
	// checked exactly, under a per-client lock; farther away a cached count and blocks
	// reserved from the shared store (which hand out at most the quota less the margin over
	// all API processes) decide.
	QuotaExactMargin int `env:"HERALD_QUOTA_EXACT_MARGIN" envDefault:"1000" min:"0" example:"5000" desc:"within this many notifications of its quota a client's sends are counted exactly under a per-client lock; farther away the API processes admit them from blocks reserved in the shared store (Postgres, or Redis with HERALD_REDIS_URL), at most the quota less this margin in total"`
	// BillingProvider is none (self-hosted: everyone on the free plan, no charges) or stripe.
	BillingProvider string `env:"HERALD_BILLING_PROVIDER" envDefault:"none" oneof:"none stripe" example:"stripe" desc:"none (self-hosted: free plan, no charges) or stripe"`
	// Stripe* configure the Stripe provider; the API URL is for tests and proxies.
	StripeSecretKey      string `env:"HERALD_STRIPE_SECRET_KEY" secret:"true" example:"sk_live_example" desc:"Stripe API key (required with stripe)"`
	StripeWebhookSecret  string `env:"HERALD_STRIPE_WEBHOOK_SECRET" secret:"true" example:"whsec_example" desc:"signing secret (whsec_…) of the /v1/webhook/payments endpoint (required with stripe)"`
	StripePublishableKey string `env:"HERALD_STRIPE_PUBLISHABLE_KEY" example:"pk_live_example" desc:"handed to the console with setup intents"`
	StripeAPIURL         string `env:"HERALD_STRIPE_API_URL" format:"url" dflt:"Stripe's" example:"http://127.0.0.1:12111" desc:"another base URL for the Stripe API (tests, proxies)"`
	// Plans are the plans on offer; one must be "free".
	Plans Plans `env:"HERALD_PLANS" envDefault:"[{\"id\":\"free\",\"name\":\"Free\",\"monthlyQuota\":10000,\"currency\":\"usd\"},{\"id\":\"pro\",\"name\":\"Pro\",\"monthlyQuota\":100000,\"price\":4900,\"currency\":\"usd\"},{\"id\":\"business\",\"name\":\"Business\",\"monthlyQuota\":1000000,\"price\":24900,\"currency\":\"usd\"}]" dflt:"free 10,000 · pro 100,000 ($49) · business 1,000,000 ($249)" example:"[{\"id\":\"free\",\"name\":\"Free\",\"monthlyQuota\":100,\"maxProviderCalls\":4},{\"id\":\"team\",\"name\":\"Team\",\"monthlyQuota\":null,\"price\":900,\"stripePriceId\":\"price_1\",\"maxSendsInFlight\":8,\"maxProviderCalls\":32}]" desc:"the plans on offer, a JSON array of {id, name, monthlyQuota (null: unlimited), price (cents), currency, stripePriceId, maxSendsInFlight, maxProviderCalls}; one must be free. maxSendsInFlight bounds an app's send runs in flight and maxProviderCalls its provider calls in flight, across all processes (0 or absent: no limit); over them sends wait, nothing is dropped"`
	// LicenseSigningKey issues licenses (base64 Ed25519 seed or private key; only on the
	// licensing server). LicensePublicKey verifies them (base64 Ed25519 public key; defaults
	// to the signing key's).
	LicenseSigningKey string `env:"HERALD_LICENSE_SIGNING_KEY" secret:"true" example:"c2VlZA==" desc:"licensing server only: base64 Ed25519 seed (32 bytes) or private key (64 bytes) that signs licenses"`
	LicensePublicKey  string `env:"HERALD_LICENSE_PUBLIC_KEY" dflt:"the signing key's" example:"cHVibGlj" desc:"base64 Ed25519 public key that verifies licenses pushed to /v1/webhook/licensing-server"`
	// LicenseTTL is how long an issued license lasts.
	LicenseTTL time.Duration `env:"HERALD_LICENSE_TTL" envDefault:"8760h" min:"1ns" example:"720h" desc:"lifetime of an issued license (shorter when the paid period ends sooner)"`
	// AI* configure the assistant's OpenAI-compatible chat completions endpoint; off while
	// the base URL is empty.
	AIBaseURL string        `env:"HERALD_AI_BASE_URL" format:"url" secret:"url" example:"https://api.openai.com/v1" expect:"an http(s) URL such as https://api.openai.com/v1" desc:"OpenAI-compatible API root for the assistant; unset: /v1/ai answers 503"`
	AIAPIKey  string        `env:"HERALD_AI_API_KEY" secret:"true" example:"sk-example" desc:"sent as Authorization: Bearer"`
	AIModel   string        `env:"HERALD_AI_MODEL" example:"gpt-4o-mini" desc:"model name (required with the base URL)"`
	AITimeout time.Duration `env:"HERALD_AI_TIMEOUT" envDefault:"60s" min:"1ns" example:"30s" desc:"bound of one assistant call"`
	// Metrics serves Prometheus metrics at /metrics on a listener of its own, MetricsAddr
	// (loopback by default: the counters are not for the public). MetricsToken also serves
	// them on the API's listener, to callers sending it as a bearer token, and is then
	// required on the metrics listener too.
	Metrics      bool   `env:"HERALD_METRICS" envDefault:"true" example:"false" desc:"serve Prometheus metrics at /metrics"`
	MetricsAddr  string `env:"HERALD_METRICS_ADDR" envDefault:"127.0.0.1:9464" example:"10.0.0.5:9464" desc:"the metrics listener's host:port (loopback by default; in a container 0.0.0.0:9464 with the port published only to the scraper); off: no listener of its own"`
	MetricsToken string `env:"HERALD_METRICS_TOKEN" secret:"true" example:"mtok-4f9a0c2e7b1d6a3f8e5c0b9d2a7f4e1c" desc:"also serve /metrics on the API's listener, to requests with Authorization: Bearer <token>, and require it on the metrics listener too (which may then listen beyond loopback, as the Helm chart does for its ServiceMonitor); at least 32 characters; unset: not on the API, and the metrics listener asks for none"`
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
	// MaxSendsInFlight bounds the send runs of one app started and not finished (recipients
	// not all resolved yet) at a time, across every relay; 0 means no limit. Over it the
	// app's further requests stay queued at the relay while other apps' go on.
	MaxSendsInFlight int `json:"maxSendsInFlight,omitempty"`
	// MaxProviderCalls bounds one app's provider calls (email, SMS, push, chat, webhook) in
	// flight at a time, across every worker; 0 means no limit. Over it the app's messages
	// wait on a durable timer (the message log says why) and are tried again.
	MaxProviderCalls int `json:"maxProviderCalls,omitempty"`
}

// HasConcurrencyLimits reports whether any plan bounds its apps' sends in flight or
// provider calls: without one, the send path never looks a plan up for them.
func (ps Plans) HasConcurrencyLimits() bool {
	for _, p := range ps {
		if p.MaxSendsInFlight > 0 || p.MaxProviderCalls > 0 {
			return true
		}
	}
	return false
}

// FreePlan is the id of the plan every client has without a subscription or license.
const FreePlan = "free"

// DefaultPlans are the plans when HERALD_PLANS is not set.
func DefaultPlans() []PlanConfig { return Defaults().Ops.Plans }

// parsePlans reads HERALD_PLANS; checkPlans checks its content.
func parsePlans(v string) (Plans, error) {
	var plans Plans
	if err := json.Unmarshal([]byte(v), &plans); err != nil || plans == nil {
		if err == nil {
			err = errors.New("got null")
		}
		return nil, problems{" must be a JSON array of {id, name, monthlyQuota, price, currency, stripePriceId, maxSendsInFlight, maxProviderCalls}: " + err.Error()}
	}
	return plans, nil
}

var planID = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]{0,31}$`)

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

// MinMetricsTokenLength is the shortest HERALD_METRICS_TOKEN accepted.
const MinMetricsTokenLength = 32

// check checks the settings that depend on each other.
func (o *OperationsConfig) check(p *herald.Problems) {
	if o.BillingProvider == "stripe" {
		if o.StripeSecretKey == "" {
			p.Addf("HERALD_STRIPE_SECRET_KEY must be set with HERALD_BILLING_PROVIDER=stripe")
		}
		if o.StripeWebhookSecret == "" {
			p.Addf("HERALD_STRIPE_WEBHOOK_SECRET must be set with HERALD_BILLING_PROVIDER=stripe (the endpoint's signing secret, whsec_…)")
		}
	}
	if strings.EqualFold(o.MetricsAddr, "off") {
		o.MetricsAddr = ""
	} else if _, _, err := net.SplitHostPort(o.MetricsAddr); err != nil {
		p.Addf("HERALD_METRICS_ADDR must be host:port or off, got %q", o.MetricsAddr)
	}
	if o.MetricsToken != "" && len(o.MetricsToken) < MinMetricsTokenLength {
		p.Addf("HERALD_METRICS_TOKEN must be at least %d characters (for example `openssl rand -base64 32`)", MinMetricsTokenLength)
	}
	if o.Metrics && o.MetricsAddr == "" && o.MetricsToken == "" {
		p.Addf("HERALD_METRICS_ADDR=off needs HERALD_METRICS_TOKEN (or HERALD_METRICS=false): /metrics is never served on the API without a token")
	}
	if o.AIBaseURL != "" && o.AIModel == "" {
		p.Addf("HERALD_AI_MODEL must be set with HERALD_AI_BASE_URL")
	}
	if o.Plans != nil { // nil: HERALD_PLANS did not parse, which is reported
		checkPlans(o, p)
	}
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
		if pl.MaxSendsInFlight < 0 {
			p.Addf("HERALD_PLANS[%d].maxSendsInFlight must be at least 0 (0: no limit), got %d", i, pl.MaxSendsInFlight)
		}
		if pl.MaxProviderCalls < 0 {
			p.Addf("HERALD_PLANS[%d].maxProviderCalls must be at least 0 (0: no limit), got %d", i, pl.MaxProviderCalls)
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
		var at []string
		if o.MetricsAddr != "" {
			at = append(at, o.MetricsAddr+"/metrics")
		}
		if o.MetricsToken != "" {
			at = append(at, "the API's /metrics (bearer token)")
		}
		metrics = strings.Join(at, " and ")
	}
	return []any{
		"quota", o.QuotaMode, "billing", o.BillingProvider, "stripeKey", set(o.StripeSecretKey),
		"stripeWebhookSecret", set(o.StripeWebhookSecret), "plans", len(o.Plans),
		"licenseSigningKey", set(o.LicenseSigningKey), "licensePublicKey", set(o.LicensePublicKey),
		"assistant", ai, "metrics", metrics, "tracing", tracing,
	}
}
