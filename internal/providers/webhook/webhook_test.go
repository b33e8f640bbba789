package webhook

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/heraldhq/herald/internal/platform/netguard"
	"github.com/heraldhq/herald/internal/providers"
	"github.com/heraldhq/herald/internal/providers/configschema"
)

const secret = "0123456789abcdef-secret"

func newProvider(t *testing.T, url string) *Provider {
	t.Helper()
	cfg, _ := json.Marshal(Config{URL: url, Secret: secret, Headers: map[string]string{"Authorization": "Bearer x"}})
	p, err := Kind().New(cfg, providers.Deps{HTTP: &http.Client{}})
	if err != nil {
		t.Fatal(err)
	}
	return p.(*Provider)
}

func TestSendSignsThePayload(t *testing.T) {
	var got *http.Request
	var body []byte
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got, body = r, must(io.ReadAll(r.Body))
		w.WriteHeader(204)
	}))
	defer srv.Close()
	p := newProvider(t, srv.URL+"/hook")
	msg := providers.Message{
		Channel: "webhook", IdempotencyKey: "req-1:alice:webhook", RequestID: "req-1", UserIdentifier: "alice",
		Title: "Hi", Body: "Hello", Data: json.RawMessage(`{"orderId":7}`),
	}
	res, err := p.Send(context.Background(), msg)
	if err != nil {
		t.Fatal(err)
	}
	if err := Verify(secret, got.Header, body, time.Now()); err != nil {
		t.Errorf("signature does not verify: %v", err)
	}
	if got.URL.Path != "/hook" || got.Header.Get("Authorization") != "Bearer x" || got.Header.Get(HeaderIdempotencyKey) != msg.IdempotencyKey ||
		got.Header.Get(HeaderMessageID) != res.ProviderMessageID || res.ProviderMessageID != MessageID(msg.IdempotencyKey) {
		t.Errorf("request: %s %v, result %+v", got.URL, got.Header, res)
	}
	var pl Payload
	if err := json.Unmarshal(body, &pl); err != nil || pl.Title != "Hi" || pl.Message != "Hello" || pl.Recipient.Identifier != "alice" || string(pl.Data) != `{"orderId":7}` {
		t.Errorf("payload %s (%v)", body, err)
	}
	// A body changed after signing does not verify; nor does an old timestamp.
	if Verify(secret, got.Header, append(body, ' '), time.Now()) == nil {
		t.Error("tampered body verified")
	}
	if Verify(secret, got.Header, body, time.Now().Add(10*time.Minute)) == nil {
		t.Error("stale timestamp verified")
	}
}

func TestSendClassifiesFailures(t *testing.T) {
	status := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if status == 429 {
			w.Header().Set("Retry-After", "3")
		}
		w.WriteHeader(status)
		_, _ = w.Write([]byte("nope"))
	}))
	defer srv.Close()
	p := newProvider(t, srv.URL)
	for _, tc := range []struct {
		status    int
		permanent bool
		wait      time.Duration
	}{{500, false, 0}, {429, false, 3 * time.Second}, {400, true, 0}, {404, true, 0}} {
		status = tc.status
		_, err := p.Send(context.Background(), providers.Message{IdempotencyKey: "k"})
		var pe *providers.Error
		if !errors.As(err, &pe) || pe.Permanent != tc.permanent || pe.RetryAfter != tc.wait || pe.StatusCode != tc.status {
			t.Errorf("%d: %#v", tc.status, err)
		}
	}
	srv.Close()
	_, err := p.Send(context.Background(), providers.Message{IdempotencyKey: "k"})
	if err == nil || providers.IsPermanent(err) {
		t.Errorf("connection refused must be transient: %v", err)
	}
}

