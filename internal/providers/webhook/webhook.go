// Package webhook delivers notifications as signed HTTP POSTs to an endpoint of the app, and
// accepts delivery events the endpoint reports back, signed the same way.
//
// Signature: X-Herald-Signature is "v1=" + hex(HMAC-SHA256(secret, timestamp + "." + body)),
// where timestamp is the X-Herald-Timestamp header (Unix seconds). Receivers should reject
// timestamps more than five minutes away from their clock and compare in constant time
// (Verify does both).
package webhook

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"time"

	"github.com/heraldhq/herald/internal/platform/netguard"
	"github.com/heraldhq/herald/internal/providers"
	"github.com/heraldhq/herald/internal/providers/internal/httpcall"
)

// Header names of a webhook delivery.
const (
	HeaderTimestamp      = "X-Herald-Timestamp"
	HeaderSignature      = "X-Herald-Signature"
	HeaderMessageID      = "X-Herald-Message-Id"
	HeaderIdempotencyKey = "Idempotency-Key"
)

// Tolerance is how far a signed timestamp may be from the verifier's clock.
const Tolerance = 5 * time.Minute

// Identifier names this provider kind.
const Identifier = "webhook"

const schema = `{
  "type": "object",
  "additionalProperties": false,
  "required": ["url", "secret"],
  "properties": {
    "url": {"type": "string", "format": "uri", "title": "Endpoint URL", "x-destination": "url",
            "description": "http or https URL; internal addresses only when listed in HERALD_PRIVATE_HOSTS"},
    "secret": {"type": "string", "minLength": 16, "x-secret": true, "title": "Signing secret",
               "description": "Key of the HMAC-SHA256 signature in X-Herald-Signature"},
    "headers": {"type": "object", "x-secret": true, "title": "Extra request headers",
                "description": "For example an Authorization header the endpoint expects"},
    "timeoutSeconds": {"type": "integer", "minimum": 1, "maximum": 60, "title": "Timeout (s)", "default": 10},
    ` + httpcall.DeadlineProperties + `
  }
}`

// Config is an instance's configuration.
type Config struct {
	URL            string            `json:"url"`
	Secret         string            `json:"secret"`
	Headers        map[string]string `json:"headers"`
	TimeoutSeconds int               `json:"timeoutSeconds"`
	// Connect and response deadlines (httpcall.Deadlines).
	httpcall.Deadlines
}

// Kind is the webhook provider kind for the catalogue.
func Kind() providers.Kind {
	return providers.Kind{
		Identifier:   Identifier,
		Name:         "Webhook",
		Channel:      "webhook",
		ConfigSchema: json.RawMessage(schema),
		New: func(raw json.RawMessage, deps providers.Deps) (providers.Provider, error) {
			var c Config
			if err := json.Unmarshal(raw, &c); err != nil {
				return nil, fmt.Errorf("webhook config: %w", err)
			}
			if c.TimeoutSeconds <= 0 {
				c.TimeoutSeconds = 10
			}
			client := deps.HTTP
			if client == nil {
				client = deps.Guard.Client(0)
			}
			client = httpcall.WithDeadlines(client, c.Deadlines)
			return &Provider{cfg: c, http: client, now: time.Now}, nil
		},
	}
}

// Provider posts to one endpoint.
type Provider struct {
	cfg  Config
	http *http.Client
	now  func() time.Time
}

// Payload is the JSON body of a delivery.
type Payload struct {
	ID             string          `json:"id"`
	IdempotencyKey string          `json:"idempotencyKey"`
	RequestID      string          `json:"requestId"`
	Recipient      Recipient       `json:"recipient"`
	Title          string          `json:"title"`
	Message        string          `json:"message"`
	Icon           string          `json:"icon,omitempty"`
	URL            string          `json:"url,omitempty"`
	Data           json.RawMessage `json:"data,omitempty"`
	Blocks         json.RawMessage `json:"blocks,omitempty"`
	Timestamp      time.Time       `json:"timestamp"`
}

// Recipient is the user a delivery is for.
type Recipient struct {
	Identifier  string `json:"identifier"`
	Email       string `json:"email,omitempty"`
	PhoneNumber string `json:"phoneNumber,omitempty"`
}

// MessageID is the id of a delivery: stable across retries of the same idempotency key, so
// the endpoint can drop duplicates.
func MessageID(idempotencyKey string) string {
	sum := sha256.Sum256([]byte(idempotencyKey))
	return "msg_" + hex.EncodeToString(sum[:16])
}

