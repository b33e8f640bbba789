package realtime

import (
	"net"
	"testing"
	"time"
)

// releasedConn stands for the wrapper fasthttp reuses once a hijack handler returns: any
// call on it after the release is a bug (in fasthttp it dereferences a nil connection).
type releasedConn struct {
	net.Conn
	released bool
	calls    int
}

func (c *releasedConn) touch() error {
	if c.released {
		panic("deadline set on a connection fasthttp has released")
	}
	c.calls++
	return nil
}
func (c *releasedConn) SetDeadline(time.Time) error      { return c.touch() }
func (c *releasedConn) SetReadDeadline(time.Time) error  { return c.touch() }
func (c *releasedConn) SetWriteDeadline(time.Time) error { return c.touch() }

func TestCutoffLeavesAReleasedConnectionAlone(t *testing.T) {
	conn := &releasedConn{}
	cut := NewCutoff(conn)
	if !cut.ReadBy(time.Now().Add(time.Second)) || !cut.WriteBy(time.Now().Add(time.Second)) {
		t.Fatal("a live connection reported as cut")
	}
	cut.Release()
	conn.released = true
	cut.Cut() // the hub cutting a client whose handler has returned: must not touch conn
	if cut.ReadBy(time.Now().Add(time.Second)) || cut.WriteBy(time.Now().Add(time.Second)) {
		t.Fatal("a released connection offered for reading or writing")
	}
	if conn.calls != 2 {
		t.Fatalf("%d deadline calls, want the 2 made before the release", conn.calls)
	}
}

func TestCutoffFailsLaterReadsAndWrites(t *testing.T) {
	conn := &releasedConn{}
	cut := NewCutoff(conn)
	cut.Cut()
	if conn.calls != 1 {
		t.Fatalf("Cut made %d deadline calls, want 1 (the past deadline)", conn.calls)
	}
	if cut.ReadBy(time.Now().Add(time.Hour)) || cut.WriteBy(time.Now().Add(time.Hour)) {
		t.Fatal("a cut connection offered for reading or writing")
	}
	if conn.calls != 1 {
		t.Fatal("a deadline was moved forward after the cut")
	}
}
