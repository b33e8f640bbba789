// Package config reads Herald's typed configuration from HERALD_* environment variables,
// with defaults in code so that a bare `herald dev` runs on a developer machine.
//
// Each setting is one field of Config (or of its ConsoleConfig and OperationsConfig), and
// its struct tags are the only place naming the variable: github.com/caarlos0/env reads
// the variable and its default, the parsers in settings.go read Herald's value types, and
// `herald config` and docs/configuration.md are generated from the same tags (doc.go).
package config

import (
	"fmt"
	"log/slog"
	"strings"
	"time"

	herald "github.com/heraldhq/herald"
)

// Config is the whole configuration of one Herald process. Each setting is a field tagged
// with its variable, default and description (the tags are explained in settings.go);
// `herald config` and docs/configuration.md are generated from them.
type Config struct {
	HTTPAddr string `env:"HERALD_HTTP_ADDR" envDefault:"127.0.0.1:8080" example:"0.0.0.0:8080" desc:"where the API listens"`
	// DatabaseURL is the Postgres connection string; its password is masked when shown.
	DatabaseURL       string `env:"HERALD_DATABASE_URL" envDefault:"postgres://postgres@127.0.0.1:5432/herald?sslmode=disable" secret:"url" example:"postgres://herald:pw@db:5432/herald" desc:"Postgres; migrate and dev create the database"`
	TemporalAddress   string `env:"HERALD_TEMPORAL_ADDRESS" envDefault:"127.0.0.1:7233" example:"temporal:7233" desc:"Temporal frontend host:port"`
	TemporalNamespace string `env:"HERALD_TEMPORAL_NAMESPACE" envDefault:"default" example:"herald" desc:"Temporal namespace (Temporal Cloud: <namespace>.<account id>)"`
	// TemporalClient is how the Temporal client connects: TLS, mutual TLS, the API key of
	// Temporal Cloud and the timeouts (temporal.go).
	TemporalClient TemporalClientConfig
	// TemporalUIURL is the base URL of the Temporal Web UI; the console links workflow runs
	// and message-log rows to it. Empty hides the links.
	TemporalUIURL string `env:"HERALD_TEMPORAL_UI_URL" format:"url" dflt:"— (no links; herald dev: the UI of the Temporal dev server it starts)" example:"http://localhost:8233" desc:"Temporal Web UI, which the console's message logs and workflow test runs link to"`
	TaskQueue     string `env:"HERALD_TASK_QUEUE" envDefault:"herald" example:"herald-eu" desc:"base task queue: the orchestration queue (workflows, in-app writes); each provider kind polls <base>-<kind> (docs/deployment.md)"`
	// WorkerQueues are the kinds of task queue a worker process polls (worker.go); `herald
	// worker --queues` overrides it.
	WorkerQueues QueueKinds `env:"HERALD_WORKER_QUEUES" envDefault:"all" example:"email,sms" desc:"kinds of task queue this worker polls: orchestration (workflows, recipient resolution, in-app rows), email, sms (and WhatsApp), push (web and mobile), chat (Slack, Discord, Teams), webhook, or all; herald worker --queues overrides it (docs/deployment.md)"`
	// WorkerSlots are the activity slots per kind of queue in one worker process.
	WorkerSlots QueueSlots `env:"HERALD_WORKER_SLOTS" dflt:"orchestration=64,email=32,sms=16,push=16,chat=16,webhook=16" example:"orchestration=128,email=8" desc:"activities running at once per kind of task queue in one worker process, kind=count,… (kinds not listed keep their default): a hung provider holds at most its own kind's slots"`
	// WorkflowTaskPollers is how many workflow-task polls the orchestration worker keeps open
	// on its task queue, and as many again on its sticky queue (0: the Temporal SDK's
	// default, 2 shared by both). With the SDK's 2, another app's runs queued ahead kept one
	// app's first workflow tasks waiting seconds on a Temporal cluster; with one shared set,
	// a backlog on the sticky queue took every poll (docs/benchmarks.md, isolation on the
	// cluster).
	WorkflowTaskPollers int `env:"HERALD_WORKFLOW_TASK_POLLERS" envDefault:"8" min:"0" example:"16" desc:"workflow-task polls the orchestration worker keeps open on its task queue, and as many again on its sticky queue (0: the Temporal SDK's default, 2 shared by both); new runs' first workflow tasks wait on the task queue, so a backlog of one app's running workflows on the sticky queue does not hold them"`
	// BroadcastShare is the percent of the time a broadcast's inbox writes may take in a
	// worker while single sends are being delivered there (pipeline.Service.BulkShare):
	// on two cores, written flat out, they starved every other app's sends of CPU for the
	// few seconds they took (docs/benchmarks.md, isolation, seventh round). 25 since the
	// sixteenth round: at 50, B's p99 beside a broadcast still passed twice its idle p99 in
	// six cluster runs of thirteen, at 25 in none of the nine alternating with them (two of
	// thirteen more runs after, at 2.08 and 2.13 times).
	BroadcastShare int `env:"HERALD_BROADCAST_SHARE" envDefault:"25" min:"1" max:"100" expect:"a percent from 1 to 100" example:"100" desc:"percent of the time a broadcast's inbox writes, and the records of a wave of held or failed messages (a provider's breaker opening), may take in a worker while single sends are being delivered there: they are then written 500 inbox rows or 100 records at a time with rests between, so other apps' one-time codes are not starved of CPU; alone they are written flat out. 25 makes a 20,000-member broadcast's in-app part beside other apps' sends take about twice as long as 50 (10–17 s against 5–9 s on two cores); 100 never rests (a database with cores to spare)"`
	// SecretKey encrypts stored secrets. Never logged.
	SecretKey string `env:"HERALD_SECRET_KEY" secret:"true" verbatim:"true" dflt:"— (dev generates .data/secret.key)" example:"$(openssl rand -base64 32)" desc:"encrypts stored secrets (API secrets, provider credentials, keys), signs tokens and, unless HERALD_TEMPORAL_CODEC_KEYS is set, encrypts the payloads Herald writes to Temporal; at least 32 characters, never a value published in docs or examples (Herald refuses to start); the same on every process; keep it stable"`
	// HeaderPrefix prefixes the credential headers; it must end with "-".
	HeaderPrefix string     `env:"HERALD_HEADER_PREFIX" envDefault:"X-SERVICE-" example:"X-HERALD-" desc:"prefix of the credential headers (…API-KEY, …API-SECRET, …USER-ID, …); ends with -"`
	LogLevel     slog.Level `env:"HERALD_LOG_LEVEL" envDefault:"info" example:"debug" expect:"debug, info, warn or error" desc:"debug, info, warn or error"`
	LogFormat    string     `env:"HERALD_LOG_FORMAT" envDefault:"text" oneof:"text json" example:"json" desc:"text or json"`
	// SendRateLimit is how many sends per second each app may make, all API processes
	// together (the buckets live in the shared store: Postgres, or Redis with RedisURL);
	// 0 means no limit.
	SendRateLimit float64 `env:"HERALD_SEND_RATE_LIMIT" envDefault:"0" min:"0" dflt:"0 (off)" example:"12.5" expect:"a number of sends per second (0 for no limit)" desc:"sends per second each app may make (POST /v3/notifications; over it: 429 with Retry-After), all API processes together: a token bucket per app kept in Postgres, or in Redis when HERALD_REDIS_URL is set"`
	// SendRateBurst is how many sends an app may make at once after a quiet period; 0 means
	// one second's worth of SendRateLimit.
	SendRateBurst int `env:"HERALD_SEND_RATE_BURST" envDefault:"0" min:"0" dflt:"0 (the rate, rounded up)" example:"40" desc:"sends an app may make at once after a quiet period"`
	// RedisURL moves the shared rate limits and quota reservations from Postgres to Redis.
	RedisURL string `env:"HERALD_REDIS_URL" secret:"url" example:"redis://:pw@redis:6379/0" desc:"keep the shared per-app send rate limit, the per-provider-instance send rates and the quota reservations in this Redis (redis:// or rediss:// for TLS) instead of Postgres: one round trip without a row lock per send (docs/deployment.md)"`
	// BodyLimit is the largest request body accepted, in bytes.
	BodyLimit  ByteSize `env:"HERALD_BODY_LIMIT" envDefault:"1048576" min:"1024" example:"2MiB" desc:"largest request body in bytes, or with a unit such as 2MiB (larger: 413)"`
	DBMaxConns int      `env:"HERALD_DB_MAX_CONNS" envDefault:"32" min:"2" example:"64" desc:"Postgres pool size per process"`
	// DBMinIdleConns is how many idle connections each process's pool keeps open beside
	// those in use, so that a sudden rise of concurrent work does not open connections in
	// its requests' path.
	DBMinIdleConns int `env:"HERALD_DB_MIN_IDLE_CONNS" envDefault:"4" min:"0" example:"0" desc:"idle Postgres connections each process keeps open beside those in use (at most HERALD_DB_MAX_CONNS), opened in the background: when a broadcast and a burst begin at once, queries find a connection ready instead of opening one in a send's path (0 behind PgBouncer in transaction mode, which pools for you)"`
	// RelayPackSize is the most requests the outbox relay packs into one workflow run. Packs
	// of 100 deliver about 45% more single sends per second than packs of 50 (docs/benchmarks.md),
	// while the run's search attribute HeraldRequestId lists at most 50 request ids (Temporal's
	// default 2 KB value limit): the 51st and later requests of a full pack are found by the
	// workflowId their request and message-log rows carry. 50 makes every request searchable.
	RelayPackSize   int           `env:"HERALD_RELAY_PACK_SIZE" envDefault:"100" min:"1" example:"20" desc:"most send requests carried by one workflow run; the run's HeraldRequestId search attribute lists the first 50 (Temporal refuses longer values), so 50 makes every request findable by it at about 30% less delivery throughput under load"`
	RelayPackWindow time.Duration `env:"HERALD_RELAY_PACK_WINDOW" envDefault:"5ms" example:"2ms" desc:"how long the relay gathers requests into one run"`
	// RelayBusySends and RelayBusyWindow: an app that sent more than RelayBusySends
	// requests in the last second (or a quarter of them in the last quarter second, see
	// outbox.busySplits) waits RelayBusyWindow after a partial pack before its
	// next run, so its runs carry more sends each under load; other apps are not held by
	// it (0 turns it off).
	RelayBusySends  int           `env:"HERALD_RELAY_BUSY_SENDS" envDefault:"20" min:"0" example:"50" desc:"an app past this many sends in the last second, or past a quarter of them (at least 2) in the last quarter second, gathers its next requests for HERALD_RELAY_BUSY_WINDOW, so each of its runs carries more sends under load; other apps are claimed meanwhile (0: off)"`
	RelayBusyWindow time.Duration `env:"HERALD_RELAY_BUSY_WINDOW" envDefault:"100ms" example:"200ms" desc:"how long a busy app gathers requests between runs"`
	// RelaySharedBusyWindow replaces RelayBusyWindow while other apps are sending too.
	RelaySharedBusyWindow time.Duration `env:"HERALD_RELAY_SHARED_BUSY_WINDOW" envDefault:"400ms" max:"5s" example:"250ms" desc:"how long a busy app gathers requests between runs while another app has sent in the last second (a value not longer than HERALD_RELAY_BUSY_WINDOW keeps that window always); fewer, larger runs leave the other apps' sends the CPU"`
	RelayPollInterval     time.Duration `env:"HERALD_RELAY_POLL_INTERVAL" envDefault:"1s" min:"1ns" example:"5s" desc:"how often the relay retries failed starts and picks up other processes' requests"`
	// RequestTimeout bounds the handling of one API request: past it, work waiting on
	// Postgres is cancelled and the caller gets 503. Realtime streams are exempt; 0 disables it.
	RequestTimeout  time.Duration `env:"HERALD_REQUEST_TIMEOUT" envDefault:"30s" example:"10s" desc:"bound on handling one request (realtime streams excepted): past it, work waiting on a stalled Postgres is cancelled and the caller gets 503; 0 disables it"`
	ShutdownTimeout time.Duration `env:"HERALD_SHUTDOWN_TIMEOUT" envDefault:"15s" example:"1m" desc:"graceful shutdown bound (in-flight requests, running activities)"`
	// ShutdownDrain is how long an API process keeps serving, not ready (/readyz 503), after
	// SIGTERM before it stops accepting connections.
	ShutdownDrain time.Duration `env:"HERALD_SHUTDOWN_DRAIN" envDefault:"0s" dflt:"0s (stop accepting at once)" example:"5s" desc:"after SIGTERM, how long the API keeps serving while /readyz answers 503, so load balancers take it out of rotation first (Kubernetes: a little more than the readiness probe's period)"`
	// TemporalCLI is the path of the Temporal CLI `herald dev` runs when no server answers;
	// empty means bin/temporal next to the herald binary, then $PATH.
	TemporalCLI string `env:"HERALD_TEMPORAL_CLI" dflt:"bin/temporal, then $PATH" example:"/usr/local/bin/temporal" desc:"Temporal CLI that herald dev runs when no server answers"`
	// DevTemporalDynamicConfig is the dynamic config of the dev server `herald dev` starts
	// (devenv.DynamicConfigFrom); the test stacks read the same variable.
	DevTemporalDynamicConfig string `env:"HERALD_DEV_TEMPORAL_DYNAMIC_CONFIG" dflt:"system.enableActivityEagerExecution=true" example:"matching.useNewMatcher=true,matching.enableFairness=true,system.enableActivityEagerExecution=true" desc:"dynamic config of the Temporal dev server herald dev starts, key=value,… (none: the server's defaults); the default turns on eager activities; add matching.useNewMatcher=true,matching.enableFairness=true for priority and fairness between apps (experimental in the pinned server; docs/deployment.md)"`
	// PrivateHosts are hosts that provider connections (HTTP APIs, webhooks, SMTP) may reach
	// although they are or resolve to loopback, private or link-local addresses. Everything
	// else internal is refused, at save and on every connection.
	PrivateHosts HostList `env:"HERALD_PRIVATE_HOSTS" example:"relay.corp.example:587,[::1]:2525" desc:"hosts that provider connections (HTTP APIs, webhooks, SMTP) may reach although they are or resolve to loopback, private or link-local addresses: comma separated host names, addresses (IPv6 with or without brackets), *.suffix patterns, each optionally :port for that port only; every other internal destination is refused at save, at connection test and on each connection; every tenant can reach a listed host (see operations.md)"`
	// TrustedProxies are reverse proxies whose X-Forwarded-For names the client (web.ClientIP). Empty: the
	// peer address is the client, and per-IP limits apply to it.
	TrustedProxies AddrList `env:"HERALD_TRUSTED_PROXIES" example:"10.0.0.1,10.1.0.0/16" desc:"reverse proxies (comma-separated IPs or CIDR ranges) trusted to append the client to X-Forwarded-For: when the connection comes from one, the client is the rightmost hop that is not a trusted proxy (hops to its left are the client's own and never count); without it, or from any other peer, the peer address is the client (per-address limits, captcha, audit log)"`
	// PprofAddr serves net/http/pprof for profiling when set. Keep it on a loopback address.
	PprofAddr string `env:"HERALD_PPROF_ADDR" example:"127.0.0.1:6060" desc:"serve net/http/pprof on this address for profiling (keep it on loopback)"`
	// DataDir holds local state of `herald dev`: the Temporal database and the generated
	// secret key.
	DataDir string `env:"HERALD_DATA_DIR" envDefault:".data" example:"/var/lib/herald" desc:"local state of herald dev: Temporal database, secret key, private Postgres"`
	// FetchAllowedHosts are the hosts fetch steps of workflows may reach; empty allows any
	// host with a public address. Listed hosts may resolve to private addresses.
	FetchAllowedHosts NameList `env:"HERALD_FETCH_ALLOWED_HOSTS" example:"api.example.com,*.internal.example" desc:"comma-separated hosts (or *.suffix patterns) that fetch steps of workflows may call; empty: any host whose addresses are public (private, loopback and link-local addresses are refused unless the host is listed)"`
	// Console configures console identity, system emails and files (console.go).
	Console ConsoleConfig
	// PublicURL is the base URL clients reach the API at, used in the realtime token
	// response; empty means the scheme and host of each request.
	PublicURL string `env:"HERALD_PUBLIC_URL" format:"url" dflt:"— (the request's own)" example:"https://herald.example.com" desc:"base URL clients reach the API at, returned by /v3/sdk/realtimeTokenRequests; the one-click unsubscribe links of emails point there (else at http://HERALD_HTTP_ADDR, which mailbox providers cannot reach)"`
	// UnsubscribeMailto is an address added to the List-Unsubscribe header of emails, next
	// to the one-click link.
	// UnsubscribeRateLimit is how many unsubscribe requests per second one client address
	// may make (and, counted apart, preference page requests).
	UnsubscribeRateLimit float64       `env:"HERALD_UNSUBSCRIBE_RATE_LIMIT" envDefault:"20" min:"0" dflt:"20" example:"5" expect:"a number of requests per second (0 for no limit)" desc:"requests per second one client address may make to the one-click unsubscribe links (GET and POST /unsubscribe/…), and separately to the hosted preference page (GET and POST /preferences/…); bursts of 5 seconds' worth; over it: 429 with Retry-After; all API processes together; mailbox providers post from few addresses for many recipients, so keep it generous"`
	UnsubscribeMailto    string        `env:"HERALD_UNSUBSCRIBE_MAILTO" example:"unsubscribe@example.com" desc:"an address added to the List-Unsubscribe header of every non-critical email next to the one-click link (mailto:<address>?subject=unsubscribe%20<token>); Herald does not read that mailbox: whoever does applies the token with POST /unsubscribe/<token>. Empty: the link only (docs/unsubscribe.md)"`
	RealtimePingInterval time.Duration `env:"HERALD_REALTIME_PING_INTERVAL" envDefault:"25s" min:"100ms" example:"10s" desc:"heartbeat interval of realtime connections (Socket.IO ping, SSE comment)"`
	RealtimePingTimeout  time.Duration `env:"HERALD_REALTIME_PING_TIMEOUT" envDefault:"20s" min:"100ms" example:"5s" desc:"a Socket.IO peer silent this long past a ping is dropped"`
	RealtimeQueue        int           `env:"HERALD_REALTIME_QUEUE" envDefault:"64" min:"1" example:"8" desc:"events that may wait for one slow connection before it is closed"`
	RealtimeTokenTTL     time.Duration `env:"HERALD_REALTIME_TOKEN_TTL" envDefault:"15m" min:"1s" example:"1h" desc:"lifetime of realtime tokens"`
	// Ops configures quotas, billing, licensing, the assistant, metrics and tracing
	// (operations.go).
	Ops OperationsConfig
	// Codec configures the encryption of Temporal payloads and the codec server (codec.go).
	Codec CodecConfig
	// Retention configures the retention purge (retention.go).
	Retention RetentionConfig
	// Webhooks tunes the delivery of event webhooks (webhooks.go).
	Webhooks WebhooksConfig
}

