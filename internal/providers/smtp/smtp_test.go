package smtp

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/heraldhq/herald/internal/platform/netguard"
	"github.com/heraldhq/herald/internal/providers"
	"github.com/heraldhq/herald/internal/providers/configschema"
	"github.com/heraldhq/herald/internal/testkit/smtptest"
)

// loopback allow-lists the addresses test servers listen on, as HERALD_PRIVATE_HOSTS would.
var loopback = netguard.New("", []string{"127.0.0.1", "::1"})

func newProvider(t *testing.T, srv *smtptest.Server, user, pass string) providers.Provider {
	t.Helper()
	return newGuarded(t, srv.Host, srv.Port, "none", loopback, user, pass)
}

func newGuarded(t *testing.T, host string, port int, security string, guard *netguard.Guard, user, pass string) providers.Provider {
	t.Helper()
	cfg, _ := json.Marshal(Config{Host: host, Port: port, Security: security, From: "noreply@herald.test", FromName: "Herald", Username: user, Password: pass})
	p, err := Kind().New(cfg, providers.Deps{Guard: guard})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// unsubscribeValue is a List-Unsubscribe header as long as Herald writes (a link and a
// mailto, past the 78-character line): it must arrive unchanged once unfolded.
const unsubscribeValue = "<https://herald.example.com/unsubscribe/AQAAAAAAAAAHAAAAAAAAACpjAAAAAAAAAAMAAAAAa_qL0Pd3Cw5oTzR1c0x2aQ>, <mailto:unsubscribe@example.com?subject=unsubscribe%20AQAAAAAAAAAH>"

func TestSendDeliversToARealServer(t *testing.T) {
	srv := smtptest.Start(t)
	srv.Username, srv.Password = "mailer", "s3cret"
	p := newProvider(t, srv, "mailer", "s3cret")
	msg := providers.Message{
		Channel: "email", IdempotencyKey: "req:alice:email", To: providers.Address{Email: "alice@example.com"},
		Subject: "Your order ✓", HTML: "<p>Hello <b>Alice</b></p>", Text: "Hello Alice",
		ReplyTo: "support@herald.test", CC: []string{"cc@example.com"},
		Attachments: []providers.Attachment{{Filename: "invoice.txt", ContentType: "text/csv", Content: []byte("a,b\n1,2\n")}},
		Headers:     []providers.Header{{Name: "List-Unsubscribe", Value: unsubscribeValue}, {Name: "List-Unsubscribe-Post", Value: "List-Unsubscribe=One-Click"}},
	}
	res, err := p.Send(context.Background(), msg)
	if err != nil {
		t.Fatal(err)
	}
	msgs := srv.Messages()
	if len(msgs) != 1 {
		t.Fatalf("%d messages", len(msgs))
	}
	m := msgs[0]
	if m.From != "noreply@herald.test" || len(m.To) != 2 || m.To[0] != "alice@example.com" {
		t.Errorf("envelope %s → %v", m.From, m.To)
	}
	subject := m.Subject()
	if subject != "Your order ✓" || !strings.Contains(m.Header.Get("From"), "Herald") ||
		m.Header.Get("Reply-To") != "<support@herald.test>" || m.Header.Get("Message-Id") != res.ProviderMessageID ||
		m.Header.Get("X-Herald-Idempotency-Key") != "req:alice:email" ||
		m.Header.Get("List-Unsubscribe") != unsubscribeValue || m.Header.Get("List-Unsubscribe-Post") != "List-Unsubscribe=One-Click" {
		t.Errorf("headers %v (subject %q, result %+v)", m.Header, subject, res)
	}
	if m.Parts["text/html"] != "<p>Hello <b>Alice</b></p>" || m.Parts["text/plain"] != "Hello Alice" || len(m.Attachments) != 1 ||
		m.Attachments["invoice.txt"] != "a,b\n1,2\n" {
		t.Errorf("parts %q, attachments %q", m.Parts, m.Attachments)
	}
	// The same idempotency key gives the same Message-ID.
	res2, err := p.Send(context.Background(), msg)
	if err != nil || res2.ProviderMessageID != res.ProviderMessageID {
		t.Errorf("retry id %q vs %q (%v)", res2.ProviderMessageID, res.ProviderMessageID, err)
	}
}

func TestSendClassifiesSMTPErrors(t *testing.T) {
	srv := smtptest.Start(t)
	srv.Reject("gone@example.com", 550)
	srv.Reject("busy@example.com", 451)
	p := newProvider(t, srv, "", "")
	_, err := p.Send(context.Background(), providers.Message{To: providers.Address{Email: "gone@example.com"}, Text: "x"})
	var pe *providers.Error
	if !errors.As(err, &pe) || !pe.Permanent || pe.StatusCode != 550 {
		t.Errorf("550: %#v", err)
	}
	// The answer is reported by its code and standard meaning, never by the server's text.
	if want := "the server at " + srv.Addr() + " answered 550 5.0.0 (mailbox unavailable) when sending SMTP RCPT TO command"; err == nil || pe.Message != want {
		t.Errorf("550 message %q, want %q", pe.Message, want)
	}
	_, err = p.Send(context.Background(), providers.Message{To: providers.Address{Email: "busy@example.com"}, Text: "x"})
	if !errors.As(err, &pe) || pe.Permanent || pe.StatusCode != 451 {
		t.Errorf("451: %#v", err)
	}
	_, err = p.Send(context.Background(), providers.Message{To: providers.Address{Email: "not an address"}, Text: "x"})
	if !providers.IsPermanent(err) {
		t.Errorf("invalid address must be permanent: %v", err)
	}
	// Wrong credentials and a dead server are retried (the operator may fix them).
	_, err = newProvider(t, srv, "x", "y").Send(context.Background(), providers.Message{To: providers.Address{Email: "a@example.com"}, Text: "x"})
	if err == nil {
		t.Error("auth against a server without auth should fail")
	}
	dead := &smtptest.Server{Host: "127.0.0.1", Port: 1}
	_, err = newProvider(t, dead, "", "").Send(context.Background(), providers.Message{To: providers.Address{Email: "a@example.com"}, Text: "x"})
	if err == nil || providers.IsPermanent(err) {
		t.Errorf("connection refused must be transient: %v", err)
	}
}

func TestSchema(t *testing.T) {
	s, err := configschema.Parse(Kind().ConfigSchema)
	if err != nil {
		t.Fatal(err)
	}
	got := s.Validate([]byte(`{"host":"smtp.example.com","port":"587","security":"ssl"}`), "config")
	want := []string{"config.from is required", "config.port must be an integer", `config.security must be one of "starttls", "opportunistic", "tls", "none"`}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("%q", got)
	}
	if f := s.SecretFields(); len(f) != 1 || f[0] != "password" {
		t.Errorf("secret fields %v", f)
	}
}

