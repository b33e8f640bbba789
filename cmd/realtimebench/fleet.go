package main

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/fasthttp/websocket"
	"golang.org/x/sync/errgroup"
)

// arrival is an event a connection received.
type arrival struct {
	name string
	at   time.Time
}

// conn is one idle client: it answers pings and reports events.
type conn struct {
	user   string
	ws     *websocket.Conn
	events chan arrival
}

// fleet is the set of idle connections, one user each (user-0 … user-N-1).
type fleet struct {
	conns   []*conn
	lost    atomic.Int64
	closing atomic.Bool
	wg      sync.WaitGroup
}

// dialers bounds concurrent handshakes.
const dialers = 64

func openFleet(ctx context.Context, base, apiKey string, n int) (*fleet, error) {
	f := &fleet{conns: make([]*conn, n)}
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(dialers)
	for i := range n {
		g.Go(func() error {
			c, err := dial(gctx, base, apiKey, fmt.Sprintf("user-%d", i))
			if err != nil {
				return fmt.Errorf("connection %d: %w", i, err)
			}
			f.conns[i] = c
			f.wg.Add(1)
			go f.read(c)
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		f.close()
		return nil, err
	}
	return f, nil
}

func dial(ctx context.Context, base, apiKey, user string) (*conn, error) {
	u, _ := url.Parse(base)
	u.Scheme, u.Path = "ws", "/socket.io/"
	u.RawQuery = url.Values{"EIO": {"4"}, "transport": {"websocket"}, "apiKey": {apiKey}, "userId": {user}}.Encode()
	d := websocket.Dialer{HandshakeTimeout: 30 * time.Second, ReadBufferSize: 1024, WriteBufferSize: 256}
	ws, _, err := d.DialContext(ctx, u.String(), nil)
	if err != nil {
		return nil, err
	}
	_ = ws.SetReadDeadline(time.Now().Add(30 * time.Second))
	if _, open, err := ws.ReadMessage(); err != nil || len(open) == 0 || open[0] != '0' {
		ws.Close()
		return nil, fmt.Errorf("no open packet: %v", err)
	}
	if err := ws.WriteMessage(websocket.TextMessage, []byte("40")); err != nil {
		ws.Close()
		return nil, err
	}
	if _, ack, err := ws.ReadMessage(); err != nil || !strings.HasPrefix(string(ack), "40{") {
		ws.Close()
		return nil, fmt.Errorf("CONNECT refused: %q %v", ack, err)
	}
	_ = ws.SetReadDeadline(time.Time{})
	return &conn{user: user, ws: ws, events: make(chan arrival, 8)}, nil
}

// read answers pings and reports events until the connection ends.
func (f *fleet) read(c *conn) {
	defer f.wg.Done()
	for {
		_, msg, err := c.ws.ReadMessage()
		if err != nil {
			if !f.closing.Load() {
				f.lost.Add(1)
			}
			return
		}
		at := time.Now()
		switch {
		case len(msg) == 1 && msg[0] == '2':
			_ = c.ws.WriteMessage(websocket.TextMessage, []byte("3"))
		case strings.HasPrefix(string(msg), `42["`):
			name, _, _ := strings.Cut(string(msg[4:]), `"`)
			select {
			case c.events <- arrival{name: name, at: at}:
			default:
			}
		}
	}
}

// dropped counts connections the server closed while the benchmark ran.
func (f *fleet) dropped() int64 { return f.lost.Load() }

func (f *fleet) close() {
	f.closing.Store(true)
	for _, c := range f.conns {
		if c != nil {
			c.ws.Close()
		}
	}
	f.wg.Wait()
}

// await waits for the next event of a name on c.
func (c *conn) await(ctx context.Context, name string) (time.Time, error) {
	timeout := time.After(60 * time.Second)
	for {
		select {
		case a := <-c.events:
			if a.name == name {
				return a.at, nil
			}
		case <-timeout:
			return time.Time{}, fmt.Errorf("no %s for %s within a minute", c.user, name)
		case <-ctx.Done():
			return time.Time{}, ctx.Err()
		}
	}
}
