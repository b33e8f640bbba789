package stacktest

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"testing"
	"time"
)

// Headers are request headers.
type Headers map[string]string

// Response is a finished HTTP exchange.
type Response struct {
	Status int
	Body   []byte
	Header http.Header
}

// JSON decodes the body into v, failing the test when it is not JSON.
func (r *Response) JSON(t testing.TB, v any) {
	t.Helper()
	if err := json.Unmarshal(r.Body, v); err != nil {
		t.Fatalf("response is not JSON (%v): %s", err, r.Body)
	}
}

// Map decodes the body as an object.
func (r *Response) Map(t testing.TB) map[string]any {
	t.Helper()
	var m map[string]any
	r.JSON(t, &m)
	return m
}

var client = &http.Client{Timeout: 30 * time.Second}

// Do sends a request. body may be nil, a []byte/string sent as is, or a value encoded as
// JSON (sent as application/json unless h sets another Content-Type). A transport error
// fails the test.
func (e *Env) Do(method, path string, body any, h Headers) *Response {
	e.T.Helper()
	res, err := e.Try(method, path, body, h)
	if err != nil {
		e.T.Fatalf("%s %s: %v", method, path, err)
	}
	return res
}

// Try is Do that returns a transport error (a reset or hung connection) instead of
// failing the test, for tests that count them.
//
// Every exchange is checked against the OpenAPI document of its API (see Contract.Check);
// a drift fails the test. Headers{OutOfContract: "why"} or Env.OutOfContract skip the check.
func (e *Env) Try(method, path string, body any, h Headers) (*Response, error) {
	var raw []byte
	switch b := body.(type) {
	case nil:
	case []byte:
		raw = b
	case string:
		raw = []byte(b)
	default:
		enc, err := json.Marshal(b)
		if err != nil {
			return nil, err
		}
		raw = enc
	}
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(raw)
	}
	req, err := http.NewRequest(method, e.BaseURL+path, rd)
	if err != nil {
		return nil, err
	}
	if rd != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	checked := true
	for k, v := range h {
		if k == OutOfContract {
			checked = false
			continue
		}
		req.Header.Set(k, v)
	}
	res, err := client.Do(req)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	out, err := io.ReadAll(res.Body)
	if err != nil {
		return nil, err
	}
	r := &Response{Status: res.StatusCode, Body: out, Header: res.Header}
	if checked {
		e.checkContract(req, raw, r)
	}
	if e.OnResponse != nil {
		e.OnResponse(method, path, r)
	}
	return r, nil
}

// AppHeaders are app-mode credentials of the test app.
func (e *Env) AppHeaders() Headers {
	return Headers{e.Cfg.HeaderPrefix + "API-KEY": e.App.APIKey, e.Cfg.HeaderPrefix + "API-SECRET": e.App.APISecret}
}

// MetricsHeaders carry the metrics token (HERALD_METRICS_TOKEN), which serves /metrics on
// the API: stacks under test set one, as /metrics is never on the API without it.
func (e *Env) MetricsHeaders() Headers {
	return Headers{"Authorization": "Bearer " + e.Cfg.Ops.MetricsToken}
}

// UserHeaders are user-mode credentials of a user of the test app.
func (e *Env) UserHeaders(user string) Headers {
	return Headers{e.Cfg.HeaderPrefix + "API-KEY": e.App.APIKey, e.Cfg.HeaderPrefix + "USER-ID": user}
}

// Eventually polls cond until it holds or the timeout passes.
func (e *Env) Eventually(timeout time.Duration, what string, cond func() bool) {
	e.T.Helper()
	deadline := time.Now().Add(timeout)
	for !cond() {
		if time.Now().After(deadline) {
			e.T.Fatalf("timed out after %s waiting for %s", timeout, what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