// Send posts the message. 2xx is success; 429 and 5xx are retried (429 after its
// Retry-After); other statuses are permanent failures.
func (p *Provider) Send(ctx context.Context, msg providers.Message) (providers.Result, error) {
	now := p.now()
	id := MessageID(msg.IdempotencyKey)
	body, err := json.Marshal(Payload{
		ID: id, IdempotencyKey: msg.IdempotencyKey, RequestID: msg.RequestID,
		Recipient: Recipient{Identifier: msg.UserIdentifier, Email: msg.To.Email, PhoneNumber: msg.To.PhoneNumber},
		Title:     msg.Title, Message: msg.Body, Icon: msg.Icon, URL: msg.URL,
		Data: msg.Data, Blocks: msg.Blocks, Timestamp: now.UTC(),
	})
	if err != nil {
		return providers.Result{}, providers.Permanent("encode payload: %v", err)
	}
	ctx, cancel := context.WithTimeout(ctx, time.Duration(p.cfg.TimeoutSeconds)*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, p.cfg.URL, bytes.NewReader(body))
	if err != nil {
		return providers.Result{}, providers.Permanent("webhook url: %v", err)
	}
	for k, v := range p.cfg.Headers {
		req.Header.Set(k, v)
	}
	ts := strconv.FormatInt(now.Unix(), 10)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "Herald-Webhook/1")
	req.Header.Set(HeaderTimestamp, ts)
	req.Header.Set(HeaderSignature, Sign(p.cfg.Secret, ts, body))
	req.Header.Set(HeaderMessageID, id)
	req.Header.Set(HeaderIdempotencyKey, msg.IdempotencyKey)
	res, err := p.http.Do(req)
	if err != nil {
		// An internal address refused by policy is permanent; other transport errors retry.
		// The text never quotes the URL (its query may hold a token) nor what the peer sent.
		if key := httpcall.DeadlineOf(err); key != "" && !errors.Is(err, netguard.ErrNotPublic) {
			return providers.Result{}, &providers.Error{Deadline: key, Message: "webhook request failed: " + netguard.Describe(err, "HTTP", req.URL.Host) + " (" + key + ")"}
		}
		return providers.Result{}, &providers.Error{Permanent: errors.Is(err, netguard.ErrNotPublic), Message: "webhook request failed: " + netguard.Describe(err, "HTTP", req.URL.Host)}
	}
	defer res.Body.Close()
	answer, _ := io.ReadAll(io.LimitReader(res.Body, 4096))
	// Read a little more of a long answer so the connection can be reused (keep-alive).
	_, _ = io.Copy(io.Discard, io.LimitReader(res.Body, 64<<10))
	if res.StatusCode >= 200 && res.StatusCode < 300 {
		return providers.Result{ProviderMessageID: id, Response: res.Status}, nil
	}
	return providers.Result{}, providers.FromHTTPStatus(res, string(answer), false)
}

// Sign returns the X-Herald-Signature value of body sent at timestamp.
func Sign(secret, timestamp string, body []byte) string {
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte(timestamp))
	mac.Write([]byte("."))
	mac.Write(body)
	return "v1=" + hex.EncodeToString(mac.Sum(nil))
}

// Verify checks the signature headers of a webhook (or of an event posted back) against
// secret: the timestamp must be within Tolerance of now and the signature must match.
func Verify(secret string, h http.Header, body []byte, now time.Time) error {
	ts := h.Get(HeaderTimestamp)
	sec, err := strconv.ParseInt(ts, 10, 64)
	if err != nil {
		return providers.ErrBadSignature
	}
	if d := now.Sub(time.Unix(sec, 0)); d > Tolerance || d < -Tolerance {
		return fmt.Errorf("%w: timestamp is %s away from now", providers.ErrBadSignature, d.Round(time.Second))
	}
	want := Sign(secret, ts, body)
	if !hmac.Equal([]byte(want), []byte(h.Get(HeaderSignature))) {
		return providers.ErrBadSignature
	}
	return nil
}

// Event is a delivery event an endpoint posts back to the instance's callback URL.
type Event struct {
	// ID is the X-Herald-Message-Id of the delivery.
	ID     string    `json:"id"`
	Status string    `json:"status"`
	At     time.Time `json:"timestamp"`
	Detail string    `json:"detail"`
}

var eventStatuses = map[string]bool{
	providers.EventDelivered: true, providers.EventBounced: true, providers.EventOpened: true,
	providers.EventClicked: true, providers.EventFailed: true,
}

// ParseCallback verifies a signed event (or an array of events) posted back by the
// endpoint.
func (p *Provider) ParseCallback(req providers.CallbackRequest) ([]providers.DeliveryEvent, error) {
	if err := Verify(p.cfg.Secret, req.Header, req.Body, p.now()); err != nil {
		return nil, err
	}
	var events []Event
	trimmed := bytes.TrimSpace(req.Body)
	if len(trimmed) > 0 && trimmed[0] == '[' {
		err := json.Unmarshal(trimmed, &events)
		if err != nil {
			return nil, errors.New("body must be an event object or an array of events")
		}
	} else {
		var e Event
		if err := json.Unmarshal(trimmed, &e); err != nil {
			return nil, errors.New("body must be an event object or an array of events")
		}
		events = []Event{e}
	}
	out := make([]providers.DeliveryEvent, 0, len(events))
	for _, e := range events {
		if e.ID == "" || !eventStatuses[e.Status] {
			return nil, fmt.Errorf("each event needs an id and a status among delivered, bounced, opened, clicked, failed")
		}
		out = append(out, providers.DeliveryEvent{ProviderMessageID: e.ID, Status: e.Status, At: e.At, Detail: e.Detail})
	}
	return out, nil
}
