package smtp

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/heraldhq/herald/internal/platform/netguard"
	"github.com/heraldhq/herald/internal/providers"
	"github.com/heraldhq/herald/internal/testkit/smtptest"
)

// pooled returns a provider for srv, allowed to reach it through the guard; the server
// counts the connections it opens.
func pooled(t *testing.T, srv *smtptest.Server, max int, guard *netguard.Guard) (*Provider, connections) {
	t.Helper()
	cfg, _ := json.Marshal(Config{Host: srv.Host, Port: srv.Port, Security: "none", From: "noreply@herald.test", MaxConnections: max})
	pp, err := Kind().New(cfg, providers.Deps{Guard: guard})
	if err != nil {
		t.Fatal(err)
	}
	p := pp.(*Provider)
	t.Cleanup(func() { _ = p.Close() })
	return p, connections{srv}
}

type connections struct{ srv *smtptest.Server }

func (c connections) Load() int { return c.srv.Connections() }

func TestThePoolDialsThroughTheGuard(t *testing.T) {
	srv := smtptest.Start(t)
	p, dials := pooled(t, srv, 4, netguard.New("", nil))
	_, err := p.Send(context.Background(), email("a@example.com"))
	if !providers.IsPermanent(err) || dials.Load() != 0 {
		t.Errorf("loopback without an allow-list: %v, %d connections; want a permanent refusal before connecting", err, dials.Load())
	}
}

func email(to string) providers.Message {
	return providers.Message{Channel: "email", IdempotencyKey: "req:" + to + ":email", To: providers.Address{Email: to}, Subject: "Hi", Text: "Hello"}
}

func TestSendReusesConnections(t *testing.T) {
	srv := smtptest.Start(t)
	p, dials := pooled(t, srv, 4, loopback)
	for i := range 20 {
		if _, err := p.Send(context.Background(), email(fmt.Sprintf("seq%d@example.com", i))); err != nil {
			t.Fatal(err)
		}
	}
	if n := dials.Load(); n != 1 {
		t.Errorf("20 messages one after another opened %d connections, want 1", n)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 100)
	for i := range 100 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := p.Send(context.Background(), email(fmt.Sprintf("par%d@example.com", i))); err != nil {
				errs <- err
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if n := dials.Load(); n > 4 {
		t.Errorf("100 concurrent messages opened %d connections in all, want at most 4 (the bound)", n)
	}
	if got := len(srv.Messages()); got != 120 {
		t.Errorf("server received %d messages, want 120", got)
	}
}

func TestSendStartsAFreshConnectionAfterAnError(t *testing.T) {
	srv := smtptest.Start(t)
	srv.Reject("bounce@example.com", 550)
	p, dials := pooled(t, srv, 4, loopback)
	if _, err := p.Send(context.Background(), email("a@example.com")); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Send(context.Background(), email("bounce@example.com")); !providers.IsPermanent(err) {
		t.Fatalf("550: %v, want a permanent failure", err)
	}
	if _, err := p.Send(context.Background(), email("b@example.com")); err != nil {
		t.Fatal(err)
	}
	if n := dials.Load(); n != 2 {
		t.Errorf("opened %d connections, want 2: the one the refusal ended and a fresh one", n)
	}
}

func TestSendReplacesDroppedAndExpiredConnections(t *testing.T) {
	srv := smtptest.Start(t)
	p, dials := pooled(t, srv, 4, loopback)
	if _, err := p.Send(context.Background(), email("a@example.com")); err != nil {
		t.Fatal(err)
	}
	// The connection dies while idle (a server restart, a dropped NAT entry).
	p.pool.mu.Lock()
	_ = p.pool.idle[0].c.Close()
	p.pool.mu.Unlock()
	if _, err := p.Send(context.Background(), email("b@example.com")); err != nil {
		t.Fatalf("a dead idle connection must be replaced, not fail the message: %v", err)
	}
	// A connection idle past the timeout is not used again.
	p.pool.mu.Lock()
	p.pool.idle[0].used = time.Now().Add(-idleTimeout)
	p.pool.mu.Unlock()
	if _, err := p.Send(context.Background(), email("c@example.com")); err != nil {
		t.Fatal(err)
	}
	if n := dials.Load(); n != 3 {
		t.Errorf("opened %d connections, want 3", n)
	}
	if got := len(srv.Messages()); got != 3 {
		t.Errorf("server received %d messages, want 3 (none twice)", got)
	}
}
