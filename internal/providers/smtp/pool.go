package smtp

import (
	"context"
	"sync"
	"time"

	smtpclient "github.com/wneessen/go-mail/smtp"
)

// Connection reuse. An instance keeps up to maxConnections open connections to its server
// (DefaultMaxConnections unless configured): a message takes an idle one, or dials when
// none is idle and the bound allows, or waits. A connection goes back to the pool after a
// message the server accepted, and is closed after any error, so the next message starts
// on a fresh one. Idle connections are closed after idleTimeout; one idle for more than
// probeAfter is checked with NOOP before use, since servers drop idle clients.
const (
	DefaultMaxConnections = 8
	idleTimeout           = 30 * time.Second
	probeAfter            = 2 * time.Second
)

// conn is a connection of the pool.
type conn struct {
	c *smtpclient.Client
	// dl sets the deadlines of its reads and writes (nil when the dialer gave none).
	dl *deadlineConn
	// used is when it last finished a message.
	used time.Time
}

// pool holds one instance's connections.
type pool struct {
	dial func(ctx context.Context) (*smtpclient.Client, *deadlineConn, error)
	// slots bounds the open connections: one token per connection in use or idle.
	slots chan struct{}

	mu      sync.Mutex
	idle    []*conn
	closed  bool
	reaping bool
}

func newPool(max int, dial func(ctx context.Context) (*smtpclient.Client, *deadlineConn, error)) *pool {
	return &pool{dial: dial, slots: make(chan struct{}, max)}
}

// get returns a connection ready for a message, and whether it was reused. The
// connection's calls are armed with the message's deadlines: until (the message's overall
// bound) and each (the bound of one write or wait for an answer).
func (p *pool) get(ctx context.Context, until time.Time, each time.Duration) (*conn, bool, error) {
	select {
	case p.slots <- struct{}{}:
	case <-ctx.Done():
		return nil, false, ctx.Err()
	}
	for {
		c := p.popIdle()
		if c == nil {
			break
		}
		c.arm(until, each)
		if time.Since(c.used) < probeAfter || c.c.Noop() == nil {
			return c, true, nil
		}
		// The server dropped it: its slot goes to the next one.
		_ = c.c.Close()
	}
	sc, dl, err := p.dial(ctx)
	if err != nil {
		<-p.slots
		return nil, false, err
	}
	c := &conn{c: sc, dl: dl}
	c.arm(until, each)
	return c, false, nil
}

// arm sets the deadlines of the connection's next calls.
func (c *conn) arm(until time.Time, each time.Duration) {
	if c.dl != nil {
		c.dl.arm(until, each)
	}
}

// timedOut reports whether a call on the connection ran out of time.
func (c *conn) timedOut() bool { return c.dl != nil && c.dl.timedOut() }

// popIdle takes the most recently used idle connection, closing expired ones.
func (p *pool) popIdle() *conn {
	p.mu.Lock()
	defer p.mu.Unlock()
	for len(p.idle) > 0 {
		c := p.idle[len(p.idle)-1]
		p.idle = p.idle[:len(p.idle)-1]
		if time.Since(c.used) < idleTimeout {
			return c
		}
		go quit(c)
	}
	return nil
}

// put returns a connection after a message: kept when ok, closed otherwise.
func (p *pool) put(c *conn, ok bool) {
	defer func() { <-p.slots }()
	if !ok {
		_ = c.c.Close()
		return
	}
	c.used = time.Now()
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		go quit(c)
		return
	}
	p.idle = append(p.idle, c)
	start := !p.reaping
	p.reaping = true
	p.mu.Unlock()
	if start {
		go p.reap()
	}
}

// reap closes connections idle for idleTimeout; it runs while any connection is idle.
func (p *pool) reap() {
	tick := time.NewTicker(idleTimeout / 2)
	defer tick.Stop()
	for range tick.C {
		p.mu.Lock()
		keep := p.idle[:0]
		var expired []*conn
		for _, c := range p.idle {
			if time.Since(c.used) >= idleTimeout {
				expired = append(expired, c)
			} else {
				keep = append(keep, c)
			}
		}
		p.idle = keep
		done := len(p.idle) == 0
		if done {
			p.reaping = false
		}
		p.mu.Unlock()
		for _, c := range expired {
			quit(c)
		}
		if done {
			return
		}
	}
}

// close closes the idle connections; those in use close when they come back.
func (p *pool) close() {
	p.mu.Lock()
	idle := p.idle
	p.idle, p.closed = nil, true
	p.mu.Unlock()
	for _, c := range idle {
		quit(c)
	}
}

// quit says goodbye to the server, or drops the connection when it does not answer.
func quit(c *conn) {
	c.arm(time.Now().Add(2*time.Second), 0)
	_ = c.c.UpdateDeadline(2 * time.Second)
	if c.c.Quit() != nil {
		_ = c.c.Close()
	}
}
