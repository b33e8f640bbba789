// Package stack wires Herald's parts from a configuration: the database, the Temporal
// client, the services, the HTTP server, the worker and the outbox relay. The subcommands
// of cmd/herald and the integration tests assemble processes from it.
package stack

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gofiber/fiber/v2"
	"go.temporal.io/sdk/client"

	"github.com/heraldhq/herald/activities"
	"github.com/heraldhq/herald/api"
	v1 "github.com/heraldhq/herald/api/v1"
	v3 "github.com/heraldhq/herald/api/v3"
	"github.com/heraldhq/herald/api/web"
	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/internal/audience/categories"
	"github.com/heraldhq/herald/internal/audience/devices"
	"github.com/heraldhq/herald/internal/audience/prefs"
	"github.com/heraldhq/herald/internal/audience/topics"
	"github.com/heraldhq/herald/internal/audience/users"
	"github.com/heraldhq/herald/internal/console/apps"
	"github.com/heraldhq/herald/internal/console/commits"
	"github.com/heraldhq/herald/internal/delivery/channels"
	"github.com/heraldhq/herald/internal/delivery/pipeline"
	"github.com/heraldhq/herald/internal/delivery/templates"
	"github.com/heraldhq/herald/internal/inbox"
	"github.com/heraldhq/herald/internal/inbox/events"
	"github.com/heraldhq/herald/internal/ops/billing"
	"github.com/heraldhq/herald/internal/platform/config"
	"github.com/heraldhq/herald/internal/platform/ratelimit"
	"github.com/heraldhq/herald/internal/platform/secrets"
	"github.com/heraldhq/herald/internal/platform/telemetry"
	"github.com/heraldhq/herald/internal/platform/temporalcodec"
	"github.com/heraldhq/herald/internal/platform/temporalconn"
	"github.com/heraldhq/herald/internal/realtime"
	"github.com/heraldhq/herald/internal/realtime/socketio"
	"github.com/heraldhq/herald/internal/send"
	"github.com/heraldhq/herald/internal/send/outbox"
	"github.com/heraldhq/herald/internal/send/schedules"
	"github.com/heraldhq/herald/worker"
	"github.com/heraldhq/herald/workflows/taskqueue"
	"github.com/heraldhq/herald/workflows/visibility"
)

// Stack is one process's set of connections and services.
type Stack struct {
	Cfg      config.Config
	Log      *slog.Logger
	DB       *db.DB
	Box      *secrets.Box
	Temporal client.Client
	// TemporalConn is how Temporal is reached (TLS, mutual TLS, API key, timeouts);
	// CheckTemporal tests it at start-up.
	TemporalConn *temporalconn.Conn
	// Codec encrypts every payload the Temporal client writes (and the codec server's).
	Codec *temporalcodec.Codec
	// CodecLoopbackWithoutToken serves the codec server to loopback callers without a
	// token while HERALD_CODEC_SERVER_TOKEN is unset (herald dev sets it).
	CodecLoopbackWithoutToken bool
	Apps                      *apps.Service
	Notify                    *send.Service
	Inbox                     *inbox.Service
	Relay                     *outbox.Relay
	// Schedules lists and cancels scheduled notifications.
	Schedules *schedules.Service
	// Developer API services.
	Users      *users.Service
	Categories *categories.Service
	Prefs      *prefs.Service
	Topics     *topics.Service
	Devices    *devices.Service
	// Channels manages provider instances and routes; Templates templates, layouts and
	// translations.
	Channels  *channels.Service
	Templates *templates.Service
	// Commits records and publishes app configuration.
	Commits *commits.Service
	// Events carries inbox changes to the realtime layer.
	Events events.Publisher
	// Realtime pushes inbox changes to connected clients (run by API processes).
	Realtime *realtime.Service
	// SocketIO serves Realtime at /socket.io/ (WebSocket and long-polling).
	SocketIO *socketio.Server
	// SendLimit is the per-app send rate limit shared by every API process (nil when off).
	SendLimit *ratelimit.Shared
	// Limits keeps the state every process shares: the send rate limits, the provider
	// instances' send rates and the quota reservations (Postgres, or Redis).
	Limits ratelimit.Store
	// appLimitsCache holds the apps' plan concurrency limits (see appLimits).
	appLimitsCache *billing.AppLimits
	appLimitsOnce  sync.Once
	// runLimitVal is the limit of the apps' send runs in flight (see runLimit).
	runLimitVal  runLimits
	runLimitOnce sync.Once
	redis        *ratelimit.Redis
	ConsoleServices
	FlowServices
	OperationsServices
	LifecycleServices
	WebhookServices

	searchAttrs searchAttributes
	// draining is set when ServeHTTP begins to shut down: /readyz answers 503.
	draining atomic.Bool
}

