// Package metawhatsapp sends WhatsApp messages through Meta's WhatsApp Cloud API
// (POST /{version}/{phone-number-id}/messages, bearer access token): free text inside the
// customer-service window, or an approved template from the override.
package metawhatsapp

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/heraldhq/herald/internal/providers"
	"github.com/heraldhq/herald/internal/providers/internal/compose"
	"github.com/heraldhq/herald/internal/providers/internal/config"
	"github.com/heraldhq/herald/internal/providers/internal/httpcall"
)

func spec() config.Spec {
	return config.Spec{
		{Name: "accessToken", Type: "string", Required: true, Secret: true, Description: "system user access token with whatsapp_business_messaging"},
		{Name: "phoneNumberId", Type: "string", Required: true, Description: "ID of the WhatsApp business phone number that sends"},
		{Name: "apiVersion", Type: "string", Default: "v23.0", Description: "Graph API version"},
		{Name: "baseUrl", Type: "string", Format: "uri", Destination: config.DestinationURL, Default: "https://graph.facebook.com", Description: "Graph API base URL"},
	}
}

type settings struct {
	AccessToken   string `json:"accessToken"`
	PhoneNumberID string `json:"phoneNumberId"`
	APIVersion    string `json:"apiVersion"`
	BaseURL       string `json:"baseUrl"`
}

// Kind describes the Meta WhatsApp Cloud API provider.
func Kind() providers.Kind {
	return providers.Kind{
		Identifier: "meta-whatsapp", Name: "WhatsApp Cloud API (Meta)", Channel: "whatsapp",
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

// callbackDataMax is the longest biz_opaque_callback_data Meta accepts.
const callbackDataMax = 512

// Send messages the recipient's WhatsApp number. With override.template ({name,
// language, components}) it sends that template (required outside the 24-hour window);
// otherwise a text message. The idempotency key travels as biz_opaque_callback_data,
// which Meta returns in status webhooks (the API has no idempotency key).
func (p *provider) Send(ctx context.Context, msg providers.Message) (providers.Result, error) {
	if msg.To.PhoneNumber == "" {
		return providers.Result{}, providers.Permanent("no phone number")
	}
	body := map[string]any{
		"messaging_product": "whatsapp",
		"recipient_type":    "individual",
		"to":                msg.To.PhoneNumber,
	}
	override := compose.Object(msg.Override)
	if tpl, ok := override["template"].(map[string]any); ok {
		if lang, ok := tpl["language"].(string); ok {
			tpl["language"] = map[string]any{"code": lang}
		}
		body["type"] = "template"
		body["template"] = tpl
	} else {
		text := compose.Text(msg)
		if text == "" {
			return providers.Result{}, providers.Permanent("the message has no text")
		}
		preview := msg.URL != ""
		if v, ok := override["previewUrl"].(bool); ok {
			preview = v
		}
		body["type"] = "text"
		body["text"] = map[string]any{"body": text, "preview_url": preview}
	}
	if msg.IdempotencyKey != "" {
		body["biz_opaque_callback_data"] = compose.FitKey(msg.IdempotencyKey, callbackDataMax)
	}

	target := fmt.Sprintf("%s/%s/%s/messages", strings.TrimRight(p.cfg.BaseURL, "/"), url.PathEscape(p.cfg.APIVersion), url.PathEscape(p.cfg.PhoneNumberID))
	req, err := httpcall.NewJSON(ctx, http.MethodPost, target, body)
	if err != nil {
		return providers.Result{}, err
	}
	req.Header.Set("Authorization", "Bearer "+p.cfg.AccessToken)
	res, raw, err := httpcall.Do(p.http, req)
	if err != nil {
		return providers.Result{}, err
	}
	if err := httpcall.Check(res, raw, false); err != nil {
		return providers.Result{}, classify(err, raw)
	}
	var answer struct {
		Messages []struct {
			ID            string `json:"id"`
			MessageStatus string `json:"message_status"`
		} `json:"messages"`
	}
	_ = json.Unmarshal(raw, &answer)
	if len(answer.Messages) == 0 {
		return providers.Result{}, &providers.Error{StatusCode: res.StatusCode, Message: "Meta accepted nothing"}
	}
	return providers.Result{ProviderMessageID: answer.Messages[0].ID, Response: fmt.Sprintf("%d accepted", res.StatusCode)}, nil
}

// transient reports whether a Graph/Cloud API error code is worth retrying: unknown or
// service errors, rate limits (app, account, throughput, spam, pair) and temporary
// unavailability. Other codes — expired token (190), undeliverable (131026), outside the
// customer-service window (131047), bad template parameters (132000) — are permanent.
func transient(code int) bool {
	switch code {
	case 1, 2, 4, 80007, 130429, 131000, 131016, 131048, 131056, 133004:
		return true
	}
	return false
}

// classify reads Meta's error object: rate limits come back as 400, so the code decides.
func classify(err error, raw []byte) error {
	pe, ok := err.(*providers.Error)
	if !ok {
		return err
	}
	var answer struct {
		Error struct {
			Message   string `json:"message"`
			Code      int    `json:"code"`
			ErrorData struct {
				Details string `json:"details"`
			} `json:"error_data"`
		} `json:"error"`
	}
	if json.Unmarshal(raw, &answer) != nil || answer.Error.Code == 0 {
		return pe
	}
	if transient(answer.Error.Code) {
		pe.Permanent = false
	}
	pe.Message = fmt.Sprintf("WhatsApp error %d: %s", answer.Error.Code, answer.Error.Message)
	if d := answer.Error.ErrorData.Details; d != "" {
		pe.Message += " (" + d + ")"
	}
	return pe
}
