package telemetry_test

import (
	"testing"

	"github.com/gofiber/fiber/v2"
	"github.com/valyala/fasthttp"

	"github.com/heraldhq/herald/api/web"
	"github.com/heraldhq/herald/internal/platform/telemetry"
)

// BenchmarkMiddleware measures what the request middleware adds to one request of the
// accept path's shape (compare with Off).
func BenchmarkMiddleware(b *testing.B) {
	for _, on := range []bool{false, true} {
		name := "Off"
		if on {
			name = "Metrics"
		}
		b.Run(name, func(b *testing.B) {
			app := fiber.New(fiber.Config{DisableStartupMessage: true})
			app.Use(web.RequestIDMiddleware)
			if on {
				app.Use(telemetry.Middleware(telemetry.HTTPOptions{Metrics: telemetry.NewMetrics(), RequestID: web.RequestID}))
			}
			app.Post("/v3/notifications", func(c *fiber.Ctx) error { return c.Status(fiber.StatusAccepted).SendString(`{"requestId":"x"}`) })
			h := app.Handler()
			var ctx fasthttp.RequestCtx
			b.ReportAllocs()
			for b.Loop() {
				ctx.Request.Reset()
				ctx.Response.Reset()
				ctx.Request.Header.SetMethod("POST")
				ctx.Request.SetRequestURI("/v3/notifications")
				h(&ctx)
			}
		})
	}
}
