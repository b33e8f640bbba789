package bench

import (
	"context"
	"fmt"
	"time"

	"github.com/valyala/fasthttp"
)

// Target is a running Herald deployment and, optionally, direct access to its database and
// Temporal server for references, seeding and end-to-end timing.
type Target struct {
	BaseURL      string
	APIKey       string
	APISecret    string
	HeaderPrefix string
	DatabaseURL  string
	TemporalAddr string

	client *fasthttp.Client
}

func (t *Target) http() *fasthttp.Client {
	if t.client == nil {
		t.client = &fasthttp.Client{MaxConnsPerHost: 512, ReadTimeout: 30 * time.Second, WriteTimeout: 30 * time.Second}
	}
	return t.client
}

// Do sends one request and returns the status and body (copied).
func (t *Target) Do(ctx context.Context, method, path string, body []byte, headers map[string]string) (int, []byte, error) {
	req := fasthttp.AcquireRequest()
	res := fasthttp.AcquireResponse()
	defer fasthttp.ReleaseRequest(req)
	defer fasthttp.ReleaseResponse(res)
	req.SetRequestURI(t.BaseURL + path)
	req.Header.SetMethod(method)
	if body != nil {
		req.Header.SetContentType("application/json")
		req.SetBodyRaw(body)
	}
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	deadline, ok := ctx.Deadline()
	if !ok {
		deadline = time.Now().Add(30 * time.Second)
	}
	if err := t.http().DoDeadline(req, res, deadline); err != nil {
		return 0, nil, err
	}
	return res.StatusCode(), append([]byte(nil), res.Body()...), nil
}

// AppHeaders are the app's credentials.
func (t *Target) AppHeaders() map[string]string {
	return map[string]string{t.HeaderPrefix + "API-KEY": t.APIKey, t.HeaderPrefix + "API-SECRET": t.APISecret}
}

// UserHeaders are a user's credentials.
func (t *Target) UserHeaders(user string) map[string]string {
	return map[string]string{t.HeaderPrefix + "API-KEY": t.APIKey, t.HeaderPrefix + "USER-ID": user}
}

// expect turns an unexpected status into an error.
func expect(status int, body []byte, err error, want int) error {
	if err != nil {
		return err
	}
	if status != want {
		return fmt.Errorf("status %d: %.200s", status, body)
	}
	return nil
}