// Open connects to Postgres and (lazily) to Temporal and builds the services. The secret
// key must be set (see SecretKey).
func Open(ctx context.Context, cfg config.Config, log *slog.Logger) (*Stack, error) {
	box, err := secrets.NewBox(cfg.SecretKey)
	if err != nil {
		return nil, err
	}
	d, err := db.Open(ctx, cfg.DatabaseURL, db.PoolSize{MaxConns: cfg.DBMaxConns, MinIdleConns: cfg.DBMinIdleConns})
	if err != nil {
		return nil, err
	}
	ops, err := openTelemetry(ctx, cfg)
	if err != nil {
		d.Close()
		return nil, err
	}
	// Every payload written to Temporal is encrypted (internal/platform/temporalcodec).
	codec, err := temporalcodec.FromConfig(cfg.SecretKey, cfg.Codec.Keys)
	if err != nil {
		d.Close()
		return nil, err
	}
	if !cfg.Codec.Encrypt {
		log.Warn("HERALD_TEMPORAL_ENCRYPT=false: payloads are written to Temporal in clear (encrypted ones are still read); set it back to true once every process runs this version")
		codec = codec.DecodeOnly()
	}
	base, conn, err := temporalClientOptions(cfg, log)
	if err != nil {
		d.Close()
		return nil, err
	}
	topts, err := ops.temporalOptions(codec.Apply(base), log)
	if err != nil {
		d.Close()
		return nil, err
	}
	tc, err := client.NewLazyClient(topts)
	if err != nil {
		d.Close()
		return nil, fmt.Errorf("temporal client for %s: %w", cfg.TemporalAddress, err)
	}
	s := &Stack{Cfg: cfg, Log: log, DB: d, Box: box, Temporal: tc, TemporalConn: conn, Codec: codec, Events: events.Nop{}, OperationsServices: ops}
	s.Apps = apps.NewService(d, box)
	starter := outbox.TemporalStarter{Client: tc, TaskQueue: cfg.TaskQueue, RegisterSearchAttributes: func(ctx context.Context) error {
		return visibility.Register(ctx, tc, cfg.TemporalNamespace)
	}}
	s.Relay = outbox.New(d, starter, log.With("component", "relay"), outbox.Options{
		PackSize: cfg.RelayPackSize, PackWindow: cfg.RelayPackWindow, PollInterval: cfg.RelayPollInterval,
		BusySends: cfg.RelayBusySends, BusyWindow: cfg.RelayBusyWindow, SharedBusyWindow: cfg.RelaySharedBusyWindow,
		Trace: s.relayTrace(), Runs: s.runLimit(),
	})
	s.Notify = send.NewService(d, s.Relay.WakeFor)
	// The bus first: every service that changes inboxes publishes through it; the inbox
	// service's publisher also wakes workflow runs waiting on the notifications they wrote.
	bus := realtime.NewPGBus(d, cfg.DatabaseURL, log.With("component", "realtime"))
	s.Events = bus
	s.Templates = templates.NewService(d)
	s.openFlows(log)
	s.Inbox = inbox.NewService(d, s.InboxSignals)
	s.Schedules = schedules.NewService(d, tc, log.With("component", "schedules"))
	s.Users = users.NewService(d)
	s.Categories = categories.NewService(d)
	s.Prefs = prefs.NewService(d, s.Categories)
	s.Topics = topics.NewService(d)
	s.Devices = devices.NewService(d, s.Categories, s.Prefs)
	s.Devices.Keys = s.Apps.VAPIDKeys
	s.Channels = channels.NewService(d, box, Catalogue(), providerDeps(cfg))
	s.Channels.Keys = s.Apps.VAPIDKeys
	if err := s.openLimits(ctx, cfg); err != nil {
		s.Close()
		return nil, err
	}
	s.Realtime = realtime.New(d, bus, s.Apps, s.Inbox, realtime.Options{
		PingInterval: cfg.RealtimePingInterval, PingTimeout: cfg.RealtimePingTimeout, Queue: cfg.RealtimeQueue,
		TokenTTL: cfg.RealtimeTokenTTL, SecretKey: cfg.SecretKey, PublicURL: cfg.PublicURL,
	}, log.With("component", "realtime"))
	s.SocketIO = socketio.New(s.Realtime, log.With("component", "socketio"))
	s.Commits = commits.NewService(d, s.Channels)
	if err := s.openConsole(log); err != nil {
		s.Close()
		return nil, err
	}
	if err := s.openOperations(log); err != nil {
		s.Close()
		return nil, err
	}
	s.openLifecycle()
	s.openObservability()
	s.openWebhooks()
	return s, nil
}

