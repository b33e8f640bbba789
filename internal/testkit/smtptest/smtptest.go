// Package smtptest runs a real SMTP server (github.com/emersion/go-smtp) inside a test and
// records the messages it accepts, decoded, like net/http/httptest does for HTTP: tests read
// the emails Herald sends (notifications and system emails) as a mail client would.
package smtptest

import (
	"bytes"
	"encoding/base64"
	"errors"
	"io"
	"mime"
	"mime/multipart"
	"mime/quotedprintable"
	"net"
	"net/mail"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
)

// Server is a running SMTP server.
type Server struct {
	Host string
	Port int
	// Username and Password, when set, are required (AUTH PLAIN, allowed without TLS).
	Username, Password string

	mu     sync.Mutex
	conns  int
	auths  []string
	msgs   []Message
	reject map[string]*smtp.SMTPError
	delay  time.Duration
	srv    *smtp.Server
}

// Message is one accepted message.
type Message struct {
	From   string
	To     []string
	Raw    []byte
	Header mail.Header
	// Parts maps each body part's MIME type ("text/plain", "text/html") to its decoded
	// content, with \n line ends and no final line end.
	Parts map[string]string
	// Attachments maps each attachment's file name to its decoded content.
	Attachments map[string]string
}

// Subject is the decoded Subject header.
func (m Message) Subject() string {
	s, err := new(mime.WordDecoder).DecodeHeader(m.Header.Get("Subject"))
	if err != nil {
		return m.Header.Get("Subject")
	}
	return s
}

// Body is the text body: the text/plain part, or the HTML part when there is none.
func (m Message) Body() string {
	if b, ok := m.Parts["text/plain"]; ok {
		return b
	}
	return m.Parts["text/html"]
}

// Find returns the first submatch of pattern in the body, failing the test without one.
func (m Message) Find(t testing.TB, pattern string) string {
	t.Helper()
	sub := regexp.MustCompile(pattern).FindStringSubmatch(m.Body())
	if len(sub) < 2 {
		t.Fatalf("pattern %q not found in email %q: %s", pattern, m.Subject(), m.Body())
	}
	return sub[1]
}

// Last returns the newest message to an address, failing the test when there is none.
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
	t.Fatalf("no email to %s (received %d)", to, len(msgs))
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

// Start starts a server on a free port of 127.0.0.1; it stops when the test ends.
func Start(t testing.TB) *Server {
	t.Helper()
	return StartAt(t, "127.0.0.1:0")
}

// StartAt starts a server listening on addr, e.g. "[::1]:0" for IPv6 loopback (Host is
// then "::1", without brackets); the test is skipped when addr cannot be listened on.
func StartAt(t testing.TB, addr string) *Server {
	t.Helper()
	s := &Server{reject: map[string]*smtp.SMTPError{}}
	s.srv = smtp.NewServer(backend{s})
	s.srv.Domain = "localhost"
	s.srv.AllowInsecureAuth = true
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		t.Skipf("cannot listen on %s: %v", addr, err)
	}
	tcp := ln.Addr().(*net.TCPAddr)
	s.Host, s.Port = tcp.IP.String(), tcp.Port
	go func() { _ = s.srv.Serve(counting{ln, s}) }()
	t.Cleanup(func() { _ = s.srv.Close() })
	return s
}

// Accept lifts a Reject of addr.
func (s *Server) Accept(addr string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.reject, strings.ToLower(addr))
}

// Reject makes RCPT TO of addr fail with the SMTP code (for instance 550 or 451).
func (s *Server) Reject(addr string, code int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.reject[strings.ToLower(addr)] = &smtp.SMTPError{Code: code, EnhancedCode: smtp.EnhancedCodeNotSet, Message: "rejected by test"}
}

// SetDelay makes the server take d to answer MAIL FROM, as a slow or distant mail server
// would (fault tests use it to catch sends in flight). The delay comes before the message
// is accepted, never between receiving it and answering 250, so a client that goes away
// during it has sent nothing.
func (s *Server) SetDelay(d time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.delay = d
}

// Messages returns the accepted messages so far.
func (s *Server) Messages() []Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Message(nil), s.msgs...)
}

// Passwords returns the passwords clients offered in AUTH PLAIN, right or wrong, in order:
// what a server playing an attacker would have learnt.
func (s *Server) Passwords() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.auths...)
}

