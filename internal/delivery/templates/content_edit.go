package templates

import (
	"context"
	"encoding/json"
	"slices"
	"strings"

	"github.com/jackc/pgx/v5"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/db/dbsqlc"
	js "github.com/heraldhq/herald/internal/platform/jsonshape"
)

// GetContent returns a template's content for a channel.
func (s *Service) GetContent(ctx context.Context, appID, templateID int64, channel string) (Content, error) {
	row, err := s.contentRow(ctx, appID, templateID, channel)
	if err != nil {
		return Content{}, err
	}
	layouts, err := s.layoutIdentifiers(ctx, appID, []dbsqlc.TemplateContent{row})
	if err != nil {
		return Content{}, err
	}
	return content(row, layouts), nil
}

// contentRow loads a channel's content: a missing template or content is not found.
func (s *Service) contentRow(ctx context.Context, appID, templateID int64, channel string) (dbsqlc.TemplateContent, error) {
	if _, err := s.db.GetTemplate(ctx, dbsqlc.GetTemplateParams{AppID: appID, ID: templateID}); err != nil {
		return dbsqlc.TemplateContent{}, notFound(err, "template")
	}
	row, err := s.db.GetTemplateContent(ctx, dbsqlc.GetTemplateContentParams{AppID: appID, TemplateID: templateID, Channel: channel})
	if err != nil {
		if herald.ErrorCode(db.MapError(err)) == herald.ENOTFOUND {
			return row, herald.Errorf(herald.ENOTFOUND, "the template has no %s content", channel)
		}
		return row, db.MapError(err)
	}
	return row, nil
}

// ContentPatch changes some fields of a channel's content: each key of Fields set to a
// string replaces that field, set to null removes it; absent keys stay. A nil
// LayoutIdentifier keeps the layout, an empty one returns to the app's default layout.
type ContentPatch struct {
	Fields           json.RawMessage
	LayoutIdentifier *string
}

// PatchContent applies a patch to a channel's existing content; the result is validated
// like a full content.
func (s *Service) PatchContent(ctx context.Context, appID, templateID int64, channel string, patch ContentPatch) (Content, error) {
	cur, err := s.GetContent(ctx, appID, templateID, channel)
	if err != nil {
		return Content{}, err
	}
	merged := map[string]json.RawMessage{}
	for k, v := range cur.Fields {
		merged[k], _ = json.Marshal(v)
	}
	if js.Present(patch.Fields) {
		obj := js.Fields(patch.Fields)
		if obj == nil {
			return Content{}, herald.Invalid("content must be an object")
		}
		for k, v := range obj {
			if js.Present(v) {
				merged[k] = v
			} else {
				delete(merged, k)
			}
		}
	}
	raw, _ := json.Marshal(merged)
	layout := cur.LayoutIdentifier
	if patch.LayoutIdentifier != nil {
		layout = *patch.LayoutIdentifier
	}
	return s.SetContent(ctx, appID, templateID, channel, ContentInput{Fields: raw, LayoutIdentifier: layout})
}

// SetBatchingContent sets (or, with empty fields, removes) the content a channel uses when
// the message carries a digest's batch: {{batch.count}} and {{#each batch.items}} are then
// available. The channel's main content must exist.
func (s *Service) SetBatchingContent(ctx context.Context, appID, templateID int64, channel string, fields json.RawMessage) (Content, error) {
	var p herald.Problems
	var raw json.RawMessage
	if js.Present(fields) {
		checked := checkContent(channel, fields, &p)
		if checked[BlocksField] != "" {
			p.Addf("content.blocks: a digest's notification has the blocks of the main content")
		}
		if err := p.Err(); err != nil {
			return Content{}, err
		}
		raw, _ = json.Marshal(checked)
	} else if !herald.IsChannel(channel) {
		return Content{}, herald.Invalid("channel must be one of " + strings.Join(herald.Channels, ", "))
	}
	if _, err := s.db.GetTemplate(ctx, dbsqlc.GetTemplateParams{AppID: appID, ID: templateID}); err != nil {
		return Content{}, notFound(err, "template")
	}
	row, err := s.db.SetTemplateBatchingContent(ctx, dbsqlc.SetTemplateBatchingContentParams{
		AppID: appID, TemplateID: templateID, Channel: channel, BatchingContent: raw,
	})
	if err != nil {
		if herald.ErrorCode(db.MapError(err)) == herald.ENOTFOUND {
			return Content{}, herald.Errorf(herald.ECONFLICT, "set the template's %s content before its batching content", channel)
		}
		return Content{}, db.MapError(err)
	}
	layouts, err := s.layoutIdentifiers(ctx, appID, []dbsqlc.TemplateContent{row})
	if err != nil {
		return Content{}, err
	}
	return content(row, layouts), nil
}

