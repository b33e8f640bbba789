package socketio

import (
	"strconv"
	"sync"
	"time"

	"github.com/gofiber/contrib/websocket"
	"github.com/gofiber/fiber/v2"

	"github.com/heraldhq/herald/internal/platform/secrets"
	"github.com/heraldhq/herald/internal/realtime"
)

// Long-polling bounds.
const (
	// MaxPollResponse bounds the events one poll answer gathers; the rest wait in the
	// client's queue (HERALD_REALTIME_QUEUE) for the next poll. One event always goes.
	MaxPollResponse = 1 << 20
	// MaxPendingFrames bounds the control frames (answers, errors, pongs, pings) waiting for
	// a poll; a client that makes more without polling is dropped.
	MaxPendingFrames = 64
	// MaxWaitingSessions bounds the polling sessions that have not authenticated yet (each
	// lives up to ConnectTimeout): opening one costs a request, not a connection, so
	// without a cap a flood of handshakes could pile them up.
	MaxWaitingSessions = 10000
	// noopDelay is how long a poll waits, while the session upgrades, before it answers a
	// noop so the client can pause polling (socket.io's server uses the same pace).
	noopDelay = 100 * time.Millisecond
)

// pollState is where a polling session stands with its upgrade.
type pollState int

const (
	statePolling   pollState = iota
	stateUpgrading           // the WebSocket answered the probe; polls get noops
	stateUpgraded            // the WebSocket carries the session; polls are refused
)

// pollSession is an Engine.IO session on HTTP long-polling: the client's GETs collect what
// the server has to say (waiting until there is something), its POSTs carry its packets.
// It lives in this process's session table until it closes or upgrades to WebSocket.
//
// Bounds: a POST body over MaxPayload closes it (413); a ping not answered within
// pingTimeout (a client that stopped polling never sees the ping) closes it; events wait in
// the hub's bounded queue of its client, and a client falling that far behind is dropped
// like any other (its poll gets the Engine.IO close packet); control frames are capped by
// MaxPendingFrames.
type pollSession struct {
	srv       *Server
	id        string
	creds     realtime.Credentials
	connectBy time.Time
	// wake has room for one signal: frames are pending, a client attached, the state
	// changed. done is closed when the session ends, moved when it upgrades.
	wake, done, moved chan struct{}

	mu      sync.Mutex
	pending [][]byte
	client  *realtime.Client
	state   pollState
	// getting and posting are set while a GET or a POST is being served: a client has at
	// most one of each in flight.
	getting, posting bool
	// pingQueued: a ping waits in pending; pingOut: a poll took it, its pong is due.
	pingQueued, pingOut bool
	// closing ends the session once pending is delivered (after a CONNECT_ERROR).
	closing, closed bool
	reason          string
	// cut ends the WebSocket once the session has upgraded.
	cut func()
	// waiting: counted in Server.waiting (guarded by Server.mu).
	waiting bool
}

// openPolling starts a polling session and answers the open packet.
func (s *Server) openPolling(c *fiber.Ctx) error {
	ps := &pollSession{
		srv: s, id: secrets.Token(15), creds: credentialsOf(c.Query),
		connectBy: time.Now().Add(ConnectTimeout),
		wake:      make(chan struct{}, 1), done: make(chan struct{}), moved: make(chan struct{}),
		waiting: true,
	}
	s.mu.Lock()
	if s.waiting >= s.maxWaiting {
		s.mu.Unlock()
		s.log.Warn("socket.io: refusing a polling handshake: too many sessions waiting for CONNECT", "limit", s.maxWaiting)
		return c.Status(fiber.StatusServiceUnavailable).JSON(fiber.Map{"status": "error", "code": 3,
			"message": "Bad request: too many sessions waiting to connect; retry later"})
	}
	s.waiting++
	s.sessions[ps.id] = ps
	s.mu.Unlock()
	go ps.heartbeat()
	return sendPayload(c, s.openPacket(ps.id, []string{"websocket"}))
}

// PollingSessions is the number of long-polling sessions open in this process (upgraded
// sessions count as WebSockets, in the hub's connections).
func (s *Server) PollingSessions() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.sessions)
}

// lookup finds an open session, or a closed one whose client has not learnt it yet.
func (s *Server) lookup(sid string) *pollSession {
	s.mu.Lock()
	defer s.mu.Unlock()
	if ps := s.sessions[sid]; ps != nil {
		return ps
	}
	return s.ended[sid]
}

// connected takes a session out of the count of those waiting for CONNECT.
func (s *Server) connected(ps *pollSession) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if ps.waiting {
		ps.waiting = false
		s.waiting--
	}
}

