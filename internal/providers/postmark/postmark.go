// Package postmark sends email through the Postmark Email API
// (POST /email, X-Postmark-Server-Token), on a configurable message stream.
package postmark

import (
	"context"
	"encoding/base64"
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
		{Name: "serverToken", Type: "string", Required: true, Secret: true, Description: "Postmark server API token"},
		{Name: "from", Type: "string", Required: true, Format: "email", Description: "default sender address (a confirmed sender signature or domain)"},
		{Name: "fromName", Type: "string", Description: "default sender name"},
		{Name: "replyTo", Type: "string", Format: "email", Description: "default Reply-To address"},
		{Name: "messageStream", Type: "string", Default: "outbound", Description: "message stream ID (outbound is the default transactional stream)"},
		{Name: "baseUrl", Type: "string", Format: "uri", Destination: config.DestinationURL, Default: "https://api.postmarkapp.com", Description: "API base URL"},
	}
}

type settings struct {
	ServerToken   string `json:"serverToken"`
	From          string `json:"from"`
	FromName      string `json:"fromName"`
	ReplyTo       string `json:"replyTo"`
	MessageStream string `json:"messageStream"`
	BaseURL       string `json:"baseUrl"`
}

// Kind describes the Postmark provider.
func Kind() providers.Kind {
	return providers.Kind{
		Identifier: "postmark", Name: "Postmark", Channel: "email",
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

type attachment struct {
	Name        string
	Content     string
	ContentType string
}

type email struct {
	From          string
	To            string
	Cc            string            `json:",omitempty"`
	Bcc           string            `json:",omitempty"`
	Subject       string            `json:",omitempty"`
	HtmlBody      string            `json:",omitempty"`
	TextBody      string            `json:",omitempty"`
	ReplyTo       string            `json:",omitempty"`
	MessageStream string            `json:",omitempty"`
	Attachments   []attachment      `json:",omitempty"`
	Metadata      map[string]string `json:",omitempty"`
	// Headers are the message's extra headers (List-Unsubscribe, …).
	Headers []header `json:",omitempty"`
}

type header struct{ Name, Value string }

// Metadata limits: values up to 80 characters.
const metadataValueMax = 80

// Send posts one email. Postmark has no idempotency key; the key travels in Metadata
// (returned by Postmark's webhooks), as a digest when longer than a metadata value may be.
func (p *provider) Send(ctx context.Context, msg providers.Message) (providers.Result, error) {
	if err := compose.CheckEmail(msg); err != nil {
		return providers.Result{}, err
	}
	from := compose.SenderOf(msg, compose.Sender{Email: p.cfg.From, Name: p.cfg.FromName, ReplyTo: p.cfg.ReplyTo})
	cc := compose.Unique(msg.CC, msg.To.Email)
	body := email{
		From: compose.Address(from.Name, from.Email), To: msg.To.Email,
		Cc:      strings.Join(cc, ","),
		Bcc:     strings.Join(compose.Unique(msg.BCC, append(cc, msg.To.Email)...), ","),
		Subject: msg.Subject, HtmlBody: msg.HTML, TextBody: msg.Text, ReplyTo: from.ReplyTo,
		MessageStream: p.cfg.MessageStream,
	}
	for _, h := range msg.Headers {
		body.Headers = append(body.Headers, header{Name: h.Name, Value: h.Value})
	}
	for _, a := range msg.Attachments {
		ct := a.ContentType
		if ct == "" {
			ct = "application/octet-stream"
		}
		body.Attachments = append(body.Attachments, attachment{Name: a.Filename, Content: base64.StdEncoding.EncodeToString(a.Content), ContentType: ct})
	}
	if msg.IdempotencyKey != "" {
		body.Metadata = map[string]string{
			"heraldKey":     compose.FitKey(msg.IdempotencyKey, metadataValueMax),
			"heraldRequest": compose.FitKey(msg.RequestID, metadataValueMax),
		}
	}
	req, err := httpcall.NewJSON(ctx, http.MethodPost, strings.TrimRight(p.cfg.BaseURL, "/")+"/email", body)
	if err != nil {
		return providers.Result{}, err
	}
	req.Header.Set("X-Postmark-Server-Token", p.cfg.ServerToken)
	res, raw, err := httpcall.Do(p.http, req)
	if err != nil {
		return providers.Result{}, err
	}
	var answer struct {
		ErrorCode int
		Message   string
		MessageID string
	}
	_ = json.Unmarshal(raw, &answer)
	if err := httpcall.Check(res, raw, false); err != nil {
		return providers.Result{}, classify(err, answer.ErrorCode)
	}
	if answer.ErrorCode != 0 {
		// Postmark answers errors with 422 but the API code is what counts.
		return providers.Result{}, classify(&providers.Error{Permanent: true, StatusCode: res.StatusCode, Message: answer.Message}, answer.ErrorCode)
	}
	return providers.Result{ProviderMessageID: answer.MessageID, Response: fmt.Sprintf("%d %s", res.StatusCode, answer.Message)}, nil
}

// classify refines an HTTP classification with Postmark's API error code: 100 is
// maintenance (retry), 429 is the rate limit; 406 (inactive recipient: hard bounce or spam
// complaint) and the rest stay permanent.
func classify(err error, code int) error {
	pe, ok := err.(*providers.Error)
	if !ok {
		return err
	}
	switch code {
	case 100, 429:
		pe.Permanent = false
	}
	if code != 0 {
		pe.Message = fmt.Sprintf("Postmark error %d: %s", code, pe.Message)
	}
	return pe
}
