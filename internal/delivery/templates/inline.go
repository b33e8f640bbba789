package templates

import (
	"context"
	"encoding/json"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/internal/send/notify"
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
	if src := blocksSource(fields); src != "" && c.broken == nil {
		c.blocks, c.broken = compileBlocks(channel, src)
	}
	b.contents = map[string]*compiled{channel: c}
	return b, nil
}
