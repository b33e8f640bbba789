package httpcall

import (
	"context"
	"errors"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/heraldhq/herald/internal/providers"
)

// Deadlines of an HTTP provider instance besides its overall timeoutSeconds (issue 28),
// from the instance's config:
//   - connectTimeoutSeconds bounds the TCP connect, and then the TLS handshake, of a new
//     connection (default DefaultConnectTimeout, the guard's dialer and TLS bound);
//   - responseTimeoutSeconds bounds the wait for the answer's headers once the request is
//     written (default: none of its own, the overall timeout applies).
const DefaultConnectTimeout = 10 * time.Second

// DeadlineProperties are the schema properties of the two keys, ordinary settings (neither
// secret nor destination), for the kinds to list.
const DeadlineProperties = `"connectTimeoutSeconds": {"type": "number", "minimum": 0.1, "maximum": 60, "default": 10,
  "title": "Connect timeout (s)", "description": "How long connecting to the provider may take: the TCP connect, then the TLS handshake, each"},
  "responseTimeoutSeconds": {"type": "number", "minimum": 0.1, "maximum": 60,
  "title": "Response timeout (s)", "description": "How long the provider may take to start answering a request once it is sent (default: the overall timeout)"}`

// Deadlines are the two keys as configured (0: unset).
type Deadlines struct {
	ConnectTimeoutSeconds  float64 `json:"connectTimeoutSeconds"`
	ResponseTimeoutSeconds float64 `json:"responseTimeoutSeconds"`
}

type transportKey struct {
	base              *http.Transport
	connect, response time.Duration
}

// transports memoises the transports WithDeadlines derives, so instances (and sends that
// rebuild an instance with an override) with the same deadlines share connections.
var transports sync.Map

// WithDeadlines returns c bounded by d: a copy of c on a transport derived from c's with
// the connect and response deadlines, or c itself when d sets neither (or c's transport
// is not an *http.Transport, as in tests with fakes).
func WithDeadlines(c *http.Client, d Deadlines) *http.Client {
	base, ok := c.Transport.(*http.Transport)
	if !ok || (d.ConnectTimeoutSeconds <= 0 && d.ResponseTimeoutSeconds <= 0) {
		return c
	}
	key := transportKey{base: base, connect: seconds(d.ConnectTimeoutSeconds), response: seconds(d.ResponseTimeoutSeconds)}
	t, ok := transports.Load(key)
	if !ok {
		derived := base.Clone()
		if key.connect > 0 {
			dial := base.DialContext
			if dial == nil {
				dial = (&net.Dialer{}).DialContext
			}
			derived.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
				ctx, cancel := context.WithTimeout(ctx, key.connect)
				defer cancel()
				conn, err := dial(ctx, network, addr)
				if err != nil && ctx.Err() == context.DeadlineExceeded {
					return nil, deadlineError{key: "connectTimeoutSeconds", err: err}
				}
				return conn, err
			}
			derived.TLSHandshakeTimeout = key.connect
		}
		if key.response > 0 {
			derived.ResponseHeaderTimeout = key.response
		}
		t, _ = transports.LoadOrStore(key, derived)
	}
	out := *c
	out.Transport = t.(*http.Transport)
	return &out
}

func seconds(s float64) time.Duration {
	if s <= 0 {
		return 0
	}
	return time.Duration(s * float64(time.Second))
}

// deadlineError is a dial that ran into connectTimeoutSeconds.
type deadlineError struct {
	key string
	err error
}

func (e deadlineError) Error() string   { return e.key + ": " + e.err.Error() }
func (e deadlineError) Unwrap() error   { return e.err }
func (e deadlineError) Timeout() bool   { return true }
func (e deadlineError) Temporary() bool { return true }

// DeadlineOf names the config key whose deadline a failed round trip ran into: the
// connect deadline (dial or TLS handshake), the response deadline, or the overall
// timeoutSeconds; empty when it did not time out.
func DeadlineOf(err error) string {
	var de deadlineError
	switch msg := err.Error(); {
	case errors.As(err, &de):
		return de.key
	case strings.Contains(msg, "TLS handshake timeout"):
		return "connectTimeoutSeconds"
	case strings.Contains(msg, "timeout awaiting response headers"):
		return "responseTimeoutSeconds"
	case errors.Is(err, context.DeadlineExceeded) || isTimeout(err):
		return "timeoutSeconds"
	}
	return ""
}

func isTimeout(err error) bool {
	var t interface{ Timeout() bool }
	return errors.As(err, &t) && t.Timeout()
}

// timeoutError is the transient error of a round trip that ran into deadline key.
func timeoutError(key string) *providers.Error {
	what := map[string]string{
		"connectTimeoutSeconds":  "request timed out connecting (connectTimeoutSeconds)",
		"responseTimeoutSeconds": "request timed out waiting for the answer (responseTimeoutSeconds)",
	}[key]
	if what == "" {
		what = "request timed out"
	}
	return &providers.Error{Message: what, Deadline: key}
}
