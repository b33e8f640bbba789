package mailer_test

import (
	"context"
	"log/slog"
	"strings"
	"testing"

	"github.com/heraldhq/herald/internal/console/mailer"
	"github.com/heraldhq/herald/internal/testkit/smtptest"
)

func TestSMTPDelivers(t *testing.T) {
	srv := smtptest.Start(t)
	m := mailer.NewSMTP(mailer.Config{Host: srv.Host, Port: srv.Port, From: "Herald <no-reply@herald.test>", TLS: "opportunistic"})
	text := "Line one\nA long line with a link https://console.example.com/verify?verificationCode=abc-DEF_123 that must survive encoding intact.\n"
	if err := m.Send(context.Background(), mailer.Message{To: "ada@example.com", Subject: "Vérifiez", Text: text}); err != nil {
		t.Fatal(err)
	}
	got := srv.Last(t, "ada@example.com")
	if got.From != "no-reply@herald.test" || got.Subject() != "Vérifiez" || got.Body() != strings.TrimSuffix(text, "\n") {
		t.Errorf("received %+v", got)
	}
	bad := mailer.NewSMTP(mailer.Config{Host: "127.0.0.1", Port: 1, From: "x@y.z", TLS: "none"})
	if err := bad.Send(context.Background(), mailer.Message{To: "a@b.c", Subject: "s", Text: "t"}); err == nil {
		t.Error("sending to a closed port succeeded")
	}
}

func TestLogFallback(t *testing.T) {
	var buf strings.Builder
	m := mailer.New(mailer.Config{}, slog.New(slog.NewTextHandler(&buf, nil)))
	if err := m.Send(context.Background(), mailer.Message{To: "a@b.c", Subject: "Hi", Text: "code 123"}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "HERALD_SMTP_HOST is not set") || !strings.Contains(buf.String(), "code 123") {
		t.Errorf("log %s", buf.String())
	}
}

// The operator's SMTP server may be internal and IPv6: the mailer reaches exactly that host.
func TestSMTPOverIPv6Loopback(t *testing.T) {
	srv := smtptest.StartAt(t, "[::1]:0")
	m := mailer.NewSMTP(mailer.Config{Host: srv.Host, Port: srv.Port, From: "no-reply@herald.test", TLS: "none"})
	if err := m.Send(context.Background(), mailer.Message{To: "ada@example.com", Subject: "Hi", Text: "t"}); err != nil {
		t.Fatal(err)
	}
	if srv.Count("ada@example.com") != 1 {
		t.Error("not delivered")
	}
}
