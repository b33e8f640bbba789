// Package httpcall makes the HTTP calls of the provider packages: it builds JSON and form
// requests, reads answers with a size cap, and turns transport failures into transient
// provider errors that never repeat the request URL (webhook URLs carry secrets).
package httpcall

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/heraldhq/herald/internal/platform/netguard"
	"github.com/heraldhq/herald/internal/providers"
)

// maxBody caps how much of an answer is read; provider answers are small.
const maxBody = 256 << 10

// defaultTimeout bounds a call when the pipeline passes no client.
const defaultTimeout = 30 * time.Second

// Client returns the pipeline's client, or one of the guard (public addresses only when
// there is none) with a default timeout.
func Client(d providers.Deps) *http.Client {
	if d.HTTP != nil {
		return d.HTTP
	}
	return d.Guard.Client(defaultTimeout)
}

// NewJSON builds a request with body encoded as JSON.
func NewJSON(ctx context.Context, method, target string, body any) (*http.Request, error) {
	raw, err := json.Marshal(body)
	if err != nil {
		return nil, err
	}
	req, err := newRequest(ctx, method, target, bytes.NewReader(raw))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	return req, nil
}

// NewForm builds a POST with a form-encoded body.
func NewForm(ctx context.Context, target string, form url.Values) (*http.Request, error) {
	req, err := newRequest(ctx, http.MethodPost, target, strings.NewReader(form.Encode()))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	return req, nil
}

// NewRaw builds a request with a body of the given content type.
func NewRaw(ctx context.Context, method, target, contentType string, body []byte) (*http.Request, error) {
	req, err := newRequest(ctx, method, target, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", contentType)
	return req, nil
}

func newRequest(ctx context.Context, method, target string, body io.Reader) (*http.Request, error) {
	req, err := http.NewRequestWithContext(ctx, method, target, body)
	if err != nil {
		// url.Parse errors quote the URL, which may hold a secret.
		return nil, providers.Permanent("invalid provider URL")
	}
	req.Header.Set("User-Agent", "Herald")
	return req, nil
}

// Do sends req and returns the answer with its body read (up to a cap). A failure to get
// an answer (timeout, refused connection, TLS) is a transient *providers.Error.
func Do(c *http.Client, req *http.Request) (*http.Response, []byte, error) {
	res, err := c.Do(req)
	if err != nil {
		return nil, nil, transportError(req, err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(io.LimitReader(res.Body, maxBody))
	if err != nil {
		return nil, nil, transportError(req, err)
	}
	return res, body, nil
}

// Check returns nil for a 2xx answer and the classified error otherwise (see
// providers.FromHTTPStatus).
func Check(res *http.Response, body []byte, goneOn404 bool) error {
	if res.StatusCode >= 200 && res.StatusCode < 300 {
		return nil
	}
	return providers.FromHTTPStatus(res, string(body), goneOn404)
}

// TransportError is transportError for providers that make their own requests (the
// signed webhook).
func TransportError(req *http.Request, err error) error { return transportError(req, err) }

// transportError describes a failed round trip without the URL (*url.Error prints it, and
// webhook URLs of Slack, Discord and Teams are credentials) and without anything the peer
// sent (net/http quotes a malformed answer: the banner of whatever service the URL points
// at): netguard.Describe words it.
func transportError(req *http.Request, err error) error {
	var ue *url.Error
	errors.As(err, &ue)
	if errors.Is(err, netguard.ErrNotPublic) {
		// Refused by policy (an internal address): retrying cannot help.
		return &providers.Error{Permanent: true, Message: "request refused: " + netguard.Describe(err, "HTTP", req.URL.Host)}
	}
	switch {
	case DeadlineOf(err) != "":
		return timeoutError(DeadlineOf(err))
	case errors.Is(err, context.DeadlineExceeded) || (ue != nil && ue.Timeout()):
		return &providers.Error{Message: "request timed out", Deadline: "timeoutSeconds"}
	case errors.Is(err, context.Canceled) || req.Context().Err() != nil:
		return &providers.Error{Message: "request canceled"}
	}
	return &providers.Error{Message: "request failed: " + netguard.Describe(err, "HTTP", req.URL.Host)}
}
