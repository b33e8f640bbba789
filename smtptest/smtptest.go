// Package smtptest runs a real SMTP server inside a test (emersion/go-smtp) and keeps every
// message it receives, decoded, so tests read the emails Herald sends as a mail client
// would.
package smtptest

import (
	"bytes"
	"encoding/base64"
	"io"
	"mime"
	"mime/quotedprintable"
	"net"
	"net/mail"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-smtp"
)

// Message is one received email.
type Message struct {
	From    string
	To      []string
	Subject string
	// Body is the decoded text body.
	Body string
	// Raw is the message as transmitted.
	Raw []byte
}

// Server is a running SMTP server on 127.0.0.1.
type Server struct {
	Host string
	Port int

	mu   sync.Mutex
	msgs []Message
}

// Start runs a server until the test ends. It accepts any sender and recipient, without
// authentication or TLS.
func Start(t testing.TB) *Server {
	t.Helper()
	s := &Server{}
	srv := smtp.NewServer(smtp.BackendFunc(func(*smtp.Conn) (smtp.Session, error) { return &session{srv: s}, nil }))
	srv.Domain = "localhost"
	srv.AllowInsecureAuth = true
	srv.ReadTimeout = 10 * time.Second
	srv.WriteTimeout = 10 * time.Second
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().(*net.TCPAddr)
	s.Host, s.Port = addr.IP.String(), addr.Port
	go srv.Serve(ln) //nolint:errcheck // ends with Close
	t.Cleanup(func() { srv.Close() })
	return s
}

// Addr is host:port.
func (s *Server) Addr() string { return net.JoinHostPort(s.Host, strconv.Itoa(s.Port)) }

// Messages returns every message received so far.
func (s *Server) Messages() []Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Message(nil), s.msgs...)
}

// Last returns the newest message to an address, failing the test when there is none.
// Herald sends system emails before answering the request that caused them, so they are
// here once the answer is.
func (s *Server) Last(t testing.TB, to string) Message {
	t.Helper()
	msgs := s.Messages()
	for i := len(msgs) - 1; i >= 0; i-- {
		for _, r := range msgs[i].To {
			if strings.EqualFold(r, to) {
				return msgs[i]
			}
		}
	}
	t.Fatalf("no email to %s among %d received", to, len(msgs))
	return Message{}
}

// Count returns how many messages went to an address.
func (s *Server) Count(to string) int {
	n := 0
	for _, m := range s.Messages() {
		for _, r := range m.To {
			if strings.EqualFold(r, to) {
				n++
			}
		}
	}
	return n
}

// Find returns the first submatch of pattern in the body, failing the test without one.
func (m Message) Find(t testing.TB, pattern string) string {
	t.Helper()
	sub := regexp.MustCompile(pattern).FindStringSubmatch(m.Body)
	if len(sub) < 2 {
		t.Fatalf("pattern %q not found in email %q: %s", pattern, m.Subject, m.Body)
	}
	return sub[1]
}

type session struct {
	srv  *Server
	from string
	to   []string
}

// Reset, Logout, Mail, Rcpt and Data implement smtp.Session.
func (s *session) Reset()        { s.from, s.to = "", nil }
func (s *session) Logout() error { return nil }

func (s *session) Mail(from string, _ *smtp.MailOptions) error { s.from = from; return nil }

func (s *session) Rcpt(to string, _ *smtp.RcptOptions) error {
	s.to = append(s.to, to)
	return nil
}

func (s *session) Data(r io.Reader) error {
	raw, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	m := Message{From: s.from, To: s.to, Raw: raw}
	if pm, err := mail.ReadMessage(bytes.NewReader(raw)); err == nil {
		m.Subject, _ = new(mime.WordDecoder).DecodeHeader(pm.Header.Get("Subject"))
		m.Body = decode(pm.Header.Get("Content-Transfer-Encoding"), pm.Body)
	}
	s.srv.mu.Lock()
	s.srv.msgs = append(s.srv.msgs, m)
	s.srv.mu.Unlock()
	return nil
}

func decode(enc string, body io.Reader) string {
	var rd io.Reader = body
	switch strings.ToLower(strings.TrimSpace(enc)) {
	case "quoted-printable":
		rd = quotedprintable.NewReader(body)
	case "base64":
		rd = base64.NewDecoder(base64.StdEncoding, body)
	}
	b, _ := io.ReadAll(rd)
	return string(b)
}
