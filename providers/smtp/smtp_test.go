package smtp

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/heraldhq/herald/providers"
	"github.com/heraldhq/herald/providers/configschema"
	"github.com/heraldhq/herald/smtptest"
)

func newProvider(t *testing.T, srv *smtptest.Server, user, pass string) providers.Provider {
	t.Helper()
	cfg, _ := json.Marshal(Config{Host: srv.Host, Port: srv.Port, Security: "none", From: "noreply@herald.test", FromName: "Herald", Username: user, Password: pass})
	p, err := Kind().New(cfg, providers.Deps{})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestSendDeliversToARealServer(t *testing.T) {
	srv := smtptest.Start(t)
	srv.Username, srv.Password = "mailer", "s3cret"
	p := newProvider(t, srv, "mailer", "s3cret")
	msg := providers.Message{
		Channel: "email", IdempotencyKey: "req:alice:email", To: providers.Address{Email: "alice@example.com"},
		Subject: "Your order ✓", HTML: "<p>Hello <b>Alice</b></p>", Text: "Hello Alice",
		ReplyTo: "support@herald.test", CC: []string{"cc@example.com"},
		Attachments: []providers.Attachment{{Filename: "invoice.txt", ContentType: "text/csv", Content: []byte("a,b\n1,2\n")}},
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
		m.Header.Get("X-Herald-Idempotency-Key") != "req:alice:email" {
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
