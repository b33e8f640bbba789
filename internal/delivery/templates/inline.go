package templates

import (
	"context"
	"encoding/json"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/db/dbsqlc"
)

// CheckContent validates content fields for a channel as SetContent does and returns every
// problem (empty when the content is valid). Workflow steps with inline content use it.
func CheckContent(channel string, fields json.RawMessage) []string {
	var p herald.Problems
	checkContent(channel, fields, &p)
	return p
}

// InlineBundle returns a bundle whose only content is fields, for channel: the inline
// content of a workflow step. Email is wrapped in the layout named layout, or the app's
// default layout when it is empty (a layout that is gone is ENOTFOUND). label names the
// content in errors (e.g. `step "mail"`). Fields that do not parse fail at rendering.
func (s *Service) InlineBundle(ctx context.Context, appID int64, label, channel string, fields json.RawMessage, layout string) (*Bundle, error) {
	b, err := s.Bundle(ctx, appID, "", herald.Content{})
	if err != nil {
		return nil, err
	}
	b.Identifier = label
	c := &compiled{layout: b.defaultLay}
	if layout != "" {
		l, err := s.db.GetLayoutByIdentifier(ctx, dbsqlc.GetLayoutByIdentifierParams{AppID: appID, Identifier: layout})
		if err != nil {
			if err = db.MapError(err); herald.ErrorCode(err) == herald.ENOTFOUND {
				return nil, herald.Errorf(herald.ENOTFOUND, "layout %q not found", layout)
			}
			return nil, err
		}
		c.layout = compileLayout(l)
	}
	c.fields, c.broken = compileFields(channel, fields)
	if src := blocksSource(fields); src != "" && c.broken == nil {
		c.blocks, c.broken = compileBlocks(channel, src)
	}
	b.contents = map[string]*compiled{channel: c}
	return b, nil
}

// LayoutExists reports whether the app has an email layout with the identifier (the
// workflow definitions' check of an inline email step's layout).
func (s *Service) LayoutExists(ctx context.Context, appID int64, identifier string) bool {
	_, err := s.db.GetLayoutByIdentifier(ctx, dbsqlc.GetLayoutByIdentifierParams{AppID: appID, Identifier: identifier})
	return err == nil
}
