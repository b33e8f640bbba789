package realtime

import (
	"net"
	"sync/atomic"
	"time"
)

// Cutoff lets another goroutine end a hijacked connection at once. Closing a connection
// fasthttp has hijacked only takes effect when its handler returns, so ending it early
// means failing its pending and later reads and writes: Cut sets a past deadline, and the
// deadline setters below refuse to move it forward again.
type Cutoff struct {
	conn net.Conn
	cut  atomic.Bool
}

// NewCutoff wraps conn.
func NewCutoff(conn net.Conn) *Cutoff { return &Cutoff{conn: conn} }

// Cut fails every pending and later read and write.
func (c *Cutoff) Cut() {
	c.cut.Store(true)
	_ = c.conn.SetDeadline(time.Now())
}

// ReadBy sets the read deadline; false means the connection is cut.
func (c *Cutoff) ReadBy(t time.Time) bool {
	_ = c.conn.SetReadDeadline(t)
	return !c.cut.Load()
}

// WriteBy sets the write deadline; false means the connection is cut.
func (c *Cutoff) WriteBy(t time.Time) bool {
	_ = c.conn.SetWriteDeadline(t)
	return !c.cut.Load()
}
