package realtime

import (
	"bytes"
	"io"
	"net"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"
)

// sseWriteTimeout bounds one write to an SSE client.
const sseWriteTimeout = 10 * time.Second

// SSEHeaders are the credential header names SSE clients may use instead of the query.
type SSEHeaders struct {
	APIKey, UserID, Signature string
}

// SSE serves the realtime events as Server-Sent Events (event: NAME, data: JSON), for
// clients without Socket.IO. Credentials come from the query (token, or apiKey + userId
// [+ userSignature]) or the usual headers, including a bearer user JWT. The connection
// leaves the HTTP server's request timeouts once authenticated and lives until the client
// goes away, falls behind, or the process shuts down; comment lines keep it alive.
func (s *Service) SSE(h SSEHeaders) fiber.Handler {
	return func(c *fiber.Ctx) error {
		cr := Credentials{
			APIKey:    firstOf(c.Query("apiKey"), c.Get(h.APIKey)),
			UserID:    firstOf(c.Query("userId"), c.Get(h.UserID)),
			Signature: firstOf(c.Query("userSignature"), c.Get(h.Signature)),
			Token:     firstOf(c.Query("token"), bearer(c.Get(fiber.HeaderAuthorization))),
		}
		g, err := s.Authorize(c.UserContext(), cr)
		if err != nil {
			return err
		}
		head := sseHead(c)
		c.Context().HijackSetNoResponse(true)
		c.Context().Hijack(func(conn net.Conn) { s.streamSSE(conn, g, head) })
		return nil
	}
}

func firstOf(a, b string) string {
	if a != "" {
		return strings.Clone(a)
	}
	return strings.Clone(b)
}

func bearer(v string) string {
	if len(v) > 7 && strings.EqualFold(v[:7], "bearer ") {
		return strings.TrimSpace(v[7:])
	}
	return ""
}

// sseHead is the raw response head: the stream is written on the hijacked connection, so
// headers set by middleware (request id, CORS) are carried over by hand. The body ends when
// the connection closes.
func sseHead(c *fiber.Ctx) []byte {
	var b bytes.Buffer
	b.WriteString("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\nConnection: close\r\nX-Accel-Buffering: no\r\n")
	c.Response().Header.VisitAll(func(k, v []byte) {
		switch strings.ToLower(string(k)) {
		case "content-type", "content-length", "connection", "cache-control", "transfer-encoding", "date", "server":
			return
		}
		b.Write(k)
		b.WriteString(": ")
		b.Write(v)
		b.WriteString("\r\n")
	})
	b.WriteString("\r\n")
	return b.Bytes()
}

// streamSSE writes events until the client goes away or the hub closes it.
func (s *Service) streamSSE(conn net.Conn, g Grant, head []byte) {
	cut := NewCutoff(conn)
	// The hub may still cut this connection after the handler returns, when fasthttp has
	// released it.
	defer cut.Release()
	client, err := s.Attach(g, cut.Cut)
	if err != nil {
		_, _ = conn.Write([]byte("HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n{\"status\":\"error\",\"message\":\"shutting down\"}"))
		return
	}
	defer client.Close()
	// The client sends nothing more; a read returning means it went away.
	readerDone := make(chan struct{})
	go func() {
		defer close(readerDone)
		_, _ = io.Copy(io.Discard, conn)
		client.Close()
	}()
	// The reader must end before the handler returns and fasthttp releases the connection.
	defer func() {
		cut.Cut()
		<-readerDone
	}()
	write := func(b []byte) bool {
		if !cut.WriteBy(time.Now().Add(sseWriteTimeout)) {
			return false
		}
		_, err := conn.Write(b)
		return err == nil
	}
	if !write(append(head, ": connected\nretry: 3000\n\n"...)) {
		return
	}
	ticker := time.NewTicker(s.Opts.PingInterval)
	defer ticker.Stop()
	for {
		select {
		case <-client.Done():
			return
		case m := <-client.Messages():
			if !write(sseEvent(m)) {
				return
			}
		case <-ticker.C:
			if !write([]byte(": ping\n\n")) {
				return
			}
		}
	}
}

// sseEvent formats one message; a payload with line breaks becomes several data lines.
func sseEvent(m *Message) []byte {
	b := make([]byte, 0, len(m.Name)+len(m.Data)+16)
	b = append(b, "event: "...)
	b = append(b, m.Name...)
	for _, line := range bytes.Split(m.Data, []byte("\n")) {
		b = append(b, "\ndata: "...)
		b = append(b, bytes.TrimSuffix(line, []byte("\r"))...)
	}
	return append(b, "\n\n"...)
}
