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

	"github.com/heraldhq/herald/netguard"
	"github.com/heraldhq/herald/providers"
)

// maxBody caps how much of an answer is read; provider answers are small.
const maxBody = 256 << 10

// defaultTimeout bounds a call when the pipeline passes no client.
const defaultTimeout = 30 * time.Second

// Client returns the pipeline's client, or one with a default timeout.
func Client(d providers.Deps) *http.Client {
	if d.HTTP != nil {
		return d.HTTP
	}
	return &http.Client{Timeout: defaultTimeout}
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

// transportError describes a failed round trip without the URL: *url.Error prints it, and
// webhook URLs (Slack, Discord, Teams) are credentials.
func transportError(req *http.Request, err error) error {
	var ue *url.Error
	inner := err
	if errors.As(err, &ue) {
		inner = ue.Err
	}
	var msg string
	if errors.Is(err, netguard.ErrNotPublic) {
		// Refused by policy (an internal address): retrying cannot help.
		return &providers.Error{Permanent: true, Message: "request refused: " + inner.Error()}
	}
	switch {
	case errors.Is(err, context.DeadlineExceeded) || (ue != nil && ue.Timeout()):
		msg = "request timed out"
	case errors.Is(err, context.Canceled) || req.Context().Err() != nil:
		msg = "request canceled"
	default:
		msg = "request failed: " + inner.Error()
		// Belt and braces: no wrapped error should quote the URL, but never let one through.
		for _, s := range []string{req.URL.String(), req.URL.RawQuery, req.URL.EscapedPath()} {
			if len(s) > 1 {
				msg = strings.ReplaceAll(msg, s, "…")
			}
		}
	}
	return &providers.Error{Message: msg}
}
