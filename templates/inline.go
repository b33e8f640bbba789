package templates

import (
	"context"
	"encoding/json"
	"strings"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/db/dbsqlc"
	"github.com/heraldhq/herald/notify"
)

// CheckContent validates content fields for a channel as SetContent does and returns every
// problem (empty when the content is valid). Workflow steps with inline content use it.
func CheckContent(channel string, fields json.RawMessage) []string {
	var p herald.Problems
	checkContent(channel, fields, &p)
	return p
}

// InlineBundle returns a bundle whose only content is fields, for channel: the inline
// content of a workflow step. Email is wrapped in the app's default layout. label names the
// content in errors (e.g. `step "mail"`). Fields that do not parse fail at rendering.
func (s *Service) InlineBundle(ctx context.Context, appID int64, label, channel string, fields json.RawMessage) (*Bundle, error) {
	b, err := s.Bundle(ctx, appID, "", notify.Content{})
	if err != nil {
		return nil, err
	}
	b.Identifier = label
	c := &compiled{layout: b.defaultLay}
	c.fields, c.broken = compileFields(channel, fields)
	b.contents = map[string]*compiled{channel: c}
	return b, nil
}

// SetBatchingContent sets the digest form of a template's content for a channel: what the
// channel renders after a digest step, with batch.count and batch.items. A nil fields
// clears it (the regular content then serves digests too). The channel must have content.
func (s *Service) SetBatchingContent(ctx context.Context, appID, templateID int64, channel string, fields json.RawMessage) error {
	var raw json.RawMessage
	if len(fields) > 0 && strings.TrimSpace(string(fields)) != "null" {
		var p herald.Problems
		checked := checkContent(channel, fields, &p)
		if err := p.Err(); err != nil {
			return err
		}
		raw, _ = json.Marshal(checked)
	}
	n, err := s.db.SetTemplateBatchingContent(ctx, dbsqlc.SetTemplateBatchingContentParams{
		AppID: appID, TemplateID: templateID, Channel: channel, BatchingContent: raw,
	})
	if err != nil {
		return db.MapError(err)
	}
	if n == 0 {
		return herald.NotFound("template content")
	}
	return nil
}