// Close releases the connections.
func (s *Stack) Close() {
	s.Temporal.Close()
	s.DB.Close()
	if s.redis != nil {
		s.redis.Close()
	}
	if s.Tracing != nil {
		s.Tracing.Shutdown()
	}
}

// HTTP returns the API server.
func (s *Stack) HTTP() *fiber.App {
	auth := &web.Auth{Apps: s.Apps, Headers: web.NewHeaderNames(s.Cfg.HeaderPrefix)}
	dev := &v3.Handlers{Auth: auth, Notify: s.Notify, Inbox: s.Inbox, Realtime: s.Realtime,
		Users: s.Users, Erasure: s.Erasure, Prefs: s.Prefs, Categories: s.Categories, Topics: s.Topics, Devices: s.Devices,
		Templates: s.Templates, Workflows: s.workflowHandlers(), SendLimit: s.SendLimit}
	health := &v1.Health{Checks: map[string]v1.Check{
		"database": func(ctx context.Context) error { return s.DB.Pool.Ping(ctx) },
		"temporal": func(ctx context.Context) error {
			_, err := s.Temporal.CheckHealth(ctx, &client.CheckHealthRequest{})
			return err
		},
	}}
	opts := api.Options{
		BodyLimit: int(s.Cfg.BodyLimit), Log: s.Log, TrustedProxies: s.Cfg.TrustedProxies, RequestTimeout: s.Cfg.RequestTimeout,
		Mount: []func(fiber.Router){s.SocketIO.Register, s.mountCodecServer, s.unsubscribeHandlers().Register, s.preferencePageHandlers().Register}, Telemetry: telemetry.Middleware(s.httpTelemetry()),
		Draining: s.draining.Load,
	}
	if s.Cfg.Ops.Metrics && s.Cfg.Ops.MetricsToken != "" {
		opts.Metrics, opts.MetricsToken = s.Metrics.Handler(), s.Cfg.Ops.MetricsToken
	}
	console := s.consoleHandlers()
	return api.New(opts, dev, health, console, s.configurationHandlers(console), s.operationsHandlers(console),
		&v1.ProviderCallbacks{Channels: s.Channels}, s.observabilityHandlers(console), s.webhookHandlers(console))
}

