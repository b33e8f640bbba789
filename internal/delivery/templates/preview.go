package templates

import (
	"context"
	"encoding/json"
	"slices"
	"strings"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/db/dbsqlc"
	"github.com/heraldhq/herald/internal/delivery/render"
	js "github.com/heraldhq/herald/internal/platform/jsonshape"
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
	// Contents, when set, replaces the stored content of the channels it names with
	// unsaved content ({"sms": {"content": {"body": "..."}}, "email": {"content": {...},
	// "layoutIdentifier": "..."}}): the console previews what is being edited. A field that
	// does not parse is that channel's error; a channel whose fields are all empty is left
	// out.
	Contents map[string]json.RawMessage
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

// Preview is a template rendered with sample data: the content per channel, the error of
// each channel that did not render, and a warning for each variable the template uses that
// the sample data does not hold (it rendered blank).
type Preview struct {
	Channels map[string]PreviewContent `json:"channels"`
	Errors   map[string]string         `json:"errors"`
	Warnings []PreviewWarning          `json:"warnings"`
}

// PreviewWarning is a variable a channel's content (or its layout) prints, or loops over
// without an {{else}}, that the sample data does not hold, so it rendered blank. Variable
// is the path from the root of the template data, whatever block it is written in:
// {{firstName}} inside {{#with user.profile}} is user.profile.firstName, and the elements
// of an {{#each}} are [*] (data.items[*].price). A variable present with the value null,
// and a test in {{#if}}/{{#unless}}, do not warn. One warning per channel, field and
// variable, at the first line that uses it.
type PreviewWarning struct {
	Channel string `json:"channel"`
	// Field is the content field (subject, html, text, title, message, body, icon, url) or
	// the layout's (layout.html, layout.text).
	Field    string `json:"field"`
	Variable string `json:"variable"`
	Line     int    `json:"line"`
	// Translation is the key of the {{t}} translation that uses the variable, if any; Line
	// is then the line of the {{t}} tag.
	Translation string `json:"translation,omitempty"`
	// Message says it in a sentence: "variable user.profile.firstName is not in the data".
	Message string `json:"message"`
}

// Preview renders a stored template with sample data, as delivery would for one recipient
// (layouts and translations included).
func (s *Service) Preview(ctx context.Context, appID, templateID int64, in PreviewInput) (Preview, error) {
	tpl, err := s.Get(ctx, appID, templateID)
	if err != nil {
		return Preview{}, err
	}
	return s.preview(ctx, appID, tpl.Identifier, in)
}

// PreviewInline renders unsaved content that belongs to no template (a workflow step's
// inline content) with sample data, as Preview renders a template's: in.Contents is the
// content, and at least one channel is required. Email without a layoutIdentifier is wrapped
// in the app's default layout, as the step's delivery would.
func (s *Service) PreviewInline(ctx context.Context, appID int64, in PreviewInput) (Preview, error) {
	if len(in.Contents) == 0 {
		return Preview{}, herald.Invalid("contents must name at least one channel")
	}
	return s.preview(ctx, appID, "", in)
}

// preview renders the template named identifier ("" for none: only in.Contents) with in.
func (s *Service) preview(ctx context.Context, appID int64, identifier string, in PreviewInput) (Preview, error) {
	var p herald.Problems
	for i, ch := range in.Channels {
		if !herald.IsChannel(ch) {
			p.Addf("channels[%d] must be one of %s", i, strings.Join(herald.Channels, ", "))
		}
	}
	for name, raw := range map[string]json.RawMessage{"data": in.Data, "user.profile": in.Profile, "batch": in.Batch} {
		if js.Present(raw) && js.Kind(raw) != "object" {
			p.Addf("%s must be an object", name)
		}
	}
	edited := map[string]*compiled{}
	for _, ch := range sortedKeys(in.Contents) {
		c, err := s.editedContent(ctx, appID, ch, in.Contents[ch], &p)
		if err == nil {
			edited[ch] = c
		} else if herald.ErrorCode(err) != herald.EINVALID {
			return Preview{}, err
		}
	}
	if err := p.Err(); err != nil {
		return Preview{}, err
	}
	n := herald.Content{TemplateIdentifier: identifier}
	b, err := s.Bundle(ctx, appID, identifier, n)
	if err != nil {
		return Preview{}, err
	}
	if identifier == "" {
		// No template: the bundle names the content in errors, as InlineBundle does.
		b.Identifier = "inline content"
		b.contents = map[string]*compiled{}
	}
	for ch, c := range edited {
		if c.layout == nil {
			c.layout = b.defaultLay
		}
		if len(c.fields) == 0 && c.broken == nil {
			delete(b.contents, ch)
		} else {
			b.contents[ch] = c
		}
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
	SetLinks(data, PreviewUnsubscribeURL, PreviewPreferencesURL)
	if js.Present(in.Batch) {
		if data["batch"], err = render.DecodeJSON(in.Batch); err != nil {
			return Preview{}, herald.Invalid("batch cannot be read: " + err.Error())
		}
	}
	out := Preview{Channels: map[string]PreviewContent{}, Errors: map[string]string{}, Warnings: []PreviewWarning{}}
	type seenKey struct{ channel, field, variable, translation string }
	seen := map[seenKey]bool{}
	for _, ch := range b.Channels() {
		if len(in.Channels) > 0 && !slices.Contains(in.Channels, ch) {
			continue
		}
		warn := func(field string, m render.Missing) {
			k := seenKey{ch, field, m.Path, m.Translation}
			if seen[k] {
				return
			}
			seen[k] = true
			out.Warnings = append(out.Warnings, PreviewWarning{Channel: ch, Field: field, Variable: m.Path, Line: m.Line,
				Translation: m.Translation, Message: "variable " + m.Path + " is not in the data"})
		}
		r, err := b.render(ctx, ch, data, false, warn)
		if err != nil {
			out.Errors[ch] = err.Error()
			continue
		}
		switch ch {
		case herald.ChannelEmail:
			out.Channels[ch] = PreviewContent{Subject: r.Subject, HTML: r.HTML, Text: r.Text}
		case herald.ChannelInApp:
			out.Channels[ch] = PreviewContent{Title: r.Title, Message: r.Body, Icon: r.Icon, URL: r.URL}
		default:
			out.Channels[ch] = PreviewContent{Title: r.Title, Body: r.Body, Icon: r.Icon, URL: r.URL}
		}
	}
	return out, nil
}

// editedContent compiles unsaved content for a preview. Shape problems (an unknown channel
// or field, a value that is not a string, an unknown layout) are added to p as
// contents.<channel>...; a field that does not parse is kept as the content's error, as a
// stored broken field would be. The returned error is EINVALID when p got a problem.
func (s *Service) editedContent(ctx context.Context, appID int64, channel string, raw json.RawMessage, p *herald.Problems) (*compiled, error) {
	spec, ok := channelFields[channel]
	if !ok {
		p.Addf("contents.%s is not a channel (channels: %s)", channel, strings.Join(herald.Channels, ", "))
		return nil, herald.Invalid("contents")
	}
	in := js.Fields(raw)
	if in == nil {
		p.Addf("contents.%s must be an object", channel)
		return nil, herald.Invalid("contents")
	}
	obj := js.Fields(in["content"])
	if obj == nil {
		p.Addf("contents.%s.content must be an object", channel)
		return nil, herald.Invalid("contents")
	}
	before := len(*p)
	layout, isString := js.String(in["layoutIdentifier"])
	if !isString && js.Present(in["layoutIdentifier"]) {
		p.Addf("contents.%s.layoutIdentifier must be a string", channel)
	}
	fields := map[string]string{}
	for _, name := range sortedKeys(obj) {
		v, isString := js.String(obj[name])
		switch {
		case !slices.Contains(spec.allowed, name):
			p.Addf("contents.%s.content.%s is not a field of %s content (fields: %s)", channel, name, channel, strings.Join(spec.allowed, ", "))
		case !isString && js.Present(obj[name]):
			p.Addf("contents.%s.content.%s must be a string", channel, name)
		case len(v) > MaxFieldLength:
			p.Addf("contents.%s.content.%s must be at most %d bytes", channel, name, MaxFieldLength)
		case v != "":
			fields[name] = v
		}
	}
	c := &compiled{}
	if layout != "" {
		if channel != herald.ChannelEmail {
			p.Addf("contents.%s.layoutIdentifier applies to email content only", channel)
		} else if l, err := s.db.GetLayoutByIdentifier(ctx, dbsqlc.GetLayoutByIdentifierParams{AppID: appID, Identifier: layout}); err != nil {
			if herald.ErrorCode(db.MapError(err)) != herald.ENOTFOUND {
				return nil, db.MapError(err)
			}
			p.Addf("contents.%s.layoutIdentifier %q is not a layout of this app", channel, layout)
		} else {
			c.layout = compileLayout(l)
		}
	}
	if len(*p) > before {
		return nil, herald.Invalid("contents")
	}
	text, _ := json.Marshal(fields)
	c.fields, c.broken = compileFields(channel, text)
	if src := fields[BlocksField]; src != "" && c.broken == nil {
		c.blocks, c.broken = compileBlocks(channel, src)
	}
	return c, nil
}
