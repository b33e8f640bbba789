package telemetry

import (
	"strconv"
	"time"

	"github.com/gofiber/fiber/v2"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"

	"github.com/heraldhq/herald/internal/platform/logctx"
)

// statusText caches the label of each status code so the hot path does not format one.
var statusText = func() [600]string {
	var t [600]string
	for i := range t {
		t[i] = strconv.Itoa(i)
	}
	return t
}()

// methodLabel returns a constant string for the request method: Fiber's own points into a
// buffer it reuses, and labels and span attributes outlive the request.
func methodLabel(m string) string {
	switch m {
	case fiber.MethodGet:
		return fiber.MethodGet
	case fiber.MethodPost:
		return fiber.MethodPost
	case fiber.MethodPut:
		return fiber.MethodPut
	case fiber.MethodPatch:
		return fiber.MethodPatch
	case fiber.MethodDelete:
		return fiber.MethodDelete
	case fiber.MethodHead:
		return fiber.MethodHead
	case fiber.MethodOptions:
		return fiber.MethodOptions
	}
	return "OTHER"
}

// HTTPOptions configure the request middleware.
type HTTPOptions struct {
	// Metrics records each request; nil records nothing.
	Metrics *Metrics
	// Tracer opens a server span per request, continuing the caller's W3C trace context;
	// nil traces nothing.
	Tracer trace.Tracer
	// RequestID returns the request's id (set by an earlier middleware).
	RequestID func(*fiber.Ctx) string
}

// unmatched labels requests no route answered, so scanners cannot blow up the series.
const unmatched = "unmatched"

// Middleware measures and traces each request and gives its context the request's log
// fields. Errors returned by handlers are rendered here (with the app's error handler) so
// the recorded status is the one sent.
func Middleware(o HTTPOptions) fiber.Handler {
	prop := propagation.TraceContext{}
	return func(c *fiber.Ctx) error {
		start := time.Now()
		method := methodLabel(c.Method())
		ctx, _ := logctx.With(c.UserContext(), o.RequestID(c))
		var span trace.Span
		if o.Tracer != nil {
			ctx = prop.Extract(ctx, headerCarrier{c})
			ctx, span = o.Tracer.Start(ctx, method, trace.WithSpanKind(trace.SpanKindServer),
				trace.WithAttributes(attribute.String("http.request.method", method), attribute.String("url.path", string(c.Request().URI().Path()))))
		}
		c.SetUserContext(ctx)
		err := c.Next()
		if err != nil {
			if herr := c.App().ErrorHandler(c, err); herr != nil {
				_ = c.SendStatus(fiber.StatusInternalServerError)
			}
		}
		status := c.Response().StatusCode()
		route := c.Route().Path
		if status == fiber.StatusNotFound && (route == "/" || route == "") {
			route = unmatched
		}
		if o.Metrics != nil {
			label := "other"
			if status > 0 && status < len(statusText) {
				label = statusText[status]
			}
			o.Metrics.http.WithLabelValues(method, route, label).Observe(time.Since(start).Seconds())
		}
		if span != nil {
			span.SetName(method + " " + route)
			span.SetAttributes(attribute.String("http.route", route), attribute.Int("http.response.status_code", status),
				attribute.String("herald.request_id", o.RequestID(c)))
			if status >= 500 {
				span.SetStatus(codes.Error, statusText[status])
			}
			span.End()
		}
		return nil
	}
}

// headerCarrier reads W3C trace headers from a Fiber request.
type headerCarrier struct{ c *fiber.Ctx }

// Get implements propagation.TextMapCarrier.
func (h headerCarrier) Get(key string) string { return h.c.Get(key) }

// Set implements propagation.TextMapCarrier; requests are only read.
func (h headerCarrier) Set(string, string) {}

// Keys implements propagation.TextMapCarrier.
func (h headerCarrier) Keys() []string { return []string{"traceparent", "tracestate"} }
