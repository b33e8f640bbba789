// Package appadmin is the console's view of one app's data: its users (list, create,
// update, delete, profile, preferences), its categories, and test tokens for secure mode.
package appadmin

import (
	"context"
	"encoding/json"
	"time"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/db/dbsqlc"
	"github.com/heraldhq/herald/internal/audience/users"
	"github.com/heraldhq/herald/internal/console/apps"
	"github.com/heraldhq/herald/internal/inbox"
)

// Service manages an app's users and categories; callers have checked the console
// caller's role on the app's client.
type Service struct {
	db    *db.DB
	apps  *apps.Service
	users *users.Service
	now   func() time.Time
	// Detail serves the user page's preferences and inbox (set by the wiring).
	Detail Detail
}

// NewService builds the service; user writes go through the developer API's users service
// so both APIs apply one set of rules.
func NewService(d *db.DB, a *apps.Service, u *users.Service) *Service {
	return &Service{db: d, apps: a, users: u, now: time.Now}
}

// Page sizes of the user list.
const (
	DefaultLimit = 10
	MaxLimit     = 100
)

// User is an app user as the console sees it.
type User struct {
	ID         int64           `json:"id"`
	Identifier string          `json:"identifier"`
	Profile    json.RawMessage `json:"profile"`
	CreatedAt  time.Time       `json:"createdAt"`
	UpdatedAt  time.Time       `json:"updatedAt"`
}

func userOf(r dbsqlc.User) User {
	return User{ID: r.ID, Identifier: r.Identifier, Profile: r.Profile, CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt}
}

// UserPage is a page of the user list.
type UserPage struct {
	Pagination inbox.Pagination `json:"pagination"`
	Data       []User           `json:"data"`
}

// Users lists an app's users, newest first; prefix filters identifiers by their start.
func (s *Service) Users(ctx context.Context, appID int64, pageNo, limit int, prefix string) (UserPage, error) {
	rows, err := s.db.ListAppUsers(ctx, dbsqlc.ListAppUsersParams{AppID: appID, Prefix: prefix,
		MaxRows: int32(limit), SkipRows: int32((pageNo - 1) * limit)})
	if err != nil {
		return UserPage{}, db.MapError(err)
	}
	total, err := s.db.CountAppUsers(ctx, dbsqlc.CountAppUsersParams{AppID: appID, Prefix: prefix})
	if err != nil {
		return UserPage{}, db.MapError(err)
	}
	out := UserPage{Pagination: inbox.Pagination{TotalCount: total, PageNo: pageNo, Limit: limit}, Data: make([]User, 0, len(rows))}
	for _, r := range rows {
		out.Data = append(out.Data, userOf(r))
	}
	return out, nil
}

// CreateUser adds a user; an identifier in use is a conflict.
func (s *Service) CreateUser(ctx context.Context, appID int64, identifier string, profile json.RawMessage) (User, error) {
	if profile == nil {
		profile = json.RawMessage(`{}`)
	}
	var p herald.Problems
	users.CheckIdentifier("identifier", identifier, &p)
	users.CheckProfile("profile", profile, &p)
	if err := p.Err(); err != nil {
		return User{}, err
	}
	r, err := s.db.CreateAppUser(ctx, dbsqlc.CreateAppUserParams{AppID: appID, Identifier: identifier, Profile: profile})
	if err != nil {
		if herald.ErrorCode(db.MapError(err)) == herald.ECONFLICT {
			return User{}, herald.Errorf(herald.ECONFLICT, "a user with identifier %q already exists", identifier)
		}
		return User{}, db.MapError(err)
	}
	return userOf(r), nil
}

// UpsertUser creates the user or merges the fields into its profile (the developer API's
// PUT /users/{identifier}).
func (s *Service) UpsertUser(ctx context.Context, appID int64, identifier string, profile json.RawMessage) (User, error) {
	if _, err := s.users.Put(ctx, appID, identifier, profile); err != nil {
		return User{}, err
	}
	r, err := s.user(ctx, appID, identifier)
	return userOf(r), err
}

func (s *Service) user(ctx context.Context, appID int64, identifier string) (dbsqlc.User, error) {
	r, err := s.db.GetUserByIdentifier(ctx, dbsqlc.GetUserByIdentifierParams{AppID: appID, Identifier: identifier})
	if err != nil {
		if herald.ErrorCode(db.MapError(err)) == herald.ENOTFOUND {
			return r, herald.NotFound("user")
		}
		return r, db.MapError(err)
	}
	return r, nil
}

// Profile returns a user's profile object; unlike the developer API's own profile (a user
// reading theirs before they exist), the console asks about a named user: unknown is 404.
func (s *Service) Profile(ctx context.Context, appID int64, identifier string) (json.RawMessage, error) {
	r, err := s.user(ctx, appID, identifier)
	if err != nil {
		return nil, err
	}
	return r.Profile, nil
}
