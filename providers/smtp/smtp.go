// Package smtp delivers email through an SMTP server (any relay, or a provider's SMTP
// endpoint), using github.com/wneessen/go-mail.
package smtp

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	mail "github.com/wneessen/go-mail"

	"github.com/heraldhq/herald/providers"
)

// Identifier names this provider kind.
const Identifier = "smtp"

const schema = `{
  "type": "object",
  "additionalProperties": false,
  "required": ["host", "from"],
  "properties": {
    "host": {"type": "string", "minLength": 1, "title": "Host"},
    "port": {"type": "integer", "minimum": 1, "maximum": 65535, "title": "Port", "default": 587},
    "username": {"type": "string", "title": "Username"},
    "password": {"type": "string", "x-secret": true, "title": "Password"},
    "security": {"type": "string", "enum": ["starttls", "opportunistic", "tls", "none"], "default": "starttls",
                 "title": "Connection security",
                 "description": "starttls: require STARTTLS; opportunistic: STARTTLS when offered; tls: implicit TLS (port 465); none: plain text (local relays only)"},
    "from": {"type": "string", "format": "email", "title": "From address"},
    "fromName": {"type": "string", "title": "From name"},
    "replyTo": {"type": "string", "format": "email", "title": "Reply-To address"},
    "helo": {"type": "string", "title": "HELO name"},
    "timeoutSeconds": {"type": "integer", "minimum": 1, "maximum": 120, "default": 30, "title": "Timeout (s)"},
    "maxConnections": {"type": "integer", "minimum": 1, "maximum": 64, "default": 8, "title": "Connections",
                       "description": "most connections open to the server at once, each reused for many messages"}
  }
}`

// Config is an instance's configuration.
type Config struct {
	Host           string `json:"host"`
	Port           int    `json:"port"`
	Username       string `json:"username"`
	Password       string `json:"password"`
	Security       string `json:"security"`
	From           string `json:"from"`
	FromName       string `json:"fromName"`
	ReplyTo        string `json:"replyTo"`
	HELO           string `json:"helo"`
	TimeoutSeconds int    `json:"timeoutSeconds"`
	MaxConnections int    `json:"maxConnections"`
}

// Kind is the SMTP provider kind for the catalogue.
func Kind() providers.Kind {
	return providers.Kind{
		Identifier:   Identifier,
		Name:         "SMTP",
		Channel:      "email",
		ConfigSchema: json.RawMessage(schema),
		New: func(raw json.RawMessage, _ providers.Deps) (providers.Provider, error) {
			var c Config
			if err := json.Unmarshal(raw, &c); err != nil {
				return nil, fmt.Errorf("smtp config: %w", err)
			}
			if c.Port == 0 {
				c.Port = 587
			}
			if c.Security == "" {
				c.Security = "starttls"
			}
			if c.TimeoutSeconds <= 0 {
				c.TimeoutSeconds = 30
			}
			return &Provider{cfg: c}, nil
		},
	}
}

// Provider sends through one SMTP server, reusing a bounded pool of connections (see
// pool.go).
type Provider struct {
	cfg Config

	once   sync.Once
	client *mail.Client
	pool   *pool
	setup  error
}

// start builds the client settings shared by the pool's connections, once.
func (p *Provider) start() error {
	p.once.Do(func() {
		// The pool checks connections that sat idle itself; a NOOP before every message
		// would cost a round trip each.
		p.client, p.setup = mail.NewClient(p.cfg.Host, append(p.options(), mail.WithoutNoop())...)
		n := p.cfg.MaxConnections
		if n <= 0 {
			n = DefaultMaxConnections
		}
		p.pool = newPool(n, p.client.DialToSMTPClientWithContext)
	})
	return p.setup
}

// Send delivers one email over a pooled connection. SMTP 5xx answers are permanent; 4xx
// answers and connection failures are retried. A reused connection the server closed in
// the meantime is replaced once, when the message was not handed over yet.
func (p *Provider) Send(ctx context.Context, msg providers.Message) (providers.Result, error) {
	m, id, err := p.build(msg)
	if err != nil {
		return providers.Result{}, err
	}
	if err := p.start(); err != nil {
		return providers.Result{}, providers.Permanent("smtp client: %v", err)
	}
	ctx, cancel := context.WithTimeout(ctx, time.Duration(p.cfg.TimeoutSeconds)*time.Second)
	defer cancel()
	for try := 0; ; try++ {
		c, reused, err := p.pool.get(ctx)
		if err != nil {
			return providers.Result{}, classify(err)
		}
		err = p.client.SendWithSMTPClient(c.c, m)
		p.pool.put(c, err == nil)
		if err == nil {
			return providers.Result{ProviderMessageID: id, Response: "accepted by " + p.cfg.Host}, nil
		}
		if reused && try == 0 && staleConnection(err) {
			continue
		}
		return providers.Result{}, classify(err)
	}
}

// staleConnection reports a failure before the server answered MAIL FROM: the connection
// was gone, nothing was handed over, and a fresh connection may try again.
func staleConnection(err error) bool {
	var se *mail.SendError
	return errors.As(err, &se) && se.ErrorCode() == 0 &&
		(se.Reason == mail.ErrSMTPMailFrom || se.Reason == mail.ErrConnCheck)
}

// Close closes the idle connections of the pool (connections in use close when their
// message is done).
func (p *Provider) Close() error {
	if p.pool != nil {
		p.pool.close()
	}
	return nil
}

