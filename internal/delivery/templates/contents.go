package templates

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/db/dbsqlc"
	"github.com/heraldhq/herald/internal/delivery/render"
	js "github.com/heraldhq/herald/internal/platform/jsonshape"
	"github.com/heraldhq/herald/internal/platform/safeurl"
)

// MaxFieldLength caps one content field (an email's HTML included).
const MaxFieldLength = 256 << 10

// channelFields are the fields a template's content may have on each channel; the first
// group must have at least one field set.
var channelFields = map[string]struct{ allowed, needOne []string }{
	herald.ChannelInApp:      {[]string{"title", "message", "icon", "url", BlocksField}, []string{"title"}},
	herald.ChannelEmail:      {[]string{"subject", "html", "text"}, []string{"html", "text"}},
	herald.ChannelSMS:        {[]string{"body"}, []string{"body"}},
	herald.ChannelWhatsApp:   {[]string{"body"}, []string{"body"}},
	herald.ChannelWebPush:    {[]string{"title", "body", "icon", "url"}, []string{"title", "body"}},
	herald.ChannelMobilePush: {[]string{"title", "body", "icon", "url"}, []string{"title", "body"}},
	herald.ChannelSlack:      {[]string{"title", "body"}, []string{"body"}},
	herald.ChannelDiscord:    {[]string{"title", "body"}, []string{"body"}},
	herald.ChannelMSTeams:    {[]string{"title", "body"}, []string{"body"}},
	herald.ChannelWebhook:    {[]string{"title", "body", "icon", "url"}, []string{"title", "body"}},
}

// Content is a template's content for one channel: its fields (Handlebars-style text) and,
// for email, the layout that wraps it.
type Content struct {
	Channel string            `json:"channel"`
	Fields  map[string]string `json:"content"`
	// Batching is the content used when the message carries a digest's batch; nil when the
	// channel has none (the main content is used).
	Batching         map[string]string `json:"batchingContent"`
	LayoutIdentifier string            `json:"layoutIdentifier,omitempty"`
	Position         int               `json:"position"`
	UpdatedAt        time.Time         `json:"updatedAt"`
}

// ContentInput sets a channel's content: Fields is a JSON object of strings.
type ContentInput struct {
	Fields json.RawMessage
	// LayoutIdentifier names the email layout; empty uses the app's default layout.
	LayoutIdentifier string
}

// SetContent creates or replaces a template's content for a channel. Every field must
// parse as a template; errors name the field and line.
func (s *Service) SetContent(ctx context.Context, appID, templateID int64, channel string, in ContentInput) (Content, error) {
	if _, err := s.db.GetTemplate(ctx, dbsqlc.GetTemplateParams{AppID: appID, ID: templateID}); err != nil {
		return Content{}, notFound(err, "template")
	}
	var p herald.Problems
	fields := checkContent(channel, in.Fields, &p)
	var layoutID *int64
	if in.LayoutIdentifier != "" {
		if channel != herald.ChannelEmail {
			p.Addf("layoutIdentifier applies to email content only")
		} else if l, err := s.db.GetLayoutByIdentifier(ctx, dbsqlc.GetLayoutByIdentifierParams{AppID: appID, Identifier: in.LayoutIdentifier}); err != nil {
			p.Addf("layoutIdentifier %q is not a layout of this app", in.LayoutIdentifier)
		} else {
			layoutID = &l.ID
		}
	}
	if err := p.Err(); err != nil {
		return Content{}, err
	}
	raw, _ := json.Marshal(fields)
	position := int32(slices.Index(herald.Channels, channel))
	row, err := s.db.UpsertTemplateContent(ctx, dbsqlc.UpsertTemplateContentParams{
		AppID: appID, TemplateID: templateID, Channel: channel, Content: raw, LayoutID: layoutID, Position: position,
	})
	if err != nil {
		return Content{}, db.MapError(err)
	}
	c := content(row, nil)
	c.LayoutIdentifier = in.LayoutIdentifier
	return c, nil
}

