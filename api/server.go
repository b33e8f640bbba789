// Package api assembles the HTTP server: one Fiber app with the developer API under /v3,
// the management API under /v1, and one error handler.
package api

import (
	"io/fs"
	"log/slog"
	"net/http"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/gofiber/fiber/v2/middleware/adaptor"
	"github.com/gofiber/fiber/v2/middleware/recover"

	v1 "github.com/heraldhq/herald/api/v1"
	v3 "github.com/heraldhq/herald/api/v3"
	"github.com/heraldhq/herald/api/web"
	webconsole "github.com/heraldhq/herald/web/console"
	webinbox "github.com/heraldhq/herald/web/inbox"
)

// Options configure the server.
type Options struct {
	BodyLimit int
	Log       *slog.Logger
	// Mount adds routes outside /v1 and /v3 (the Socket.IO endpoint).
	Mount []func(fiber.Router)
	// TrustedProxies are the addresses (or CIDR ranges) of reverse proxies whose
	// X-Forwarded-For names the client; from anywhere else the connection's address counts,
	// so per-IP limits cannot be dodged with a forged header.
	TrustedProxies []string
	// Telemetry measures, traces and gives log fields to each request (it runs after the
	// request id is set); nil for none.
	Telemetry fiber.Handler
	// Metrics is served at /metrics when set, to requests carrying MetricsToken as a
	// bearer token (HERALD_METRICS_TOKEN); it is never served without one.
	Metrics      http.Handler
	MetricsToken string
	// RequestTimeout bounds each request but the realtime streams (0: none).
	RequestTimeout time.Duration
	// Draining reports that the process is shutting down: /readyz then answers 503; nil
	// for never.
	Draining func() bool
	// ConsoleFiles are the console web app's built files served at /; nil for the bundle
	// embedded in the binary (web/console).
	ConsoleFiles fs.FS
}

func (o Options) consoleFiles() fs.FS {
	if o.ConsoleFiles != nil {
		return o.ConsoleFiles
	}
	return webconsole.Files()
}

// Registrar is a group of handlers that mounts its routes on a router.
type Registrar interface{ Register(r fiber.Router) }

// New returns the Fiber app serving both APIs; mgmt are further handlers of the
// management API, mounted under /v1.
func New(opts Options, dev *v3.Handlers, health *v1.Health, mgmt ...Registrar) *fiber.App {
	app := fiber.New(fiber.Config{
		AppName:               "herald",
		BodyLimit:             max(web.TransportBodyLimit, opts.BodyLimit),
		ErrorHandler:          web.ErrorHandler(opts.Log),
		DisableStartupMessage: true,
		ReadTimeout:           30 * time.Second,
		WriteTimeout:          30 * time.Second,
		IdleTimeout:           2 * time.Minute,
		// The scheme and host a trusted proxy forwards count (X-Forwarded-Proto/-Host). The
		// client's address is web.ClientIPOf, never c.IP(): fiber's would be the raw
		// X-Forwarded-For or its leftmost, client-written entry.
		EnableTrustedProxyCheck: len(opts.TrustedProxies) > 0,
		TrustedProxies:          opts.TrustedProxies,
	})
	app.Use(recover.New(), web.ClientAddress(web.ParseProxies(opts.TrustedProxies)), web.RequestIDMiddleware)
	if opts.Telemetry != nil {
		app.Use(opts.Telemetry)
	}
	app.Use(web.BodyLimitExcept(opts.BodyLimit, "/v1/files"))
	// Every body of both APIs must be UTF-8 (uploads excepted, by their content type).
	app.Use("/v1", web.RequireUTF8)
	app.Use("/v3", web.RequireUTF8)
	// Events of the audit log record where the request came from.
	app.Use("/v1", web.AuditOrigin)
	// Streams and file downloads write their body after the handler returns, still reading
	// through the request's context: they keep no deadline.
	app.Use(web.RequestTimeout(opts.RequestTimeout, "/v3/realtime", "/socket.io", "/v1/files"))
	if opts.Metrics != nil && opts.MetricsToken != "" {
		app.Get("/metrics", metricsAuth(opts.MetricsToken), adaptor.HTTPHandler(opts.Metrics))
	}
	dev.Register(app.Group("/v3"))
	mustWidget().Register(app)
	// Socket.IO's HTTP long-polling is cross-origin XHR from the inbox widget.
	app.Use("/socket.io", dev.Auth.SocketCORS())
	for _, m := range opts.Mount {
		m(app)
	}
	health.Register(app.Group("/v1"))
	(&Probes{Checks: health.Checks, Draining: opts.Draining}).Register(app)
	v1.OpenAPI{}.Register(app.Group("/v1"))
	for _, m := range mgmt {
		m.Register(app.Group("/v1"))
	}
	// Last: every other GET is the console web app (deep links load its index.html).
	NewConsole(opts.consoleFiles()).Register(app)
	return app
}

// mustWidget indexes the embedded widget files; they are part of the binary, so a failure
// is a build defect.
func mustWidget() *Widget {
	w, err := NewWidget(webinbox.Files())
	if err != nil {
		panic("api: embedded widget: " + err.Error())
	}
	return w
}
