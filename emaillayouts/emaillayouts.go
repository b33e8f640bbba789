// Package emaillayouts gives a client its default email layout: the HTML frame that wraps
// the body of email templates which name no layout of their own. The templates and
// per-app layouts of the configuration work (issue 9) use it through Store.
package emaillayouts

import (
	"context"
	"time"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/db/dbsqlc"
)

// Layout is an email layout (EmailLayoutEntity).
type Layout struct {
	ID        int64     `json:"id"`
	ClientID  int64     `json:"clientId"`
	Name      string    `json:"name"`
	HTML      string    `json:"html"`
	IsDefault bool      `json:"isDefault"`
	CreatedAt time.Time `json:"createdAt"`
	UpdatedAt time.Time `json:"updatedAt"`
}

// Store keeps layouts.
type Store interface {
	// Default returns the client's default layout, or nil.
	Default(ctx context.Context, clientID int64) (*Layout, error)
	// CreateDefault stores a default layout; created is false when the client had one
	// already (which is then returned).
	CreateDefault(ctx context.Context, clientID int64, name, html string) (l Layout, created bool, err error)
}

// Service issues default layouts.
type Service struct{ store Store }

// NewService returns a Service over a store.
func NewService(s Store) *Service { return &Service{store: s} }

// DefaultName is the name of the default layout.
const DefaultName = "Default"

// DefaultHTML is the default layout: a centred, mobile-friendly card. The template's
// rendered body goes where {{{body}}} stands (unescaped: it is HTML).
const DefaultHTML = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{subject}}</title>
</head>
<body style="margin:0;padding:0;background:#f4f5f7;font-family:-apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;color:#1f2933;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f4f5f7;padding:24px 0;">
<tr><td align="center">
<table role="presentation" width="600" cellpadding="0" cellspacing="0" style="max-width:600px;width:100%;background:#ffffff;border-radius:8px;">
<tr><td style="padding:32px;font-size:16px;line-height:1.5;">{{{body}}}</td></tr>
</table>
<p style="font-size:12px;color:#7b8794;margin:16px 0 0;">You receive this email because of your account settings.{{#if unsubscribeUrl}} <a href="{{unsubscribeUrl}}" style="color:#7b8794;">Unsubscribe</a>{{/if}}</p>
</td></tr>
</table>
</body>
</html>
`

// EnsureDefault gives the client the default layout unless it has one; created tells
// which happened.
func (s *Service) EnsureDefault(ctx context.Context, clientID int64) (Layout, bool, error) {
	if l, err := s.store.Default(ctx, clientID); err != nil || l != nil {
		if l != nil {
			return *l, false, nil
		}
		return Layout{}, false, err
	}
	return s.store.CreateDefault(ctx, clientID, DefaultName, DefaultHTML)
}

// PGStore keeps layouts in the email_layouts table.
type PGStore struct{ DB *db.DB }

func layoutOf(r dbsqlc.EmailLayout) Layout {
	return Layout{ID: r.ID, ClientID: r.ClientID, Name: r.Name, HTML: r.Html, IsDefault: r.IsDefault, CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt}
}

// Default implements Store.
func (p PGStore) Default(ctx context.Context, clientID int64) (*Layout, error) {
	r, err := p.DB.GetDefaultEmailLayout(ctx, clientID)
	if err != nil {
		if err = db.MapError(err); herald.ErrorCode(err) == herald.ENOTFOUND {
			return nil, nil
		}
		return nil, err
	}
	l := layoutOf(r)
	return &l, nil
}

// CreateDefault implements Store.
func (p PGStore) CreateDefault(ctx context.Context, clientID int64, name, html string) (Layout, bool, error) {
	r, err := p.DB.InsertDefaultEmailLayout(ctx, dbsqlc.InsertDefaultEmailLayoutParams{ClientID: clientID, Name: name, Html: html})
	if err == nil {
		return layoutOf(r), true, nil
	}
	if err = db.MapError(err); herald.ErrorCode(err) != herald.ENOTFOUND {
		return Layout{}, false, err
	}
	// A concurrent call created it first.
	l, err := p.Default(ctx, clientID)
	if err != nil || l == nil {
		return Layout{}, false, err
	}
	return *l, false, nil
}
