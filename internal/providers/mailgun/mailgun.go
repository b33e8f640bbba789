// Package mailgun sends email through the Mailgun Messages API
// (POST /v3/{domain}/messages, multipart form, basic auth api:<key>), in the US or EU region.
package mailgun

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"net/url"
	"strings"

	"github.com/heraldhq/herald/internal/providers"
	"github.com/heraldhq/herald/internal/providers/internal/compose"
	"github.com/heraldhq/herald/internal/providers/internal/config"
	"github.com/heraldhq/herald/internal/providers/internal/httpcall"
)

// Regional API hosts.
const (
	usBase = "https://api.mailgun.net"
	euBase = "https://api.eu.mailgun.net"
)

func spec() config.Spec {
	return config.Spec{
		{Name: "apiKey", Type: "string", Required: true, Secret: true, Description: "Mailgun sending or account API key"},
		{Name: "domain", Type: "string", Required: true, Description: "sending domain, e.g. mg.example.com"},
		{Name: "region", Type: "string", Enum: []string{"us", "eu"}, Default: "us", Destination: config.DestinationSetting, Description: "region of the domain: us (api.mailgun.net) or eu (api.eu.mailgun.net)"},
		{Name: "from", Type: "string", Required: true, Format: "email", Description: "default sender address; override.channel.email.from replaces it"},
		{Name: "fromName", Type: "string", Description: "default sender name"},
		{Name: "replyTo", Type: "string", Format: "email", Description: "default Reply-To address"},
		{Name: "baseUrl", Type: "string", Format: "uri", Destination: config.DestinationURL, Description: "API base URL; replaces the region's host when set"},
	}
}

type settings struct {
	APIKey   string `json:"apiKey"`
	Domain   string `json:"domain"`
	Region   string `json:"region"`
	From     string `json:"from"`
	FromName string `json:"fromName"`
	ReplyTo  string `json:"replyTo"`
	BaseURL  string `json:"baseUrl"`
}

// Kind describes the Mailgun provider.
func Kind() providers.Kind {
	return providers.Kind{
		Identifier: "mailgun", Name: "Mailgun", Channel: "email",
		ConfigSchema: spec().Schema(),
		New: func(raw json.RawMessage, deps providers.Deps) (providers.Provider, error) {
			var s settings
			if err := spec().Decode(raw, &s); err != nil {
				return nil, err
			}
			if s.BaseURL == "" {
				s.BaseURL = usBase
				if s.Region == "eu" {
					s.BaseURL = euBase
				}
			}
			return &provider{cfg: s, http: httpcall.Client(deps)}, nil
		},
	}
}

type provider struct {
	cfg  settings
	http *http.Client
}

// Send posts one message. Mailgun has no idempotency key; the key travels as the user
// variable v:heraldIdempotencyKey, which Mailgun returns in its event webhooks.
func (p *provider) Send(ctx context.Context, msg providers.Message) (providers.Result, error) {
	if err := compose.CheckEmail(msg); err != nil {
		return providers.Result{}, err
	}
	from := compose.SenderOf(msg, compose.Sender{Email: p.cfg.From, Name: p.cfg.FromName, ReplyTo: p.cfg.ReplyTo})
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	field := func(name, value string) {
		if value != "" {
			_ = w.WriteField(name, value)
		}
	}
	field("from", compose.Address(from.Name, from.Email))
	field("to", msg.To.Email)
	cc := compose.Unique(msg.CC, msg.To.Email)
	field("cc", strings.Join(cc, ","))
	field("bcc", strings.Join(compose.Unique(msg.BCC, append(cc, msg.To.Email)...), ","))
	field("subject", msg.Subject)
	field("text", msg.Text)
	field("html", msg.HTML)
	field("h:Reply-To", from.ReplyTo)
	for _, h := range msg.Headers {
		field("h:"+h.Name, h.Value)
	}
	field("v:heraldIdempotencyKey", msg.IdempotencyKey)
	field("v:heraldRequestId", msg.RequestID)
	for _, a := range msg.Attachments {
		h := textproto.MIMEHeader{}
		h.Set("Content-Disposition", fmt.Sprintf(`form-data; name="attachment"; filename=%q`, a.Filename))
		if a.ContentType != "" {
			h.Set("Content-Type", a.ContentType)
		}
		part, err := w.CreatePart(h)
		if err != nil {
			return providers.Result{}, err
		}
		_, _ = part.Write(a.Content)
	}
	if err := w.Close(); err != nil {
		return providers.Result{}, err
	}

	target := fmt.Sprintf("%s/v3/%s/messages", strings.TrimRight(p.cfg.BaseURL, "/"), url.PathEscape(p.cfg.Domain))
	req, err := httpcall.NewRaw(ctx, http.MethodPost, target, w.FormDataContentType(), buf.Bytes())
	if err != nil {
		return providers.Result{}, err
	}
	req.SetBasicAuth("api", p.cfg.APIKey)
	res, raw, err := httpcall.Do(p.http, req)
	if err != nil {
		return providers.Result{}, err
	}
	if err := httpcall.Check(res, raw, false); err != nil {
		return providers.Result{}, err
	}
	var ok struct {
		ID      string `json:"id"`
		Message string `json:"message"`
	}
	_ = json.Unmarshal(raw, &ok)
	id := strings.Trim(ok.ID, "<>")
	return providers.Result{ProviderMessageID: id, Response: fmt.Sprintf("%d %s", res.StatusCode, ok.Message)}, nil
}
