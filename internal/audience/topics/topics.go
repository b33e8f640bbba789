// Package topics manages an app's topics (named groups of users that a send can address)
// and their subscriptions, each with the channels it wants.
package topics

import (
	"context"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/db/dbsqlc"
	js "github.com/heraldhq/herald/internal/platform/jsonshape"
	"github.com/heraldhq/herald/internal/platform/jsontime"
)

// Limits of a topic's fields.
const (
	MaxIdentifierLength = 255
	MaxNameLength       = 255
)

// Topic is a topic as the developer API shows it.
type Topic struct {
	ID         int64         `json:"id"`
	Identifier string        `json:"identifier"`
	Name       string        `json:"name"`
	CreatedAt  jsontime.Time `json:"createdAt"`
	UpdatedAt  jsontime.Time `json:"updatedAt"`
}

// Service manages topics and subscriptions.
type Service struct {
	db *db.DB
}

// NewService returns a Service over the database.
func NewService(d *db.DB) *Service { return &Service{db: d} }

// Create adds a topic from the body {name, identifier}; an identifier the app already uses
// is a conflict.
func (s *Service) Create(ctx context.Context, appID int64, body []byte) (Topic, error) {
	f := js.Fields(body)
	if f == nil {
		return Topic{}, herald.Invalid("body must be a JSON object")
	}
	var p herald.Problems
	name := js.RequiredString(f, "name", MaxNameLength, &p)
	identifier := js.RequiredString(f, "identifier", MaxIdentifierLength, &p)
	if err := p.Err(); err != nil {
		return Topic{}, err
	}
	row, err := s.db.InsertTopic(ctx, dbsqlc.InsertTopicParams{AppID: appID, Identifier: identifier, Name: name})
	if err != nil {
		if err = db.MapError(err); herald.ErrorCode(err) == herald.ECONFLICT {
			return Topic{}, herald.Errorf(herald.ECONFLICT, "a topic with identifier %q already exists", identifier)
		}
		return Topic{}, err
	}
	return fromRow(row), nil
}

// List returns the app's topics in creation order.
func (s *Service) List(ctx context.Context, appID int64) ([]Topic, error) {
	rows, err := s.db.ListAppTopics(ctx, appID)
	if err != nil {
		return nil, db.MapError(err)
	}
	out := make([]Topic, len(rows))
	for i, r := range rows {
		out[i] = fromRow(r)
	}
	return out, nil
}

// Rename changes a topic's name from the body {name}.
func (s *Service) Rename(ctx context.Context, appID, id int64, body []byte) (Topic, error) {
	f := js.Fields(body)
	if f == nil {
		return Topic{}, herald.Invalid("body must be a JSON object")
	}
	var p herald.Problems
	name := js.RequiredString(f, "name", MaxNameLength, &p)
	if err := p.Err(); err != nil {
		return Topic{}, err
	}
	row, err := s.db.RenameTopic(ctx, dbsqlc.RenameTopicParams{AppID: appID, ID: id, Name: name})
	if err != nil {
		return Topic{}, topicNotFound(err)
	}
	return fromRow(row), nil
}

// Delete removes a topic of the app and its subscriptions.
func (s *Service) Delete(ctx context.Context, appID, id int64) error {
	n, err := s.db.DeleteAppTopic(ctx, dbsqlc.DeleteAppTopicParams{AppID: appID, ID: id})
	if err != nil {
		return db.MapError(err)
	}
	if n == 0 {
		return herald.NotFound("topic")
	}
	return nil
}

// topicNotFound maps a database error, naming the topic when nothing was found.
func topicNotFound(err error) error {
	err = db.MapError(err)
	if herald.ErrorCode(err) == herald.ENOTFOUND {
		return herald.NotFound("topic")
	}
	return err
}

func fromRow(r dbsqlc.Topic) Topic {
	return Topic{ID: r.ID, Identifier: r.Identifier, Name: r.Name, CreatedAt: jsontime.Time(r.CreatedAt), UpdatedAt: jsontime.Time(r.UpdatedAt)}
}
