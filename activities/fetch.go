package activities

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

	"go.temporal.io/sdk/temporal"

	"github.com/heraldhq/herald/internal/platform/netguard"
	"github.com/heraldhq/herald/workflows/flowrun"
)

// MaxFetchResponse caps a fetch step's response body.
const MaxFetchResponse = 1 << 20

// Fetcher performs the HTTP requests of fetch steps. With an allow-list only its hosts are
// reached; without one, any public host (netguard refuses internal addresses unless their
// host is allow-listed by name).
type Fetcher struct {
	// AllowedHosts are host names (or *.suffix patterns); empty allows public hosts.
	AllowedHosts []string
	client       *http.Client
}

// NewFetcher returns a Fetcher for the allow-list (HERALD_FETCH_ALLOWED_HOSTS).
func NewFetcher(allowed []string) *Fetcher {
	f := &Fetcher{AllowedHosts: allowed, client: netguard.New("HERALD_FETCH_ALLOWED_HOSTS", allowed).Client(0)}
	f.client.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if len(via) >= 3 {
			return errors.New("too many redirects")
		}
		return f.checkHost(req.URL)
	}
	return f
}

func (f *Fetcher) checkHost(u *url.URL) error {
	if u.Scheme != "http" && u.Scheme != "https" {
		return fmt.Errorf("fetch: scheme %q is not allowed", u.Scheme)
	}
	port := u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[u.Scheme]
	}
	if len(f.AllowedHosts) > 0 && !netguard.AllowedAddr(u.Hostname(), port, f.AllowedHosts) {
		return fmt.Errorf("fetch: host %q is not in HERALD_FETCH_ALLOWED_HOSTS", u.Hostname())
	}
	return nil
}

// Fetch performs one request. 4xx answers and policy refusals are not retried; 5xx,
// timeouts and connection errors are, as the step's retry policy says.
func (f *Fetcher) Fetch(ctx context.Context, in flowrun.FetchInput) (map[string]any, error) {
	u, err := url.Parse(in.URL)
	if err != nil {
		return nil, temporal.NewNonRetryableApplicationError("fetch: bad URL", "FetchURL", err)
	}
	if err := f.checkHost(u); err != nil {
		return nil, temporal.NewNonRetryableApplicationError(err.Error(), "FetchPolicy", nil)
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
		return nil, temporal.NewNonRetryableApplicationError("fetch: bad request", "FetchURL", err)
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", "Herald-Workflow-Fetch/1")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for k, v := range in.Headers {
		req.Header.Set(k, v)
	}
	res, err := f.client.Do(req)
	if err != nil {
		if errors.Is(err, netguard.ErrNotPublic) || strings.Contains(err.Error(), "not in HERALD_FETCH_ALLOWED_HOSTS") {
			return nil, temporal.NewNonRetryableApplicationError(err.Error(), "FetchPolicy", nil)
		}
		return nil, fmt.Errorf("fetch %s: %w", u.Host, err)
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(res.Body, MaxFetchResponse+1))
	if err != nil {
		return nil, err
	}
	switch {
	case res.StatusCode >= 500 || res.StatusCode == http.StatusTooManyRequests:
		return nil, fmt.Errorf("fetch %s: status %d", u.Host, res.StatusCode)
	case res.StatusCode >= 400:
		return nil, temporal.NewNonRetryableApplicationError(fmt.Sprintf("fetch %s: status %d", u.Host, res.StatusCode), "FetchStatus", nil)
	case len(raw) > MaxFetchResponse:
		return nil, temporal.NewNonRetryableApplicationError("fetch: response over 1 MiB", "FetchSize", nil)
	}
	var out map[string]any
	if err := json.Unmarshal(raw, &out); err != nil {
		return nil, temporal.NewNonRetryableApplicationError("fetch: response is not a JSON object", "FetchBody", nil)
	}
	return out, nil
}
