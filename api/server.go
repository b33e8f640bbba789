// Package api assembles the HTTP server: one Fiber app with the developer API under /v3,
// the management API under /v1, and one error handler.
package api

import (
	"log/slog"
	"net/http"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/gofiber/fiber/v2/middleware/adaptor"
	"github.com/gofiber/fiber/v2/middleware/recover"

	v1 "github.com/heraldhq/herald/api/v1"
	v3 "github.com/heraldhq/herald/api/v3"
	"github.com/heraldhq/herald/api/web"
)

// Options configure the server.
type Options struct {
	BodyLimit int
	Log       *slog.Logger
	// Telemetry measures, traces and gives log fields to each request (it runs after the
	// request id is set); nil for none.
	Telemetry fiber.Handler
	// Metrics is served at /metrics when set.
	Metrics http.Handler
}

// Routes are more handlers of the management API.
type Routes interface{ Register(r fiber.Router) }

// New returns the Fiber app serving both APIs; more adds handlers to /v1.
func New(opts Options, dev *v3.Handlers, health *v1.Health, console *v1.Console, more ...Routes) *fiber.App {
	app := fiber.New(fiber.Config{
		AppName:               "herald",
		BodyLimit:             max(web.TransportBodyLimit, opts.BodyLimit),
		ErrorHandler:          web.ErrorHandler(opts.Log),
		DisableStartupMessage: true,
		ReadTimeout:           30 * time.Second,
		WriteTimeout:          30 * time.Second,
		IdleTimeout:           2 * time.Minute,
	})
	app.Use(recover.New(), web.RequestIDMiddleware)
	if opts.Telemetry != nil {
		app.Use(opts.Telemetry)
	}
	app.Use(web.BodyLimitExcept(opts.BodyLimit, "/v1/files"))
	if opts.Metrics != nil {
		app.Get("/metrics", adaptor.HTTPHandler(opts.Metrics))
	}
	dev.Register(app.Group("/v3"))
	health.Register(app.Group("/v1"))
	console.Register(app.Group("/v1"))
	for _, m := range more {
		m.Register(app.Group("/v1"))
	}
	v1.OpenAPI{}.Register(app.Group("/v1"))
	return app
}
