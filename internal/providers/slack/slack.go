// Package slack posts to Slack, either through an incoming webhook (POST to the webhook
// URL, answered "ok") or through the Web API's chat.postMessage with a bot token (answered
// 200 with ok:false on errors, so the body decides).
package slack

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/heraldhq/herald/internal/providers"
	"github.com/heraldhq/herald/internal/providers/internal/compose"
	"github.com/heraldhq/herald/internal/providers/internal/config"
	"github.com/heraldhq/herald/internal/providers/internal/httpcall"
)

func spec() config.Spec {
	return config.Spec{
		{Name: "webhookUrl", Type: "string", Secret: true, Format: "uri", Destination: config.DestinationURL, Description: "incoming webhook URL (https://hooks.slack.com/services/…); used when the recipient has no webhook URL of their own and no bot token is set"},
		{Name: "botToken", Type: "string", Secret: true, Description: "bot token (xoxb-…) with chat:write, for chat.postMessage"},
		{Name: "channel", Type: "string", Description: "default channel ID for chat.postMessage when the recipient names none"},
		{Name: "baseUrl", Type: "string", Format: "uri", Destination: config.DestinationURL, Default: "https://slack.com/api", Description: "Web API base URL"},
	}
}

type settings struct {
	WebhookURL string `json:"webhookUrl"`
	BotToken   string `json:"botToken"`
	Channel    string `json:"channel"`
	BaseURL    string `json:"baseUrl"`
}

// Kind describes the Slack provider. Nothing is required: a recipient may bring their
// own webhook URL (Address.WebhookURL).
func Kind() providers.Kind {
	return providers.Kind{
		Identifier: "slack", Name: "Slack", Channel: "slack",
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

// overrideKeys are the message fields an override may set (Slack's own names).
func overrideKeys() []string {
	return []string{"text", "blocks", "attachments", "username", "icon_emoji", "icon_url", "thread_ts",
		"reply_broadcast", "unfurl_links", "unfurl_media", "mrkdwn", "metadata"}
}

// Send posts the message. The recipient's webhook URL wins; else, with a bot token,
// chat.postMessage to the recipient's channel (Address.ChatChannel), the override's
// channel or the configured one; else the configured webhook. Slack takes no idempotency
// key.
func (p *provider) Send(ctx context.Context, msg providers.Message) (providers.Result, error) {
	body := map[string]any{"text": text(msg)}
	if blocks := blockKit(msg.Blocks); blocks != nil {
		body["blocks"] = blocks
	}
	override := compose.Object(msg.Override)
	compose.Merge(body, compose.Pick(override, overrideKeys()...))
	if t, _ := body["text"].(string); t == "" && body["blocks"] == nil && body["attachments"] == nil {
		return providers.Result{}, providers.Permanent("the message has no text")
	}
	switch {
	case msg.To.WebhookURL != "":
		return p.webhook(ctx, msg.To.WebhookURL, body)
	case p.cfg.BotToken != "":
		channel := msg.To.ChatChannel
		if channel == "" {
			channel = compose.String(override, "channel")
		}
		if channel == "" {
			channel = p.cfg.Channel
		}
		if channel == "" {
			return providers.Result{}, providers.Permanent("no Slack channel")
		}
		body["channel"] = channel
		return p.postMessage(ctx, body)
	case p.cfg.WebhookURL != "":
		return p.webhook(ctx, p.cfg.WebhookURL, body)
	}
	return providers.Result{}, providers.Permanent("no Slack webhook URL or bot token")
}

// webhook posts to an incoming webhook: 200 "ok", or a 4xx with a text code
// (invalid_payload, channel_not_found, no_service, …) that is permanent.
func (p *provider) webhook(ctx context.Context, target string, body map[string]any) (providers.Result, error) {
	req, err := httpcall.NewJSON(ctx, http.MethodPost, target, body)
	if err != nil {
		return providers.Result{}, err
	}
	res, raw, err := httpcall.Do(p.http, req)
	if err != nil {
		return providers.Result{}, err
	}
	if err := httpcall.Check(res, raw, false); err != nil {
		return providers.Result{}, err
	}
	return providers.Result{Response: fmt.Sprintf("%d %s", res.StatusCode, compose.Truncate(string(raw), 100))}, nil
}

// postMessage calls chat.postMessage.
func (p *provider) postMessage(ctx context.Context, body map[string]any) (providers.Result, error) {
	req, err := httpcall.NewJSON(ctx, http.MethodPost, strings.TrimRight(p.cfg.BaseURL, "/")+"/chat.postMessage", body)
	if err != nil {
		return providers.Result{}, err
	}
	req.Header.Set("Content-Type", "application/json; charset=utf-8")
	req.Header.Set("Authorization", "Bearer "+p.cfg.BotToken)
	res, raw, err := httpcall.Do(p.http, req)
	if err != nil {
		return providers.Result{}, err
	}
	if err := httpcall.Check(res, raw, false); err != nil {
		return providers.Result{}, err
	}
	var answer struct {
		OK      bool   `json:"ok"`
		Error   string `json:"error"`
		Channel string `json:"channel"`
		TS      string `json:"ts"`
	}
	if err := json.Unmarshal(raw, &answer); err != nil {
		return providers.Result{}, &providers.Error{StatusCode: res.StatusCode, Message: "unreadable Slack answer"}
	}
	if !answer.OK {
		return providers.Result{}, apiError(res.StatusCode, answer.Error)
	}
	return providers.Result{ProviderMessageID: answer.TS, Response: fmt.Sprintf("%d ok, channel %s", res.StatusCode, answer.Channel)}, nil
}

// apiError classifies a Web API error code: Slack's own faults and rate limits retry;
// everything else — bad or revoked token, unknown or archived channel, bot not in
// channel, invalid blocks, message too long — is permanent.
func apiError(status int, code string) error {
	e := &providers.Error{Permanent: true, StatusCode: status, Message: "Slack error " + code}
	switch code {
	case "ratelimited", "internal_error", "fatal_error", "service_unavailable", "request_timeout", "team_added_to_org":
		e.Permanent = false
	}
	return e
}

// text is the mrkdwn fallback text: the title in bold, the body, the link.
func text(msg providers.Message) string {
	var parts []string
	if t := strings.TrimSpace(msg.Title); t != "" {
		parts = append(parts, "*"+escape(t)+"*")
	}
	if b := strings.TrimSpace(msg.Body); b != "" {
		parts = append(parts, escape(b))
	}
	if u := strings.TrimSpace(msg.URL); u != "" {
		parts = append(parts, "<"+u+">")
	}
	return strings.Join(parts, "\n")
}

// escape encodes the three characters Slack's mrkdwn reserves.
func escape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(s)
}

// blockKit returns the message's blocks when they look like Block Kit (an array of
// objects, each with a string type); anything else would make Slack refuse the whole
// message (invalid_blocks), so it is left out and the text goes alone.
func blockKit(raw json.RawMessage) []any {
	var blocks []any
	if json.Unmarshal(raw, &blocks) != nil || len(blocks) == 0 {
		return nil
	}
	for _, b := range blocks {
		obj, ok := b.(map[string]any)
		if !ok {
			return nil
		}
		if _, ok := obj["type"].(string); !ok {
			return nil
		}
	}
	return blocks
}
