package realtime

import (
	"net"
	"sync"
	"time"
)

// Cutoff lets another goroutine end a hijacked connection at once. Closing a connection
// fasthttp has hijacked only takes effect when its handler returns, so ending it early
// means failing its pending and later reads and writes: Cut sets a past deadline, and the
// deadline setters below refuse to move it forward again.
//
// Once the handler returns, fasthttp releases the connection (its wrapper drops the socket
// and is reused for another one), so the handler calls Release before it returns: a Cut
// that comes later (from the hub, or a writer goroutine still finishing) then touches
// nothing.
type Cutoff struct {
	conn     net.Conn
	mu       sync.Mutex
	cut      bool
	released bool
}

// NewCutoff wraps conn.
func NewCutoff(conn net.Conn) *Cutoff { return &Cutoff{conn: conn} }

// Cut fails every pending and later read and write.
func (c *Cutoff) Cut() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.cut = true
	if !c.released {
		_ = c.conn.SetDeadline(time.Now())
	}
}

// Release marks the connection as handed back to the server: Cut becomes a no-op and the
// deadline setters report the connection as cut.
func (c *Cutoff) Release() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.cut, c.released = true, true
}

// ReadBy sets the read deadline; false means the connection is cut.
func (c *Cutoff) ReadBy(t time.Time) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.cut {
		return false
	}
	_ = c.conn.SetReadDeadline(t)
	return true
}

// WriteBy sets the write deadline; false means the connection is cut.
func (c *Cutoff) WriteBy(t time.Time) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.cut {
		return false
	}
	_ = c.conn.SetWriteDeadline(t)
	return true
}
