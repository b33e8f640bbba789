// Package config reads Herald's typed configuration from HERALD_* environment variables,
// with defaults in code so that a bare `herald dev` runs on a developer machine.
package config

import (
	"fmt"
	"log/slog"
	"math"
	"net"
	"strconv"
	"strings"
	"time"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/internal/platform/netguard"
)

// Config is the whole configuration of one Herald process.
type Config struct {
	// HTTPAddr is where the API listens (HERALD_HTTP_ADDR).
	HTTPAddr string
	// DatabaseURL is the Postgres connection string (HERALD_DATABASE_URL).
	DatabaseURL string
	// TemporalAddress is the Temporal frontend host:port (HERALD_TEMPORAL_ADDRESS).
	TemporalAddress string
	// TemporalNamespace is the Temporal namespace (HERALD_TEMPORAL_NAMESPACE).
	TemporalNamespace string
	// TaskQueue is the Temporal task queue the worker polls (HERALD_TASK_QUEUE).
	TaskQueue string
	// SecretKey encrypts stored secrets (HERALD_SECRET_KEY). Never logged.
	SecretKey string
	// HeaderPrefix prefixes the credential headers (HERALD_HEADER_PREFIX), "X-SERVICE-" by default.
	HeaderPrefix string
	// LogLevel is debug, info, warn or error (HERALD_LOG_LEVEL).
	LogLevel slog.Level
	// LogFormat is text or json (HERALD_LOG_FORMAT).
	LogFormat string
	// SendRateLimit is how many sends per second each app may make through one API process
	// (HERALD_SEND_RATE_LIMIT); 0 means no limit. N API processes allow N times as many.
	SendRateLimit float64
	// SendRateBurst is how many sends an app may make at once after a quiet period
	// (HERALD_SEND_RATE_BURST); 0 means one second's worth of SendRateLimit.
	SendRateBurst int
	// BodyLimit is the largest request body accepted, in bytes (HERALD_BODY_LIMIT).
	BodyLimit int
	// DBMaxConns caps the Postgres pool (HERALD_DB_MAX_CONNS).
	DBMaxConns int
	// RelayPackSize is the most requests the outbox relay packs into one workflow run
	// (HERALD_RELAY_PACK_SIZE). The default, 50, is the most request ids the run's search
	// attribute HeraldRequestId can list under Temporal's default 2 KB value limit.
	RelayPackSize int
	// RelayPackWindow is how long the relay waits to gather requests into one run
	// (HERALD_RELAY_PACK_WINDOW).
	RelayPackWindow time.Duration
	// RelayBusyRuns and RelayBusyWindow: when the relay started more than RelayBusyRuns
	// workflow runs in the last second, it gathers requests for RelayBusyWindow instead of
	// RelayPackWindow, so runs carry more sends each under load (HERALD_RELAY_BUSY_RUNS,
	// HERALD_RELAY_BUSY_WINDOW; 0 runs turns it off).
	RelayBusyRuns   int
	RelayBusyWindow time.Duration
	// RelayPollInterval is how often the relay looks for requests whose start failed or whose
	// accepting process died (HERALD_RELAY_POLL_INTERVAL).
	RelayPollInterval time.Duration
	// RequestTimeout bounds the handling of one API request (HERALD_REQUEST_TIMEOUT): past
	// it, work waiting on Postgres is cancelled and the caller gets 503. Realtime streams
	// are exempt; 0 disables it.
	RequestTimeout time.Duration
	// ShutdownTimeout bounds graceful shutdown (HERALD_SHUTDOWN_TIMEOUT).
	ShutdownTimeout time.Duration
	// TemporalCLI is the path of the Temporal CLI `herald dev` runs when no server answers
	// (HERALD_TEMPORAL_CLI); empty means bin/temporal next to the herald binary, then $PATH.
	TemporalCLI string
	// PrivateHosts are hosts that provider connections (HTTP APIs, webhooks, SMTP) may reach
	// although they are or resolve to loopback, private or link-local addresses
	// (HERALD_PRIVATE_HOSTS, comma separated: host names, IP addresses, *.suffix patterns,
	// each optionally with :port to allow that port only). Everything else internal is
	// refused, at save and on every connection.
	PrivateHosts []string
	// TrustedProxies are reverse proxies whose X-Forwarded-For names the client
	// (HERALD_TRUSTED_PROXIES: comma-separated addresses or CIDR ranges). Empty: the peer
	// address is the client, and per-IP limits apply to it.
	TrustedProxies []string
	// PprofAddr serves net/http/pprof for profiling when set, e.g. 127.0.0.1:6060
	// (HERALD_PPROF_ADDR). Keep it on a loopback address.
	PprofAddr string
	// DataDir holds local state of `herald dev`: the Temporal database and the generated
	// secret key (HERALD_DATA_DIR).
	DataDir string
	// FetchAllowedHosts are the hosts fetch steps of workflows may reach, comma-separated
	// names or *.suffix patterns (HERALD_FETCH_ALLOWED_HOSTS); empty allows any host with a
	// public address. Listed hosts may resolve to private addresses.
	FetchAllowedHosts []string
	// Console configures console identity, system emails and files (internal/platform/config/console.go).
	Console ConsoleConfig
	// PublicURL is the base URL clients reach the API at (HERALD_PUBLIC_URL), used in the
	// realtime token response; empty means the scheme and host of each request.
	PublicURL string
	// RealtimePingInterval is how often realtime connections are pinged
	// (HERALD_REALTIME_PING_INTERVAL).
	RealtimePingInterval time.Duration
	// RealtimePingTimeout is how long a realtime peer may stay silent past a ping before it
	// is taken for dead (HERALD_REALTIME_PING_TIMEOUT).
	RealtimePingTimeout time.Duration
	// RealtimeQueue is how many events may wait for one slow realtime connection before it
	// is closed (HERALD_REALTIME_QUEUE).
	RealtimeQueue int
	// RealtimeTokenTTL is the lifetime of tokens from /v3/sdk/realtimeTokenRequests
	// (HERALD_REALTIME_TOKEN_TTL).
	RealtimeTokenTTL time.Duration
	// Ops configures quotas, billing, licensing, the assistant, metrics and tracing
	// (internal/platform/config/operations.go).
	Ops OperationsConfig
}

