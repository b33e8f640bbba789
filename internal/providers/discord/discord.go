// Package discord posts to a Discord channel through a webhook (POST to the webhook URL
// with ?wait=true, so Discord answers with the created message).
package discord

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/heraldhq/herald/internal/providers"
	"github.com/heraldhq/herald/internal/providers/internal/compose"
	"github.com/heraldhq/herald/internal/providers/internal/config"
	"github.com/heraldhq/herald/internal/providers/internal/httpcall"
)

func spec() config.Spec {
	return config.Spec{
		{Name: "webhookUrl", Type: "string", Secret: true, Format: "uri", Destination: config.DestinationURL, Description: "webhook URL (https://discord.com/api/webhooks/{id}/{token}); used when the recipient has none of their own"},
		{Name: "username", Type: "string", Description: "name the messages are posted under (default: the webhook's)"},
		{Name: "avatarUrl", Type: "string", Format: "uri", Description: "avatar image URL (default: the webhook's)"},
	}
}

type settings struct {
	WebhookURL string `json:"webhookUrl"`
	Username   string `json:"username"`
	AvatarURL  string `json:"avatarUrl"`
}

// Kind describes the Discord webhook provider.
func Kind() providers.Kind {
	return providers.Kind{
		Identifier: "discord", Name: "Discord", Channel: "discord",
		ConfigSchema: spec().Schema(),
		New: func(raw json.RawMessage, deps providers.Deps) (providers.Provider, error) {
			var s settings
			if err := spec().Decode(raw, &s); err != nil {
				return nil, err
			}
			return &provider{cfg: s, http: httpcall.Client(deps)}, nil
		},
	}
}

type provider struct {
	cfg  settings
	http *http.Client
}

// contentMax is the longest message content Discord accepts.
const contentMax = 2000

func overrideKeys() []string {
	return []string{"content", "username", "avatar_url", "tts", "embeds", "allowed_mentions", "components", "flags", "thread_name", "applied_tags"}
}

// Send posts the message as content (title in bold, body, link). Mentions are not parsed
// unless the override's allowed_mentions says so, so text from templates cannot ping
// @everyone. Override keys use Discord's names; thread_id targets a thread. Discord
// webhooks take no idempotency key.
func (p *provider) Send(ctx context.Context, msg providers.Message) (providers.Result, error) {
	target := msg.To.WebhookURL
	if target == "" {
		target = p.cfg.WebhookURL
	}
	if target == "" {
		return providers.Result{}, providers.Permanent("no Discord webhook URL")
	}
	body := map[string]any{
		"content":          compose.Truncate(content(msg), contentMax),
		"allowed_mentions": map[string]any{"parse": []any{}},
	}
	if p.cfg.Username != "" {
		body["username"] = p.cfg.Username
	}
	if p.cfg.AvatarURL != "" {
		body["avatar_url"] = p.cfg.AvatarURL
	}
	override := compose.Object(msg.Override)
	compose.Merge(body, compose.Pick(override, overrideKeys()...))
	if c, _ := body["content"].(string); c == "" && body["embeds"] == nil && body["components"] == nil {
		return providers.Result{}, providers.Permanent("the message has no text")
	}
	u, err := url.Parse(target)
	if err != nil {
		return providers.Result{}, providers.Permanent("invalid Discord webhook URL")
	}
	q := u.Query()
	q.Set("wait", "true")
	if thread := compose.String(override, "thread_id"); thread != "" {
		q.Set("thread_id", thread)
	}
	u.RawQuery = q.Encode()

	req, err := httpcall.NewJSON(ctx, http.MethodPost, u.String(), body)
	if err != nil {
		return providers.Result{}, err
	}
	res, raw, err := httpcall.Do(p.http, req)
	if err != nil {
		return providers.Result{}, err
	}
	if err := httpcall.Check(res, raw, false); err != nil {
		return providers.Result{}, classify(err, res, raw)
	}
	var created struct {
		ID        string `json:"id"`
		ChannelID string `json:"channel_id"`
	}
	_ = json.Unmarshal(raw, &created)
	return providers.Result{ProviderMessageID: created.ID, Response: fmt.Sprintf("%d posted in channel %s", res.StatusCode, created.ChannelID)}, nil
}

// classify takes a 429's wait from the body's retry_after (seconds, fractional), which is
// more precise than the Retry-After header, and names Discord's error code (10015 unknown
// webhook, 50027 invalid token, 50035 invalid form body: all permanent).
func classify(err error, res *http.Response, raw []byte) error {
	pe, ok := err.(*providers.Error)
	if !ok {
		return err
	}
	var answer struct {
		Message    string  `json:"message"`
		Code       int     `json:"code"`
		RetryAfter float64 `json:"retry_after"`
	}
	if json.Unmarshal(raw, &answer) != nil {
		return pe
	}
	if res.StatusCode == http.StatusTooManyRequests && answer.RetryAfter > 0 {
		pe.RetryAfter = time.Duration(math.Ceil(answer.RetryAfter*1000)) * time.Millisecond
	}
	if answer.Message != "" {
		pe.Message = fmt.Sprintf("Discord error %d: %s", answer.Code, answer.Message)
	}
	return pe
}

// content is the markdown text: the title in bold, the body, the link.
func content(msg providers.Message) string {
	var parts []string
	if t := strings.TrimSpace(msg.Title); t != "" {
		parts = append(parts, "**"+t+"**")
	}
	if b := strings.TrimSpace(msg.Body); b != "" {
		parts = append(parts, b)
	}
	if u := strings.TrimSpace(msg.URL); u != "" {
		parts = append(parts, u)
	}
	return strings.Join(parts, "\n")
}