// Addr is host:port.
func (s *Server) Addr() string { return net.JoinHostPort(s.Host, strconv.Itoa(s.Port)) }

type backend struct{ s *Server }

func (b backend) NewSession(*smtp.Conn) (smtp.Session, error) { return &session{s: b.s}, nil }

// Connections returns how many connections the server has accepted so far (a destination
// refused before connecting leaves it unchanged).
func (s *Server) Connections() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.conns
}

// counting counts the connections a listener accepts.
type counting struct {
	net.Listener
	s *Server
}

func (l counting) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err == nil {
		l.s.mu.Lock()
		l.s.conns++
		l.s.mu.Unlock()
	}
	return c, err
}

type session struct {
	s      *Server
	from   string
	to     []string
	authed bool
}

func (ss *session) AuthMechanisms() []string { return []string{sasl.Plain} }

func (ss *session) Auth(string) (sasl.Server, error) {
	return sasl.NewPlainServer(func(_, user, pass string) error {
		ss.s.mu.Lock()
		ss.s.auths = append(ss.s.auths, pass)
		ss.s.mu.Unlock()
		if user != ss.s.Username || pass != ss.s.Password {
			return errors.New("invalid credentials")
		}
		ss.authed = true
		return nil
	}), nil
}

func (ss *session) Mail(from string, _ *smtp.MailOptions) error {
	ss.s.mu.Lock()
	delay := ss.s.delay
	ss.s.mu.Unlock()
	time.Sleep(delay)
	if ss.s.Username != "" && !ss.authed {
		return smtp.ErrAuthRequired
	}
	ss.from = from
	return nil
}

func (ss *session) Rcpt(to string, _ *smtp.RcptOptions) error {
	ss.s.mu.Lock()
	rej := ss.s.reject[strings.ToLower(to)]
	ss.s.mu.Unlock()
	if rej != nil {
		return rej
	}
	ss.to = append(ss.to, to)
	return nil
}

func (ss *session) Data(r io.Reader) error {
	raw, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	m := Message{From: ss.from, To: ss.to, Raw: raw, Parts: map[string]string{}, Attachments: map[string]string{}}
	parsed, err := mail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		return err
	}
	m.Header = parsed.Header
	collect(&m, parsed.Header.Get("Content-Type"), parsed.Header.Get("Content-Transfer-Encoding"), parsed.Header.Get("Content-Disposition"), parsed.Body)
	ss.s.mu.Lock()
	ss.s.msgs = append(ss.s.msgs, m)
	ss.s.mu.Unlock()
	return nil
}

func (ss *session) Reset()        { ss.from, ss.to = "", nil }
func (ss *session) Logout() error { return nil }

// collect walks a MIME tree and records its leaves.
func collect(m *Message, contentType, encoding, disposition string, body io.Reader) {
	mt, params, err := mime.ParseMediaType(contentType)
	if err != nil {
		mt = "text/plain"
	}
	if strings.HasPrefix(mt, "multipart/") {
		mr := multipart.NewReader(body, params["boundary"])
		for {
			part, err := mr.NextRawPart()
			if err != nil {
				return
			}
			collect(m, part.Header.Get("Content-Type"), part.Header.Get("Content-Transfer-Encoding"), part.Header.Get("Content-Disposition"), part)
		}
	}
	var r io.Reader = body
	switch strings.ToLower(encoding) {
	case "quoted-printable":
		r = quotedprintable.NewReader(body)
	case "base64":
		r = base64.NewDecoder(base64.StdEncoding, &newlineStripper{r: body})
	}
	content, _ := io.ReadAll(r)
	if _, dp, err := mime.ParseMediaType(disposition); err == nil && dp["filename"] != "" {
		m.Attachments[dp["filename"]] = string(content)
		return
	}
	m.Parts[mt] = strings.TrimSuffix(strings.ReplaceAll(string(content), "\r\n", "\n"), "\n")
}

// newlineStripper drops CR and LF so base64 bodies wrapped at 76 columns decode.
type newlineStripper struct{ r io.Reader }

func (n *newlineStripper) Read(p []byte) (int, error) {
	k, err := n.r.Read(p)
	j := 0
	for _, b := range p[:k] {
		if b != '\r' && b != '\n' {
			p[j] = b
			j++
		}
	}
	return j, err
}
