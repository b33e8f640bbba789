package appadmin

import (
	"context"
	"regexp"
	"time"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/db/dbsqlc"
)

// Category is CategoryEntity.
type Category struct {
	ID         int64     `json:"id"`
	AppID      int64     `json:"appId"`
	Identifier string    `json:"identifier"`
	Name       string    `json:"name"`
	CreatedAt  time.Time `json:"createdAt"`
}

func categoryOf(r dbsqlc.Category) Category {
	return Category{ID: r.ID, AppID: r.AppID, Identifier: r.Identifier, Name: r.Name, CreatedAt: r.CreatedAt}
}

// identifierPattern keeps category identifiers usable in URLs and templates.
var identifierPattern = regexp.MustCompile(`^[A-Za-z0-9_.:-]{1,100}$`)

// CheckCategory records every rule a category's identifier and name break.
func CheckCategory(identifier, name string, p *herald.Problems) {
	if identifier != "" && !identifierPattern.MatchString(identifier) {
		p.Addf("identifier must be 1 to 100 letters, digits or _ . : -")
	}
	if len(name) > 100 {
		p.Addf("name must be at most 100 characters")
	}
}

// CreateCategory adds a category to an app.
func (s *Service) CreateCategory(ctx context.Context, appID int64, identifier, name string) (Category, error) {
	var p herald.Problems
	if identifier == "" {
		p.Addf("identifier should not be empty")
	}
	if name == "" {
		p.Addf("name should not be empty")
	}
	CheckCategory(identifier, name, &p)
	if err := p.Err(); err != nil {
		return Category{}, err
	}
	r, err := s.db.InsertCategory(ctx, dbsqlc.InsertCategoryParams{AppID: appID, Identifier: identifier, Name: name})
	if err != nil {
		if herald.ErrorCode(db.MapError(err)) == herald.ECONFLICT {
			return Category{}, herald.Errorf(herald.ECONFLICT, "a category with identifier %q already exists", identifier)
		}
		return Category{}, db.MapError(err)
	}
	return categoryOf(r), nil
}

// Categories lists an app's categories.
func (s *Service) Categories(ctx context.Context, appID int64) ([]Category, error) {
	rows, err := s.db.ListAppCategories(ctx, appID)
	if err != nil {
		return nil, db.MapError(err)
	}
	out := make([]Category, 0, len(rows))
	for _, r := range rows {
		out = append(out, categoryOf(r))
	}
	return out, nil
}

// CategoryOwner returns the app and the client owning a category, for the role check.
func (s *Service) CategoryOwner(ctx context.Context, categoryID int64) (appID, clientID int64, err error) {
	r, err := s.db.GetCategoryClient(ctx, categoryID)
	if err != nil || r.ClientID == nil {
		return 0, 0, herald.NotFound("category")
	}
	return r.AppID, *r.ClientID, nil
}

// RenameCategory changes a category's name (its identifier is fixed: sends name it).
func (s *Service) RenameCategory(ctx context.Context, appID, categoryID int64, name string) (Category, error) {
	var p herald.Problems
	if name == "" {
		p.Addf("name should not be empty")
	}
	CheckCategory("", name, &p)
	if err := p.Err(); err != nil {
		return Category{}, err
	}
	r, err := s.db.UpdateAppCategory(ctx, dbsqlc.UpdateAppCategoryParams{ID: categoryID, AppID: appID, Name: name})
	if err != nil {
		if herald.ErrorCode(db.MapError(err)) == herald.ENOTFOUND {
			return Category{}, herald.NotFound("category")
		}
		return Category{}, db.MapError(err)
	}
	return categoryOf(r), nil
}

// DeleteCategory deletes a category; inbox items keep no category.
func (s *Service) DeleteCategory(ctx context.Context, appID, categoryID int64) error {
	n, err := s.db.DeleteAppCategory(ctx, dbsqlc.DeleteAppCategoryParams{ID: categoryID, AppID: appID})
	if err != nil {
		return db.MapError(err)
	}
	if n == 0 {
		return herald.NotFound("category")
	}
	return nil
}