// DeleteContent removes a template's content for a channel: the template no longer
// delivers on it.
func (s *Service) DeleteContent(ctx context.Context, appID, templateID int64, channel string) error {
	n, err := s.db.DeleteTemplateContent(ctx, dbsqlc.DeleteTemplateContentParams{AppID: appID, TemplateID: templateID, Channel: channel})
	if err != nil {
		return db.MapError(err)
	}
	if n == 0 {
		return herald.NotFound("template content")
	}
	return nil
}

// checkContent validates the fields of a channel's content.
func checkContent(channel string, raw json.RawMessage, p *herald.Problems) map[string]string {
	spec, ok := channelFields[channel]
	if !ok {
		p.Addf("channel must be one of %s", strings.Join(herald.Channels, ", "))
		return nil
	}
	obj := js.Fields(raw)
	if obj == nil {
		p.Addf("content must be an object")
		return nil
	}
	fields := map[string]string{}
	for _, name := range sortedKeys(obj) {
		if !slices.Contains(spec.allowed, name) {
			p.Addf("content.%s is not a field of %s content (fields: %s)", name, channel, strings.Join(spec.allowed, ", "))
			continue
		}
		v, ok := js.String(obj[name])
		if !ok {
			if js.Present(obj[name]) {
				p.Addf("content.%s must be a string", name)
			}
			continue
		}
		if len(v) > MaxFieldLength {
			p.Addf("content.%s must be at most %d bytes", name, MaxFieldLength)
			continue
		}
		if name == BlocksField {
			if before := len(*p); v != "" {
				if checkBlocksField(v, p); len(*p) == before {
					fields[name] = v
				}
			}
			continue
		}
		t, err := render.Parse(v)
		if err != nil {
			p.Addf("content.%s: %v", name, err)
			continue
		}
		if name == "url" {
			// What the template writes before its first tag decides the scheme when it
			// holds one; the rest is checked on every rendering (Bundle.render).
			if err := safeurl.Check(t.Prefix()); err != nil {
				p.Addf("content.url %v", err)
				continue
			}
		}
		if v != "" {
			fields[name] = v
		}
	}
	has := false
	for _, f := range spec.needOne {
		has = has || fields[f] != ""
	}
	if !has {
		p.Addf("%s content needs %s", channel, oneOf(spec.needOne))
	}
	if channel == herald.ChannelEmail && fields["subject"] == "" {
		p.Addf("content.subject should not be empty")
	}
	return fields
}

func oneOf(fields []string) string {
	if len(fields) == 1 {
		return fields[0]
	}
	return fmt.Sprintf("%s or %s", strings.Join(fields[:len(fields)-1], ", "), fields[len(fields)-1])
}

// layoutIdentifiers maps the layout ids used by contents to their identifiers.
func (s *Service) layoutIdentifiers(ctx context.Context, appID int64, rows []dbsqlc.TemplateContent) (map[int64]string, error) {
	out := map[int64]string{}
	for _, r := range rows {
		if r.LayoutID == nil {
			continue
		}
		if _, ok := out[*r.LayoutID]; ok {
			continue
		}
		l, err := s.db.GetLayout(ctx, dbsqlc.GetLayoutParams{AppID: appID, ID: *r.LayoutID})
		if err != nil {
			return nil, db.MapError(err)
		}
		out[l.ID] = l.Identifier
	}
	return out, nil
}

func content(r dbsqlc.TemplateContent, layouts map[int64]string) Content {
	c := Content{Channel: r.Channel, Fields: map[string]string{}, Position: int(r.Position), UpdatedAt: r.UpdatedAt}
	_ = json.Unmarshal(r.Content, &c.Fields)
	if len(r.BatchingContent) > 0 && string(r.BatchingContent) != "null" {
		_ = json.Unmarshal(r.BatchingContent, &c.Batching)
	}
	if r.LayoutID != nil {
		c.LayoutIdentifier = layouts[*r.LayoutID]
	}
	return c
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
