package smtp

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/heraldhq/herald/internal/providers"
	"github.com/heraldhq/herald/internal/testkit/smtptest"
)

// withDeadlines returns a provider for host:port with the given deadline keys.
func withDeadlines(t *testing.T, host string, port int, extra map[string]any) providers.Provider {
	t.Helper()
	cfg := map[string]any{"host": host, "port": port, "security": "none", "from": "noreply@herald.test"}
	for k, v := range extra {
		cfg[k] = v
	}
	raw, _ := json.Marshal(cfg)
	p, err := Kind().New(raw, providers.Deps{Guard: loopback})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = p.(*Provider).Close() })
	return p
}

// deadlineError asserts err is a transient provider error that ran into the deadline of
// key (no answer: the circuit breaker counts it), and that it came well before the
// defaults would have given up (generous: the configured deadline is 200 ms).
func deadlineError(t *testing.T, err error, key string, took, defaultBound time.Duration) {
	t.Helper()
	var pe *providers.Error
	if !errors.As(err, &pe) {
		t.Fatalf("error %v (%T), want a *providers.Error", err, err)
	}
	if pe.Permanent || pe.StatusCode != 0 || pe.Deadline != key {
		t.Errorf("error %+v, want transient, no status, Deadline %s", pe, key)
	}
	if took >= defaultBound {
		t.Errorf("gave up after %s: the configured %s did not apply (its default is %s)", took, key, defaultBound)
	}
}

// A server that accepts the connection and says nothing (no greeting) is given up after
// the connect deadline, not the message's 30 s.
func TestConnectDeadlineOnAServerThatNeverGreets(t *testing.T) {
	hung := smtptest.Start(t).Hang(t)
	p := withDeadlines(t, hung.Host, hung.Port, map[string]any{"connectTimeoutSeconds": 0.2})
	start := time.Now()
	_, err := p.Send(context.Background(), email("a@example.com"))
	deadlineError(t, err, "connectTimeoutSeconds", time.Since(start), DefaultConnectTimeout)
	if hung.Accepted() == 0 {
		t.Error("the hung server accepted no connection: the test did not reach it")
	}
}

// A server that greets and answers EHLO, then goes silent after MAIL FROM, is given up
// after the write deadline (each command and its answer), not the message's 30 s.
func TestWriteDeadlineOnAServerThatStopsAnswering(t *testing.T) {
	srv := smtptest.Start(t)
	srv.SetDelay(15 * time.Second)
	p := withDeadlines(t, srv.Host, srv.Port, map[string]any{"writeTimeoutSeconds": 0.2})
	start := time.Now()
	_, err := p.Send(context.Background(), email("a@example.com"))
	deadlineError(t, err, "writeTimeoutSeconds", time.Since(start), DefaultWriteTimeout)
	if n := len(srv.Messages()); n != 0 {
		t.Errorf("%d messages accepted", n)
	}
}

// The connection test of the management API uses the connect deadline too.
func TestConnectionTestHasTheConnectDeadline(t *testing.T) {
	hung := smtptest.Start(t).Hang(t)
	p := withDeadlines(t, hung.Host, hung.Port, map[string]any{"connectTimeoutSeconds": 0.2})
	start := time.Now()
	err := p.(*Provider).Test(context.Background())
	if err == nil {
		t.Fatal("the test of a hung server passed")
	}
	if took := time.Since(start); took >= DefaultConnectTimeout {
		t.Errorf("gave up after %s, want the configured 200 ms (default %s)", took, DefaultConnectTimeout)
	}
}

// A server that answers keeps working with short deadlines: each call gets its own.
func TestShortDeadlinesStillDeliver(t *testing.T) {
	srv := smtptest.Start(t)
	p := withDeadlines(t, srv.Host, srv.Port, map[string]any{"connectTimeoutSeconds": 5, "writeTimeoutSeconds": 5})
	for range 3 {
		if _, err := p.Send(context.Background(), email("a@example.com")); err != nil {
			t.Fatal(err)
		}
	}
	if n := srv.Count("a@example.com"); n != 3 {
		t.Errorf("%d messages delivered, want 3", n)
	}
}

// The message's timeoutSeconds still bounds a connection setup when it is shorter than
// the connect deadline.
func TestTheOverallTimeoutBoundsTheConnectionSetup(t *testing.T) {
	hung := smtptest.Start(t).Hang(t)
	p := withDeadlines(t, hung.Host, hung.Port, map[string]any{"timeoutSeconds": 1, "connectTimeoutSeconds": 30})
	start := time.Now()
	_, err := p.Send(context.Background(), email("a@example.com"))
	var pe *providers.Error
	if !errors.As(err, &pe) || pe.Permanent || pe.StatusCode != 0 || pe.Deadline != "timeoutSeconds" {
		t.Fatalf("error %v (%+v), want a transient provider error naming timeoutSeconds", err, pe)
	}
	if took := time.Since(start); took >= 20*time.Second {
		t.Errorf("gave up after %s: the 1 s timeoutSeconds did not bound the setup", took)
	}
}
