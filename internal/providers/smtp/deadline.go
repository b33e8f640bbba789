package smtp

import (
	"context"
	"errors"
	"net"
	"os"
	"sync"
	"time"
)

// Deadlines of an instance (issue 28: a hung server must fail fast). Each comes from the
// instance's config, with these defaults:
//   - connectTimeoutSeconds bounds opening a connection: the TCP connect, implicit TLS, and
//     the greeting, EHLO, STARTTLS and AUTH exchanges of a new connection, together;
//   - writeTimeoutSeconds bounds each write to the server (a command, a block of the
//     message) and each wait for its answer, so a server that accepts a command and then
//     goes silent is given up after it, not after the whole message's time;
//   - timeoutSeconds bounds one message, from waiting for a connection to the server's
//     answer to its data.
const (
	DefaultConnectTimeout = 10 * time.Second
	DefaultWriteTimeout   = 20 * time.Second
	DefaultTimeout        = 30 * time.Second
)

// seconds turns a configured number of seconds into a duration (def when unset).
func seconds(s float64, def time.Duration) time.Duration {
	if s <= 0 {
		return def
	}
	return time.Duration(s * float64(time.Second))
}

// deadlineConn is a connection whose every read and write has a deadline of its own:
// until (an absolute bound, zero for none), shortened to each from the moment of the call
// when each is set. go-mail sets one deadline per connection or message; this sets them per
// call, and go-mail's own (SetDeadline and friends) are ignored in favour of them.
type deadlineConn struct {
	net.Conn

	mu    sync.Mutex
	until time.Time
	each  time.Duration
	// late is set when a call ran out of time.
	late bool
}

// arm sets the deadlines of the calls to come (and forgets an earlier timeout).
func (c *deadlineConn) arm(until time.Time, each time.Duration) {
	c.mu.Lock()
	c.until, c.each, c.late = until, each, false
	c.mu.Unlock()
}

// timedOut reports whether a call since the last arm ran out of time.
func (c *deadlineConn) timedOut() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.late
}

// note records a call's timeout.
func (c *deadlineConn) note(err error) {
	if err != nil && errors.Is(err, os.ErrDeadlineExceeded) {
		c.mu.Lock()
		c.late = true
		c.mu.Unlock()
	}
}

// next is the deadline of a call starting now.
func (c *deadlineConn) next() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	d := c.until
	if c.each > 0 {
		if e := time.Now().Add(c.each); d.IsZero() || e.Before(d) {
			d = e
		}
	}
	return d
}

func (c *deadlineConn) Read(b []byte) (int, error) {
	if err := c.Conn.SetReadDeadline(c.next()); err != nil {
		return 0, err
	}
	n, err := c.Conn.Read(b)
	c.note(err)
	return n, err
}

func (c *deadlineConn) Write(b []byte) (int, error) {
	if err := c.Conn.SetWriteDeadline(c.next()); err != nil {
		return 0, err
	}
	n, err := c.Conn.Write(b)
	c.note(err)
	return n, err
}

// SetDeadline, SetReadDeadline and SetWriteDeadline are go-mail's: arm decides instead.
func (c *deadlineConn) SetDeadline(time.Time) error      { return nil }
func (c *deadlineConn) SetReadDeadline(time.Time) error  { return nil }
func (c *deadlineConn) SetWriteDeadline(time.Time) error { return nil }

// connHolder receives the deadlineConn of a connection being dialled (through the dial's
// context), so the pool can arm it for each message.
type connHolder struct{ conn *deadlineConn }

type holderKey struct{}

// withHolder returns ctx carrying h for dial.
func withHolder(ctx context.Context, h *connHolder) context.Context {
	return context.WithValue(ctx, holderKey{}, h)
}
