// Package webpush delivers browser push notifications: the payload is encrypted for the
// subscription (RFC 8291, aes128gcm) and posted to its endpoint with a VAPID token signed
// by the app's key pair (RFC 8292). A 404 or 410 from the push service means the
// subscription is gone.
package webpush

import (
	"context"
	"crypto/ecdh"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/heraldhq/herald/internal/providers"
	"github.com/heraldhq/herald/internal/providers/internal/compose"
	"github.com/heraldhq/herald/internal/providers/internal/config"
	"github.com/heraldhq/herald/internal/providers/internal/httpcall"
)

func spec() config.Spec {
	return config.Spec{
		{Name: "subject", Type: "string", Description: "VAPID contact (mailto: or https: URI), used when the app's key pair names none"},
		{Name: "ttl", Type: "integer", Default: 2419200, Description: "seconds the push service keeps an undelivered message (default 28 days)"},
		{Name: "urgency", Type: "string", Enum: []string{"very-low", "low", "normal", "high"}, Default: "normal", Description: "default Urgency header"},
	}
}

type settings struct {
	Subject string `json:"subject"`
	TTL     int    `json:"ttl"`
	Urgency string `json:"urgency"`
}

// Kind describes the web push provider. Its keys are the app's VAPID pair (Deps.AppVAPID).
func Kind() providers.Kind {
	return providers.Kind{
		Identifier: "webpush", Name: "Web Push (VAPID)", Channel: "webPush",
		ConfigSchema: spec().Schema(),
		New: func(raw json.RawMessage, deps providers.Deps) (providers.Provider, error) {
			var s settings
			if err := spec().Decode(raw, &s); err != nil {
				return nil, err
			}
			return &provider{cfg: s, keys: deps.AppVAPID, http: httpcall.Client(deps), now: time.Now}, nil
		},
	}
}

type provider struct {
	cfg  settings
	keys *providers.VAPIDKeys
	http *http.Client
	now  func() time.Time
}

// payload is the JSON the service worker receives in its push event.
type payload struct {
	Title string          `json:"title,omitempty"`
	Body  string          `json:"body,omitempty"`
	Icon  string          `json:"icon,omitempty"`
	URL   string          `json:"url,omitempty"`
	Data  json.RawMessage `json:"data,omitempty"`
}

// Send pushes the message to one subscription. The payload is JSON {title, body, icon, url,
// data}, extended by override.payload; override ttl (seconds), urgency and topic replace the
// defaults. Without an override topic the Topic header is derived from the idempotency key,
// so a retried push replaces its own undelivered copy at the push service.
func (p *provider) Send(ctx context.Context, msg providers.Message) (providers.Result, error) {
	sub := msg.To.WebPush
	if sub == nil || sub.Endpoint == "" {
		return providers.Result{}, providers.Permanent("no push subscription")
	}
	if p.keys == nil || p.keys.PrivateKey == "" {
		return providers.Result{}, providers.Permanent("the app has no VAPID key pair")
	}
	key, err := parseVAPID(*p.keys)
	if err != nil {
		return providers.Result{}, providers.Permanent("%s", err.Error())
	}
	subject := p.keys.Subject
	if subject == "" {
		subject = p.cfg.Subject
	}
	if subject == "" {
		return providers.Result{}, providers.Permanent("no VAPID subject: set the app's contact or the provider's subject")
	}
	override := compose.Object(msg.Override)
	body, err := p.encryptFor(sub, msg, override)
	if err != nil {
		return providers.Result{}, err
	}
	auth, err := key.authorization(sub.Endpoint, subject, p.now())
	if err != nil {
		return providers.Result{}, providers.Permanent("%s", err.Error())
	}

	req, err := httpcall.NewRaw(ctx, http.MethodPost, sub.Endpoint, "application/octet-stream", body)
	if err != nil {
		return providers.Result{}, err
	}
	req.Header.Set("Authorization", auth)
	req.Header.Set("Content-Encoding", "aes128gcm")
	req.Header.Set("TTL", strconv.Itoa(p.ttl(override)))
	req.Header.Set("Urgency", p.urgency(override))
	if topic := topicOf(msg, override); topic != "" {
		req.Header.Set("Topic", topic)
	}
	res, raw, err := httpcall.Do(p.http, req)
	if err != nil {
		return providers.Result{}, err
	}
	if err := httpcall.Check(res, raw, true); err != nil {
		return providers.Result{}, err
	}
	return providers.Result{ProviderMessageID: res.Header.Get("Location"), Response: fmt.Sprintf("%d %s", res.StatusCode, http.StatusText(res.StatusCode))}, nil
}

// encryptFor builds the JSON payload and encrypts it for the subscription with a fresh
// one-time key and salt.
func (p *provider) encryptFor(sub *providers.WebPushSubscription, msg providers.Message, override map[string]any) ([]byte, error) {
	uaPublic, err := decodeKey(sub.P256dh)
	if err != nil {
		return nil, providers.Permanent("subscription p256dh is not base64")
	}
	authSecret, err := decodeKey(sub.Auth)
	if err != nil {
		return nil, providers.Permanent("subscription auth is not base64")
	}
	plain, err := json.Marshal(payload{Title: msg.Title, Body: msg.Body, Icon: msg.Icon, URL: msg.URL, Data: msg.Data})
	if err != nil {
		return nil, providers.Permanent("the message data is not valid JSON")
	}
	if extra, ok := override["payload"].(map[string]any); ok {
		obj := compose.Object(plain)
		compose.Merge(obj, extra)
		if plain, err = json.Marshal(obj); err != nil {
			return nil, err
		}
	}
	asPriv, err := ecdh.P256().GenerateKey(rand.Reader)
	if err != nil {
		return nil, err
	}
	salt := make([]byte, 16)
	if _, err := rand.Read(salt); err != nil {
		return nil, err
	}
	body, err := encrypt(plain, uaPublic, authSecret, asPriv, salt)
	if err != nil {
		return nil, providers.Permanent("%s", err.Error())
	}
	return body, nil
}

func (p *provider) ttl(override map[string]any) int {
	if v, ok := override["ttl"].(float64); ok && v >= 0 {
		return int(v)
	}
	return p.cfg.TTL
}

func (p *provider) urgency(override map[string]any) string {
	switch v := compose.String(override, "urgency"); v {
	case "very-low", "low", "normal", "high":
		return v
	}
	return p.cfg.Urgency
}

// topicMax is the longest Topic header (RFC 8030 §5.4: 32 base64url characters).
const topicMax = 32

// topicOf is the override topic, or a digest of the idempotency key in the Topic alphabet.
func topicOf(msg providers.Message, override map[string]any) string {
	if t := compose.String(override, "topic"); t != "" {
		return t
	}
	if msg.IdempotencyKey == "" {
		return ""
	}
	sum := sha256.Sum256([]byte(msg.IdempotencyKey))
	return base64.RawURLEncoding.EncodeToString(sum[:])[:topicMax]
}
