package realtimetest

import (
	"bufio"
	"context"
	"encoding/json"
	"net"
	"net/http"
	"net/url"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/fasthttp/websocket"
)

// RawSocket is a WebSocket client speaking Engine.IO frames by hand, for what the stock
// client hides: malformed packets, silence, never reading.
type RawSocket struct {
	t    testing.TB
	Conn *websocket.Conn
	// Open is the Engine.IO open packet's payload.
	Open map[string]any
}

// DialOptions adjust DialRaw.
type DialOptions struct {
	// ReceiveBuffer, when set, shrinks the socket's receive buffer (SO_RCVBUF) so a client
	// that stops reading pushes back on the server quickly.
	ReceiveBuffer int
	// SID, when set, opens the WebSocket that upgrades this polling session (no open packet
	// comes; the client probes first).
	SID string
}

// TryUpgrade dials the WebSocket that upgrades a polling session and returns the HTTP
// status of a refused handshake (101 when it was accepted; the socket is then closed).
func TryUpgrade(t testing.TB, baseURL, sid string) int {
	t.Helper()
	u, err := url.Parse(baseURL)
	if err != nil {
		t.Fatal(err)
	}
	u.Scheme, u.Path, u.RawQuery = "ws", "/socket.io/", url.Values{"EIO": {"4"}, "transport": {"websocket"}, "sid": {sid}}.Encode()
	d := websocket.Dialer{HandshakeTimeout: 10 * time.Second}
	conn, res, err := d.Dial(u.String(), nil)
	if err == nil {
		_ = conn.Close()
		return http.StatusSwitchingProtocols
	}
	if res == nil {
		t.Fatalf("dial %s: %v", u, err)
	}
	return res.StatusCode
}

// DialRaw opens /socket.io/ on baseURL with extra query parameters and reads the open
// packet (unless it upgrades a polling session, see DialOptions.SID).
func DialRaw(t testing.TB, baseURL string, query url.Values, o DialOptions) *RawSocket {
	t.Helper()
	u, err := url.Parse(baseURL)
	if err != nil {
		t.Fatal(err)
	}
	q := url.Values{"EIO": {"4"}, "transport": {"websocket"}}
	for k, v := range query {
		q[k] = v
	}
	if o.SID != "" {
		q.Set("sid", o.SID)
	}
	u.Scheme, u.Path, u.RawQuery = "ws", "/socket.io/", q.Encode()
	d := websocket.Dialer{HandshakeTimeout: 10 * time.Second}
	if o.ReceiveBuffer > 0 {
		nd := net.Dialer{Control: func(_, _ string, c syscall.RawConn) error {
			var serr error
			err := c.Control(func(fd uintptr) {
				serr = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, o.ReceiveBuffer)
			})
			if err != nil {
				return err
			}
			return serr
		}}
		d.NetDialContext = nd.DialContext
	}
	conn, _, err := d.Dial(u.String(), nil)
	if err != nil {
		t.Fatalf("dial %s: %v", u, err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	s := &RawSocket{t: t, Conn: conn}
	if o.SID != "" {
		return s // an upgrade: the session is open already
	}
	f, err := s.Read()
	if err != nil || !strings.HasPrefix(f, "0") || json.Unmarshal([]byte(f[1:]), &s.Open) != nil {
		t.Fatalf("expected the open packet, got %q (%v)", f, err)
	}
	return s
}

// Read returns the next text frame.
func (s *RawSocket) Read() (string, error) {
	_ = s.Conn.SetReadDeadline(time.Now().Add(WaitTimeout))
	_, b, err := s.Conn.ReadMessage()
	return string(b), err
}

// Send writes a text frame.
func (s *RawSocket) Send(frame string) {
	s.t.Helper()
	if err := s.Conn.WriteMessage(websocket.TextMessage, []byte(frame)); err != nil {
		s.t.Fatalf("send %q: %v", frame, err)
	}
}

// Next returns the next frame that is not a ping, answering pings.
func (s *RawSocket) Next() string {
	s.t.Helper()
	for {
		f, err := s.Read()
		if err != nil {
			s.t.Fatalf("read: %v", err)
		}
		if f == "2" {
			s.Send("3")
			continue
		}
		return f
	}
}

// SSEEvent is one Server-Sent Event.
type SSEEvent struct {
	Name string
	Data string
}

// SSEClient reads an SSE stream.
type SSEClient struct {
	t      testing.TB
	Status int
	Header http.Header
	Body   string // the body of a refused request
	events chan SSEEvent
	cancel context.CancelFunc
}

// OpenSSE requests url with headers; on 200 it reads the stream in the background.
func OpenSSE(t testing.TB, rawURL string, headers map[string]string) *SSEClient {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, rawURL, nil)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("GET %s: %v", rawURL, err)
	}
	c := &SSEClient{t: t, Status: res.StatusCode, Header: res.Header, events: make(chan SSEEvent, 1024), cancel: cancel}
	if res.StatusCode != http.StatusOK {
		var b strings.Builder
		_, _ = bufio.NewReader(res.Body).WriteTo(&b)
		res.Body.Close()
		c.Body = b.String()
		close(c.events)
		return c
	}
	go func() {
		defer close(c.events)
		defer res.Body.Close()
		sc := bufio.NewScanner(res.Body)
		sc.Buffer(make([]byte, 1<<20), 16<<20)
		var ev SSEEvent
		for sc.Scan() {
			line := sc.Text()
			switch {
			case line == "":
				if ev.Name != "" || ev.Data != "" {
					c.events <- ev
				}
				ev = SSEEvent{}
			case strings.HasPrefix(line, "event: "):
				ev.Name = line[len("event: "):]
			case strings.HasPrefix(line, "data: "):
				if ev.Data != "" {
					ev.Data += "\n"
				}
				ev.Data += line[len("data: "):]
			}
		}
	}()
	return c
}

// Close ends the stream.
func (c *SSEClient) Close() { c.cancel() }

// Next returns the next event; ok is false when the stream ended.
func (c *SSEClient) Next() (SSEEvent, bool) {
	c.t.Helper()
	select {
	case ev, ok := <-c.events:
		return ev, ok
	case <-time.After(WaitTimeout):
		c.t.Fatalf("no SSE event for %s", WaitTimeout)
	}
	return SSEEvent{}, false
}

// Event waits for the next event of a name.
func (c *SSEClient) Event(name string) SSEEvent {
	c.t.Helper()
	for {
		ev, ok := c.Next()
		if !ok {
			c.t.Fatalf("SSE stream ended while waiting for %s", name)
		}
		if ev.Name == name {
			return ev
		}
		c.t.Logf("while waiting for %s, skipped %+v", name, ev)
	}
}
