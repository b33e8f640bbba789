// Package sendgrid sends email through the SendGrid v3 Mail Send API
// (POST /v3/mail/send, bearer API key).
package sendgrid

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/heraldhq/herald/internal/providers"
	"github.com/heraldhq/herald/internal/providers/internal/compose"
	"github.com/heraldhq/herald/internal/providers/internal/config"
	"github.com/heraldhq/herald/internal/providers/internal/httpcall"
)

// spec lists the configuration keys.
func spec() config.Spec {
	return config.Spec{
		{Name: "apiKey", Type: "string", Required: true, Secret: true, Description: "SendGrid API key with the Mail Send permission"},
		{Name: "from", Type: "string", Required: true, Format: "email", Description: "default sender address (a verified sender); override.channel.email.from replaces it"},
		{Name: "fromName", Type: "string", Description: "default sender name"},
		{Name: "replyTo", Type: "string", Format: "email", Description: "default Reply-To address"},
		{Name: "baseUrl", Type: "string", Format: "uri", Destination: config.DestinationURL, Default: "https://api.sendgrid.com", Description: "API base URL (https://api.eu.sendgrid.com for EU regional subusers)"},
	}
}

type settings struct {
	APIKey   string `json:"apiKey"`
	From     string `json:"from"`
	FromName string `json:"fromName"`
	ReplyTo  string `json:"replyTo"`
	BaseURL  string `json:"baseUrl"`
}

// Kind describes the SendGrid provider.
func Kind() providers.Kind {
	return providers.Kind{
		Identifier: "sendgrid", Name: "SendGrid", Channel: "email",
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

type address struct {
	Email string `json:"email"`
	Name  string `json:"name,omitempty"`
}

type personalization struct {
	To  []address `json:"to"`
	CC  []address `json:"cc,omitempty"`
	BCC []address `json:"bcc,omitempty"`
}

type content struct {
	Type  string `json:"type"`
	Value string `json:"value"`
}

type attachment struct {
	Content     string `json:"content"`
	Type        string `json:"type,omitempty"`
	Filename    string `json:"filename"`
	Disposition string `json:"disposition"`
}

type mail struct {
	Personalizations []personalization `json:"personalizations"`
	From             address           `json:"from"`
	ReplyTo          *address          `json:"reply_to,omitempty"`
	Subject          string            `json:"subject"`
	Content          []content         `json:"content"`
	Attachments      []attachment      `json:"attachments,omitempty"`
	CustomArgs       map[string]string `json:"custom_args,omitempty"`
	// Headers are the message's extra headers (List-Unsubscribe, …).
	Headers map[string]string `json:"headers,omitempty"`
}

// Send posts one mail. SendGrid has no idempotency key; the key travels in custom_args so
// event webhooks and the activity feed tie a delivery to its Herald message.
func (p *provider) Send(ctx context.Context, msg providers.Message) (providers.Result, error) {
	if err := compose.CheckEmail(msg); err != nil {
		return providers.Result{}, err
	}
	from := compose.SenderOf(msg, compose.Sender{Email: p.cfg.From, Name: p.cfg.FromName, ReplyTo: p.cfg.ReplyTo})
	pers := personalization{To: []address{{Email: msg.To.Email}}}
	cc := compose.Unique(msg.CC, msg.To.Email)
	for _, a := range cc {
		pers.CC = append(pers.CC, address{Email: a})
	}
	for _, a := range compose.Unique(msg.BCC, append(cc, msg.To.Email)...) {
		pers.BCC = append(pers.BCC, address{Email: a})
	}
	body := mail{
		Personalizations: []personalization{pers},
		From:             address{Email: from.Email, Name: from.Name},
		Subject:          msg.Subject,
	}
	if from.ReplyTo != "" {
		body.ReplyTo = &address{Email: from.ReplyTo}
	}
	for _, h := range msg.Headers {
		if body.Headers == nil {
			body.Headers = map[string]string{}
		}
		body.Headers[h.Name] = h.Value
	}
	// text/plain must come before text/html.
	if msg.Text != "" {
		body.Content = append(body.Content, content{Type: "text/plain", Value: msg.Text})
	}
	if msg.HTML != "" {
		body.Content = append(body.Content, content{Type: "text/html", Value: msg.HTML})
	}
	for _, a := range msg.Attachments {
		body.Attachments = append(body.Attachments, attachment{
			Content: base64.StdEncoding.EncodeToString(a.Content), Type: a.ContentType,
			Filename: a.Filename, Disposition: "attachment",
		})
	}
	if msg.IdempotencyKey != "" {
		body.CustomArgs = map[string]string{"heraldIdempotencyKey": msg.IdempotencyKey, "heraldRequestId": msg.RequestID}
	}

	req, err := httpcall.NewJSON(ctx, http.MethodPost, strings.TrimRight(p.cfg.BaseURL, "/")+"/v3/mail/send", body)
	if err != nil {
		return providers.Result{}, err
	}
	req.Header.Set("Authorization", "Bearer "+p.cfg.APIKey)
	res, raw, err := httpcall.Do(p.http, req)
	if err != nil {
		return providers.Result{}, err
	}
	if err := httpcall.Check(res, raw, false); err != nil {
		return providers.Result{}, withRateLimitReset(err, res)
	}
	id := res.Header.Get("X-Message-Id")
	return providers.Result{ProviderMessageID: id, Response: fmt.Sprintf("%d accepted, message id %s", res.StatusCode, id)}, nil
}

// withRateLimitReset fills RetryAfter of a 429 from X-RateLimit-Reset (a Unix time) when
// SendGrid sent no Retry-After.
func withRateLimitReset(err error, res *http.Response) error {
	pe, ok := err.(*providers.Error)
	if !ok || res.StatusCode != http.StatusTooManyRequests || pe.RetryAfter > 0 {
		return err
	}
	if reset, perr := strconv.ParseInt(res.Header.Get("X-RateLimit-Reset"), 10, 64); perr == nil {
		if d := time.Until(time.Unix(reset, 0)); d > 0 {
			pe.RetryAfter = d.Round(time.Second)
		}
	}
	return err
}
