package templates

import (
	"context"
	"encoding/json"
	"slices"
	"strings"

	herald "github.com/heraldhq/herald"
	js "github.com/heraldhq/herald/jsonshape"
	"github.com/heraldhq/herald/notify"
	"github.com/heraldhq/herald/render"
)

// PreviewInput is sample data to render a template with.
type PreviewInput struct {
	// Channels restricts the preview; empty renders every channel of the template.
	Channels []string
	// Data is the send's data object; Profile the recipient's profile (its locale picks the
	// translation); Batch, when set, is a digest's batch ({count, items}) and selects the
	// batching contents.
	Data, Profile, Batch json.RawMessage
	UserIdentifier       string
	AppName              string
}

// PreviewContent is one channel's rendered content; only the fields of the channel are set.
type PreviewContent struct {
	Subject string `json:"subject,omitempty"`
	HTML    string `json:"html,omitempty"`
	Text    string `json:"text,omitempty"`
	Title   string `json:"title,omitempty"`
	Message string `json:"message,omitempty"`
	Body    string `json:"body,omitempty"`
	Icon    string `json:"icon,omitempty"`
	URL     string `json:"url,omitempty"`
}

// Preview is a template rendered with sample data: the content per channel, and the error
// of each channel that did not render.
type Preview struct {
	Channels map[string]PreviewContent `json:"channels"`
	Errors   map[string]string         `json:"errors"`
}

// Preview renders a stored template with sample data, as delivery would for one recipient
// (layouts and translations included).
func (s *Service) Preview(ctx context.Context, appID, templateID int64, in PreviewInput) (Preview, error) {
	tpl, err := s.Get(ctx, appID, templateID)
	if err != nil {
		return Preview{}, err
	}
	var p herald.Problems
	for i, ch := range in.Channels {
		if !notify.IsChannel(ch) {
			p.Addf("channels[%d] must be one of %s", i, strings.Join(notify.Channels, ", "))
		}
	}
	for name, raw := range map[string]json.RawMessage{"data": in.Data, "user.profile": in.Profile, "batch": in.Batch} {
		if js.Present(raw) && js.Kind(raw) != "object" {
			p.Addf("%s must be an object", name)
		}
	}
	if err := p.Err(); err != nil {
		return Preview{}, err
	}
	n := notify.Content{TemplateIdentifier: tpl.Identifier}
	b, err := s.Bundle(ctx, appID, tpl.Identifier, n)
	if err != nil {
		return Preview{}, err
	}
	send, err := SendData(in.Data, appID, in.AppName, nil, n)
	if err != nil {
		return Preview{}, herald.Invalid("data cannot be read: " + err.Error())
	}
	user := in.UserIdentifier
	if user == "" {
		user = "preview-user"
	}
	data := Recipient(send, user, in.Profile)
	if js.Present(in.Batch) {
		if data["batch"], err = render.DecodeJSON(in.Batch); err != nil {
			return Preview{}, herald.Invalid("batch cannot be read: " + err.Error())
		}
	}
	out := Preview{Channels: map[string]PreviewContent{}, Errors: map[string]string{}}
	for _, ch := range b.Channels() {
		if len(in.Channels) > 0 && !slices.Contains(in.Channels, ch) {
			continue
		}
		r, err := b.Render(ctx, ch, data)
		if err != nil {
			out.Errors[ch] = err.Error()
			continue
		}
		switch ch {
		case notify.ChannelEmail:
			out.Channels[ch] = PreviewContent{Subject: r.Subject, HTML: r.HTML, Text: r.Text}
		case notify.ChannelInApp:
			out.Channels[ch] = PreviewContent{Title: r.Title, Message: r.Body, Icon: r.Icon, URL: r.URL}
		default:
			out.Channels[ch] = PreviewContent{Title: r.Title, Body: r.Body, Icon: r.Icon, URL: r.URL}
		}
	}
	return out, nil
}
