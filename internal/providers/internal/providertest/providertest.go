// Package providertest is the test kit of the provider packages: a fake provider endpoint
// (httptest) that records every request and answers as scripted, and assertions on the
// classified errors a provider returns.
package providertest

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/heraldhq/herald/internal/providers"
)

// Request is one recorded request.
type Request struct {
	Method     string
	Path       string
	Query      url.Values
	Header     http.Header
	Body       []byte
	ProtoMajor int
}

// JSON decodes the body as a JSON object.
func (r Request) JSON(t testing.TB) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(r.Body, &m); err != nil {
		t.Fatalf("request body is not a JSON object: %v\n%s", err, r.Body)
	}
	return m
}

// Form decodes a form-encoded body.
func (r Request) Form(t testing.TB) url.Values {
	t.Helper()
	if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/x-www-form-urlencoded") {
		t.Fatalf("Content-Type %q, want a form", ct)
	}
	v, err := url.ParseQuery(string(r.Body))
	if err != nil {
		t.Fatalf("form body: %v", err)
	}
	return v
}

// Fake is a provider endpoint that records requests.
type Fake struct {
	*httptest.Server
	mu      sync.Mutex
	reqs    []Request
	handler http.HandlerFunc
}

// New starts a plain HTTP fake; it answers 200 {} until told otherwise.
func New(t testing.TB) *Fake {
	f := &Fake{}
	f.Server = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.Close)
	f.Reply(200, "{}")
	return f
}

// NewTLS starts a TLS fake speaking HTTP/2 (APNs only speaks HTTP/2). Use f.Client().
func NewTLS(t testing.TB) *Fake {
	f := &Fake{}
	f.Server = httptest.NewUnstartedServer(http.HandlerFunc(f.serve))
	f.EnableHTTP2 = true
	f.StartTLS()
	t.Cleanup(f.Close)
	f.Reply(200, "{}")
	return f
}

func (f *Fake) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	r.Body = io.NopCloser(bytes.NewReader(body))
	f.mu.Lock()
	f.reqs = append(f.reqs, Request{
		Method: r.Method, Path: r.URL.Path, Query: r.URL.Query(), Header: r.Header.Clone(),
		Body: body, ProtoMajor: r.ProtoMajor,
	})
	h := f.handler
	f.mu.Unlock()
	h(w, r)
}

// Handle sets how the fake answers.
func (f *Fake) Handle(h http.HandlerFunc) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.handler = h
}

// Reply makes the fake answer with a fixed status, body and headers (name, value pairs).
func (f *Fake) Reply(status int, body string, headers ...string) {
	f.Handle(func(w http.ResponseWriter, _ *http.Request) {
		for i := 0; i+1 < len(headers); i += 2 {
			w.Header().Set(headers[i], headers[i+1])
		}
		if w.Header().Get("Content-Type") == "" && strings.HasPrefix(body, "{") {
			w.Header().Set("Content-Type", "application/json")
		}
		w.WriteHeader(status)
		_, _ = io.WriteString(w, body)
	})
}

// Requests returns what the fake received so far.
func (f *Fake) Requests() []Request {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]Request(nil), f.reqs...)
}

// Last returns the latest request; the test fails when there was none.
func (f *Fake) Last(t testing.TB) Request {
	t.Helper()
	reqs := f.Requests()
	if len(reqs) == 0 {
		t.Fatal("the fake received no request")
	}
	return reqs[len(reqs)-1]
}

// Want is the expected classification of a provider error.
type Want struct {
	Permanent  bool
	Gone       bool
	OptedOut   bool
	RetryAfter time.Duration
	Status     int
}

// ExpectError checks err is a *providers.Error classified as want and that neither its
// message nor anything else it prints contains one of the secrets.
func ExpectError(t testing.TB, err error, want Want, secrets ...string) {
	t.Helper()
	var pe *providers.Error
	if !errors.As(err, &pe) {
		t.Fatalf("error %v (%T), want *providers.Error", err, err)
	}
	if pe.Permanent != want.Permanent || pe.Gone != want.Gone || pe.OptedOut != want.OptedOut || pe.RetryAfter != want.RetryAfter ||
		(want.Status != 0 && pe.StatusCode != want.Status) {
		t.Errorf("got permanent=%v gone=%v optedOut=%v retryAfter=%s status=%d (%q), want %+v",
			pe.Permanent, pe.Gone, pe.OptedOut, pe.RetryAfter, pe.StatusCode, pe.Message, want)
	}
	NoSecrets(t, err.Error(), secrets...)
}

// NoSecrets fails the test when s contains any of the secrets.
func NoSecrets(t testing.TB, s string, secrets ...string) {
	t.Helper()
	for _, secret := range secrets {
		if secret != "" && strings.Contains(s, secret) {
			t.Errorf("%q leaks the secret %q", s, secret)
		}
	}
}

// Fault is one scripted failure and its expected classification.
type Fault struct {
	Name    string
	Status  int
	Body    string
	Headers []string
	Want    Want
}

// RunFaults scripts each fault on the fake in turn, calls send and checks the error.
func RunFaults(t *testing.T, f *Fake, faults []Fault, send func() error, secrets ...string) {
	t.Helper()
	for _, fault := range faults {
		t.Run(fault.Name, func(t *testing.T) {
			f.Reply(fault.Status, fault.Body, fault.Headers...)
			ExpectError(t, send(), fault.Want, secrets...)
		})
	}
}

// EqualJSON fails the test unless got and want hold the same JSON value (key order and
// spacing aside).
func EqualJSON(t testing.TB, got []byte, want string) {
	t.Helper()
	var g, w any
	if err := json.Unmarshal(got, &g); err != nil {
		t.Fatalf("got invalid JSON: %v\n%s", err, got)
	}
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatalf("want invalid JSON: %v\n%s", err, want)
	}
	if !reflect.DeepEqual(g, w) {
		gi, _ := json.MarshalIndent(g, "", "  ")
		wi, _ := json.MarshalIndent(w, "", "  ")
		t.Errorf("JSON differs\n got: %s\nwant: %s", gi, wi)
	}
}

// Config builds a JSON configuration from name, value pairs.
func Config(kv ...any) json.RawMessage {
	m := map[string]any{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i].(string)] = kv[i+1]
	}
	raw, _ := json.Marshal(m)
	return raw
}
