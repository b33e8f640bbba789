package templates

import (
	"context"

	"github.com/heraldhq/herald/db"
)

// EmailLayout is a layout offered to a client's apps: one of Herald's starter layouts, or
// a layout of one of the client's apps (to reuse in another).
type EmailLayout struct {
	// ID is the layout's id; 0 for starter layouts.
	ID         int64  `json:"id,omitempty"`
	Identifier string `json:"identifier"`
	Name       string `json:"name"`
	HTML       string `json:"html"`
	Text       string `json:"text"`
	// Starter marks Herald's built-in layouts; the others name their app.
	Starter bool   `json:"starter"`
	AppID   int64  `json:"appId,omitempty"`
	AppName string `json:"appName,omitempty"`
}

// StarterLayouts are the layouts Herald offers every client.
var StarterLayouts = []EmailLayout{
	{Identifier: "plain", Name: "Plain", Starter: true,
		HTML: `<!doctype html><html><body style="margin:0;padding:24px;font-family:system-ui,sans-serif;color:#1f2933">{{{content}}}</body></html>`,
		Text: "{{{content}}}"},
	{Identifier: "card", Name: "Card with header and footer", Starter: true,
		HTML: `<!doctype html><html><body style="margin:0;background:#f4f5f7;font-family:system-ui,sans-serif;color:#1f2933">` +
			`<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center" style="padding:32px 16px">` +
			`<table role="presentation" width="600" cellpadding="0" cellspacing="0" style="max-width:600px;background:#ffffff;border-radius:8px">` +
			`<tr><td style="padding:24px 32px;font-size:20px;font-weight:600">{{app.name}}</td></tr>` +
			`<tr><td style="padding:0 32px 24px">{{{content}}}</td></tr>` +
			`<tr><td style="padding:16px 32px;font-size:12px;color:#7b8794">You receive this email from {{app.name}}.</td></tr>` +
			`</table></td></tr></table></body></html>`,
		Text: "{{app.name}}\n\n{{{content}}}\n\n--\nYou receive this email from {{app.name}}."},
}

// ClientLayouts returns the starter layouts and the layouts of the client's apps.
func (s *Service) ClientLayouts(ctx context.Context, clientID int64) ([]EmailLayout, error) {
	rows, err := s.db.ListClientLayouts(ctx, &clientID)
	if err != nil {
		return nil, db.MapError(err)
	}
	out := append([]EmailLayout{}, StarterLayouts...)
	for _, r := range rows {
		out = append(out, EmailLayout{ID: r.ID, Identifier: r.Identifier, Name: r.Name, HTML: r.Html, Text: r.Text, AppID: r.AppID, AppName: r.AppName})
	}
	return out, nil
}
