// Package categories manages an app's notification categories: the tags users set their
// preferences by.
package categories

import (
	"context"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/db/dbsqlc"
	js "github.com/heraldhq/herald/jsonshape"
)

// Limits of a category's fields.
const (
	MaxIdentifierLength = 255
	MaxNameLength       = 255
)

// Category is a category as the developer API shows it.
type Category struct {
	ID         int64  `json:"id"`
	Identifier string `json:"identifier"`
	Name       string `json:"name"`
}

// Service manages categories.
type Service struct {
	db *db.DB
}

// NewService returns a Service over the database.
func NewService(d *db.DB) *Service { return &Service{db: d} }

// List returns the app's categories in creation order.
func (s *Service) List(ctx context.Context, appID int64) ([]Category, error) {
	rows, err := s.db.ListAppCategories(ctx, appID)
	if err != nil {
		return nil, db.MapError(err)
	}
	out := make([]Category, len(rows))
	for i, r := range rows {
		out[i] = fromRow(r)
	}
	return out, nil
}

// Create adds a category from the body {identifier, name}; an identifier the app already
// uses is a conflict.
func (s *Service) Create(ctx context.Context, appID int64, body []byte) (Category, error) {
	f := js.Fields(body)
	if f == nil {
		return Category{}, herald.Invalid("body must be a JSON object")
	}
	var p herald.Problems
	identifier := js.RequiredString(f, "identifier", MaxIdentifierLength, &p)
	name := js.RequiredString(f, "name", MaxNameLength, &p)
	if err := p.Err(); err != nil {
		return Category{}, err
	}
	row, err := s.db.InsertCategory(ctx, dbsqlc.InsertCategoryParams{AppID: appID, Identifier: identifier, Name: name})
	if err != nil {
		if err = db.MapError(err); herald.ErrorCode(err) == herald.ECONFLICT {
			return Category{}, herald.Errorf(herald.ECONFLICT, "a category with identifier %q already exists", identifier)
		}
		return Category{}, err
	}
	return fromRow(row), nil
}

// Delete removes a category of the app. Its notifications stay, without a category; the
// preferences set for it go.
func (s *Service) Delete(ctx context.Context, appID, id int64) error {
	n, err := s.db.DeleteAppCategory(ctx, dbsqlc.DeleteAppCategoryParams{AppID: appID, ID: id})
	if err != nil {
		return db.MapError(err)
	}
	if n == 0 {
		return herald.NotFound("category")
	}
	return nil
}

func fromRow(r dbsqlc.Category) Category {
	return Category{ID: r.ID, Identifier: r.Identifier, Name: r.Name}
}
