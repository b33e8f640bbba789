package socketio

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"sync"
	"time"

	"github.com/gofiber/contrib/websocket"
	"github.com/gofiber/fiber/v2"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/realtime"
	"github.com/heraldhq/herald/secrets"
)

// Path is where clients connect (socket.io-client's default path).
const Path = "/socket.io"

// Protocol limits and timeouts.
const (
	// MaxPayload is the largest frame a client may send; clients only send small control
	// packets.
	MaxPayload = 64 << 10
	// ConnectTimeout is how long a client has to send CONNECT after the handshake.
	ConnectTimeout = 45 * time.Second
	// WriteTimeout bounds one frame write to a client.
	WriteTimeout = 10 * time.Second
	// authTimeout bounds authenticating a CONNECT.
	authTimeout = 10 * time.Second
)

// Server serves /socket.io/ for a realtime service.
type Server struct {
	rt  *realtime.Service
	log *slog.Logger
	ws  fiber.Handler
}

// New returns the Socket.IO endpoint of rt.
func New(rt *realtime.Service, log *slog.Logger) *Server {
	s := &Server{rt: rt, log: log}
	s.ws = websocket.New(s.session, websocket.Config{
		ReadBufferSize:  1024,
		WriteBufferSize: 4096,
		// Idle connections hold no write buffer.
		WriteBufferPool: &sync.Pool{},
	})
	return s
}

// Register mounts the endpoint on the root router.
func (s *Server) Register(r fiber.Router) { r.Get(Path, s.handshake) }

// engineError answers a handshake Engine.IO refuses, with its error code and Herald's
// error envelope.
func engineError(c *fiber.Ctx, code int, msg string) error {
	return c.Status(fiber.StatusBadRequest).JSON(fiber.Map{"status": "error", "code": code, "message": msg})
}

// handshake checks the Engine.IO query and upgrades to WebSocket.
func (s *Server) handshake(c *fiber.Ctx) error {
	if c.Query("EIO") != "4" {
		return engineError(c, 5, "Unsupported protocol version: this server speaks Engine.IO 4 (socket.io-client 3 or later)")
	}
	switch c.Query("transport") {
	case "websocket":
	case "polling":
		return engineError(c, 3, `Bad request: the polling transport is not supported; connect with transports: ["websocket"]`)
	default:
		return engineError(c, 0, "Transport unknown")
	}
	if c.Query("sid") != "" {
		return engineError(c, 1, "Session ID unknown: upgrading a polling session is not supported")
	}
	if !websocket.IsWebSocketUpgrade(c) {
		return engineError(c, 3, "Bad request: expected a WebSocket upgrade")
	}
	return s.ws(c)
}

// outFrame is a frame for the writer; client, when set, starts the event stream after it;
// last closes the connection after it.
type outFrame struct {
	data   []byte
	client *realtime.Client
	last   bool
}

// sconn is a session's connection with the means to cut it off from another goroutine.
type sconn struct {
	*websocket.Conn
	*realtime.Cutoff
}

// session runs one connection: this goroutine reads, a second one writes.
func (s *Server) session(ws *websocket.Conn) {
	defer ws.Close()
	ws.SetReadLimit(MaxPayload)
	conn := sconn{ws, realtime.NewCutoff(ws.NetConn())}
	opts := s.rt.Opts
	open, _ := json.Marshal(map[string]any{
		"sid": secrets.Token(15), "upgrades": []string{},
		"pingInterval": opts.PingInterval.Milliseconds(), "pingTimeout": opts.PingTimeout.Milliseconds(),
		"maxPayload": MaxPayload,
	})
	if write(conn, append([]byte{EngineOpen}, open...)) != nil {
		return
	}
	out := make(chan outFrame, 4)
	quit, wdone := make(chan struct{}), make(chan struct{})
	var client *realtime.Client
	defer func() {
		close(quit)
		if client != nil {
			client.Close()
		}
	}()
	go func() {
		defer close(wdone)
		s.writer(conn, out, quit)
	}()
	// send hands a frame to the writer unless it has stopped (the socket is then closed and
	// the next read fails).
	send := func(f outFrame) {
		select {
		case out <- f:
		case <-wdone:
		}
	}

	connectBy := time.Now().Add(ConnectTimeout)
	for {
		deadline := time.Now().Add(opts.PingInterval + opts.PingTimeout)
		if client == nil && connectBy.Before(deadline) {
			deadline = connectBy
		}
		if !conn.ReadBy(deadline) {
			return
		}
		mt, msg, err := conn.ReadMessage()
		if err != nil {
			return
		}
		if mt != websocket.TextMessage || len(msg) == 0 {
			continue // binary attachments are not part of this protocol's use here
		}
		switch msg[0] {
		case EngineClose:
			return
		case EnginePing: // a probe: answer in kind
			send(outFrame{data: append([]byte{EnginePong}, msg[1:]...)})
		case EnginePong, EngineNoop:
		case EngineMessage:
			p, err := Parse(msg[1:])
			if err != nil {
				s.log.Debug("socket.io: closing on a malformed packet", "error", err)
				return
			}
			if stop := s.handle(conn, p, &client, send); stop {
				return
			}
		default:
			return
		}
	}
}