// Test connects, says EHLO, upgrades to TLS as configured and authenticates, then quits
// without sending anything.
func (p *Provider) Test(ctx context.Context) error {
	client, err := mail.NewClient(p.cfg.Host, p.options()...)
	if err != nil {
		return fmt.Errorf("smtp client: %w", err)
	}
	ctx, cancel := context.WithTimeout(ctx, time.Duration(p.cfg.TimeoutSeconds)*time.Second)
	defer cancel()
	if err := client.DialWithContext(ctx); err != nil {
		return fmt.Errorf("%s:%d: %w", p.cfg.Host, p.cfg.Port, err)
	}
	return client.Close()
}

func (p *Provider) options() []mail.Option {
	opts := []mail.Option{mail.WithPort(p.cfg.Port), mail.WithTimeout(time.Duration(p.cfg.TimeoutSeconds) * time.Second)}
	switch p.cfg.Security {
	case "tls":
		opts = append(opts, mail.WithSSL())
	case "opportunistic":
		opts = append(opts, mail.WithTLSPolicy(mail.TLSOpportunistic))
	case "none":
		opts = append(opts, mail.WithTLSPolicy(mail.NoTLS))
	default:
		opts = append(opts, mail.WithTLSPolicy(mail.TLSMandatory))
	}
	if p.cfg.HELO != "" {
		opts = append(opts, mail.WithHELO(p.cfg.HELO))
	}
	if p.cfg.Username != "" {
		auth := mail.SMTPAuthPlain
		if p.cfg.Security == "none" {
			// The operator chose a plain-text connection (a local relay).
			auth = mail.SMTPAuthPlainNoEnc
		}
		opts = append(opts, mail.WithSMTPAuth(auth), mail.WithUsername(p.cfg.Username), mail.WithPassword(p.cfg.Password))
	}
	return opts
}

// build composes the message. Its Message-ID derives from the idempotency key, so a retry
// carries the same id and receivers can recognise the duplicate.
func (p *Provider) build(msg providers.Message) (*mail.Msg, string, error) {
	m := mail.NewMsg()
	from, fromName := p.cfg.From, p.cfg.FromName
	if msg.From != "" {
		from = msg.From
	}
	if msg.FromName != "" {
		fromName = msg.FromName
	}
	if err := setAddress(m.FromFormat(fromName, from), "from"); err != nil {
		return nil, "", err
	}
	if msg.To.Email == "" {
		return nil, "", providers.Permanent("no email address")
	}
	if err := setAddress(m.To(msg.To.Email), "recipient"); err != nil {
		return nil, "", err
	}
	if len(msg.CC) > 0 {
		if err := setAddress(m.Cc(msg.CC...), "cc"); err != nil {
			return nil, "", err
		}
	}
	if len(msg.BCC) > 0 {
		if err := setAddress(m.Bcc(msg.BCC...), "bcc"); err != nil {
			return nil, "", err
		}
	}
	replyTo := p.cfg.ReplyTo
	if msg.ReplyTo != "" {
		replyTo = msg.ReplyTo
	}
	if replyTo != "" {
		if err := setAddress(m.ReplyTo(replyTo), "replyTo"); err != nil {
			return nil, "", err
		}
	}
	m.Subject(msg.Subject)
	sum := sha256.Sum256([]byte(msg.IdempotencyKey))
	id := hex.EncodeToString(sum[:16]) + "@" + domainOf(from)
	m.SetMessageIDWithValue(id)
	if msg.IdempotencyKey != "" {
		m.SetGenHeader("X-Herald-Idempotency-Key", msg.IdempotencyKey)
	}
	switch {
	case msg.HTML != "" && msg.Text != "":
		m.SetBodyString(mail.TypeTextPlain, msg.Text)
		m.AddAlternativeString(mail.TypeTextHTML, msg.HTML)
	case msg.HTML != "":
		m.SetBodyString(mail.TypeTextHTML, msg.HTML)
	default:
		m.SetBodyString(mail.TypeTextPlain, msg.Text)
	}
	for _, a := range msg.Attachments {
		var opts []mail.FileOption
		if a.ContentType != "" {
			opts = append(opts, mail.WithFileContentType(mail.ContentType(a.ContentType)))
		}
		if err := m.AttachReader(a.Filename, bytes.NewReader(a.Content), opts...); err != nil {
			return nil, "", providers.Permanent("attachment %q: %v", a.Filename, err)
		}
	}
	return m, "<" + id + ">", nil
}

func setAddress(err error, field string) error {
	if err != nil {
		return providers.Permanent("invalid %s address: %v", field, err)
	}
	return nil
}

func domainOf(addr string) string {
	if i := strings.LastIndexByte(addr, '@'); i >= 0 && i < len(addr)-1 {
		return addr[i+1:]
	}
	return "herald.local"
}

// classify maps an SMTP failure: a 5xx reply is permanent, anything else is retried.
func classify(err error) error {
	var se *mail.SendError
	if errors.As(err, &se) {
		code := se.ErrorCode()
		if !se.IsTemp() && code >= 500 {
			return &providers.Error{Permanent: true, StatusCode: code, Message: se.Error()}
		}
		return &providers.Error{StatusCode: code, Message: se.Error()}
	}
	return &providers.Error{Message: "smtp: " + err.Error()}
}