// forget drops a session from the tables.
func (s *Server) forget(ps *pollSession) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if ps.waiting {
		ps.waiting = false
		s.waiting--
	}
	if s.sessions[ps.id] == ps {
		delete(s.sessions, ps.id)
	}
	if s.ended[ps.id] == ps {
		delete(s.ended, ps.id)
	}
}

// retire moves a closed session to the ended table for one heartbeat period, so the
// client's next poll gets the Engine.IO close packet (a clear end: the client reconnects)
// rather than "Session ID unknown"; then it is forgotten.
func (s *Server) retire(ps *pollSession) {
	s.mu.Lock()
	if ps.waiting {
		ps.waiting = false
		s.waiting--
	}
	if s.sessions[ps.id] == ps {
		delete(s.sessions, ps.id)
		s.ended[ps.id] = ps
	}
	s.mu.Unlock()
	time.AfterFunc(s.rt.Opts.PingInterval+s.rt.Opts.PingTimeout, func() { s.forget(ps) })
}

// sendPayload answers a poll.
func sendPayload(c *fiber.Ctx, payload []byte) error {
	c.Set(fiber.HeaderContentType, "text/plain; charset=UTF-8")
	c.Set(fiber.HeaderCacheControl, "no-store")
	return c.Send(payload)
}

// signal wakes the pending poll, if any.
func (ps *pollSession) signal() {
	select {
	case ps.wake <- struct{}{}:
	default:
	}
}

// close ends the session: a pending poll answers the close packet, the client detaches.
func (ps *pollSession) close(reason string) { ps.end(reason, true) }

// clientClosed is the hub's onClose for the session's client: the client is closing
// already (closing it again from here would deadlock).
func (ps *pollSession) clientClosed() {
	ps.end("its client was closed (it fell behind, the transport ended, or shutdown)", false)
}

func (ps *pollSession) end(reason string, closeClient bool) {
	ps.mu.Lock()
	if ps.closed {
		ps.mu.Unlock()
		return
	}
	ps.closed, ps.reason = true, reason
	client, cut, upgraded := ps.client, ps.cut, ps.state == stateUpgraded
	ps.mu.Unlock()
	close(ps.done)
	ps.signal()
	if upgraded {
		ps.srv.forget(ps)
	} else {
		ps.srv.retire(ps)
	}
	if cut != nil {
		cut()
	}
	if client != nil && closeClient {
		client.Close()
	}
	if !upgraded {
		ps.srv.log.Debug("socket.io: polling session closed", "sid", ps.id, "reason", reason)
	}
}

// queue adds a control frame for the next poll; false when the session is closed or the
// cap is reached (the session is then closed).
func (ps *pollSession) queue(frame []byte) bool { return ps.enqueue(frame, false) }

// queuePing queues a ping, marked as such in the same critical section, so a poll that
// takes it also marks it delivered.
func (ps *pollSession) queuePing() bool { return ps.enqueue([]byte{EnginePing}, true) }

func (ps *pollSession) enqueue(frame []byte, ping bool) bool {
	ps.mu.Lock()
	if ps.closed {
		ps.mu.Unlock()
		return false
	}
	if len(ps.pending) >= MaxPendingFrames {
		ps.mu.Unlock()
		ps.close("too many undelivered frames: the client does not poll")
		return false
	}
	ps.pending = append(ps.pending, frame)
	if ping {
		ps.pingQueued = true
	}
	ps.mu.Unlock()
	ps.signal()
	return true
}

// heartbeat pings the client every pingInterval and closes the session when a ping goes
// unanswered for pingTimeout, or when no CONNECT came within ConnectTimeout. It stops when
// the session ends or upgrades (the WebSocket then keeps its own heartbeat).
func (ps *pollSession) heartbeat() {
	opts := ps.srv.rt.Opts
	connect := time.NewTimer(time.Until(ps.connectBy))
	defer connect.Stop()
	ping := time.NewTicker(opts.PingInterval)
	defer ping.Stop()
	pong := time.NewTimer(opts.PingTimeout)
	pong.Stop()
	defer pong.Stop()
	for {
		select {
		case <-ps.done:
			return
		case <-ps.moved:
			return
		case <-connect.C:
			ps.mu.Lock()
			idle := ps.client == nil
			ps.mu.Unlock()
			if idle {
				ps.close("no CONNECT packet in time")
			}
		case <-ping.C:
			ps.mu.Lock()
			due := !ps.pingQueued && !ps.pingOut && ps.state != stateUpgraded
			ps.mu.Unlock()
			if due && ps.queuePing() {
				pong.Reset(opts.PingTimeout)
			}
		case <-pong.C:
			ps.mu.Lock()
			missed := (ps.pingQueued || ps.pingOut) && ps.state != stateUpgraded
			ps.mu.Unlock()
			if missed {
				ps.close("ping timeout")
			}
		}
	}
}

