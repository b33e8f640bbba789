// Package vonage sends SMS through the Vonage (Nexmo) SMS API (POST /sms/json,
// form-encoded with api_key and api_secret). The API answers 200 even when a message is
// refused; the per-message status code decides.
package vonage

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"
	"unicode"

	"github.com/heraldhq/herald/internal/providers"
	"github.com/heraldhq/herald/internal/providers/internal/compose"
	"github.com/heraldhq/herald/internal/providers/internal/config"
	"github.com/heraldhq/herald/internal/providers/internal/httpcall"
)

func spec() config.Spec {
	return config.Spec{
		{Name: "apiKey", Type: "string", Required: true, Description: "Vonage API key"},
		{Name: "apiSecret", Type: "string", Required: true, Secret: true, Description: "Vonage API secret"},
		{Name: "from", Type: "string", Required: true, Description: "sender: a Vonage number in international format or an alphanumeric sender ID"},
		{Name: "statusReportCallback", Type: "string", Format: "uri", Description: "URL Vonage posts delivery receipts to (Herald's provider callback URL)"},
		{Name: "baseUrl", Type: "string", Format: "uri", Destination: config.DestinationURL, Default: "https://rest.nexmo.com", Description: "API base URL"},
	}
}

type settings struct {
	APIKey   string `json:"apiKey"`
	Secret   string `json:"apiSecret"`
	From     string `json:"from"`
	Callback string `json:"statusReportCallback"`
	BaseURL  string `json:"baseUrl"`
}

// Kind describes the Vonage SMS provider.
func Kind() providers.Kind {
	return providers.Kind{
		Identifier: "vonage-sms", Name: "Vonage SMS", Channel: "sms",
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

// clientRefMax is the longest client-ref Vonage keeps.
const clientRefMax = 40

// Send texts the recipient. Vonage takes no idempotency key; the key travels as
// client-ref (a digest when longer than Vonage allows), which delivery receipts echo.
func (p *provider) Send(ctx context.Context, msg providers.Message) (providers.Result, error) {
	if msg.To.PhoneNumber == "" {
		return providers.Result{}, providers.Permanent("no phone number")
	}
	text := compose.Text(msg)
	if text == "" {
		return providers.Result{}, providers.Permanent("the message has no text")
	}
	form := url.Values{
		"api_key": {p.cfg.APIKey}, "api_secret": {p.cfg.Secret},
		"from": {p.cfg.From},
		// International format without the leading + or 00.
		"to":   {strings.TrimPrefix(strings.TrimPrefix(msg.To.PhoneNumber, "+"), "00")},
		"text": {text},
	}
	if !isASCII(text) {
		form.Set("type", "unicode")
	}
	if msg.IdempotencyKey != "" {
		form.Set("client-ref", compose.FitKey(msg.IdempotencyKey, clientRefMax))
	}
	if p.cfg.Callback != "" {
		form.Set("status-report-req", "1")
		form.Set("callback", p.cfg.Callback)
	}
	req, err := httpcall.NewForm(ctx, strings.TrimRight(p.cfg.BaseURL, "/")+"/sms/json", form)
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
	var answer struct {
		Messages []struct {
			Status    string `json:"status"`
			MessageID string `json:"message-id"`
			ErrorText string `json:"error-text"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(raw, &answer); err != nil || len(answer.Messages) == 0 {
		return providers.Result{}, &providers.Error{StatusCode: res.StatusCode, Message: "unreadable Vonage answer"}
	}
	// A long text is split into parts, one entry each; all must be accepted.
	for _, m := range answer.Messages {
		if m.Status != "0" {
			return providers.Result{}, statusError(m.Status, m.ErrorText)
		}
	}
	return providers.Result{
		ProviderMessageID: answer.Messages[0].MessageID,
		Response:          fmt.Sprintf("%d accepted in %d part(s)", res.StatusCode, len(answer.Messages)),
	}, nil
}

// statusError classifies a refused message by the SMS API status code: 1 throttled,
// 5 internal error and 10 too many binds are transient; the rest (invalid parameters or
// credentials, barred number, no credit, invalid sender…) are permanent.
func statusError(status, text string) error {
	e := &providers.Error{Permanent: true, Message: fmt.Sprintf("Vonage status %s: %s", status, text)}
	switch status {
	case "1":
		e.Permanent, e.RetryAfter = false, time.Second
	case "5", "10":
		e.Permanent = false
	}
	return e
}

func isASCII(s string) bool {
	for _, r := range s {
		if r > unicode.MaxASCII {
			return false
		}
	}
	return true
}
