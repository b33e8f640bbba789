// Package providers is the contract between the delivery pipeline and the packages that
// talk to external services (internal/providers/<name>): what a rendered message looks like, how a
// provider reports success and failure, and the catalogue of provider kinds with their
// configuration schemas. The pipeline picks an instance (a configured provider of an app),
// builds a Message per recipient × channel, and calls Send from a Temporal activity; the
// Error a provider returns decides whether Temporal retries.
package providers

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"time"

	"github.com/heraldhq/herald/internal/platform/netguard"
)

// Message is one rendered notification for one recipient on one channel. Only the fields
// of the message's channel are set.
type Message struct {
	Channel string
	// IdempotencyKey is <requestId>:<user>:<channel>[:<step>]; providers that accept a key pass
	// it on so a retried activity does not send twice.
	IdempotencyKey string
	// RequestID and UserIdentifier identify the send and the recipient (for logs and
	// metadata).
	RequestID      string
	UserIdentifier string
	// To is the channel address of the recipient.
	To Address

	// Email.
	Subject     string
	HTML        string
	Text        string
	From        string
	FromName    string
	ReplyTo     string
	CC          []string
	BCC         []string
	Attachments []Attachment
	// Headers are extra email headers, in order (List-Unsubscribe and
	// List-Unsubscribe-Post, RFC 8058). SMTP writes them all; HTTP providers pass them
	// where their API takes custom headers.
	Headers []Header

	// Short-form content: SMS, WhatsApp, push, chat, webhook.
	Title string
	Body  string
	Icon  string
	URL   string
	// Data is the send request's data, passed to push payloads and webhooks.
	Data json.RawMessage
	// Blocks are rich content blocks (chat providers that support them).
	Blocks json.RawMessage

	// Override is the send's override.channel.<channel> object merged with
	// override.<providerIdentifier>: extra provider fields (for instance a WhatsApp template,
	// a Slack channel, an APNs topic). Providers read what they understand.
	Override json.RawMessage
}

// Address is where a message goes on its channel.
type Address struct {
	Email       string
	PhoneNumber string
	// PushTokens are mobile push tokens (FCM registration tokens or APNs device tokens).
	PushTokens []string
	// WebPush is one browser PushSubscription.
	WebPush *WebPushSubscription
	// WebhookURL is the target of chat (Slack/Discord/Teams incoming webhooks) and webhook
	// channels when it comes from the recipient's profile or the override.
	WebhookURL string
	// ChatChannel is a Slack channel or user id for chat.postMessage.
	ChatChannel string
}

// WebPushSubscription is a browser PushSubscription.
type WebPushSubscription struct {
	Endpoint string `json:"endpoint"`
	P256dh   string `json:"p256dh"`
	Auth     string `json:"auth"`
}

// Header is one extra email header.
type Header struct {
	Name  string
	Value string
}

// Attachment is a file attached to an email.
type Attachment struct {
	Filename    string
	ContentType string
	Content     []byte
}

// Result is a successful hand-over to a provider.
type Result struct {
	// ProviderMessageID is the provider's id of the message, matched against delivery
	// callbacks.
	ProviderMessageID string
	// Response is a short, secret-free summary of the provider's answer for the message log.
	Response string
	// GoneTokens are push tokens of To.PushTokens the provider reported as no longer
	// registered while it delivered to others; the pipeline removes them. (When every token
	// is gone, Send returns an Error with Gone set instead.)
	GoneTokens []string
}

// Provider sends messages through one configured provider instance.
type Provider interface {
	Send(ctx context.Context, msg Message) (Result, error)
}

// Error is a failed send. Permanent errors (a 4xx, an invalid address) are not retried;
// others are, after RetryAfter when the provider said so (429).
type Error struct {
	Permanent  bool
	RetryAfter time.Duration
	// StatusCode is the provider's HTTP status, when there was one.
	StatusCode int
	Message    string
	// Gone means the address no longer exists (web push 404/410, an unregistered push
	// token): the pipeline removes it.
	Gone bool
	// OptedOut means the recipient opted out at the provider (replied STOP to an SMS
	// sender): the pipeline turns the channel off for the user, so Herald's preferences say
	// what the provider enforces.
	OptedOut bool
	// Deadline names the instance's config key whose deadline the call ran into
	// ("connectTimeoutSeconds", "writeTimeoutSeconds", "responseTimeoutSeconds",
	// "timeoutSeconds"); empty when the call did not time out or the provider cannot
	// tell which. A call that timed out got no answer: it counts toward the instance's
	// circuit breaker.
	Deadline string
}

func (e *Error) Error() string {
	if e.StatusCode != 0 {
		return fmt.Sprintf("provider answered %d: %s", e.StatusCode, e.Message)
	}
	return e.Message
}

// Permanent returns a non-retryable error.
func Permanent(format string, args ...any) error {
	return &Error{Permanent: true, Message: fmt.Sprintf(format, args...)}
}

// IsPermanent reports whether err must not be retried.
func IsPermanent(err error) bool {
	var e *Error
	return errors.As(err, &e) && e.Permanent
}

