// Package ses sends email through Amazon SES API v2 SendEmail
// (POST /v2/email/outbound-emails), signed with AWS Signature Version 4.
package ses

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/heraldhq/herald/internal/providers"
	"github.com/heraldhq/herald/internal/providers/internal/compose"
	"github.com/heraldhq/herald/internal/providers/internal/config"
	"github.com/heraldhq/herald/internal/providers/internal/httpcall"
)

func spec() config.Spec {
	return config.Spec{
		{Name: "accessKeyId", Type: "string", Required: true, Description: "AWS access key ID of an identity allowed ses:SendEmail"},
		{Name: "secretAccessKey", Type: "string", Required: true, Secret: true, Description: "AWS secret access key"},
		{Name: "sessionToken", Type: "string", Secret: true, Description: "session token, for temporary credentials"},
		{Name: "region", Type: "string", Required: true, Destination: config.DestinationSetting, Description: "AWS region of the SES identity, e.g. eu-west-1"},
		{Name: "from", Type: "string", Required: true, Format: "email", Description: "default sender address (a verified identity)"},
		{Name: "fromName", Type: "string", Description: "default sender name"},
		{Name: "replyTo", Type: "string", Format: "email", Description: "default Reply-To address"},
		{Name: "configurationSetName", Type: "string", Description: "configuration set for event publishing (delivery, bounce, open, click)"},
		{Name: "baseUrl", Type: "string", Format: "uri", Destination: config.DestinationURL, Description: "API base URL; default https://email.<region>.amazonaws.com"},
	}
}

type settings struct {
	AccessKeyID          string `json:"accessKeyId"`
	SecretAccessKey      string `json:"secretAccessKey"`
	SessionToken         string `json:"sessionToken"`
	Region               string `json:"region"`
	From                 string `json:"from"`
	FromName             string `json:"fromName"`
	ReplyTo              string `json:"replyTo"`
	ConfigurationSetName string `json:"configurationSetName"`
	BaseURL              string `json:"baseUrl"`
}

// Kind describes the Amazon SES provider.
func Kind() providers.Kind {
	return providers.Kind{
		Identifier: "ses", Name: "Amazon SES", Channel: "email",
		ConfigSchema: spec().Schema(),
		New: func(raw json.RawMessage, deps providers.Deps) (providers.Provider, error) {
			var s settings
			if err := spec().Decode(raw, &s); err != nil {
				return nil, err
			}
			if s.BaseURL == "" {
				s.BaseURL = "https://email." + s.Region + ".amazonaws.com"
			}
			return &provider{cfg: s, http: httpcall.Client(deps), now: time.Now}, nil
		},
	}
}

type provider struct {
	cfg  settings
	http *http.Client
	now  func() time.Time
}

type content struct {
	Data    string
	Charset string
}

type attachment struct {
	FileName           string
	RawContent         string
	ContentType        string `json:",omitempty"`
	ContentDisposition string
}

type tag struct{ Name, Value string }

type sendEmail struct {
	FromEmailAddress string
	Destination      struct {
		ToAddresses  []string
		CcAddresses  []string `json:",omitempty"`
		BccAddresses []string `json:",omitempty"`
	}
	ReplyToAddresses []string `json:",omitempty"`
	Content          struct {
		Simple struct {
			Subject content
			Body    struct {
				Text *content `json:",omitempty"`
				Html *content `json:",omitempty"`
			}
			Attachments []attachment `json:",omitempty"`
			// Headers are the message's extra headers (List-Unsubscribe, …).
			Headers []tag `json:",omitempty"`
		}
	}
	EmailTags            []tag  `json:",omitempty"`
	ConfigurationSetName string `json:",omitempty"`
}