func TestConnectionTestAuthenticatesWithoutSending(t *testing.T) {
	srv := smtptest.Start(t)
	srv.Username, srv.Password = "mailer", "s3cret"
	good := newProvider(t, srv, "mailer", "s3cret").(providers.Tester)
	if err := good.Test(context.Background()); err != nil {
		t.Fatalf("good credentials: %v", err)
	}
	bad := newProvider(t, srv, "mailer", "wrong-pass-123").(providers.Tester)
	err := bad.Test(context.Background())
	if err == nil || strings.Contains(err.Error(), "wrong-pass-123") {
		t.Errorf("bad credentials: %v", err)
	}
	if n := len(srv.Messages()); n != 0 {
		t.Errorf("a connection test sent %d messages", n)
	}
	closed := newProvider(t, &smtptest.Server{Host: "127.0.0.1", Port: 1}, "", "").(providers.Tester)
	if err := closed.Test(context.Background()); err == nil {
		t.Error("nothing listening: no error")
	}
}

// An SMTP server on loopback is refused before Herald connects unless its host is
// allow-listed, for deliveries and connection tests alike, over IPv4 and IPv6.
func TestGuardRefusesInternalServers(t *testing.T) {
	msg := providers.Message{To: providers.Address{Email: "a@example.com"}, Text: "x"}
	for _, listen := range []string{"127.0.0.1:0", "[::1]:0"} {
		srv := smtptest.StartAt(t, listen)
		for _, guard := range []*netguard.Guard{nil, netguard.New("", []string{"10.0.0.1", srv.Host + ":1"})} {
			p := newGuarded(t, srv.Host, srv.Port, "none", guard, "", "")
			_, err := p.Send(context.Background(), msg)
			var pe *providers.Error
			want := "smtp: address " + srv.Host + " is not public: Herald does not connect to loopback, private or link-local addresses unless the operator adds the host to HERALD_PRIVATE_HOSTS"
			if !errors.As(err, &pe) || !pe.Permanent || pe.Message != want {
				t.Errorf("%s: send %v, want the permanent refusal %q", listen, err, want)
			}
			if err := p.(providers.Tester).Test(context.Background()); err == nil || err.Error() != want {
				t.Errorf("%s: connection test %v", listen, err)
			}
		}
		// Allowed by address; IPv6 written with brackets works too.
		for _, host := range []string{srv.Host, "[" + srv.Host + "]"} {
			p := newGuarded(t, host, srv.Port, "none", netguard.New("", []string{srv.Host}), "", "")
			if err := p.(providers.Tester).Test(context.Background()); err != nil {
				t.Fatalf("%s as %q: connection test %v", listen, host, err)
			}
			if _, err := p.Send(context.Background(), msg); err != nil {
				t.Fatalf("%s as %q: send %v", listen, host, err)
			}
		}
		// The refusals never connected: the server accepted exactly the four allowed
		// connections (it accepts in arrival order, so an earlier one would be counted).
		if n := srv.Connections(); n != 4 {
			t.Errorf("%s: %d connections, want 4", listen, n)
		}
		if n := srv.Count("a@example.com"); n != 2 {
			t.Errorf("%s: %d messages", listen, n)
		}
	}
}

