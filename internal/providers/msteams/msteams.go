// Package msteams posts to Microsoft Teams through a webhook: a Workflows (Power
// Automate) "post to a channel when a webhook request is received" URL, which takes an
// Adaptive Card, or a legacy Office 365 connector incoming webhook, which also takes a
// MessageCard.
package msteams

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"strings"

	"github.com/heraldhq/herald/internal/providers"
	"github.com/heraldhq/herald/internal/providers/internal/compose"
	"github.com/heraldhq/herald/internal/providers/internal/config"
	"github.com/heraldhq/herald/internal/providers/internal/httpcall"
)

func spec() config.Spec {
	return config.Spec{
		{Name: "webhookUrl", Type: "string", Secret: true, Format: "uri", Destination: config.DestinationURL, Description: "Workflows webhook URL or incoming webhook URL; used when the recipient has none of their own"},
		{Name: "format", Type: "string", Enum: []string{"adaptiveCard", "messageCard"}, Default: "adaptiveCard", Description: "card format: adaptiveCard (Workflows and connectors) or messageCard (legacy connectors only)"},
	}
}

type settings struct {
	WebhookURL string `json:"webhookUrl"`
	Format     string `json:"format"`
}

// Kind describes the Microsoft Teams webhook provider.
func Kind() providers.Kind {
	return providers.Kind{
		Identifier: "msteams", Name: "Microsoft Teams", Channel: "msTeams",
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

// Send posts a card with the title, the body and an "Open" action for the link.
// override.card replaces the generated card (the AdaptiveCard object, or the whole
// MessageCard). Teams webhooks take no idempotency key.
func (p *provider) Send(ctx context.Context, msg providers.Message) (providers.Result, error) {
	target := msg.To.WebhookURL
	if target == "" {
		target = p.cfg.WebhookURL
	}
	if target == "" {
		return providers.Result{}, providers.Permanent("no Teams webhook URL")
	}
	card, _ := compose.Object(msg.Override)["card"].(map[string]any)
	if card == nil && strings.TrimSpace(msg.Title) == "" && strings.TrimSpace(msg.Body) == "" {
		return providers.Result{}, providers.Permanent("the message has no text")
	}
	var body map[string]any
	if p.cfg.Format == "messageCard" {
		body = card
		if body == nil {
			body = messageCard(msg)
		}
	} else {
		if card == nil {
			card = adaptiveCard(msg)
		}
		body = map[string]any{
			"type": "message",
			"attachments": []any{map[string]any{
				"contentType": "application/vnd.microsoft.card.adaptive",
				"contentUrl":  nil,
				"content":     card,
			}},
		}
	}
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
	if err := deliveryFailure(res.StatusCode, string(raw)); err != nil {
		return providers.Result{}, err
	}
	return providers.Result{Response: fmt.Sprintf("%d %s", res.StatusCode, compose.Truncate(string(raw), 100))}, nil
}

// failedStatus finds the status a legacy connector reports inside a 200 answer, as in
// "Webhook message delivery failed with error: Microsoft Teams endpoint returned HTTP
// error 429 with ContextId …".
func failedStatus() *regexp.Regexp { return regexp.MustCompile(`HTTP error (\d{3})`) }

// deliveryFailure classifies a 2xx answer: Workflows answer 202 with an empty body and
// connectors 200 "1", but a connector that could not deliver still answers 200 with the
// failure in the text. A failure with a 4xx other than 429 is permanent; others retry.
func deliveryFailure(status int, body string) error {
	if !strings.Contains(body, "delivery failed") {
		return nil
	}
	e := &providers.Error{StatusCode: status, Message: compose.Truncate(body, 300)}
	if m := failedStatus().FindStringSubmatch(body); m != nil && m[1][0] == '4' && m[1] != "429" {
		e.Permanent = true
	}
	return e
}

// adaptiveCard is the card for Workflows webhooks.
func adaptiveCard(msg providers.Message) map[string]any {
	var blocks []any
	if t := strings.TrimSpace(msg.Title); t != "" {
		blocks = append(blocks, map[string]any{"type": "TextBlock", "text": t, "weight": "Bolder", "size": "Medium", "wrap": true})
	}
	if b := strings.TrimSpace(msg.Body); b != "" {
		blocks = append(blocks, map[string]any{"type": "TextBlock", "text": b, "wrap": true})
	}
	card := map[string]any{
		"$schema": "http://adaptivecards.io/schemas/adaptive-card.json",
		"type":    "AdaptiveCard",
		"version": "1.4",
		"body":    blocks,
	}
	if msg.URL != "" {
		card["actions"] = []any{map[string]any{"type": "Action.OpenUrl", "title": "Open", "url": msg.URL}}
	}
	return card
}

// messageCard is the legacy connector card.
func messageCard(msg providers.Message) map[string]any {
	summary := strings.TrimSpace(msg.Title)
	if summary == "" {
		summary = compose.Truncate(strings.TrimSpace(msg.Body), 80)
	}
	card := map[string]any{
		"@type":    "MessageCard",
		"@context": "https://schema.org/extensions",
		"summary":  summary,
		"text":     msg.Body,
	}
	if msg.Title != "" {
		card["title"] = msg.Title
	}
	if msg.URL != "" {
		card["potentialAction"] = []any{map[string]any{
			"@type": "OpenUri", "name": "Open",
			"targets": []any{map[string]any{"os": "default", "uri": msg.URL}},
		}}
	}
	return card
}
