package templates

import (
	"context"
	"strings"
	"time"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/db/dbsqlc"
)

// MaxStateLabel caps a content state's label.
const MaxStateLabel = 100

// ContentState is a state a template's in-app notifications can be set to (by an action
// block, or PUT /v3/notifications/{id}/state), with the label the console shows.
type ContentState struct {
	ID         int64     `json:"id"`
	TemplateID int64     `json:"templateId"`
	State      string    `json:"state"`
	Label      string    `json:"label"`
	CreatedAt  time.Time `json:"createdAt"`
}

// StateInput declares a content state; an empty label is the state itself.
type StateInput struct {
	State string
	Label string
}

// CreateContentState declares a state of the template (declaring it again changes its label).
func (s *Service) CreateContentState(ctx context.Context, appID, templateID int64, in StateInput) (ContentState, error) {
	var p herald.Problems
	state, label := strings.TrimSpace(in.State), strings.TrimSpace(in.Label)
	checkState(state, label, &p)
	if label == "" {
		label = state
	}
	if err := p.Err(); err != nil {
		return ContentState{}, err
	}
	if _, err := s.db.GetTemplate(ctx, dbsqlc.GetTemplateParams{AppID: appID, ID: templateID}); err != nil {
		return ContentState{}, notFound(err, "template")
	}
	row, err := s.db.CreateTemplateContentState(ctx, dbsqlc.CreateTemplateContentStateParams{AppID: appID, TemplateID: templateID, State: state, Label: label})
	if err != nil {
		return ContentState{}, db.MapError(err)
	}
	return contentState(row), nil
}

func (s *Service) contentStates(ctx context.Context, appID, templateID int64) ([]ContentState, error) {
	rows, err := s.db.ListTemplateContentStates(ctx, dbsqlc.ListTemplateContentStatesParams{AppID: appID, TemplateID: templateID})
	if err != nil {
		return nil, db.MapError(err)
	}
	out := make([]ContentState, len(rows))
	for i, r := range rows {
		out[i] = contentState(r)
	}
	return out, nil
}

func contentState(r dbsqlc.TemplateContentState) ContentState {
	return ContentState{ID: r.ID, TemplateID: r.TemplateID, State: r.State, Label: r.Label, CreatedAt: r.CreatedAt}
}