func TestParseCallback(t *testing.T) {
	p := newProvider(t, "https://example.com")
	body := []byte(`[{"id":"msg_1","status":"delivered"},{"id":"msg_1","status":"opened","detail":"pixel"}]`)
	ts := strconv.FormatInt(time.Now().Unix(), 10)
	h := http.Header{}
	h.Set(HeaderTimestamp, ts)
	h.Set(HeaderSignature, Sign(secret, ts, body))
	evs, err := p.ParseCallback(providers.CallbackRequest{Method: "POST", Header: h, Body: body})
	if err != nil || len(evs) != 2 || evs[0].Status != "delivered" || evs[1].Detail != "pixel" || evs[1].ProviderMessageID != "msg_1" {
		t.Errorf("events %+v, %v", evs, err)
	}
	h.Set(HeaderSignature, Sign("another secret of length", ts, body))
	if _, err := p.ParseCallback(providers.CallbackRequest{Header: h, Body: body}); !errors.Is(err, providers.ErrBadSignature) {
		t.Errorf("wrong secret: %v", err)
	}
	bad := []byte(`{"id":"msg_1","status":"exploded"}`)
	h.Set(HeaderSignature, Sign(secret, ts, bad))
	if _, err := p.ParseCallback(providers.CallbackRequest{Header: h, Body: bad}); err == nil || errors.Is(err, providers.ErrBadSignature) {
		t.Errorf("unknown status: %v", err)
	}
}

func TestSchemaRequiresURLAndSecret(t *testing.T) {
	s, err := configschema.Parse(Kind().ConfigSchema)
	if err != nil {
		t.Fatal(err)
	}
	got := s.Validate([]byte(`{"secret":"short"}`), "config")
	if len(got) != 2 || got[0] != "config.url is required" || got[1] != "config.secret must be at least 16 characters" {
		t.Errorf("%q", got)
	}
	if f := s.SecretFields(); len(f) != 2 || f[0] != "headers" || f[1] != "secret" {
		t.Errorf("secret fields %v", f)
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// Without a client of its own the provider dials through the guard: an endpoint on
// loopback is refused before any request, permanently, and the error keeps the URL's
// query (a token) out; an allow-listed endpoint answering with something that is not HTTP
// is not quoted.
func TestSendIsGuarded(t *testing.T) {
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits.Add(1) }))
	defer srv.Close()
	cfg, _ := json.Marshal(Config{URL: srv.URL + "/hook?token=query-secret", Secret: secret})
	p, err := Kind().New(cfg, providers.Deps{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = p.Send(context.Background(), providers.Message{IdempotencyKey: "k"})
	var pe *providers.Error
	if !errors.As(err, &pe) || !pe.Permanent || !strings.Contains(pe.Message, "address 127.0.0.1 is not public") ||
		!strings.Contains(pe.Message, "HERALD_PRIVATE_HOSTS") || strings.Contains(pe.Message, "query-secret") || hits.Load() != 0 {
		t.Errorf("loopback endpoint: %#v, %d requests", err, hits.Load())
	}
	p, _ = Kind().New(cfg, providers.Deps{Guard: netguard.New("", []string{"127.0.0.1"})})
	if _, err := p.Send(context.Background(), providers.Message{IdempotencyKey: "k"}); err != nil || hits.Load() != 1 {
		t.Errorf("allow-listed endpoint: %v, %d requests", err, hits.Load())
	}

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Read(make([]byte, 4096)) // answer once the request arrived
			c.Write([]byte("-ERR internal-secret-banner\r\n"))
			c.Close()
		}
	}()
	cfg, _ = json.Marshal(Config{URL: "http://" + ln.Addr().String() + "/hook", Secret: secret})
	p, _ = Kind().New(cfg, providers.Deps{Guard: netguard.New("", []string{"127.0.0.1"})})
	_, err = p.Send(context.Background(), providers.Message{IdempotencyKey: "k"})
	if want := "webhook request failed: the server at " + ln.Addr().String() + " did not speak HTTP"; err == nil || err.Error() != want {
		t.Errorf("non-HTTP peer: %v, want %q", err, want)
	}
}