// FromHTTPStatus classifies a provider's HTTP answer: 429 and 5xx are transient (429
// honouring Retry-After), 404/410 with gone set mean the address is gone, other 4xx are
// permanent.
func FromHTTPStatus(res *http.Response, body string, goneOn404 bool) error {
	e := &Error{StatusCode: res.StatusCode, Message: truncate(body, 500)}
	switch {
	case res.StatusCode == http.StatusTooManyRequests:
		e.RetryAfter = parseRetryAfter(res.Header.Get("Retry-After"), time.Now())
	case res.StatusCode >= 500:
	case goneOn404 && (res.StatusCode == http.StatusNotFound || res.StatusCode == http.StatusGone):
		e.Permanent, e.Gone = true, true
	case res.StatusCode >= 400:
		e.Permanent = true
	}
	return e
}

func parseRetryAfter(v string, now time.Time) time.Duration {
	if v == "" {
		return 0
	}
	if s, err := strconv.Atoi(v); err == nil && s >= 0 {
		return time.Duration(s) * time.Second
	}
	if t, err := http.ParseTime(v); err == nil && t.After(now) {
		return t.Sub(now)
	}
	return 0
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// Tester is implemented by providers that can check their configuration without sending
// (connect and authenticate): the management API runs it when a configuration is saved
// with a connection test. Errors must not carry secrets.
type Tester interface {
	Test(ctx context.Context) error
}

// Deps are what a provider may need besides its configuration.
type Deps struct {
	// Guard is the outbound guard: connections that are not HTTP (SMTP) dial through it, and
	// the management API checks configured destinations against it. Nil allows public
	// addresses only.
	Guard *netguard.Guard
	// HTTP is the client for provider APIs (timeouts set by the pipeline). It must dial
	// through Guard; nil means Guard's client with a default timeout.
	HTTP *http.Client
	// AppVAPID holds the app's VAPID key pair for web push.
	AppVAPID *VAPIDKeys
}

// VAPIDKeys is an app's web push key pair (base64url, uncompressed P-256 public key).
type VAPIDKeys struct {
	PublicKey  string
	PrivateKey string
	Subject    string
}

// Kind describes one provider implementation in the catalogue (GET /v1/providers).
type Kind struct {
	// Identifier names the provider, e.g. "smtp", "sendgrid", "twilio-sms".
	Identifier string `json:"identifier"`
	Name       string `json:"name"`
	Channel    string `json:"channel"`
	// ConfigSchema is a JSON Schema of the instance configuration; properties with
	// "x-secret": true are sealed at rest and masked in responses.
	ConfigSchema json.RawMessage `json:"configSchema"`
	// New builds a provider from a validated configuration.
	New func(config json.RawMessage, deps Deps) (Provider, error) `json:"-"`
}

// Catalogue is the set of provider kinds this build supports. The wiring builds it
// explicitly from each provider package's Kind function (no global registry, no init()).
type Catalogue struct {
	kinds map[string]Kind
}

// NewCatalogue returns a catalogue of the given kinds.
func NewCatalogue(kinds ...Kind) *Catalogue {
	c := &Catalogue{kinds: make(map[string]Kind, len(kinds))}
	for _, k := range kinds {
		c.kinds[k.Identifier] = k
	}
	return c
}

// Lookup returns a kind by identifier.
func (c *Catalogue) Lookup(identifier string) (Kind, bool) {
	k, ok := c.kinds[identifier]
	return k, ok
}

// List returns the kinds, optionally of one channel, sorted by identifier.
func (c *Catalogue) List(channel string) []Kind {
	out := make([]Kind, 0, len(c.kinds))
	for _, k := range c.kinds {
		if channel == "" || k.Channel == channel {
			out = append(out, k)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Identifier < out[j].Identifier })
	return out
}

// CallbackRequest is an inbound HTTP call a provider made to
// /v1/providerInstances/{instanceId}/callback.
type CallbackRequest struct {
	Method string
	// URL is the URL as the provider called it (some providers sign it).
	URL    string
	Header http.Header
	Query  url.Values
	Body   []byte
}

// Delivery event statuses a provider can report about a message it accepted.
const (
	EventDelivered = "delivered"
	EventBounced   = "bounced"
	EventOpened    = "opened"
	EventClicked   = "clicked"
	EventFailed    = "failed"
)

// DeliveryEvent is one status change reported by a provider.
type DeliveryEvent struct {
	// ProviderMessageID is the id the provider returned in Result.ProviderMessageID.
	ProviderMessageID string
	// Status is one of the Event* constants.
	Status string
	// At is when it happened; zero means now.
	At time.Time
	// Detail is a short, secret-free explanation (a bounce reason) for the message log.
	Detail string
}

// CallbackHandler is implemented by providers whose service reports delivery events. The
// pipeline builds the instance's provider from its configuration and hands it the call.
type CallbackHandler interface {
	// ParseCallback verifies the call where the provider signs it (returning
	// ErrBadSignature when it does not verify) and returns the events it carries.
	ParseCallback(req CallbackRequest) ([]DeliveryEvent, error)
}

// ErrBadSignature is a callback whose signature is missing or wrong.
var ErrBadSignature = errors.New("callback signature does not verify")
