// Package clients is the tenancy of the console: clients (accounts), their members and
// roles, invitations by email, command-line tokens, and the one access check every /v1
// route goes through.
package clients

import (
	"context"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/db/dbsqlc"
)

// Role is a member's role on a client; each role can do everything the ones below it can.
type Role string

// Roles, from most to least powerful.
const (
	Owner     Role = "owner"
	Admin     Role = "admin"
	Developer Role = "developer"
	Viewer    Role = "viewer"
)

func (r Role) rank() int {
	switch r {
	case Owner:
		return 4
	case Admin:
		return 3
	case Developer:
		return 2
	case Viewer:
		return 1
	}
	return 0
}

// AtLeast reports whether r includes min.
func (r Role) AtLeast(min Role) bool { return r.rank() >= min.rank() && r.rank() > 0 }

// ParseRole reads a role name.
func ParseRole(s string) (Role, bool) {
	r := Role(s)
	return r, r.rank() > 0
}

// Actor is who calls: a console user in a session, or a CLI token acting for its creator
// on one client.
type Actor struct {
	UserID int64
	// TokenClientID is the client of a CLI token (0 in a session); such a caller sees no
	// other client.
	TokenClientID int64
	// TokenRole is the creator's role on that client, read when the token was checked.
	TokenRole Role
	// TokenID is the CLI token's id (0 in a session), for the audit log.
	TokenID int64
}

// ViaToken reports whether the actor is a CLI token.
func (a Actor) ViaToken() bool { return a.TokenClientID != 0 }

// Access returns the actor's role on a client, or 404 when the actor is no member (another
// tenant's ids are indistinguishable from missing ones) and 403 when the role is below min.
func (s *Service) Access(ctx context.Context, a Actor, clientID int64, min Role) (Role, error) {
	var role Role
	if a.ViaToken() {
		if clientID != a.TokenClientID {
			return "", herald.NotFound("client")
		}
		role = a.TokenRole
	} else {
		m, err := s.db.GetMembership(ctx, dbsqlc.GetMembershipParams{ClientID: clientID, ConsoleUserID: a.UserID})
		if err != nil {
			if herald.ErrorCode(db.MapError(err)) == herald.ENOTFOUND {
				return "", herald.NotFound("client")
			}
			return "", db.MapError(err)
		}
		role = Role(m.Role)
	}
	if !role.AtLeast(min) {
		return role, herald.Errorf(herald.EFORBIDDEN, "this needs the %s role (or higher) on the client; yours is %s", min, role)
	}
	return role, nil
}
