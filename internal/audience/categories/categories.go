// Package categories manages an app's notification categories: the tags users set their
// preferences by.
package categories

import (
	"context"
	"encoding/json"
	"regexp"
	"strings"
	"time"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/db/dbsqlc"
	js "github.com/heraldhq/herald/internal/platform/jsonshape"
)

// Limits of a category's fields.
const (
	MaxIdentifierLength = 100
	MaxNameLength       = 255
)

// Category is a category as the developer API shows it.
type Category struct {
	ID         int64     `json:"id"`
	Identifier string    `json:"identifier"`
	Name       string    `json:"name"`
	AppID      int64     `json:"-"`
	CreatedAt  time.Time `json:"-"`
}

// Entity is a category as the management API shows it (CategoryEntity).
type Entity struct {
	ID         int64     `json:"id"`
	AppID      int64     `json:"appId"`
	Identifier string    `json:"identifier"`
	Name       string    `json:"name"`
	CreatedAt  time.Time `json:"createdAt"`
}

// Entity returns the management API's view of the category.
func (c Category) Entity() Entity {
	return Entity{ID: c.ID, AppID: c.AppID, Identifier: c.Identifier, Name: c.Name, CreatedAt: c.CreatedAt}
}

// identifierPattern keeps identifiers usable in URLs, templates and preference keys.
var identifierPattern = regexp.MustCompile(`^[A-Za-z0-9_.:-]+$`)

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
	identifier, name, p := check(f)
	if err := p.Err(); err != nil {
		return Category{}, err
	}
	return s.insert(ctx, appID, identifier, name)
}

// Check checks a category body {identifier, name} as Create does, without a database
// (the herald CLI validates with it), and returns every problem.
func Check(body []byte) []string {
	f := js.Fields(body)
	if f == nil {
		return []string{"body must be a JSON object"}
	}
	_, _, p := check(f)
	return p
}

func check(f map[string]json.RawMessage) (identifier, name string, p herald.Problems) {
	identifier = js.RequiredString(f, "identifier", MaxIdentifierLength, &p)
	if strings.TrimSpace(identifier) != "" && len(identifier) <= MaxIdentifierLength && !identifierPattern.MatchString(identifier) {
		p.Addf("identifier must be 1 to %d letters, digits or _ . : -", MaxIdentifierLength)
	}
	name = js.RequiredString(f, "name", MaxNameLength, &p)
	return identifier, name, p
}

func (s *Service) insert(ctx context.Context, appID int64, identifier, name string) (Category, error) {
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

// Rename changes a category's name from the body {name}; its identifier is fixed (sends
// name it).
func (s *Service) Rename(ctx context.Context, appID, id int64, body []byte) (Category, error) {
	f := js.Fields(body)
	if f == nil {
		return Category{}, herald.Invalid("body must be a JSON object")
	}
	var p herald.Problems
	name := js.RequiredString(f, "name", MaxNameLength, &p)
	if err := p.Err(); err != nil {
		return Category{}, err
	}
	row, err := s.db.UpdateAppCategory(ctx, dbsqlc.UpdateAppCategoryParams{ID: id, AppID: appID, Name: name})
	if err != nil {
		if err = db.MapError(err); herald.ErrorCode(err) == herald.ENOTFOUND {
			return Category{}, herald.NotFound("category")
		}
		return Category{}, err
	}
	return fromRow(row), nil
}

// Owner returns the app and the client owning a category, for the management API's role
// check; a category of an app without a client is not found there.
func (s *Service) Owner(ctx context.Context, id int64) (appID, clientID int64, err error) {
	r, err := s.db.GetCategoryClient(ctx, id)
	if err != nil || r.ClientID == nil {
		return 0, 0, herald.NotFound("category")
	}
	return r.AppID, *r.ClientID, nil
}

func fromRow(r dbsqlc.Category) Category {
	return Category{ID: r.ID, AppID: r.AppID, Identifier: r.Identifier, Name: r.Name, CreatedAt: r.CreatedAt}
}
