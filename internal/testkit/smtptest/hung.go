package smtptest

import (
	"io"
	"net"
	"strconv"
	"sync"
	"testing"
)

// Hung is a front to a Server that accepts connections and answers nothing — no greeting,
// no reply — as a provider that hangs does, until Answer: then the connections it held are
// closed and every new one reaches the server behind it. Tests point a provider instance
// at Host and Port.
type Hung struct {
	Host string
	Port int

	target   string
	ln       net.Listener
	mu       sync.Mutex
	open     bool
	held     []net.Conn
	accepted int
}

// Hang starts a hung front to s; it is closed when the test ends.
func (s *Server) Hang(t testing.TB) *Hung {
	t.Helper()
	h, err := NewHung(net.JoinHostPort(s.Host, strconv.Itoa(s.Port)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(h.Close)
	return h
}

// NewHung starts a hung front to the SMTP server at target (host:port) on a loopback
// port, for harnesses without a testing.T (the benchmarks); Close stops it.
func NewHung(target string) (*Hung, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	tcp := ln.Addr().(*net.TCPAddr)
	h := &Hung{Host: tcp.IP.String(), Port: tcp.Port, target: target, ln: ln}
	go h.serve()
	return h, nil
}

// Accepted counts the connections accepted, held or passed on.
func (h *Hung) Accepted() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.accepted
}

// Held counts the connections held unanswered now.
func (h *Hung) Held() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.held)
}

// Answer ends the hang: the held connections are closed (their senders see a broken
// connection and retry) and new connections reach the server.
func (h *Hung) Answer() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.open = true
	for _, c := range h.held {
		_ = c.Close()
	}
	h.held = nil
}

func (h *Hung) serve() {
	for {
		c, err := h.ln.Accept()
		if err != nil {
			return
		}
		h.mu.Lock()
		h.accepted++
		open := h.open
		if !open {
			h.held = append(h.held, c)
		}
		h.mu.Unlock()
		if open {
			go h.pass(c)
		}
	}
}

// pass copies a connection to the server and back.
func (h *Hung) pass(c net.Conn) {
	defer c.Close()
	up, err := net.Dial("tcp", h.target)
	if err != nil {
		return
	}
	defer up.Close()
	done := make(chan struct{}, 2)
	go func() { _, _ = io.Copy(up, c); done <- struct{}{} }()
	go func() { _, _ = io.Copy(c, up); done <- struct{}{} }()
	<-done
}

// Close stops listening and closes the held connections.
func (h *Hung) Close() {
	_ = h.ln.Close()
	h.Answer()
}