// handle acts on one Socket.IO packet; true ends the session.
func (s *Server) handle(conn sconn, p Packet, client **realtime.Client, send func(outFrame)) bool {
	switch p.Type {
	case Connect:
		if p.Namespace != "/" {
			send(outFrame{data: controlFrame(ConnectError, p.Namespace, map[string]string{"message": "Invalid namespace"})})
			return false
		}
		if *client != nil {
			return false
		}
		c, err := s.connect(conn, p.Data)
		if err != nil {
			msg := "internal error"
			var he *herald.Error
			if errors.As(err, &he) && he.Code != herald.EINTERNAL {
				msg = he.Message
				if len(he.Details) > 0 {
					msg = he.Details[0]
				}
			} else {
				s.log.Error("socket.io: connect failed", "error", err)
			}
			send(outFrame{data: controlFrame(ConnectError, "/", map[string]string{"message": msg}), last: true})
			return false // the writer closes the connection after the error
		}
		*client = c
		send(outFrame{data: controlFrame(Connect, "/", map[string]string{"sid": secrets.Token(15)}), client: c})
	case Disconnect:
		return p.Namespace == "/"
	}
	// Client-sent events and acks have no meaning here and are ignored.
	return false
}

// connect authenticates a CONNECT: credentials come from the handshake query, overridden
// by the auth payload.
func (s *Server) connect(conn sconn, auth json.RawMessage) (*realtime.Client, error) {
	cr := realtime.Credentials{
		APIKey: conn.Query("apiKey"), UserID: conn.Query("userId"),
		Signature: conn.Query("userSignature"), Token: conn.Query("token"),
	}
	if len(auth) > 0 {
		var a map[string]any
		_ = json.Unmarshal(auth, &a)
		for k, dst := range map[string]*string{"apiKey": &cr.APIKey, "userId": &cr.UserID, "userSignature": &cr.Signature, "token": &cr.Token} {
			if v, ok := a[k].(string); ok && v != "" {
				*dst = v
			}
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), authTimeout)
	defer cancel()
	g, err := s.rt.Authorize(ctx, cr)
	if err != nil {
		return nil, err
	}
	return s.rt.Attach(g, conn.Cut)
}

// writer owns the connection's writes: control frames, events and pings.
func (s *Server) writer(conn sconn, out <-chan outFrame, quit <-chan struct{}) {
	ticker := time.NewTicker(s.rt.Opts.PingInterval)
	defer ticker.Stop()
	var (
		msgs <-chan *realtime.Message
		done <-chan struct{}
	)
	for {
		var err error
		select {
		case <-quit:
			return
		case <-done:
			return // closed by the hub; the socket is already shut
		case f := <-out:
			err = write(conn, f.data)
			if f.last {
				conn.Cut()
				return
			}
			if f.client != nil {
				msgs, done = f.client.Messages(), f.client.Done()
			}
		case m := <-msgs:
			err = write(conn, EventFrame(m.Name, m.Data))
		case <-ticker.C:
			err = write(conn, []byte{EnginePing})
		}
		if err != nil {
			conn.Cut()
			return
		}
	}
}

var errCut = errors.New("socket.io: connection cut")

func write(conn sconn, frame []byte) error {
	if !conn.WriteBy(time.Now().Add(WriteTimeout)) {
		return errCut
	}
	return conn.WriteMessage(websocket.TextMessage, frame)
}
