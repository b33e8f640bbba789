package socketio

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/gofiber/contrib/websocket"
	"github.com/gofiber/fiber/v2"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/internal/platform/secrets"
	"github.com/heraldhq/herald/internal/realtime"
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
	// UpgradeTimeout is how long a polling client has, after opening the WebSocket that
	// will replace it, to finish the upgrade (probe, then upgrade packet).
	UpgradeTimeout = 10 * time.Second
)

// Server serves /socket.io/ for a realtime service.
type Server struct {
	rt  *realtime.Service
	log *slog.Logger
	ws  fiber.Handler

	mu sync.Mutex
	// sessions are the long-polling sessions of this process, by sid. A session lives in
	// one process only: behind a load balancer, polling needs sticky sessions.
	sessions map[string]*pollSession
	// ended are closed polling sessions kept until their client's next poll (see retire).
	ended map[string]*pollSession
	// waiting counts the polling sessions that have not connected yet, up to maxWaiting.
	waiting, maxWaiting int
}

// New returns the Socket.IO endpoint of rt.
func New(rt *realtime.Service, log *slog.Logger) *Server {
	s := &Server{rt: rt, log: log, sessions: map[string]*pollSession{}, ended: map[string]*pollSession{}, maxWaiting: MaxWaitingSessions}
	s.ws = websocket.New(s.session, websocket.Config{
		ReadBufferSize:  1024,
		WriteBufferSize: 4096,
		// Idle connections hold no write buffer.
		WriteBufferPool: &sync.Pool{},
	})
	return s
}

// Register mounts the endpoint on the root router: GET opens sessions, polls and upgrades
// to WebSocket; POST carries a polling client's packets. CORS (browser pages that poll from
// another origin) is answered in front of it, from the app's allowed origins (api/web.SocketCORS).
func (s *Server) Register(r fiber.Router) {
	r.Get(Path, s.handshake)
	r.Post(Path, s.post)
}

// engineError answers a handshake Engine.IO refuses, with its error code and Herald's
// error envelope.
func engineError(c *fiber.Ctx, code int, msg string) error {
	return c.Status(fiber.StatusBadRequest).JSON(fiber.Map{"status": "error", "code": code, "message": msg})
}

// handshake routes a GET: a new session over WebSocket or long-polling, a poll of a
// polling session, or the WebSocket that upgrades one.
func (s *Server) handshake(c *fiber.Ctx) error {
	if c.Query("EIO") != "4" {
		return engineError(c, 5, "Unsupported protocol version: this server speaks Engine.IO 4 (socket.io-client 3 or later)")
	}
	sid := c.Query("sid")
	switch c.Query("transport") {
	case "websocket":
	case "polling":
		if sid == "" {
			return s.openPolling(c)
		}
		ps := s.lookup(sid)
		if ps == nil {
			return engineError(c, 1, "Session ID unknown")
		}
		return ps.poll(c)
	default:
		return engineError(c, 0, "Transport unknown")
	}
	var ps *pollSession
	if sid != "" {
		if ps = s.lookup(sid); ps == nil {
			return engineError(c, 1, "Session ID unknown")
		}
	}
	if !websocket.IsWebSocketUpgrade(c) {
		return engineError(c, 3, "Bad request: expected a WebSocket upgrade")
	}
	if ps != nil {
		if !ps.canUpgrade() {
			return engineError(c, 3, "Bad request: the session is closed or already upgrading")
		}
		c.Locals(localUpgrade, ps)
	}
	return s.ws(c)
}

// localUpgrade is the Locals key carrying the polling session a WebSocket upgrades.
const localUpgrade = "herald.socketio.upgrade"

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

// credentialsOf reads the credentials a client puts in the handshake query.
func credentialsOf(query func(key string, def ...string) string) realtime.Credentials {
	return realtime.Credentials{
		APIKey: strings.Clone(query("apiKey")), UserID: strings.Clone(query("userId")),
		Signature: strings.Clone(query("userSignature")), Token: strings.Clone(query("token")),
	}
}

// openPacket is the Engine.IO open packet of a new session.
func (s *Server) openPacket(sid string, upgrades []string) []byte {
	opts := s.rt.Opts
	open, _ := json.Marshal(map[string]any{
		"sid": sid, "upgrades": upgrades,
		"pingInterval": opts.PingInterval.Milliseconds(), "pingTimeout": opts.PingTimeout.Milliseconds(),
		"maxPayload": MaxPayload,
	})
	return append([]byte{EngineOpen}, open...)
}