// Defaults returns the configuration used when no variable is set.
func Defaults() Config {
	return Config{
		HTTPAddr:          "127.0.0.1:8080",
		DatabaseURL:       "postgres://postgres@127.0.0.1:5432/herald?sslmode=disable",
		TemporalAddress:   "127.0.0.1:7233",
		TemporalNamespace: "default",
		TaskQueue:         "herald",
		HeaderPrefix:      "X-SERVICE-",
		LogLevel:          slog.LevelInfo,
		LogFormat:         "text",
		BodyLimit:         1 << 20,
		DBMaxConns:        32,
		RelayPackSize:     50,
		RelayPackWindow:   5 * time.Millisecond,
		RelayBusyRuns:     20,
		RelayBusyWindow:   40 * time.Millisecond,
		RelayPollInterval: time.Second,
		ShutdownTimeout:   15 * time.Second,
		RequestTimeout:    30 * time.Second,
		DataDir:           ".data",
		Console:           consoleDefaults(),
		Ops:               operationsDefaults(),

		RealtimePingInterval: 25 * time.Second,
		RealtimePingTimeout:  20 * time.Second,
		RealtimeQueue:        64,
		RealtimeTokenTTL:     15 * time.Minute,
	}
}

// Load reads the configuration from getenv over the defaults. Every bad value is reported.
func Load(getenv func(string) string) (Config, error) {
	c := Defaults()
	var p herald.Problems
	str := func(name string, dst *string) {
		if v := strings.TrimSpace(getenv(name)); v != "" {
			*dst = v
		}
	}
	num := func(name string, dst *int, min int) {
		if v := strings.TrimSpace(getenv(name)); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil || n < min {
				p.Addf("%s must be an integer of at least %d, got %q", name, min, v)
				return
			}
			*dst = n
		}
	}
	dur := func(name string, dst *time.Duration) {
		if v := strings.TrimSpace(getenv(name)); v != "" {
			d, err := time.ParseDuration(v)
			if err != nil || d < 0 {
				p.Addf("%s must be a duration such as 500ms or 2s, got %q", name, v)
				return
			}
			*dst = d
		}
	}
	str("HERALD_HTTP_ADDR", &c.HTTPAddr)
	str("HERALD_DATABASE_URL", &c.DatabaseURL)
	str("HERALD_TEMPORAL_ADDRESS", &c.TemporalAddress)
	str("HERALD_TEMPORAL_NAMESPACE", &c.TemporalNamespace)
	str("HERALD_TASK_QUEUE", &c.TaskQueue)
	c.SecretKey = getenv("HERALD_SECRET_KEY")
	str("HERALD_HEADER_PREFIX", &c.HeaderPrefix)
	str("HERALD_LOG_FORMAT", &c.LogFormat)
	str("HERALD_TEMPORAL_CLI", &c.TemporalCLI)
	str("HERALD_DATA_DIR", &c.DataDir)
	str("HERALD_PPROF_ADDR", &c.PprofAddr)
	c.PrivateHosts = list(getenv("HERALD_PRIVATE_HOSTS"))
	for _, h := range c.PrivateHosts {
		if err := netguard.CheckEntry(h); err != nil {
			p.Addf("HERALD_PRIVATE_HOSTS: %v", err)
		}
	}
	c.TrustedProxies = list(getenv("HERALD_TRUSTED_PROXIES"))
	for _, proxy := range c.TrustedProxies {
		if net.ParseIP(proxy) == nil {
			if _, _, err := net.ParseCIDR(proxy); err != nil {
				p.Addf("HERALD_TRUSTED_PROXIES: %q is neither an IP address nor a CIDR range", proxy)
			}
		}
	}
	str("HERALD_PUBLIC_URL", &c.PublicURL)
	num("HERALD_REALTIME_QUEUE", &c.RealtimeQueue, 1)
	dur("HERALD_REALTIME_PING_INTERVAL", &c.RealtimePingInterval)
	dur("HERALD_REALTIME_PING_TIMEOUT", &c.RealtimePingTimeout)
	dur("HERALD_REALTIME_TOKEN_TTL", &c.RealtimeTokenTTL)
	num("HERALD_BODY_LIMIT", &c.BodyLimit, 1024)
	num("HERALD_SEND_RATE_BURST", &c.SendRateBurst, 0)
	if v := strings.TrimSpace(getenv("HERALD_SEND_RATE_LIMIT")); v != "" {
		if f, err := strconv.ParseFloat(v, 64); err != nil || f < 0 || math.IsInf(f, 0) {
			p.Addf("HERALD_SEND_RATE_LIMIT must be a number of sends per second (0 for no limit), got %q", v)
		} else {
			c.SendRateLimit = f
		}
	}
	num("HERALD_DB_MAX_CONNS", &c.DBMaxConns, 2)
	num("HERALD_RELAY_PACK_SIZE", &c.RelayPackSize, 1)
	dur("HERALD_RELAY_PACK_WINDOW", &c.RelayPackWindow)
	num("HERALD_RELAY_BUSY_RUNS", &c.RelayBusyRuns, 0)
	dur("HERALD_RELAY_BUSY_WINDOW", &c.RelayBusyWindow)
	dur("HERALD_RELAY_POLL_INTERVAL", &c.RelayPollInterval)
	dur("HERALD_SHUTDOWN_TIMEOUT", &c.ShutdownTimeout)
	c.FetchAllowedHosts = list(getenv("HERALD_FETCH_ALLOWED_HOSTS"))
	dur("HERALD_REQUEST_TIMEOUT", &c.RequestTimeout)
	loadConsole(getenv, &c, &p)
	loadOperations(getenv, &c, &p)
	if v := strings.TrimSpace(getenv("HERALD_LOG_LEVEL")); v != "" {
		if err := c.LogLevel.UnmarshalText([]byte(v)); err != nil {
			p.Addf("HERALD_LOG_LEVEL must be debug, info, warn or error, got %q", v)
		}
	}
	if c.LogFormat != "text" && c.LogFormat != "json" {
		p.Addf("HERALD_LOG_FORMAT must be text or json, got %q", c.LogFormat)
	}
	if !strings.HasSuffix(c.HeaderPrefix, "-") {
		p.Addf("HERALD_HEADER_PREFIX must end with '-', got %q", c.HeaderPrefix)
	}
	if c.RelayPollInterval == 0 {
		p.Addf("HERALD_RELAY_POLL_INTERVAL must be positive")
	}
	if c.RealtimePingInterval < 100*time.Millisecond || c.RealtimePingTimeout < 100*time.Millisecond || c.RealtimeTokenTTL < time.Second {
		p.Addf("HERALD_REALTIME_PING_INTERVAL and HERALD_REALTIME_PING_TIMEOUT must be at least 100ms and HERALD_REALTIME_TOKEN_TTL at least 1s")
	}
	if err := p.Err(); err != nil {
		return c, fmt.Errorf("configuration: %w", err)
	}
	return c, nil
}

// Summary describes the configuration in one line with secrets masked, for the startup log.
func (c Config) Summary() []any {
	secret := "unset"
	if c.SecretKey != "" {
		secret = "set"
	}
	return append([]any{
		"http", c.HTTPAddr, "database", MaskURL(c.DatabaseURL), "temporal", c.TemporalAddress,
		"namespace", c.TemporalNamespace, "taskQueue", c.TaskQueue, "secretKey", secret,
		"headerPrefix", c.HeaderPrefix,
	}, append(c.Console.summary(c.DataDir), c.Ops.summary()...)...)
}

// MaskURL hides the password of a connection URL.
func MaskURL(u string) string {
	at := strings.LastIndex(u, "@")
	scheme := strings.Index(u, "://")
	if at < 0 || scheme < 0 || at < scheme {
		return u
	}
	cred := u[scheme+3 : at]
	if i := strings.Index(cred, ":"); i >= 0 {
		return u[:scheme+3] + cred[:i] + ":***" + u[at:]
	}
	return u
}

// list splits a comma-separated setting, dropping blanks.
func list(v string) []string {
	var out []string
	for _, s := range strings.Split(v, ",") {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}
