package templates

import (
	"context"
	"strings"
	"time"
	"unicode/utf8"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/db/dbsqlc"
	"github.com/heraldhq/herald/internal/inbox"
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
	state := strings.TrimSpace(in.State)
	switch {
	case state == "":
		p.Addf("state should not be empty")
	case utf8.RuneCountInString(state) > inbox.MaxStateLength:
		p.Addf("state must be at most %d characters", inbox.MaxStateLength)
	}
	label := strings.TrimSpace(in.Label)
	if label == "" {
		label = state
	}
	if utf8.RuneCountInString(label) > MaxStateLabel {
		p.Addf("label must be at most %d characters", MaxStateLabel)
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