// poll serves a GET: it waits until there is something to send, then answers every
// pending frame and the events queued for the client, as one payload.
func (ps *pollSession) poll(c *fiber.Ctx) error {
	ps.mu.Lock()
	switch {
	case ps.closed && !ps.getting:
		ps.mu.Unlock()
		ps.srv.forget(ps)
		return sendPayload(c, []byte{EngineClose})
	case ps.state == stateUpgraded:
		ps.mu.Unlock()
		return engineError(c, 3, "Bad request: the session has upgraded to websocket")
	case ps.getting:
		ps.mu.Unlock()
		ps.close("overlapping polls")
		return engineError(c, 3, "Bad request: overlapping polls")
	}
	ps.getting = true
	ps.mu.Unlock()
	defer func() {
		ps.mu.Lock()
		ps.getting = false
		ps.mu.Unlock()
	}()
	return sendPayload(c, joinFrames(ps.collect()))
}

// collect waits for frames and gathers them.
func (ps *pollSession) collect() [][]byte {
	var (
		out   [][]byte
		size  int
		noop  <-chan time.Time
		timer *time.Timer
	)
	defer func() {
		if timer != nil {
			timer.Stop()
		}
	}()
	for {
		ps.mu.Lock()
		for _, f := range ps.pending {
			out = append(out, f)
			size += len(f)
		}
		ps.pending = ps.pending[:0]
		if ps.pingQueued {
			ps.pingQueued, ps.pingOut = false, true
		}
		closed, closing := ps.closed, ps.closing
		client, state := ps.client, ps.state
		ps.mu.Unlock()
		if closing && !closed {
			// A refused CONNECT ends the session, but its CONNECT_ERROR goes alone: the
			// client handles it, then closes, and a poll it still makes gets the close
			// packet. (In the same payload, the close would reach the client's socket
			// first, as a "transport close" disconnect before the connect_error.)
			ps.close("refused CONNECT")
			return out
		}
		if closed || state == stateUpgraded {
			if closed {
				out = append(out, []byte{EngineClose})
			} else if len(out) == 0 {
				out = append(out, []byte{EngineNoop})
			}
			return out
		}
		var msgs <-chan *realtime.Message
		if client != nil {
			msgs = client.Messages()
		}
	drain:
		for size < MaxPollResponse {
			select {
			case m := <-msgs:
				f := EventFrame(m.Name, m.Data)
				out, size = append(out, f), size+len(f)
			default:
				break drain
			}
		}
		if len(out) > 0 {
			return out
		}
		if state == stateUpgrading && noop == nil {
			timer = time.NewTimer(noopDelay)
			noop = timer.C
		}
		select {
		case <-ps.wake:
		case <-ps.done:
		case m := <-msgs:
			f := EventFrame(m.Name, m.Data)
			out, size = append(out, f), size+len(f)
		case <-noop:
			return [][]byte{{EngineNoop}}
		}
	}
}

// post routes a POST to its polling session.
func (s *Server) post(c *fiber.Ctx) error {
	if c.Query("EIO") != "4" {
		return engineError(c, 5, "Unsupported protocol version: this server speaks Engine.IO 4 (socket.io-client 3 or later)")
	}
	if c.Query("transport") != "polling" {
		return engineError(c, 0, "Transport unknown")
	}
	sid := c.Query("sid")
	if sid == "" {
		return engineError(c, 2, "Bad handshake method: open a session with GET")
	}
	ps := s.lookup(sid)
	if ps == nil {
		return engineError(c, 1, "Session ID unknown")
	}
	return ps.post(c)
}

// post serves a POST: the client's packets, answered "ok" once handled (a CONNECT is
// authenticated before the answer, so its result is queued when the client polls next).
func (ps *pollSession) post(c *fiber.Ctx) error {
	body := c.Body()
	ps.mu.Lock()
	switch {
	case ps.closed:
		ps.mu.Unlock()
		return engineError(c, 1, "Session ID unknown")
	case ps.state == stateUpgraded:
		ps.mu.Unlock()
		return engineError(c, 3, "Bad request: the session has upgraded to websocket")
	case ps.posting:
		ps.mu.Unlock()
		ps.close("overlapping POSTs")
		return engineError(c, 3, "Bad request: overlapping POST requests")
	}
	ps.posting = true
	ps.mu.Unlock()
	defer func() {
		ps.mu.Lock()
		ps.posting = false
		ps.mu.Unlock()
	}()
	if len(body) > MaxPayload {
		ps.close("payload too large")
		return c.Status(fiber.StatusRequestEntityTooLarge).JSON(fiber.Map{"status": "error", "code": 3,
			"message": "Bad request: the payload is larger than maxPayload (" + strconv.Itoa(MaxPayload) + " bytes)"})
	}
	packets, err := DecodePayload(body)
	if err != nil {
		ps.close("malformed payload")
		return engineError(c, 3, "Bad request: "+err.Error())
	}
	for _, p := range packets {
		if !ps.handle(p) {
			break
		}
	}
	c.Set(fiber.HeaderContentType, "text/html")
	return c.SendString("ok")
}

