// Package mailer sends Herald's own system emails (address verification, password reset,
// invitations) over SMTP, or writes them to the log when no SMTP server is configured so a
// developer can still follow the links.
package mailer

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/mail"
	"strings"

	"github.com/heraldhq/herald/internal/platform/netguard"
	"github.com/heraldhq/herald/internal/platform/secrets"
	"github.com/heraldhq/herald/internal/providers"
	"github.com/heraldhq/herald/internal/providers/smtp"
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
	return NewSMTP(cfg)
}

// SMTP sends through an SMTP server with the email channel's SMTP provider; each message
// opens its own connection, as system emails are rare.
type SMTP struct {
	p   providers.Provider
	err error
}

// NewSMTP returns a mailer for the server of cfg.
func NewSMTP(cfg Config) *SMTP {
	security := cfg.TLS
	if security == "" {
		security = "opportunistic"
	}
	// HERALD_SMTP_FROM may carry a display name: "Herald <no-reply@example.com>".
	from, name := cfg.From, ""
	if a, err := mail.ParseAddress(cfg.From); err == nil {
		from, name = a.Address, a.Name
	}
	raw, _ := json.Marshal(smtp.Config{
		Host: cfg.Host, Port: cfg.Port, Username: cfg.Username, Password: cfg.Password,
		Security: security, From: from, FromName: name, TimeoutSeconds: 15,
	})
	// The operator chose this server (a local relay is common), not a tenant: it is the one
	// internal host the mailer may reach.
	guard := netguard.New("HERALD_SMTP_HOST", []string{cfg.Host})
	p, err := smtp.Kind().New(raw, providers.Deps{Guard: guard})
	return &SMTP{p: p, err: err}
}

// Send delivers m.
func (s *SMTP) Send(ctx context.Context, m Message) error {
	if s.err != nil {
		return fmt.Errorf("HERALD_SMTP_*: %w", s.err)
	}
	_, err := s.p.Send(ctx, providers.Message{
		Channel: "email", To: providers.Address{Email: m.To}, Subject: m.Subject, Text: m.Text,
		IdempotencyKey: "system:" + secrets.HexToken(12),
	})
	if err != nil {
		return fmt.Errorf("system email to %s: %w", m.To, err)
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
