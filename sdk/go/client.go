package herald

import (
	"bytes"
	"context"
	"crypto/rsa"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"
)

// Version is the SDK's version, sent in the User-Agent header.
const Version = "0.1.0"

// DefaultHeaderPrefix prefixes the credential headers unless WithHeaderPrefix says otherwise
// (the server's HERALD_HEADER_PREFIX).
const DefaultHeaderPrefix = "X-SERVICE-"

// Client calls the developer API with the app's credentials. It is safe for concurrent use.
type Client struct {
	baseURL    string
	apiKey     string
	apiSecret  string
	prefix     string
	http       *http.Client
	retry      RetryPolicy
	signingKey *rsa.PrivateKey
	tokenTTL   time.Duration
	newKey     func() string
}

// Option configures a Client.
type Option func(*Client)

// WithBaseURL sets the server's URL (without /v3); the default is HERALD_URL, then
// http://localhost:8080.
func WithBaseURL(u string) Option { return func(c *Client) { c.baseURL = u } }

// WithAPIKey sets the app's API key; the default is HERALD_API_KEY.
func WithAPIKey(k string) Option { return func(c *Client) { c.apiKey = k } }

// WithAPISecret sets the app's API secret; the default is HERALD_API_SECRET. Keep it on the
// server: it must never reach front-end code.
func WithAPISecret(s string) Option { return func(c *Client) { c.apiSecret = s } }

// WithHeaderPrefix sets the prefix of the credential headers (default X-SERVICE-), matching
// the server's HERALD_HEADER_PREFIX.
func WithHeaderPrefix(p string) Option { return func(c *Client) { c.prefix = p } }

// WithHTTPClient sets the HTTP client (its Transport, Timeout, …); the default has a 30 s
// timeout per attempt.
func WithHTTPClient(h *http.Client) Option {
	return func(c *Client) {
		if h != nil {
			c.http = h
		}
	}
}

// WithRetry sets the retry policy; RetryPolicy{} (MaxRetries 0) turns retries off.
func WithRetry(p RetryPolicy) Option { return func(c *Client) { c.retry = p } }

// WithSigningKey lets AsUser sign a user JWT (secure mode) with the app's private key,
// valid for ttl (a minute when ttl is 0 or less).
func WithSigningKey(key *rsa.PrivateKey, ttl time.Duration) Option {
	return func(c *Client) { c.signingKey, c.tokenTTL = key, ttl }
}

// NewClient returns a client configured by opts, falling back on HERALD_URL,
// HERALD_API_KEY and HERALD_API_SECRET. It fails when the base URL is not absolute or no
// API key is known.
func NewClient(opts ...Option) (*Client, error) {
	c := &Client{
		baseURL:   os.Getenv("HERALD_URL"),
		apiKey:    os.Getenv("HERALD_API_KEY"),
		apiSecret: os.Getenv("HERALD_API_SECRET"),
		prefix:    DefaultHeaderPrefix,
		http:      &http.Client{Timeout: 30 * time.Second},
		retry:     DefaultRetryPolicy,
		newKey:    newIdempotencyKey,
	}
	for _, o := range opts {
		o(c)
	}
	if c.baseURL == "" {
		c.baseURL = "http://localhost:8080"
	}
	c.baseURL = strings.TrimSuffix(strings.TrimSuffix(c.baseURL, "/"), "/v3")
	if u, err := url.Parse(c.baseURL); err != nil || u.Scheme == "" || u.Host == "" {
		return nil, fmt.Errorf("herald: base URL %q is not an absolute URL", c.baseURL)
	}
	if c.apiKey == "" {
		return nil, errors.New("herald: no API key: pass WithAPIKey or set HERALD_API_KEY")
	}
	if c.tokenTTL <= 0 {
		c.tokenTTL = time.Minute
	}
	return c, nil
}

// request is one call of the API.
type request struct {
	method, path string
	query        url.Values
	body         any
	header       http.Header
	// idempotent: repeating the request cannot change the outcome (GET, PUT, DELETE, a
	// send with its Idempotency-Key, a mark), so timeouts and 5xx may be retried too.
	idempotent bool
}

// appHeaders are app-mode credentials.
func (c *Client) appHeaders() http.Header {
	h := http.Header{}
	h.Set(c.prefix+"API-KEY", c.apiKey)
	if c.apiSecret != "" {
		h.Set(c.prefix+"API-SECRET", c.apiSecret)
	}
	return h
}

// do sends r with retries and decodes a 2xx answer into out (when not nil).
func (c *Client) do(ctx context.Context, r request, out any) error {
	var body []byte
	if r.body != nil {
		var err error
		if body, err = json.Marshal(r.body); err != nil {
			return fmt.Errorf("herald: encode the request: %w", err)
		}
	}
	u := c.baseURL + "/v3" + r.path
	if len(r.query) > 0 {
		u += "?" + r.query.Encode()
	}
	if r.method == http.MethodGet || r.method == http.MethodPut || r.method == http.MethodDelete {
		r.idempotent = true
	}
	for attempt := 0; ; attempt++ {
		status, raw, hdr, err := c.once(ctx, r, u, body)
		var wait time.Duration
		switch {
		case err != nil:
			if ctx.Err() != nil || !r.idempotent || attempt >= c.retry.MaxRetries {
				return err
			}
			wait = c.retry.backoff(attempt)
		case status >= 200 && status < 300:
			if out == nil || len(bytes.TrimSpace(raw)) == 0 {
				return nil
			}
			if err := json.Unmarshal(raw, out); err != nil {
				return fmt.Errorf("herald: decode the answer of %s %s: %w", r.method, r.path, err)
			}
			return nil
		default:
			apiErr := newAPIError(status, raw, retryAfter(hdr.Get("Retry-After")))
			retryable := status == http.StatusTooManyRequests || (status >= 500 && r.idempotent)
			if !retryable || attempt >= c.retry.MaxRetries {
				return apiErr
			}
			wait = c.retry.backoff(attempt)
			if apiErr.RetryAfter > wait {
				if apiErr.RetryAfter > c.retry.maxRetryAfter() {
					return apiErr
				}
				wait = apiErr.RetryAfter
			}
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		}
	}
}

// once makes one attempt.
func (c *Client) once(ctx context.Context, r request, u string, body []byte) (int, []byte, http.Header, error) {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, r.method, u, rd)
	if err != nil {
		return 0, nil, nil, fmt.Errorf("herald: %w", err)
	}
	for k, v := range r.header {
		req.Header[k] = v
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", "herald-go/"+Version)
	res, err := c.http.Do(req)
	if err != nil {
		return 0, nil, nil, fmt.Errorf("herald: %s %s: %w", r.method, r.path, err)
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(res.Body, 32<<20))
	if err != nil {
		return 0, nil, nil, fmt.Errorf("herald: read the answer of %s %s: %w", r.method, r.path, err)
	}
	return res.StatusCode, raw, res.Header, nil
}

// pathEscape escapes one path segment (user identifiers may hold slashes).
func pathEscape(s string) string { return url.PathEscape(s) }
