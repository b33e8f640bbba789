package templates

import (
	"context"
	"strings"

	"github.com/jackc/pgx/v5"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/db/dbsqlc"
)

// Owner returns the app and client owning a template, for the management API's role check;
// a template of an app without a client is not found there.
func (s *Service) Owner(ctx context.Context, id int64) (appID, clientID int64, err error) {
	r, err := s.db.GetTemplateClient(ctx, id)
	if err != nil || r.ClientID == nil {
		return 0, 0, herald.NotFound("template")
	}
	return r.AppID, *r.ClientID, nil
}

// Exists reports whether the app has a template with the identifier (the workflow
// definitions' check).
func (s *Service) Exists(ctx context.Context, appID int64, identifier string) bool {
	ok, err := s.db.TemplateExists(ctx, dbsqlc.TemplateExistsParams{AppID: appID, Identifier: identifier})
	return err == nil && ok
}

// Duplicate copies a template — contents, batching contents, layouts and content states —
// under a new identifier in the same app.
func (s *Service) Duplicate(ctx context.Context, appID, id int64, in TemplateInput) (Template, error) {
	src, err := s.db.GetTemplate(ctx, dbsqlc.GetTemplateParams{AppID: appID, ID: id})
	if err != nil {
		return Template{}, notFound(err, "template")
	}
	var p herald.Problems
	checkIdentifier("identifier", in.Identifier, &p)
	name := strings.TrimSpace(in.Name)
	if name == "" {
		name = src.Name + " (copy)"
	}
	checkText("name", name, MaxNameLength, &p)
	desc := src.Description
	if in.Description != nil {
		desc = *in.Description
		checkText("description", desc, MaxDescription, &p)
	}
	if err := p.Err(); err != nil {
		return Template{}, err
	}
	var row dbsqlc.Template
	err = s.db.InTx(ctx, func(q *dbsqlc.Queries, _ pgx.Tx) error {
		var err error
		row, err = q.CreateTemplate(ctx, dbsqlc.CreateTemplateParams{AppID: appID, Identifier: in.Identifier, Name: name, Description: desc})
		if err != nil {
			return conflict(err, "a template with identifier "+in.Identifier+" already exists")
		}
		if err := q.CopyTemplateContents(ctx, dbsqlc.CopyTemplateContentsParams{AppID: appID, FromTemplateID: id, ToTemplateID: row.ID}); err != nil {
			return db.MapError(err)
		}
		return db.MapError(q.CopyTemplateContentStates(ctx, dbsqlc.CopyTemplateContentStatesParams{AppID: appID, FromTemplateID: id, ToTemplateID: row.ID}))
	})
	if err != nil {
		return Template{}, err
	}
	return s.withContents(ctx, row)
}
