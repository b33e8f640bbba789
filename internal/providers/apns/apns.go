// Package apns sends push notifications to Apple devices through APNs with token-based
// authentication: an ES256 JWT signed by the team's .p8 key, over HTTP/2
// (POST /3/device/{token}).
package apns

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/heraldhq/herald/internal/providers"
	"github.com/heraldhq/herald/internal/providers/internal/compose"
	"github.com/heraldhq/herald/internal/providers/internal/config"
	"github.com/heraldhq/herald/internal/providers/internal/fanout"
	"github.com/heraldhq/herald/internal/providers/internal/httpcall"
)

// APNs hosts.
const (
	productionHost = "https://api.push.apple.com"
	sandboxHost    = "https://api.sandbox.push.apple.com"
)

func spec() config.Spec {
	return config.Spec{
		{Name: "privateKey", Type: "string", Required: true, Secret: true, Description: "contents of the APNs authentication key file (.p8, PEM)"},
		{Name: "keyId", Type: "string", Required: true, Description: "10-character Key ID of the .p8 key"},
		{Name: "teamId", Type: "string", Required: true, Description: "Apple Developer Team ID"},
		{Name: "bundleId", Type: "string", Required: true, Description: "app bundle ID, the default apns-topic"},
		{Name: "environment", Type: "string", Enum: []string{"production", "sandbox"}, Default: "production", Destination: config.DestinationSetting, Description: "APNs environment: production or sandbox (development builds)"},
		{Name: "pushType", Type: "string", Default: "alert", Description: "default apns-push-type (alert, background, …)"},
		{Name: "baseUrl", Type: "string", Format: "uri", Destination: config.DestinationURL, Description: "APNs base URL; replaces the environment's host when set"},
	}
}

type settings struct {
	PrivateKey  string `json:"privateKey"`
	KeyID       string `json:"keyId"`
	TeamID      string `json:"teamId"`
	BundleID    string `json:"bundleId"`
	Environment string `json:"environment"`
	PushType    string `json:"pushType"`
	BaseURL     string `json:"baseUrl"`
}

// Kind describes the APNs provider. APNs only speaks HTTP/2: the pipeline's HTTP client
// must negotiate it (any client on a default http.Transport does, over TLS).
func Kind() providers.Kind {
	return providers.Kind{
		Identifier: "apns", Name: "Apple Push Notification service", Channel: "mobilePush",
		ConfigSchema: spec().Schema(),
		New: func(raw json.RawMessage, deps providers.Deps) (providers.Provider, error) {
			var s settings
			if err := spec().Decode(raw, &s); err != nil {
				return nil, err
			}
			key, err := parseKey(s.PrivateKey)
			if err != nil {
				return nil, err
			}
			if s.BaseURL == "" {
				s.BaseURL = productionHost
				if s.Environment == "sandbox" {
					s.BaseURL = sandboxHost
				}
			}
			return &provider{cfg: s, http: httpcall.Client(deps), tokens: &tokenSource{key: key, keyID: s.KeyID, teamID: s.TeamID, now: time.Now}}, nil
		},
	}
}

type provider struct {
	cfg    settings
	http   *http.Client
	tokens *tokenSource
}

// Send pushes to each of the recipient's device tokens (see fanout.Send for how outcomes
// fold). APNs takes no idempotency key; the apns-id is derived from the key and the device
// token, and apns-collapse-id from the key, so a duplicate from a retried activity replaces
// the first on the device instead of showing twice.
//
// Override keys: topic, pushType, priority, expiration (Unix time), collapseId (headers);
// aps (merged into the aps dictionary); payload (merged into the top level).
func (p *provider) Send(ctx context.Context, msg providers.Message) (providers.Result, error) {
	override := compose.Object(msg.Override)
	body, err := json.Marshal(p.payload(msg, override))
	if err != nil {
		return providers.Result{}, providers.Permanent("the message data is not valid JSON")
	}
	return fanout.Send(ctx, msg.To.PushTokens, func(ctx context.Context, token string) (string, error) {
		return p.sendOne(ctx, token, msg, override, body)
	})
}

