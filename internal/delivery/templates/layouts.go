package templates

import (
	"context"
	"regexp"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/db/dbsqlc"
	"github.com/heraldhq/herald/internal/delivery/render"
)

// contentSlot is where a layout puts the rendered email body.
var contentSlot = regexp.MustCompile(`\{\{\{~?\s*content\s*~?\}\}\}`)

// Layout wraps email bodies: HTML (and optionally text) with {{{content}}} where the body
// goes. Layouts see the same data as the content.
type Layout struct {
	ID         int64     `json:"id"`
	AppID      int64     `json:"appId"`
	Identifier string    `json:"identifier"`
	Name       string    `json:"name"`
	HTML       string    `json:"html"`
	Text       string    `json:"text"`
	Default    bool      `json:"default"`
	CreatedAt  time.Time `json:"createdAt"`
	UpdatedAt  time.Time `json:"updatedAt"`
}

// LayoutInput creates a layout, or changes one (empty fields keep their value).
type LayoutInput struct {
	Identifier string
	Name       string
	HTML       string
	Text       string
	// Default makes it the app's default layout (and the previous default not).
	Default *bool
}

// CreateLayout adds a layout to the app.
func (s *Service) CreateLayout(ctx context.Context, appID int64, in LayoutInput) (Layout, error) {
	var p herald.Problems
	checkIdentifier("identifier", in.Identifier, &p)
	name := strings.TrimSpace(in.Name)
	if name == "" {
		name = in.Identifier
	}
	if name != "" {
		checkText("name", name, MaxNameLength, &p)
	}
	text := in.Text
	if text == "" {
		text = "{{{content}}}"
	}
	checkLayout(in.HTML, text, &p)
	if err := p.Err(); err != nil {
		return Layout{}, err
	}
	isDefault := in.Default != nil && *in.Default
	var row dbsqlc.Layout
	err := s.db.InTx(ctx, func(q *dbsqlc.Queries, _ pgx.Tx) error {
		var err error
		row, err = q.CreateLayout(ctx, dbsqlc.CreateLayoutParams{AppID: appID, Identifier: in.Identifier, Name: name, Html: in.HTML, Text: text, IsDefault: false})
		if err != nil {
			return err
		}
		if isDefault {
			row, err = makeDefault(ctx, q, row)
		}
		return err
	})
	if err != nil {
		return Layout{}, conflict(err, "a layout with identifier "+in.Identifier+" already exists")
	}
	return layout(row), nil
}

// UpdateLayout changes a layout.
func (s *Service) UpdateLayout(ctx context.Context, appID, id int64, in LayoutInput) (Layout, error) {
	row, err := s.db.GetLayout(ctx, dbsqlc.GetLayoutParams{AppID: appID, ID: id})
	if err != nil {
		return Layout{}, notFound(err, "layout")
	}
	var p herald.Problems
	if in.Identifier != "" && in.Identifier != row.Identifier {
		p.Addf("identifier cannot change")
	}
	if in.Name != "" {
		row.Name = strings.TrimSpace(in.Name)
		checkText("name", row.Name, MaxNameLength, &p)
	}
	if in.HTML != "" {
		row.Html = in.HTML
	}
	if in.Text != "" {
		row.Text = in.Text
	}
	checkLayout(row.Html, row.Text, &p)
	if err := p.Err(); err != nil {
		return Layout{}, err
	}
	isDefault := row.IsDefault
	if in.Default != nil {
		isDefault = *in.Default
	}
	err = s.db.InTx(ctx, func(q *dbsqlc.Queries, _ pgx.Tx) error {
		var err error
		row, err = q.UpdateLayout(ctx, dbsqlc.UpdateLayoutParams{AppID: appID, ID: id, Name: row.Name, Html: row.Html, Text: row.Text, IsDefault: false})
		if err != nil {
			return err
		}
		if isDefault {
			row, err = makeDefault(ctx, q, row)
		}
		return err
	})
	if err != nil {
		return Layout{}, db.MapError(err)
	}
	return layout(row), nil
}

// makeDefault makes row the app's only default layout.
func makeDefault(ctx context.Context, q *dbsqlc.Queries, row dbsqlc.Layout) (dbsqlc.Layout, error) {
	if err := q.ClearDefaultLayout(ctx, dbsqlc.ClearDefaultLayoutParams{AppID: row.AppID, KeepID: row.ID}); err != nil {
		return row, err
	}
	return q.UpdateLayout(ctx, dbsqlc.UpdateLayoutParams{AppID: row.AppID, ID: row.ID, Name: row.Name, Html: row.Html, Text: row.Text, IsDefault: true})
}

// GetLayout returns a layout of the app.
func (s *Service) GetLayout(ctx context.Context, appID, id int64) (Layout, error) {
	row, err := s.db.GetLayout(ctx, dbsqlc.GetLayoutParams{AppID: appID, ID: id})
	if err != nil {
		return Layout{}, notFound(err, "layout")
	}
	return layout(row), nil
}

// DefaultLayout returns the app's default layout.
func (s *Service) DefaultLayout(ctx context.Context, appID int64) (Layout, error) {
	row, err := s.db.GetDefaultLayout(ctx, appID)
	if err != nil {
		return Layout{}, notFound(err, "default layout")
	}
	return layout(row), nil
}

// ListLayouts returns the app's layouts by identifier.
func (s *Service) ListLayouts(ctx context.Context, appID int64) ([]Layout, error) {
	rows, err := s.db.ListLayouts(ctx, appID)
	if err != nil {
		return nil, db.MapError(err)
	}
	out := make([]Layout, len(rows))
	for i, r := range rows {
		out[i] = layout(r)
	}
	return out, nil
}

// DeleteLayout removes a layout; contents that used it fall back to the default layout.
func (s *Service) DeleteLayout(ctx context.Context, appID, id int64) error {
	n, err := s.db.DeleteLayout(ctx, dbsqlc.DeleteLayoutParams{AppID: appID, ID: id})
	if err != nil {
		return db.MapError(err)
	}
	if n == 0 {
		return herald.NotFound("layout")
	}
	return nil
}

func checkLayout(html, text string, p *herald.Problems) {
	for _, f := range []struct{ name, src string }{{"html", html}, {"text", text}} {
		if len(f.src) > MaxFieldLength {
			p.Addf("%s must be at most %d bytes", f.name, MaxFieldLength)
			continue
		}
		if f.name == "html" && strings.TrimSpace(f.src) == "" {
			p.Addf("html should not be empty")
			continue
		}
		if _, err := render.Parse(f.src); err != nil {
			p.Addf("%s: %v", f.name, err)
			continue
		}
		if !contentSlot.MatchString(f.src) {
			p.Addf("%s must contain {{{content}}} where the email body goes", f.name)
		}
	}
}

func layout(r dbsqlc.Layout) Layout {
	return Layout{
		ID: r.ID, AppID: r.AppID, Identifier: r.Identifier, Name: r.Name, HTML: r.Html, Text: r.Text,
		Default: r.IsDefault, CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt,
	}
}
