// Package fetch performs the HTTP requests of a flow's fetch steps: which hosts may be
// reached (HERALD_FETCH_ALLOWED_HOSTS, else any public host through the outbound guard), the
// schemes, the redirects, the size and shape of an answer, and which failures are final.
// The fetch activity (activities.Flows.Fetch) calls it and turns a *Refusal into a
// non-retryable Temporal error.
package fetch

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/heraldhq/herald/internal/platform/netguard"
	"github.com/heraldhq/herald/workflows/flowrun"
)

// MaxResponse caps a fetch step's response body.
const MaxResponse = 1 << 20

// Refusal is a failure that retrying cannot mend: a bad URL, a host the policy refuses, a
// 4xx answer, or an answer too large or not a JSON object. Other errors (5xx, 429,
// timeouts, refused connections) are worth retrying, as the step's retry policy says.
type Refusal struct {
	// Kind names the failure for Temporal's error type: FetchURL, FetchPolicy, FetchStatus,
	// FetchSize or FetchBody.
	Kind    string
	Message string
}

func (r *Refusal) Error() string { return r.Message }

// Client performs the requests. With an allow-list only its hosts are reached; without one,
// any public host (netguard refuses internal addresses unless their host is allow-listed by
// name).
type Client struct {
	// AllowedHosts are host names (or *.suffix patterns); empty allows public hosts.
	AllowedHosts []string
	http         *http.Client
}

// New returns a Client for the allow-list (HERALD_FETCH_ALLOWED_HOSTS).
func New(allowed []string) *Client {
	c := &Client{AllowedHosts: allowed, http: netguard.New("HERALD_FETCH_ALLOWED_HOSTS", allowed).Client(0)}
	c.http.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if len(via) >= 3 {
			return errors.New("too many redirects")
		}
		return c.checkHost(req.URL)
	}
	return c
}

func (c *Client) checkHost(u *url.URL) error {
	if u.Scheme != "http" && u.Scheme != "https" {
		return fmt.Errorf("fetch: scheme %q is not allowed", u.Scheme)
	}
	port := u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[u.Scheme]
	}
	if len(c.AllowedHosts) > 0 && !netguard.AllowedAddr(u.Hostname(), port, c.AllowedHosts) {
		return fmt.Errorf("fetch: host %q is not in HERALD_FETCH_ALLOWED_HOSTS", u.Hostname())
	}
	return nil
}

// Fetch performs one request and returns its JSON object. It returns a *Refusal for 4xx
// answers and policy refusals, and a plain error for what a retry may mend.
func (c *Client) Fetch(ctx context.Context, in flowrun.FetchInput) (map[string]any, error) {
	u, err := url.Parse(in.URL)
	if err != nil {
		return nil, &Refusal{Kind: "FetchURL", Message: "fetch: bad URL"}
	}
	if err := c.checkHost(u); err != nil {
		return nil, &Refusal{Kind: "FetchPolicy", Message: err.Error()}
	}
	timeout := time.Duration(max(in.TimeoutSeconds, 1)) * time.Second
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	var body io.Reader
	if in.Method == http.MethodPost {
		body = strings.NewReader(in.Body)
	}
	req, err := http.NewRequestWithContext(ctx, in.Method, u.String(), body)
	if err != nil {
		return nil, &Refusal{Kind: "FetchURL", Message: "fetch: bad request"}
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", "Herald-Workflow-Fetch/1")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for k, v := range in.Headers {
		req.Header.Set(k, v)
	}
	res, err := c.http.Do(req)
	if err != nil {
		if errors.Is(err, netguard.ErrNotPublic) || strings.Contains(err.Error(), "not in HERALD_FETCH_ALLOWED_HOSTS") {
			return nil, &Refusal{Kind: "FetchPolicy", Message: err.Error()}
		}
		return nil, fmt.Errorf("fetch %s: %w", u.Host, err)
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(res.Body, MaxResponse+1))
	if err != nil {
		return nil, err
	}
	switch {
	case res.StatusCode >= 500 || res.StatusCode == http.StatusTooManyRequests:
		return nil, fmt.Errorf("fetch %s: status %d", u.Host, res.StatusCode)
	case res.StatusCode >= 400:
		return nil, &Refusal{Kind: "FetchStatus", Message: fmt.Sprintf("fetch %s: status %d", u.Host, res.StatusCode)}
	case len(raw) > MaxResponse:
		return nil, &Refusal{Kind: "FetchSize", Message: "fetch: response over 1 MiB"}
	}
	var out map[string]any
	if err := json.Unmarshal(raw, &out); err != nil {
		return nil, &Refusal{Kind: "FetchBody", Message: "fetch: response is not a JSON object"}
	}
	return out, nil
}