// renamed are the variables renamed since an earlier release, with their new names: a
// deployment still setting one is told, rather than have it ignored.
var renamed = map[string]string{
	// It counted workflow runs; it counts sends now (issue 28).
	"HERALD_RELAY_BUSY_RUNS": "HERALD_RELAY_BUSY_SENDS",
}

// Defaults returns the configuration used when no variable is set.
func Defaults() Config {
	c, err := Load(func(string) string { return "" })
	if err != nil {
		panic("config: the defaults are invalid: " + err.Error())
	}
	return c
}

// Load reads the configuration from getenv over the defaults. Every bad value is reported,
// each naming its variable.
func Load(getenv func(string) string) (Config, error) {
	environ := make(map[string]string, len(settings))
	for _, s := range settings {
		v := getenv(s.Name)
		if !s.Verbatim {
			v = strings.TrimSpace(v)
		}
		if v != "" {
			environ[s.Name] = v
		}
	}
	var c Config
	p := herald.Problems(read(&c, environ))
	if !strings.HasSuffix(c.HeaderPrefix, "-") {
		p.Addf("HERALD_HEADER_PREFIX must end with '-', got %q", c.HeaderPrefix)
	}
	if c.SecretKey != "" {
		if err := CheckSecretKey(c.SecretKey); err != nil {
			p.Addf("%s", err.Error())
		}
	}
	for old, now := range renamed {
		if getenv(old) != "" {
			p.Addf("%s was renamed %s; set that instead", old, now)
		}
	}
	c.Console.finish(&p, c.PublicURL, c.HTTPAddr)
	loadTracing(getenv, &c.Ops, &p)
	c.Ops.check(&p)
	c.Codec.check(&p)
	c.TemporalClient.finish(&p, getenv)
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
	}, append(append(append(c.TemporalClient.summary(), c.Console.summary(c.DataDir)...), c.Ops.summary()...), c.Codec.summary()...)...)
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
