// Package logctx carries the identity of a request (request id, app, client) in its
// context so every log line written with that context names them, and wraps a slog
// handler to add them together with the trace and span ids of OpenTelemetry.
package logctx

import (
	"context"
	"log/slog"
	"sync/atomic"

	"go.opentelemetry.io/otel/trace"
)

// Fields are one request's log fields. They are set once per request and filled in as the
// request is understood (the app is known after authentication), without allocating again.
type Fields struct {
	RequestID string
	appID     atomic.Int64
	clientID  atomic.Int64
}

type key struct{}

// With returns ctx carrying fresh fields for a request.
func With(ctx context.Context, requestID string) (context.Context, *Fields) {
	f := &Fields{RequestID: requestID}
	return context.WithValue(ctx, key{}, f), f
}

// From returns the fields of ctx, or nil.
func From(ctx context.Context) *Fields {
	f, _ := ctx.Value(key{}).(*Fields)
	return f
}

// SetApp records the app a request acts on; a no-op without fields.
func SetApp(ctx context.Context, appID int64) {
	if f := From(ctx); f != nil {
		f.appID.Store(appID)
	}
}

// SetClient records the client a request acts on; a no-op without fields.
func SetClient(ctx context.Context, clientID int64) {
	if f := From(ctx); f != nil {
		f.clientID.Store(clientID)
	}
}

// Handler adds the request fields and trace ids of the record's context to each record.
type Handler struct {
	slog.Handler
}

// Wrap returns h adding request fields.
func Wrap(h slog.Handler) slog.Handler { return Handler{h} }

// Handle implements slog.Handler.
func (h Handler) Handle(ctx context.Context, r slog.Record) error {
	if f := From(ctx); f != nil {
		has := map[string]bool{}
		r.Attrs(func(a slog.Attr) bool { has[a.Key] = true; return true })
		if f.RequestID != "" && !has["requestId"] {
			r.AddAttrs(slog.String("requestId", f.RequestID))
		}
		if id := f.appID.Load(); id != 0 && !has["appId"] {
			r.AddAttrs(slog.Int64("appId", id))
		}
		if id := f.clientID.Load(); id != 0 && !has["clientId"] {
			r.AddAttrs(slog.Int64("clientId", id))
		}
	}
	if sc := trace.SpanContextFromContext(ctx); sc.IsValid() {
		r.AddAttrs(slog.String("traceId", sc.TraceID().String()), slog.String("spanId", sc.SpanID().String()))
	}
	return h.Handler.Handle(ctx, r)
}

// WithAttrs implements slog.Handler.
func (h Handler) WithAttrs(attrs []slog.Attr) slog.Handler {
	return Handler{h.Handler.WithAttrs(attrs)}
}

// WithGroup implements slog.Handler.
func (h Handler) WithGroup(name string) slog.Handler { return Handler{h.Handler.WithGroup(name)} }