// session runs one WebSocket: a new session, or the upgrade of a polling one.
func (s *Server) session(ws *websocket.Conn) {
	defer ws.Close()
	ws.SetReadLimit(MaxPayload)
	conn := sconn{ws, realtime.NewCutoff(ws.NetConn())}
	// The hub may still cut this connection after the handler returns, when fasthttp has
	// released it.
	defer conn.Release()
	if ps, ok := ws.Locals(localUpgrade).(*pollSession); ok {
		s.upgrade(conn, ps)
		return
	}
	if write(conn, s.openPacket(secrets.Token(15), []string{})) != nil {
		return
	}
	s.serve(conn, wsState{creds: credentialsOf(ws.Query), onClose: conn.Cut, connectBy: time.Now().Add(ConnectTimeout)})
}

// wsState is what a WebSocket session starts with: nothing for a new session; for an
// upgraded one, its credentials, its client when it has connected already and the frames
// the polling transport had not delivered.
type wsState struct {
	creds  realtime.Credentials
	client *realtime.Client
	frames [][]byte
	// onClose is given to the hub for a client attached here.
	onClose   func()
	connectBy time.Time
}

// serve runs a WebSocket session: this goroutine reads, a second one writes.
func (s *Server) serve(conn sconn, st wsState) {
	opts := s.rt.Opts
	out := make(chan outFrame, 4)
	quit, wdone := make(chan struct{}), make(chan struct{})
	client := st.client
	defer func() {
		close(quit)
		// The writer never touches the connection after the handler returns: it stops at
		// quit, or within WriteTimeout when a write is under way.
		<-wdone
		if client != nil {
			client.Close()
		}
	}()
	go func() {
		defer close(wdone)
		s.writer(conn, out, quit, st.frames, st.client)
	}()
	// send hands a frame to the writer unless it has stopped (the socket is then closed and
	// the next read fails).
	send := func(f outFrame) {
		select {
		case out <- f:
		case <-wdone:
		}
	}

	for {
		deadline := time.Now().Add(opts.PingInterval + opts.PingTimeout)
		if client == nil && st.connectBy.Before(deadline) {
			deadline = st.connectBy
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
			if stop := s.handle(p, st.creds, st.onClose, &client, send); stop {
				return
			}
		default:
			return
		}
	}
}

// handle acts on one Socket.IO packet of a WebSocket session; true ends the session.
func (s *Server) handle(p Packet, cr realtime.Credentials, onClose func(), client **realtime.Client, send func(outFrame)) bool {
	switch p.Type {
	case Connect:
		if p.Namespace == "/" && *client != nil {
			return false
		}
		c, frame, last := s.connect(p, cr, onClose)
		if c != nil {
			*client = c
		}
		// After an error, the writer closes the connection once the frame is out.
		send(outFrame{data: frame, client: c, last: last})
	case Disconnect:
		return p.Namespace == "/"
	}
	// Client-sent events and acks have no meaning here and are ignored.
	return false
}

// connect answers a CONNECT: the client attached (with onClose) and the CONNECT answer; or
// no client and a CONNECT_ERROR, with last set when the session must end after it.
// Credentials come from the handshake query, overridden by the auth payload.
func (s *Server) connect(p Packet, cr realtime.Credentials, onClose func()) (c *realtime.Client, frame []byte, last bool) {
	if p.Namespace != "/" {
		return nil, controlFrame(ConnectError, p.Namespace, map[string]string{"message": "Invalid namespace"}), false
	}
	if len(p.Data) > 0 {
		var a map[string]any
		_ = json.Unmarshal(p.Data, &a)
		for k, dst := range map[string]*string{"apiKey": &cr.APIKey, "userId": &cr.UserID, "userSignature": &cr.Signature, "token": &cr.Token} {
			if v, ok := a[k].(string); ok && v != "" {
				*dst = v
			}
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), authTimeout)
	defer cancel()
	g, err := s.rt.Authorize(ctx, cr)
	if err == nil {
		c, err = s.rt.Attach(g, onClose)
	}
	if err != nil {
		msg := "internal error"
		var he *herald.Error
		if errors.As(err, &he) && he.Code != herald.EINTERNAL {
			msg = he.Message
			if len(he.Details) > 0 {
				msg = he.Details[0]
			}
		} else if !errors.Is(err, realtime.ErrClosed) {
			s.log.Error("socket.io: connect failed", "error", err)
		}
		return nil, controlFrame(ConnectError, "/", map[string]string{"message": msg}), true
	}
	return c, controlFrame(Connect, "/", map[string]string{"sid": secrets.Token(15)}), false
}

// writer owns the connection's writes: control frames, events and pings. It writes first
// the frames an upgraded session carries over, and the events of its client, if any.
func (s *Server) writer(conn sconn, out <-chan outFrame, quit <-chan struct{}, first [][]byte, client *realtime.Client) {
	ticker := time.NewTicker(s.rt.Opts.PingInterval)
	defer ticker.Stop()
	var (
		msgs <-chan *realtime.Message
		done <-chan struct{}
	)
	for _, f := range first {
		if write(conn, f) != nil {
			conn.Cut()
			return
		}
	}
	if client != nil {
		msgs, done = client.Messages(), client.Done()
	}
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
