// Package users manages an app's users as the developer API sees them: creating and
// updating them with their profile, deleting them with everything they own, reading and
// changing the profile (merge or RFC 6902 JSON Patch), and resolving identifiers to ids for
// the other services.
package users

import (
	"context"
	"encoding/json"
	"fmt"
	"time"
	"unicode/utf8"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/db/dbsqlc"
	js "github.com/heraldhq/herald/internal/platform/jsonshape"
	"github.com/heraldhq/herald/internal/platform/jsontime"
)

// MaxIdentifierLength caps a user identifier (the same cap as in send requests).
const MaxIdentifierLength = herald.MaxIdentifierLength

// User is a user as the developer API shows it.
type User struct {
	Identifier string          `json:"identifier"`
	Profile    json.RawMessage `json:"profile"`
	CreatedAt  jsontime.Time   `json:"createdAt"`
	UpdatedAt  jsontime.Time   `json:"updatedAt"`
}

// Service manages users.
type Service struct {
	db *db.DB
}

// NewService returns a Service over the database.
func NewService(d *db.DB) *Service { return &Service{db: d} }

// CheckIdentifier records the problems of a user identifier given in field.
func CheckIdentifier(field, identifier string, p *herald.Problems) {
	switch {
	case identifier == "":
		p.Addf("%s should not be empty", field)
	case utf8.RuneCountInString(identifier) > MaxIdentifierLength:
		p.Addf("%s must be at most %d characters", field, MaxIdentifierLength)
	}
}

// MaxProfileBytes bounds a profile object given in one request.
const MaxProfileBytes = 64 << 10

// CheckProfile records the problems of a profile object given in field.
func CheckProfile(field string, raw json.RawMessage, p *herald.Problems) {
	fields := js.Fields(raw)
	if fields == nil {
		p.Addf("%s must be an object", field)
		return
	}
	if len(raw) > MaxProfileBytes {
		p.Addf("%s must be at most %d bytes", field, MaxProfileBytes)
	}
	if _, ok := fields["identifier"]; ok {
		p.Addf("%s must not contain the key identifier: the identifier is not part of the profile", field)
	}
	if tz, ok := fields["timezone"]; ok && js.Kind(tz) != "null" {
		var name string
		if js.Kind(tz) != "string" || json.Unmarshal(tz, &name) != nil || !ValidTimezone(name) {
			p.Addf("%s.timezone must be an IANA time zone name such as Europe/Paris or UTC", field)
		}
	}
}

// ValidTimezone reports whether name is an IANA time zone name Herald can load (the
// profile key timezone: quiet hours and time-of-day steps are read in it).
func ValidTimezone(name string) bool {
	if name == "" || name == "Local" || len(name) > 64 {
		return false
	}
	_, err := time.LoadLocation(name)
	return err == nil
}

// Create creates a user from POST /users {identifier, profile}; for an existing user it
// merges the profile into the stored one.
func (s *Service) Create(ctx context.Context, appID int64, body []byte) (User, error) {
	top := js.Fields(body)
	if top == nil {
		return User{}, herald.Invalid("body must be a JSON object")
	}
	var p herald.Problems
	identifier, ok := js.String(top["identifier"])
	if !ok {
		p.Addf("identifier must be a string")
	} else {
		CheckIdentifier("identifier", identifier, &p)
	}
	profile := json.RawMessage(`{}`)
	if raw := top["profile"]; js.Present(raw) {
		CheckProfile("profile", raw, &p)
		profile = raw
	}
	if err := p.Err(); err != nil {
		return User{}, err
	}
	return s.upsert(ctx, appID, identifier, profile)
}

// Put creates the user or merges the body (an object of profile keys) into its profile.
func (s *Service) Put(ctx context.Context, appID int64, identifier string, body []byte) (User, error) {
	var p herald.Problems
	CheckIdentifier("identifier", identifier, &p)
	if js.Kind(body) != "object" {
		p.Addf("body must be a JSON object of profile keys")
	} else {
		CheckProfile("profile", body, &p)
	}
	if err := p.Err(); err != nil {
		return User{}, err
	}
	return s.upsert(ctx, appID, identifier, body)
}

func (s *Service) upsert(ctx context.Context, appID int64, identifier string, profile json.RawMessage) (User, error) {
	row, err := s.db.UpsertUserProfile(ctx, dbsqlc.UpsertUserProfileParams{AppID: appID, Identifier: identifier, Profile: profile})
	if err != nil {
		return User{}, db.MapError(err)
	}
	return fromRow(row), nil
}

// ID returns the internal id of an app's user, or a not-found error naming the user.
func ID(ctx context.Context, q *dbsqlc.Queries, appID int64, identifier string) (int64, error) {
	u, err := q.GetUserByIdentifier(ctx, dbsqlc.GetUserByIdentifierParams{AppID: appID, Identifier: identifier})
	if err != nil {
		err = db.MapError(err)
		if herald.ErrorCode(err) == herald.ENOTFOUND {
			return 0, herald.Errorf(herald.ENOTFOUND, "user %q not found", identifier)
		}
		return 0, err
	}
	return u.ID, nil
}

// Ensure returns the internal ids of the app's users named by identifiers (in their
// order), creating the missing ones with an empty profile. Run it in the caller's
// transaction.
func Ensure(ctx context.Context, q *dbsqlc.Queries, appID int64, identifiers []string) ([]int64, error) {
	if len(identifiers) == 0 {
		return nil, nil
	}
	profiles := make([]json.RawMessage, len(identifiers))
	for i := range profiles {
		profiles[i] = json.RawMessage(`{}`)
	}
	distinct := make(map[string]bool, len(identifiers))
	for _, identifier := range identifiers {
		distinct[identifier] = true
	}
	ids := make(map[string]int64, len(identifiers))
	// A user created by a concurrent transaction after this statement's snapshot is missing
	// from its result; the next statement, with a new snapshot, sees it.
	for pass := 0; pass < 3 && len(ids) < len(distinct); pass++ {
		rows, err := q.EnsureUsers(ctx, dbsqlc.EnsureUsersParams{AppID: appID, Identifiers: identifiers, Profiles: profiles})
		if err != nil {
			return nil, db.MapError(err)
		}
		for _, r := range rows {
			ids[r.Identifier] = r.ID
		}
	}
	out := make([]int64, len(identifiers))
	for i, identifier := range identifiers {
		id, ok := ids[identifier]
		if !ok {
			return nil, fmt.Errorf("users: %q could not be created", identifier)
		}
		out[i] = id
	}
	return out, nil
}

func fromRow(r dbsqlc.User) User {
	return User{Identifier: r.Identifier, Profile: r.Profile, CreatedAt: jsontime.Time(r.CreatedAt), UpdatedAt: jsontime.Time(r.UpdatedAt)}
}
