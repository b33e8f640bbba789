package all

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/heraldhq/herald/internal/platform/netguard"
	"github.com/heraldhq/herald/internal/providers"
	"github.com/heraldhq/herald/internal/providers/sendgrid"
	"github.com/heraldhq/herald/internal/providers/webhook"
)

// hangingListener accepts connections and never answers: with readRequest it reads the
// HTTP request first (a server that takes the request and hangs), else it reads nothing
// (a TLS client's hello goes unanswered).
func hangingListener(t *testing.T, readRequest bool) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var conns []net.Conn
	t.Cleanup(func() {
		ln.Close()
		mu.Lock()
		defer mu.Unlock()
		for _, c := range conns {
			c.Close()
		}
	})
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
			if readRequest {
				go func() { _, _ = http.ReadRequest(bufio.NewReader(c)) }()
			}
		}
	}()
	return ln.Addr().String()
}

// pipelineDeps are the deps the stack gives HTTP providers (the guard's client, loopback
// allowed as HERALD_PRIVATE_HOSTS would).
func pipelineDeps() providers.Deps {
	guard := netguard.New("", []string{"127.0.0.1"})
	return providers.Deps{Guard: guard, HTTP: guard.Client(DefaultTimeoutSeconds * time.Second)}
}

func sendTo(t *testing.T, kind providers.Kind, config map[string]any, msg providers.Message) (*providers.Error, time.Duration) {
	t.Helper()
	raw, _ := json.Marshal(config)
	p, err := kind.New(raw, pipelineDeps())
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	_, err = p.Send(context.Background(), msg)
	took := time.Since(start)
	var pe *providers.Error
	if !errors.As(err, &pe) {
		t.Fatalf("error %v (%T), want a *providers.Error", err, err)
	}
	return pe, took
}

func checkDeadline(t *testing.T, pe *providers.Error, took time.Duration, key string, defaultBound time.Duration) {
	t.Helper()
	if pe.Permanent || pe.StatusCode != 0 || pe.Deadline != key {
		t.Errorf("error %+v, want transient, no status, Deadline %s", pe, key)
	}
	// Generous: the configured deadline is 200 ms, the default it replaces is seconds.
	if took >= defaultBound {
		t.Errorf("gave up after %s: the configured %s did not apply", took, key)
	}
}

var mail = providers.Message{Channel: "email", IdempotencyKey: "k1", To: providers.Address{Email: "a@example.com"}, Subject: "Hi", Text: "Hello"}

// An HTTP provider whose server accepts the TCP connection and never answers the TLS
// hello is given up after connectTimeoutSeconds, not the call's 30 s.
func TestHTTPConnectDeadlineCoversTheTLSHandshake(t *testing.T) {
	addr := hangingListener(t, false)
	pe, took := sendTo(t, withTimeout(sendgrid.Kind()), map[string]any{
		"apiKey": "SG.key", "from": "noreply@example.com", "baseUrl": "https://" + addr, "connectTimeoutSeconds": 0.2,
	}, mail)
	checkDeadline(t, pe, took, "connectTimeoutSeconds", 10*time.Second)
}

// An HTTP provider whose server reads the request and never answers is given up after
// responseTimeoutSeconds, not the call's 30 s.
func TestHTTPResponseDeadline(t *testing.T) {
	addr := hangingListener(t, true)
	pe, took := sendTo(t, withTimeout(sendgrid.Kind()), map[string]any{
		"apiKey": "SG.key", "from": "noreply@example.com", "baseUrl": "http://" + addr, "responseTimeoutSeconds": 0.2,
	}, mail)
	checkDeadline(t, pe, took, "responseTimeoutSeconds", 10*time.Second)
}

// The signed webhook provider takes the same keys.
func TestWebhookDeadlines(t *testing.T) {
	hook := providers.Message{Channel: "webhook", IdempotencyKey: "k1", UserIdentifier: "u1", Title: "Hi"}
	secret := "0123456789abcdef0123"
	pe, took := sendTo(t, webhook.Kind(), map[string]any{"url": "https://" + hangingListener(t, false) + "/hook", "secret": secret, "connectTimeoutSeconds": 0.2}, hook)
	checkDeadline(t, pe, took, "connectTimeoutSeconds", 10*time.Second)
	pe, took = sendTo(t, webhook.Kind(), map[string]any{"url": "http://" + hangingListener(t, true) + "/hook", "secret": secret, "responseTimeoutSeconds": 0.2}, hook)
	checkDeadline(t, pe, took, "responseTimeoutSeconds", 10*time.Second)
}

// Instances with the same deadlines share one transport (and its connections); an
// instance without them keeps the pipeline's.
func TestDeadlineTransportsAreShared(t *testing.T) {
	var got []*http.Client
	kind := withTimeout(providers.Kind{
		Identifier:   "fake",
		ConfigSchema: json.RawMessage(`{"type": "object", "properties": {}}`),
		New: func(_ json.RawMessage, deps providers.Deps) (providers.Provider, error) {
			got = append(got, deps.HTTP)
			return nopProvider{}, nil
		},
	})
	deps := pipelineDeps()
	for _, cfg := range []string{`{"connectTimeoutSeconds":0.5}`, `{"connectTimeoutSeconds":0.5,"timeoutSeconds":5}`, `{}`} {
		if _, err := kind.New(json.RawMessage(cfg), deps); err != nil {
			t.Fatal(err)
		}
	}
	if got[0].Transport != got[1].Transport || got[0].Transport == deps.HTTP.Transport {
		t.Error("two instances with the same connect deadline should share one transport of their own")
	}
	if got[2].Transport != deps.HTTP.Transport {
		t.Error("an instance without deadlines should keep the pipeline's transport")
	}
}