// fakePeer accepts connections and writes banner to each, then waits for the client to
// hang up: a service that is not an SMTP server.
func fakePeer(t *testing.T, banner string) (string, int) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				c.Write([]byte(banner))
				io.Copy(io.Discard, c)
			}()
		}
	}()
	a := ln.Addr().(*net.TCPAddr)
	return a.IP.String(), a.Port
}

// Whatever the peer sends back never reaches the error a tenant reads: a service that is
// not SMTP is "did not speak SMTP", an SMTP answer is its codes.
func TestErrorsNeverEchoThePeer(t *testing.T) {
	const secret = "internal-secret-banner"
	for _, tc := range []struct{ banner, want string }{
		{"HTTP/1.1 400 Bad Request\r\nServer: " + secret + "\r\n\r\n", "did not speak SMTP"},
		{"-ERR " + secret + "\r\n", "did not speak SMTP"},
		{"+OK " + secret + " ready\r\n", "did not speak SMTP"},
		{"554 5.7.1 " + secret + "\r\n", "answered 554 5.7.1 (transaction failed)"},
	} {
		host, port := fakePeer(t, tc.banner)
		p := newGuarded(t, host, port, "none", loopback, "", "")
		addr := net.JoinHostPort(host, strconv.Itoa(port))
		errTest := p.(providers.Tester).Test(context.Background())
		_, errSend := p.Send(context.Background(), providers.Message{To: providers.Address{Email: "a@example.com"}, Text: "x"})
		for _, err := range []error{errTest, errSend} {
			if err == nil || strings.Contains(err.Error(), secret) || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), addr) {
				t.Errorf("banner %q: %v, want %q without the banner", tc.banner, err, tc.want)
			}
		}
	}
	// Implicit TLS speaks TLS first; a certificate that does not verify is described, its
	// names are not repeated.
	tlsSrv := httptest.NewUnstartedServer(http.NotFoundHandler())
	tlsSrv.Config.ErrorLog = log.New(io.Discard, "", 0)
	tlsSrv.StartTLS()
	defer tlsSrv.Close()
	a := tlsSrv.Listener.Addr().(*net.TCPAddr)
	err := newGuarded(t, a.IP.String(), a.Port, "tls", loopback, "", "").(providers.Tester).Test(context.Background())
	if err == nil || !strings.Contains(err.Error(), "not signed by a trusted authority") || strings.Contains(err.Error(), "example.com") {
		t.Errorf("untrusted TLS: %v", err)
	}
}

func TestReply(t *testing.T) {
	for _, tc := range []struct {
		code     int
		enhanced string
		want     string
	}{{535, "5.7.8", "535 5.7.8 (authentication credentials invalid)"}, {451, "", "451 (local error in processing)"}, {299, "", "299"}} {
		if got := Reply(tc.code, tc.enhanced); got != tc.want {
			t.Errorf("%d %s: %q", tc.code, tc.enhanced, got)
		}
	}
}