// Send calls SendEmail with simple content. SES has no idempotency key; the key and the
// request id travel as message tags (returned in SES event publishing), sanitised to the
// characters tags allow.
func (p *provider) Send(ctx context.Context, msg providers.Message) (providers.Result, error) {
	if err := compose.CheckEmail(msg); err != nil {
		return providers.Result{}, err
	}
	from := compose.SenderOf(msg, compose.Sender{Email: p.cfg.From, Name: p.cfg.FromName, ReplyTo: p.cfg.ReplyTo})
	var body sendEmail
	body.FromEmailAddress = compose.Address(from.Name, from.Email)
	body.Destination.ToAddresses = []string{msg.To.Email}
	body.Destination.CcAddresses = compose.Unique(msg.CC, msg.To.Email)
	body.Destination.BccAddresses = compose.Unique(msg.BCC, append(body.Destination.CcAddresses, msg.To.Email)...)
	if from.ReplyTo != "" {
		body.ReplyToAddresses = []string{from.ReplyTo}
	}
	simple := &body.Content.Simple
	simple.Subject = content{Data: msg.Subject, Charset: "UTF-8"}
	if msg.Text != "" {
		simple.Body.Text = &content{Data: msg.Text, Charset: "UTF-8"}
	}
	if msg.HTML != "" {
		simple.Body.Html = &content{Data: msg.HTML, Charset: "UTF-8"}
	}
	for _, h := range msg.Headers {
		simple.Headers = append(simple.Headers, tag{Name: h.Name, Value: h.Value})
	}
	for _, a := range msg.Attachments {
		simple.Attachments = append(simple.Attachments, attachment{
			FileName: a.Filename, RawContent: base64.StdEncoding.EncodeToString(a.Content),
			ContentType: a.ContentType, ContentDisposition: "ATTACHMENT",
		})
	}
	if msg.IdempotencyKey != "" {
		body.EmailTags = []tag{
			{Name: "heraldKey", Value: compose.FitKey(tagValue(msg.IdempotencyKey), 255)},
			{Name: "heraldRequest", Value: compose.FitKey(tagValue(msg.RequestID), 255)},
		}
	}
	body.ConfigurationSetName = p.cfg.ConfigurationSetName

	raw, err := json.Marshal(body)
	if err != nil {
		return providers.Result{}, err
	}
	req, err := httpcall.NewRaw(ctx, http.MethodPost, strings.TrimRight(p.cfg.BaseURL, "/")+"/v2/email/outbound-emails", "application/json", raw)
	if err != nil {
		return providers.Result{}, err
	}
	signV4(req, raw, credentials{p.cfg.AccessKeyID, p.cfg.SecretAccessKey, p.cfg.SessionToken}, p.cfg.Region, "ses", p.now())
	res, answer, err := httpcall.Do(p.http, req)
	if err != nil {
		return providers.Result{}, err
	}
	if err := httpcall.Check(res, answer, false); err != nil {
		return providers.Result{}, classify(err, res, answer)
	}
	var ok struct{ MessageId string }
	_ = json.Unmarshal(answer, &ok)
	return providers.Result{ProviderMessageID: ok.MessageId, Response: fmt.Sprintf("%d message id %s", res.StatusCode, ok.MessageId)}, nil
}

// classify names the SES error type (x-amzn-ErrorType, e.g. MessageRejected,
// AccountSuspendedException) and retries throttling, which SES may answer with 400.
func classify(err error, res *http.Response, body []byte) error {
	pe, ok := err.(*providers.Error)
	if !ok {
		return err
	}
	kind, _, _ := strings.Cut(res.Header.Get("X-Amzn-Errortype"), ":")
	var detail struct {
		Message string `json:"message"`
		Type    string `json:"__type"`
	}
	_ = json.Unmarshal(body, &detail)
	if kind == "" {
		kind = detail.Type
	}
	if strings.Contains(kind, "Throttl") || strings.Contains(kind, "TooManyRequests") {
		pe.Permanent = false
	}
	if detail.Message != "" {
		pe.Message = detail.Message
	}
	if kind != "" {
		pe.Message = kind + ": " + pe.Message
	}
	return pe
}

// tagValue keeps the characters SES allows in message tags (ASCII letters, digits, _ and
// -) and replaces the rest with _.
func tagValue(s string) string {
	return strings.Map(func(r rune) rune {
		if ('a' <= r && r <= 'z') || ('A' <= r && r <= 'Z') || ('0' <= r && r <= '9') || r == '_' || r == '-' {
			return r
		}
		return '_'
	}, s)
}
