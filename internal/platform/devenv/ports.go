// Package devenv starts the local pieces a developer or a test needs when none are running:
// a Temporal dev server from the pinned CLI and a private Postgres cluster.
package devenv

import (
	"context"
	"net"
	"strconv"
	"time"
)

// FreePort returns a TCP port on 127.0.0.1 that was free a moment ago.
func FreePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// portFree reports whether a TCP port on 127.0.0.1 can be listened on now.
func portFree(port int) bool {
	l, err := net.Listen("tcp", hostPort(port))
	if err != nil {
		return false
	}
	l.Close()
	return true
}

// Answers reports whether something accepts TCP connections at addr.
func Answers(ctx context.Context, addr string) bool {
	d := net.Dialer{Timeout: 500 * time.Millisecond}
	conn, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return false
	}
	conn.Close()
	return true
}

func hostPort(port int) string { return net.JoinHostPort("127.0.0.1", strconv.Itoa(port)) }
