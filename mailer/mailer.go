// Package mailer sends Herald's own system emails (address verification, password reset,
// invitations) over SMTP, or writes them to the log when no SMTP server is configured so a
// developer can still follow the links.
package mailer

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/wneessen/go-mail"
)

// Message is one plain-text email to one recipient.
type Message struct {
	To      string
	Subject string
	Text    string
}

// Mailer sends system emails.
type Mailer interface {
	Send(ctx context.Context, m Message) error
}

// Config is the SMTP connection of system emails (HERALD_SMTP_*).
type Config struct {
	Host     string
	Port     int
	Username string
	Password string
	From     string
	// TLS is "opportunistic" (STARTTLS when offered), "starttls" (STARTTLS required),
	// "tls" (implicit TLS) or "none".
	TLS string
}

// New returns the SMTP mailer when a host is configured and otherwise one that logs each
// email (saying so once at startup).
func New(cfg Config, log *slog.Logger) Mailer {
	if cfg.Host == "" {
		log.Warn("HERALD_SMTP_HOST is not set: system emails (verification, password reset, invitations) are written to this log instead of being sent")
		return Log{Log: log}
	}
	return &SMTP{cfg: cfg}
}

// SMTP sends through an SMTP server; each message opens its own connection, as system
// emails are rare.
type SMTP struct {
	cfg Config
}

// NewSMTP returns a mailer for the server of cfg.
func NewSMTP(cfg Config) *SMTP { return &SMTP{cfg: cfg} }

// Send delivers m.
func (s *SMTP) Send(ctx context.Context, m Message) error {
	msg := mail.NewMsg()
	if err := msg.From(s.cfg.From); err != nil {
		return fmt.Errorf("HERALD_SMTP_FROM %q: %w", s.cfg.From, err)
	}
	if err := msg.To(m.To); err != nil {
		return fmt.Errorf("recipient %q: %w", m.To, err)
	}
	msg.Subject(m.Subject)
	msg.SetBodyString(mail.TypeTextPlain, m.Text)
	opts := []mail.Option{mail.WithPort(s.cfg.Port), mail.WithTimeout(15 * time.Second)}
	switch s.cfg.TLS {
	case "tls":
		opts = append(opts, mail.WithSSL())
	case "starttls":
		opts = append(opts, mail.WithTLSPolicy(mail.TLSMandatory))
	case "none":
		opts = append(opts, mail.WithTLSPolicy(mail.NoTLS))
	default:
		opts = append(opts, mail.WithTLSPolicy(mail.TLSOpportunistic))
	}
	if s.cfg.Username != "" {
		opts = append(opts, mail.WithSMTPAuth(mail.SMTPAuthAutoDiscover),
			mail.WithUsername(s.cfg.Username), mail.WithPassword(s.cfg.Password))
	}
	c, err := mail.NewClient(s.cfg.Host, opts...)
	if err != nil {
		return fmt.Errorf("smtp client for %s:%d: %w", s.cfg.Host, s.cfg.Port, err)
	}
	if err := c.DialAndSendWithContext(ctx, msg); err != nil {
		return fmt.Errorf("smtp send via %s:%d: %w", s.cfg.Host, s.cfg.Port, err)
	}
	return nil
}

// Log writes emails to the log: the development fallback when no SMTP server is set.
type Log struct {
	Log *slog.Logger
}

// Send logs m in full, links included, since that is how a developer reads it.
func (l Log) Send(ctx context.Context, m Message) error {
	l.Log.InfoContext(ctx, "system email (not sent: HERALD_SMTP_HOST is unset)",
		"to", m.To, "subject", m.Subject, "body", strings.TrimSpace(m.Text))
	return nil
}
