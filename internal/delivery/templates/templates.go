// Package templates stores notification templates (content per channel), email layouts and
// translations, validates them on save, and renders them for one recipient at delivery
// time. The management API (console CRUD) calls the service; the delivery activities load a
// Bundle per send.
package templates

import (
	"context"
	"regexp"
	"strings"
	"time"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/db/dbsqlc"
)

// Limits of templates.
const (
	MaxIdentifierLength = 100
	MaxNameLength       = 100
	MaxDescription      = 1000
)

var identifierPattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]*$`)

// Template is a notification template and its content per channel.
type Template struct {
	ID          int64     `json:"id"`
	AppID       int64     `json:"appId"`
	Identifier  string    `json:"identifier"`
	Name        string    `json:"name"`
	Description string    `json:"description"`
	Contents    []Content `json:"contents"`
	// ContentStates are the states its in-app notifications can be set to.
	ContentStates []ContentState `json:"contentStates"`
	CreatedAt     time.Time      `json:"createdAt"`
	UpdatedAt     time.Time      `json:"updatedAt"`
}

// TemplateInput creates a template, or renames one (Identifier is fixed once created).
type TemplateInput struct {
	Identifier  string
	Name        string
	Description *string
}

// Service stores templates, layouts and translations.
type Service struct {
	db *db.DB
}

// NewService returns a Service.
func NewService(d *db.DB) *Service { return &Service{db: d} }

// Create adds a template to the app.
func (s *Service) Create(ctx context.Context, appID int64, in TemplateInput) (Template, error) {
	var p herald.Problems
	checkIdentifier("identifier", in.Identifier, &p)
	name := strings.TrimSpace(in.Name)
	if name == "" {
		name = in.Identifier
	}
	if name != "" {
		// An empty name takes the identifier, whose own problem is reported.
		checkText("name", name, MaxNameLength, &p)
	}
	desc := deref(in.Description)
	checkText("description", desc, MaxDescription, &p)
	if err := p.Err(); err != nil {
		return Template{}, err
	}
	row, err := s.db.CreateTemplate(ctx, dbsqlc.CreateTemplateParams{AppID: appID, Identifier: in.Identifier, Name: name, Description: desc})
	if err != nil {
		return Template{}, conflict(err, "a template with identifier "+in.Identifier+" already exists")
	}
	return template(row, nil), nil
}

// Update renames a template or changes its description.
func (s *Service) Update(ctx context.Context, appID, id int64, in TemplateInput) (Template, error) {
	row, err := s.db.GetTemplate(ctx, dbsqlc.GetTemplateParams{AppID: appID, ID: id})
	if err != nil {
		return Template{}, notFound(err, "template")
	}
	var p herald.Problems
	if in.Identifier != "" && in.Identifier != row.Identifier {
		p.Addf("identifier cannot change (duplicate the template instead)")
	}
	name, desc := row.Name, row.Description
	if in.Name != "" {
		name = strings.TrimSpace(in.Name)
		checkText("name", name, MaxNameLength, &p)
	}
	if in.Description != nil {
		desc = *in.Description
		checkText("description", desc, MaxDescription, &p)
	}
	if err := p.Err(); err != nil {
		return Template{}, err
	}
	row, err = s.db.UpdateTemplate(ctx, dbsqlc.UpdateTemplateParams{AppID: appID, ID: id, Name: name, Description: desc})
	if err != nil {
		return Template{}, db.MapError(err)
	}
	return s.withContents(ctx, row)
}

// Get returns a template with its contents.
func (s *Service) Get(ctx context.Context, appID, id int64) (Template, error) {
	row, err := s.db.GetTemplate(ctx, dbsqlc.GetTemplateParams{AppID: appID, ID: id})
	if err != nil {
		return Template{}, notFound(err, "template")
	}
	return s.withContents(ctx, row)
}

// List returns the app's templates (without contents), by identifier.
func (s *Service) List(ctx context.Context, appID int64) ([]Template, error) {
	rows, err := s.db.ListTemplates(ctx, appID)
	if err != nil {
		return nil, db.MapError(err)
	}
	out := make([]Template, len(rows))
	for i, r := range rows {
		out[i] = template(r, nil)
	}
	return out, nil
}

// Delete removes a template and its contents.
func (s *Service) Delete(ctx context.Context, appID, id int64) error {
	n, err := s.db.DeleteTemplate(ctx, dbsqlc.DeleteTemplateParams{AppID: appID, ID: id})
	if err != nil {
		return db.MapError(err)
	}
	if n == 0 {
		return herald.NotFound("template")
	}
	return nil
}

func (s *Service) withContents(ctx context.Context, row dbsqlc.Template) (Template, error) {
	rows, err := s.db.ListTemplateContents(ctx, dbsqlc.ListTemplateContentsParams{AppID: row.AppID, TemplateID: row.ID})
	if err != nil {
		return Template{}, db.MapError(err)
	}
	layouts, err := s.layoutIdentifiers(ctx, row.AppID, rows)
	if err != nil {
		return Template{}, err
	}
	contents := make([]Content, len(rows))
	for i, r := range rows {
		contents[i] = content(r, layouts)
	}
	t := template(row, contents)
	if t.ContentStates, err = s.contentStates(ctx, row.AppID, row.ID); err != nil {
		return Template{}, err
	}
	return t, nil
}

func template(r dbsqlc.Template, contents []Content) Template {
	if contents == nil {
		contents = []Content{}
	}
	return Template{
		ID: r.ID, AppID: r.AppID, Identifier: r.Identifier, Name: r.Name, Description: r.Description,
		Contents: contents, ContentStates: []ContentState{}, CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt,
	}
}

func checkIdentifier(field, v string, p *herald.Problems) {
	switch {
	case v == "":
		p.Addf("%s should not be empty", field)
	case len(v) > MaxIdentifierLength:
		p.Addf("%s must be at most %d characters", field, MaxIdentifierLength)
	case !identifierPattern.MatchString(v):
		p.Addf("%s may contain only letters, digits, '_', '.' and '-'", field)
	}
}

func checkText(field, v string, max int, p *herald.Problems) {
	if field == "name" && v == "" {
		p.Addf("name should not be empty")
	}
	if len(v) > max {
		p.Addf("%s must be at most %d characters", field, max)
	}
}

func notFound(err error, what string) error {
	err = db.MapError(err)
	if herald.ErrorCode(err) == herald.ENOTFOUND {
		return herald.NotFound(what)
	}
	return err
}

func conflict(err error, msg string) error {
	err = db.MapError(err)
	if herald.ErrorCode(err) == herald.ECONFLICT {
		return herald.Errorf(herald.ECONFLICT, "%s", msg)
	}
	return err
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