// payload is {aps: {alert: {title, body}, sound}, url, …data}; a background push carries
// content-available instead of an alert.
func (p *provider) payload(msg providers.Message, override map[string]any) map[string]any {
	out := map[string]any{}
	if data := compose.Object(msg.Data); data != nil {
		for k, v := range data {
			out[k] = v
		}
	}
	if msg.URL != "" {
		out["url"] = msg.URL
	}
	aps := map[string]any{}
	if p.pushType(override) == "background" {
		aps["content-available"] = 1
	} else {
		aps["alert"] = map[string]any{"title": msg.Title, "body": msg.Body}
		aps["sound"] = "default"
	}
	if extra, ok := override["aps"].(map[string]any); ok {
		compose.Merge(aps, extra)
	}
	out["aps"] = aps
	if extra, ok := override["payload"].(map[string]any); ok {
		compose.Merge(out, extra)
	}
	return out
}

func (p *provider) pushType(override map[string]any) string {
	if v := compose.String(override, "pushType"); v != "" {
		return v
	}
	return p.cfg.PushType
}

func (p *provider) sendOne(ctx context.Context, token string, msg providers.Message, override map[string]any, body []byte) (string, error) {
	jwt, err := p.tokens.get()
	if err != nil {
		return "", err
	}
	target := fmt.Sprintf("%s/3/device/%s", strings.TrimRight(p.cfg.BaseURL, "/"), url.PathEscape(token))
	req, err := httpcall.NewRaw(ctx, http.MethodPost, target, "application/json", body)
	if err != nil {
		return "", err
	}
	pushType := p.pushType(override)
	req.Header.Set("Authorization", "bearer "+jwt)
	req.Header.Set("apns-push-type", pushType)
	topic := compose.String(override, "topic")
	if topic == "" {
		topic = p.cfg.BundleID
	}
	req.Header.Set("apns-topic", topic)
	priority := "10"
	if pushType == "background" {
		priority = "5"
	}
	if v, ok := override["priority"].(float64); ok {
		priority = strconv.Itoa(int(v))
	}
	req.Header.Set("apns-priority", priority)
	if v, ok := override["expiration"].(float64); ok {
		req.Header.Set("apns-expiration", strconv.FormatInt(int64(v), 10))
	}
	if v := compose.String(override, "collapseId"); v != "" {
		req.Header.Set("apns-collapse-id", v)
	} else if msg.IdempotencyKey != "" {
		req.Header.Set("apns-collapse-id", compose.Digest(msg.IdempotencyKey, 32))
	}
	if msg.IdempotencyKey != "" {
		req.Header.Set("apns-id", uuid.NewSHA1(uuid.NameSpaceURL, []byte(msg.IdempotencyKey+"\x00"+token)).String())
	}
	res, raw, err := httpcall.Do(p.http, req)
	if err != nil {
		return "", err
	}
	if err := httpcall.Check(res, raw, false); err != nil {
		return "", p.classify(err, raw)
	}
	return res.Header.Get("apns-id"), nil
}

// classify reads APNs's reason: BadDeviceToken, Unregistered and ExpiredToken mean the
// token is gone; ExpiredProviderToken means our JWT aged out (renew it, retry); the rest
// of the 4xx (DeviceTokenNotForTopic, InvalidProviderToken, PayloadTooLarge, …) are
// permanent and 429/5xx transient.
func (p *provider) classify(err error, raw []byte) error {
	pe, ok := err.(*providers.Error)
	if !ok {
		return err
	}
	var answer struct {
		Reason string `json:"reason"`
	}
	if json.Unmarshal(raw, &answer) != nil || answer.Reason == "" {
		return pe
	}
	switch answer.Reason {
	case "BadDeviceToken", "Unregistered", "ExpiredToken":
		pe.Permanent, pe.Gone = true, true
	case "ExpiredProviderToken":
		p.tokens.invalidate()
		pe.Permanent = false
	}
	pe.Message = "APNs " + answer.Reason
	return pe
}