// ServeHTTP serves the API on ln (or on the configured address when ln is nil) until ctx
// ends, then shuts down gracefully within the configured timeout. It also runs the
// realtime listener, which every API process needs and no other does.
func (s *Stack) ServeHTTP(ctx context.Context, ln net.Listener) error {
	rtCtx, stopRealtime := context.WithCancel(ctx)
	rtDone := make(chan error, 1)
	go func() { rtDone <- s.Realtime.Run(rtCtx) }()
	defer func() { stopRealtime(); <-rtDone }()
	if ln == nil {
		var err error
		if ln, err = net.Listen("tcp", s.Cfg.HTTPAddr); err != nil {
			return fmt.Errorf("listen on HERALD_HTTP_ADDR=%s: %w", s.Cfg.HTTPAddr, err)
		}
	}
	app := s.HTTP()
	errc := make(chan error, 1)
	go func() { errc <- app.Listener(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	// Not ready from now on; load balancers probing /readyz take the process out during
	// the drain delay, while it still serves whatever reaches it.
	s.draining.Store(true)
	if s.Cfg.ShutdownDrain > 0 {
		select {
		case err := <-errc:
			return err
		case <-time.After(s.Cfg.ShutdownDrain):
		}
	}
	if err := app.ShutdownWithTimeout(s.Cfg.ShutdownTimeout); err != nil {
		return fmt.Errorf("http shutdown: %w", err)
	}
	return <-errc
}

// RunWorker runs the Temporal worker until ctx ends; running activities get the shutdown
// timeout to finish.
func (s *Stack) RunWorker(ctx context.Context) error {
	delivery := &activities.Pipeline{Service: activities.NewService(&pipeline.Service{DB: s.DB, Publisher: s.Events, Channels: s.Channels,
		Templates: s.Templates, Log: s.Log.With("component", "delivery"), Metrics: s.deliveryMetrics(),
		Throttle: s.instanceThrottle(), AppCalls: s.appCalls(), AppRuns: s.runLimit(), Unsubscribe: s.unsubscribeLinks(),
		HoldSpread: pipeline.DefaultHoldSpread, WakeSpread: pipeline.DefaultWakeSpread, BulkShare: s.Cfg.BroadcastShare})}
	go s.Analytics.Run(ctx, s.Log.With("component", "analytics"))
	go s.Audit.Run(ctx, s.Cfg.Console.AuditRetention, s.Log.With("component", "audit"))
	go s.sweepLimits(ctx)
	// Temporal may not answer yet (containers starting in any order): keep trying, so the
	// worker joins as soon as it does.
	if err := s.EnsureSearchAttributes(ctx); err != nil {
		return nil // ctx ended
	}
	wait := 500 * time.Millisecond
	for {
		acts := worker.Activities{Pipeline: delivery, Schedules: &activities.Schedules{Scheduled: s.Schedules}, Flows: s.flowActivities(),
			Retention: s.retentionActivities(),
			Webhooks:  s.webhookActivities()}
		w := worker.New(s.Temporal, s.Cfg.TaskQueue, acts, s.workerOptions())
		err := w.Start()
		if err == nil {
			go s.ensureRetentionSchedule(ctx)
			<-ctx.Done()
			w.Stop()
			return nil
		}
		s.Log.Warn("worker cannot start yet; retrying", "temporal", s.Cfg.TemporalAddress, "retryIn", wait, "error", err)
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(wait):
		}
		wait = min(2*wait, 10*time.Second)
	}
}

// workerOptions are the queues this process polls and their slots (HERALD_WORKER_QUEUES,
// HERALD_WORKER_SLOTS).
func (s *Stack) workerOptions() worker.Options {
	opts := worker.Options{Queues: s.Cfg.WorkerQueues, Slots: map[string]int{}, StopTimeout: s.Cfg.ShutdownTimeout, WorkflowPollers: s.Cfg.WorkflowTaskPollers}
	for _, kind := range taskqueue.Kinds {
		opts.Slots[kind] = s.Cfg.WorkerSlots.Of(kind)
	}
	return opts
}

// RunRelay runs the outbox relay, the webhook relay and the snooze waker until ctx ends,
// once Herald's search attributes are registered (the runs it starts carry them).
func (s *Stack) RunRelay(ctx context.Context) error {
	if err := s.EnsureSearchAttributes(ctx); err != nil {
		return nil // ctx ended
	}
	done := make(chan struct{})
	go func() { defer close(done); s.runWebhookRelay(ctx) }()
	defer func() { <-done }()
	woken := make(chan struct{})
	go func() {
		defer close(woken)
		(&inbox.Waker{Inbox: s.Inbox, Interval: SnoozeWakeInterval, Log: s.Log.With("component", "snooze")}).Run(ctx)
	}()
	defer func() { <-woken }()
	return s.Relay.Run(ctx)
}

// SnoozeWakeInterval is how often the relay looks for snoozed notifications whose time has
// come (one indexed query over the snoozed rows only).
const SnoozeWakeInterval = time.Second

// SecretKey returns the configured secret key or, failing that, the one kept in the data
// directory by `herald dev`. With generate set (dev only) it creates that file when missing.
func SecretKey(cfg config.Config, generate bool) (string, error) {
	if cfg.SecretKey != "" {
		return cfg.SecretKey, nil
	}
	path := filepath.Join(cfg.DataDir, "secret.key")
	b, err := os.ReadFile(path)
	if err == nil {
		key := strings.TrimSpace(string(b))
		if err := config.CheckSecretKey(key); err != nil {
			return "", fmt.Errorf("%s: %w", path, err)
		}
		return key, nil
	}
	if !errors.Is(err, os.ErrNotExist) {
		return "", err
	}
	if !generate {
		return "", errors.New("HERALD_SECRET_KEY is not set: set it to a random string of at least 32 characters (for example `openssl rand -base64 32`); it encrypts stored secrets and must stay the same across restarts")
	}
	key := secrets.Token(32)
	if err := os.MkdirAll(cfg.DataDir, 0o700); err != nil {
		return "", err
	}
	if err := os.WriteFile(path, []byte(key+"\n"), 0o600); err != nil {
		return "", err
	}
	return key, nil
}

// openLimits opens the shared store of rate limits (Redis when HERALD_REDIS_URL is set,
// else Postgres) and the per-app send rate limit of HERALD_SEND_RATE_LIMIT, whose burst
// defaults to one second's worth of sends.
func (s *Stack) openLimits(ctx context.Context, cfg config.Config) error {
	s.Limits = ratelimit.NewPostgres(s.DB.Queries)
	if cfg.RedisURL != "" {
		r, err := ratelimit.NewRedis(ctx, cfg.RedisURL)
		if err != nil {
			return err
		}
		s.redis, s.Limits = r, r
	}
	burst := cfg.SendRateBurst
	if burst == 0 {
		burst = int(math.Ceil(cfg.SendRateLimit))
	}
	s.SendLimit = ratelimit.NewShared(s.Limits, "send:app:", cfg.SendRateLimit, burst)
	if s.SendLimit != nil {
		log := s.Log.With("component", "ratelimit", "store", s.Limits.Name())
		s.SendLimit.OnError = func(err error) { log.Warn("send rate limit store failed; the send was let through", "err", err) }
	}
	return nil
}

// instanceThrottle paces the provider calls of instances that set a send rate
// (config.sendRate) with a token bucket per instance in the shared store, so the rate holds
// across every worker: a call over it waits for its turn (bursts of one). When the store
// fails, the call goes ahead (logged): the provider's own limits then push back.
func (s *Stack) instanceThrottle() func(ctx context.Context, c *channels.Candidate) error {
	log := s.Log.With("component", "ratelimit", "store", s.Limits.Name())
	return func(ctx context.Context, c *channels.Candidate) error {
		if c.SendRate <= 0 {
			return nil
		}
		_, err := ratelimit.Wait(ctx, s.Limits, "instance:"+strconv.FormatInt(c.InstanceID, 10), c.SendRate, 1)
		if err != nil && ctx.Err() == nil {
			log.Warn("instance send rate store failed; the call goes ahead", "instance", c.InstanceID, "err", err)
			return nil
		}
		return err
	}
}

// sweepLimits deletes the expired quota counters of the Postgres store hourly (a row per
// client and month; Redis expires its keys itself).
func (s *Stack) sweepLimits(ctx context.Context) {
	pg, ok := s.Limits.(*ratelimit.Postgres)
	if !ok {
		return
	}
	t := time.NewTicker(time.Hour)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if err := pg.Sweep(ctx); err != nil && ctx.Err() == nil {
				s.Log.Warn("could not delete expired rate limit counters", "err", err)
			}
		}
	}
}