// OrderContents sets the order of a template's channels (the console's tabs, and the order
// Channels reports): the listed channels first, in that order, then the others as they were.
func (s *Service) OrderContents(ctx context.Context, appID, templateID int64, channels []string) ([]Content, error) {
	tpl, err := s.Get(ctx, appID, templateID)
	if err != nil {
		return nil, err
	}
	var p herald.Problems
	has := map[string]bool{}
	for _, c := range tpl.Contents {
		has[c.Channel] = true
	}
	if len(channels) == 0 {
		p.Addf("channels should not be empty")
	}
	seen := map[string]bool{}
	for i, ch := range channels {
		switch {
		case !herald.IsChannel(ch):
			p.Addf("channels[%d] must be one of %s", i, strings.Join(herald.Channels, ", "))
		case !has[ch]:
			p.Addf("channels[%d]: the template has no %s content", i, ch)
		case seen[ch]:
			p.Addf("channels must not repeat %s", ch)
		}
		seen[ch] = true
	}
	if err := p.Err(); err != nil {
		return nil, err
	}
	order := slices.Clone(channels)
	for _, c := range tpl.Contents {
		if !seen[c.Channel] {
			order = append(order, c.Channel)
		}
	}
	err = s.db.InTx(ctx, func(q *dbsqlc.Queries, _ pgx.Tx) error {
		for i, ch := range order {
			if _, err := q.SetTemplateContentPosition(ctx, dbsqlc.SetTemplateContentPositionParams{
				AppID: appID, TemplateID: templateID, Channel: ch, Position: int32(i),
			}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, db.MapError(err)
	}
	tpl, err = s.Get(ctx, appID, templateID)
	return tpl.Contents, err
}

// File is one part of a template's email content as a file.
type File struct {
	FileName    string `json:"fileName"`
	ContentType string `json:"contentType"`
	Content     string `json:"content"`
}

// EmailFiles are the file names of an email content: its subject, HTML and text bodies,
// and the HTML and text of the layout that wraps them.
var EmailFiles = []string{"subject.txt", "content.html", "content.txt", "layout.html", "layout.txt"}

// EmailFile returns one part of a template's email content by file name (see EmailFiles).
func (s *Service) EmailFile(ctx context.Context, appID, templateID int64, name string) (File, error) {
	if !slices.Contains(EmailFiles, name) {
		return File{}, herald.Errorf(herald.ENOTFOUND, "no email file %q: the files are %s", name, strings.Join(EmailFiles, ", "))
	}
	c, err := s.GetContent(ctx, appID, templateID, herald.ChannelEmail)
	if err != nil {
		return File{}, err
	}
	f := File{FileName: name, ContentType: "text/plain; charset=utf-8"}
	if strings.HasSuffix(name, ".html") {
		f.ContentType = "text/html; charset=utf-8"
	}
	switch name {
	case "subject.txt":
		f.Content = c.Fields["subject"]
	case "content.html":
		f.Content = c.Fields["html"]
	case "content.txt":
		f.Content = c.Fields["text"]
	default:
		var l Layout
		if c.LayoutIdentifier != "" {
			row, err := s.db.GetLayoutByIdentifier(ctx, dbsqlc.GetLayoutByIdentifierParams{AppID: appID, Identifier: c.LayoutIdentifier})
			if err != nil {
				return File{}, notFound(err, "layout")
			}
			l = layout(row)
		} else if l, err = s.DefaultLayout(ctx, appID); err != nil {
			return File{}, herald.Errorf(herald.ENOTFOUND, "the email content has no layout and the app no default layout")
		}
		f.Content = l.HTML
		if name == "layout.txt" {
			f.Content = l.Text
		}
	}
	return f, nil
}