// handle acts on one packet of a POST; false ends the session.
func (ps *pollSession) handle(p EnginePacket) bool {
	switch p.Type {
	case EngineClose:
		ps.close("closed by the client")
		return false
	case EnginePing:
		return ps.queue(append([]byte{EnginePong}, p.Data...))
	case EnginePong:
		// Only the answer to a ping the client has received counts: a client that stopped
		// polling cannot keep its session alive by posting pongs.
		ps.mu.Lock()
		ps.pingOut = false
		ps.mu.Unlock()
	case EngineNoop:
	case EngineMessage:
		if p.Binary {
			return true // binary attachments are not part of this protocol's use here
		}
		pk, err := Parse(p.Data)
		if err != nil {
			ps.srv.log.Debug("socket.io: closing a polling session on a malformed packet", "error", err)
			ps.close("malformed packet")
			return false
		}
		switch pk.Type {
		case Connect:
			return ps.connect(pk)
		case Disconnect:
			if pk.Namespace == "/" {
				ps.close("disconnected by the client")
				return false
			}
		}
		// Client-sent events and acks have no meaning here and are ignored.
	default: // open and upgrade packets have no place in a POST
		ps.close("unexpected packet")
		return false
	}
	return true
}

// connect authenticates a CONNECT and queues its answer.
func (ps *pollSession) connect(p Packet) bool {
	ps.mu.Lock()
	connected := ps.client != nil
	ps.mu.Unlock()
	if p.Namespace == "/" && connected {
		return true
	}
	c, frame, last := ps.srv.connect(p, ps.creds, ps.clientClosed)
	ps.mu.Lock()
	if ps.closed {
		ps.mu.Unlock()
		if c != nil {
			c.Close()
		}
		return false
	}
	if len(ps.pending) >= MaxPendingFrames {
		ps.mu.Unlock()
		if c != nil {
			c.Close()
		}
		ps.close("too many undelivered frames: the client does not poll")
		return false
	}
	// The answer and the client appear together, so a poll sends the answer before any
	// event of the client.
	ps.pending = append(ps.pending, frame)
	if c != nil {
		ps.client = c
		defer ps.srv.connected(ps)
	}
	ps.closing = ps.closing || last
	ps.mu.Unlock()
	ps.signal()
	return !last
}

// canUpgrade reports whether a WebSocket may start upgrading the session.
func (ps *pollSession) canUpgrade() bool {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	return !ps.closed && ps.state == statePolling
}

// upgrade moves a polling session onto a WebSocket: the client probes ("2probe", answered
// "3probe"), pauses polling (its pending poll is answered a noop), then sends the upgrade
// packet; from then on the WebSocket carries the session, starting with what the polling
// transport had not delivered. A client that does not finish within UpgradeTimeout stays
// on polling.
func (s *Server) upgrade(conn sconn, ps *pollSession) {
	deadline := time.Now().Add(UpgradeTimeout)
	read := func() (string, bool) {
		if !conn.ReadBy(deadline) {
			return "", false
		}
		mt, msg, err := conn.ReadMessage()
		return string(msg), err == nil && mt == websocket.TextMessage
	}
	if msg, ok := read(); !ok || msg != "2probe" {
		return
	}
	ps.mu.Lock()
	ok := !ps.closed && ps.state == statePolling
	if ok {
		ps.state = stateUpgrading
	}
	ps.mu.Unlock()
	if !ok {
		return
	}
	ps.signal()
	abort := func() {
		ps.mu.Lock()
		if ps.state == stateUpgrading {
			ps.state = statePolling
		}
		ps.mu.Unlock()
		ps.signal()
	}
	if write(conn, []byte("3probe")) != nil {
		abort()
		return
	}
	if msg, ok := read(); !ok || msg != string(EngineUpgrade) {
		abort()
		return
	}
	ps.mu.Lock()
	if ps.closed || ps.posting || ps.state != stateUpgrading {
		// A POST still in flight means the client did not pause as the protocol requires.
		ps.mu.Unlock()
		abort()
		ps.close("upgrade while a POST was in flight")
		return
	}
	ps.state, ps.cut = stateUpgraded, conn.Cut
	frames := ps.pending
	ps.pending = nil
	ps.pingQueued = false // the WebSocket keeps its own heartbeat
	client := ps.client
	ps.mu.Unlock()
	close(ps.moved)
	ps.signal()
	s.forget(ps)
	s.serve(conn, wsState{creds: ps.creds, client: client, frames: frames, onClose: ps.clientClosed, connectBy: ps.connectBy})
	ps.close("websocket closed")
}
