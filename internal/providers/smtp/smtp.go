// Package smtp delivers email through an SMTP server (any relay, or a provider's SMTP
// endpoint), using github.com/wneessen/go-mail.
//
// Connections dial through the outbound guard (providers.Deps.Guard): a tenant chooses the
// host, so loopback, private and link-local addresses are refused before connecting unless
// the operator allow-listed the host. Errors never carry text the server sent: an SMTP
// answer is reported by its codes and their standard meaning, anything else is summarised
// ("did not speak SMTP"), so the provider cannot be used to read other services' banners.
package smtp

import (
	"bytes"
	"context"
	"crypto/sha256"
	"crypto/tls"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/textproto"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	mail "github.com/wneessen/go-mail"
	smtpclient "github.com/wneessen/go-mail/smtp"

	"github.com/heraldhq/herald/internal/platform/netguard"
	"github.com/heraldhq/herald/internal/providers"
)

// Identifier names this provider kind.
const Identifier = "smtp"

const schema = `{
  "type": "object",
  "additionalProperties": false,
  "required": ["host", "from"],
  "properties": {
    "host": {"type": "string", "minLength": 1, "title": "Host", "x-destination": "host",
             "description": "host name or IP address (IPv6 with or without brackets); internal addresses only when listed in HERALD_PRIVATE_HOSTS"},
    "port": {"type": "integer", "minimum": 1, "maximum": 65535, "title": "Port", "default": 587, "x-destination": "setting"},
    "username": {"type": "string", "title": "Username"},
    "password": {"type": "string", "x-secret": true, "title": "Password"},
    "security": {"type": "string", "enum": ["starttls", "opportunistic", "tls", "none"], "default": "starttls", "x-destination": "setting",
                 "title": "Connection security",
                 "description": "starttls: require STARTTLS; opportunistic: STARTTLS when offered; tls: implicit TLS (port 465); none: plain text (local relays only)"},
    "from": {"type": "string", "format": "email", "title": "From address"},
    "fromName": {"type": "string", "title": "From name"},
    "replyTo": {"type": "string", "format": "email", "title": "Reply-To address"},
    "helo": {"type": "string", "title": "HELO name"},
    "timeoutSeconds": {"type": "integer", "minimum": 1, "maximum": 120, "default": 30, "title": "Timeout (s)",
                       "description": "how long one message may take, from waiting for a connection to the server's answer to its data"},
    "connectTimeoutSeconds": {"type": "number", "minimum": 0.1, "maximum": 60, "default": 10, "title": "Connect timeout (s)",
                              "description": "how long opening a connection may take: TCP connect, TLS, greeting, EHLO, STARTTLS and AUTH"},
    "writeTimeoutSeconds": {"type": "number", "minimum": 0.1, "maximum": 120, "default": 20, "title": "Write timeout (s)",
                            "description": "how long each command or block of the message may take to write, and the server to answer it"},
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
	// ConnectTimeoutSeconds and WriteTimeoutSeconds: see DefaultConnectTimeout (deadline.go).
	ConnectTimeoutSeconds float64 `json:"connectTimeoutSeconds"`
	WriteTimeoutSeconds   float64 `json:"writeTimeoutSeconds"`
}

// Kind is the SMTP provider kind for the catalogue.
func Kind() providers.Kind {
	return providers.Kind{
		Identifier:   Identifier,
		Name:         "SMTP",
		Channel:      "email",
		ConfigSchema: json.RawMessage(schema),
		New: func(raw json.RawMessage, deps providers.Deps) (providers.Provider, error) {
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
				c.TimeoutSeconds = int(DefaultTimeout / time.Second)
			}
			c.Host = strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(c.Host), "["), "]")
			return &Provider{cfg: c, guard: deps.Guard}, nil
		},
	}
}

// Provider sends through one SMTP server, reusing a bounded pool of connections (see
// pool.go).
type Provider struct {
	cfg   Config
	guard *netguard.Guard

	once   sync.Once
	client *mail.Client
	pool   *pool
	setup  error
}

// addr is the server's host:port (IPv6 addresses in brackets).
func (p *Provider) addr() string {
	return net.JoinHostPort(p.cfg.Host, strconv.Itoa(p.cfg.Port))
}

// dial connects to the server through the guard. It ignores the address go-mail passes,
// which joins host and port with a bare colon and so breaks IPv6 addresses. With implicit
// TLS it also does the handshake: go-mail leaves that to a dialer of its own. The
// connection setup (connect, TLS, and go-mail's greeting, EHLO, STARTTLS and AUTH on the
// connection returned) must end within the connect timeout; the pool then arms each
// message's deadlines.
func (p *Provider) dial(ctx context.Context, _, _ string) (net.Conn, error) {
	connect := seconds(p.cfg.ConnectTimeoutSeconds, DefaultConnectTimeout)
	ctx, cancel := context.WithTimeout(ctx, connect)
	defer cancel()
	raw, err := p.guard.DialContext(ctx, "tcp", p.addr())
	if err != nil {
		return nil, err
	}
	conn := &deadlineConn{Conn: raw}
	// The connect deadline, or the message's own when that comes first.
	until, _ := ctx.Deadline()
	conn.arm(until, 0)
	if h, ok := ctx.Value(holderKey{}).(*connHolder); ok {
		h.conn = conn
	}
	if p.cfg.Security != "tls" {
		return conn, nil
	}
	tc := tls.Client(conn, &tls.Config{ServerName: p.cfg.Host, MinVersion: tls.VersionTLS12})
	if err := tc.HandshakeContext(ctx); err != nil {
		raw.Close()
		return nil, err
	}
	return tc, nil
}

// dialClient opens a pooled connection and returns it with its deadline control.
func (p *Provider) dialClient(ctx context.Context) (*smtpclient.Client, *deadlineConn, error) {
	var h connHolder
	c, err := p.client.DialToSMTPClientWithContext(withHolder(ctx, &h))
	if err != nil && h.conn != nil && h.conn.timedOut() {
		err = errDeadline{key: "connectTimeoutSeconds", err: err}
	}
	return c, h.conn, err
}

// errDeadline is a call that ran into the deadline of config key.
type errDeadline struct {
	key string
	err error
}

func (e errDeadline) Error() string { return e.key + ": " + e.err.Error() }
func (e errDeadline) Unwrap() error { return e.err }

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
		p.pool = newPool(n, p.dialClient)
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
	until, _ := ctx.Deadline()
	write := seconds(p.cfg.WriteTimeoutSeconds, DefaultWriteTimeout)
	for try := 0; ; try++ {
		c, reused, err := p.pool.get(ctx, until, write)
		if err != nil {
			if !time.Now().Before(until) {
				// The message's own deadline ran out (first, or with the connect one).
				err = errDeadline{key: "timeoutSeconds", err: err}
			}
			return providers.Result{}, p.failure(err)
		}
		err = p.client.SendWithSMTPClient(c.c, m)
		if err != nil && c.timedOut() {
			key := "writeTimeoutSeconds"
			if !time.Now().Before(until) {
				key = "timeoutSeconds"
			}
			err = errDeadline{key: key, err: err}
		}
		p.pool.put(c, err == nil)
		if err == nil {
			return providers.Result{ProviderMessageID: id, Response: "accepted by " + p.cfg.Host}, nil
		}
		if reused && try == 0 && staleConnection(err) && !errors.As(err, new(errDeadline)) {
			continue
		}
		return providers.Result{}, p.failure(err)
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
	var h connHolder
	if err := client.DialWithContext(withHolder(ctx, &h)); err != nil {
		if h.conn != nil && h.conn.timedOut() {
			err = errDeadline{key: "connectTimeoutSeconds", err: err}
		}
		return errors.New(p.failure(err).Message)
	}
	if err := client.Close(); err != nil {
		return errors.New(p.failure(err).Message)
	}
	return nil
}

func (p *Provider) options() []mail.Option {
	// go-mail's own timeout bounds its dial; the connection's calls have the deadlines of
	// deadlineConn.
	opts := []mail.Option{mail.WithPort(p.cfg.Port), mail.WithTimeout(seconds(p.cfg.ConnectTimeoutSeconds, DefaultConnectTimeout)),
		mail.WithDialContextFunc(p.dial)}
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
	for _, h := range msg.Headers {
		m.SetGenHeader(mail.Header(h.Name), h.Value)
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

// failure classifies an SMTP failure without repeating anything the server sent. A refusal
// by the guard is permanent; a 5xx answer to MAIL, RCPT or DATA is permanent; anything else
// (4xx, a failed connection, TLS or authentication) is retried, since the operator may fix
// it.
func (p *Provider) failure(err error) *providers.Error {
	addr := p.addr()
	if errors.Is(err, netguard.ErrNotPublic) {
		return &providers.Error{Permanent: true, Message: "smtp: " + netguard.Describe(err, "SMTP", addr)}
	}
	var late errDeadline
	if errors.As(err, &late) {
		return &providers.Error{Deadline: late.key, Message: fmt.Sprintf("smtp: the server at %s did not answer in time (%s %s)", addr, late.key, p.deadlineOf(late.key))}
	}
	var op *net.OpError
	if errors.As(err, &op) && op.Op == "dial" && op.Timeout() {
		return &providers.Error{Deadline: "connectTimeoutSeconds", Message: fmt.Sprintf("smtp: cannot connect to %s in time (connectTimeoutSeconds %s)", addr, p.deadlineOf("connectTimeoutSeconds"))}
	}
	var se *mail.SendError
	if errors.As(err, &se) {
		code := se.ErrorCode()
		if code == 0 {
			// Raised by go-mail itself (its reason is fixed text), or an answer that was not SMTP.
			return &providers.Error{Message: fmt.Sprintf("smtp: %s failed at %s", se.Reason, addr)}
		}
		return &providers.Error{Permanent: !se.IsTemp() && code >= 500, StatusCode: code,
			Message: fmt.Sprintf("the server at %s answered %s when %s", addr, Reply(code, se.EnhancedStatusCode()), se.Reason)}
	}
	var te *textproto.Error
	if errors.As(err, &te) {
		return &providers.Error{Message: fmt.Sprintf("smtp: the server at %s answered %s", addr, Reply(te.Code, enhancedCode.FindString(te.Msg)))}
	}
	for _, known := range []struct {
		err  error
		text string
	}{
		{smtpclient.ErrUnencrypted, "the server at %s offers no TLS, so the password is not sent (set security to none only for a local relay)"},
		{smtpclient.ErrWrongHostname, "smtp: authentication with %s failed (host name mismatch)"},
		{mail.ErrPlainAuthNotSupported, "the server at %s does not accept AUTH PLAIN"},
		{mail.ErrServerNoUnencoded, "the server at %s does not accept 8-bit messages"},
	} {
		if errors.Is(err, known.err) {
			return &providers.Error{Message: fmt.Sprintf(known.text, addr)}
		}
	}
	// go-mail's own refusals, matched on its fixed wording.
	switch msg := err.Error(); {
	case strings.Contains(msg, "does not support STARTTLS"):
		return &providers.Error{Message: fmt.Sprintf("the server at %s does not offer STARTTLS (security starttls requires it)", addr)}
	case strings.Contains(msg, "does not support SMTP AUTH"), strings.Contains(msg, "doesn't support AUTH"):
		return &providers.Error{Message: fmt.Sprintf("the server at %s does not offer authentication (leave username empty, or use its submission port)", addr)}
	}
	return &providers.Error{Message: "smtp: " + netguard.Describe(err, "SMTP", addr)}
}

// deadlineOf is the value of a deadline key, as configured or by default.
func (p *Provider) deadlineOf(key string) time.Duration {
	switch key {
	case "connectTimeoutSeconds":
		return seconds(p.cfg.ConnectTimeoutSeconds, DefaultConnectTimeout)
	case "writeTimeoutSeconds":
		return seconds(p.cfg.WriteTimeoutSeconds, DefaultWriteTimeout)
	}
	return time.Duration(p.cfg.TimeoutSeconds) * time.Second
}

// enhancedCode finds an RFC 3463 enhanced status code in an SMTP answer: digits only, so
// it can be reported without the answer's text.
var enhancedCode = regexp.MustCompile(`\b[245]\.\d{1,3}\.\d{1,3}\b`)

// replyMeanings are the standard meanings of SMTP reply codes (RFC 5321, 3207, 4954).
var replyMeanings = map[int]string{
	421: "service not available", 450: "mailbox unavailable", 451: "local error in processing",
	452: "insufficient system storage", 454: "TLS or authentication temporarily unavailable",
	500: "command not recognised", 501: "syntax error in parameters", 502: "command not implemented",
	503: "bad sequence of commands", 504: "parameter not implemented", 521: "server does not accept mail",
	530: "authentication required", 534: "authentication mechanism too weak",
	535: "authentication credentials invalid", 538: "encryption required for the authentication mechanism",
	550: "mailbox unavailable", 551: "user not local", 552: "storage allocation exceeded",
	553: "mailbox name not allowed", 554: "transaction failed", 555: "parameters not recognised",
}

// Reply describes an SMTP answer by its codes and their standard meaning, e.g.
// "550 5.1.1 (mailbox unavailable)".
func Reply(code int, enhanced string) string {
	out := strconv.Itoa(code)
	if enhanced != "" {
		out += " " + enhanced
	}
	if m, ok := replyMeanings[code]; ok {
		out += " (" + m + ")"
	}
	return out
}
