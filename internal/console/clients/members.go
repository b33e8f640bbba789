package clients

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/db/dbsqlc"
	"github.com/heraldhq/herald/internal/console/audit"
)

type pgxTx = pgx.Tx

// Member is a console user's membership of a client (ClientUserClientsEntity).
type Member struct {
	ID         int64      `json:"id"`
	ClientID   int64      `json:"clientId"`
	Role       Role       `json:"role"`
	ClientUser MemberUser `json:"clientUser"`
	CreatedAt  time.Time  `json:"createdAt"`
}

// MemberUser is the person behind a membership.
type MemberUser struct {
	ID    int64  `json:"id"`
	Email string `json:"email"`
	Name  string `json:"name"`
}

// Members lists a client's members (any member may look).
func (s *Service) Members(ctx context.Context, a Actor, clientID int64) ([]Member, error) {
	if _, err := s.Access(ctx, a, clientID, Viewer); err != nil {
		return nil, err
	}
	rows, err := s.db.ListClientUsers(ctx, clientID)
	if err != nil {
		return nil, db.MapError(err)
	}
	out := make([]Member, 0, len(rows))
	for _, r := range rows {
		out = append(out, Member{ID: r.ID, ClientID: r.ClientID, Role: Role(r.Role), CreatedAt: r.CreatedAt,
			ClientUser: MemberUser{ID: r.ConsoleUserID, Email: r.Email, Name: r.Name}})
	}
	return out, nil
}

// member loads the membership of a console user, 404 when there is none.
func member(ctx context.Context, q *dbsqlc.Queries, clientID, userID int64) (dbsqlc.ClientUser, error) {
	m, err := q.GetMembership(ctx, dbsqlc.GetMembershipParams{ClientID: clientID, ConsoleUserID: userID})
	if err != nil {
		if herald.ErrorCode(db.MapError(err)) == herald.ENOTFOUND {
			return m, herald.NotFound("client user")
		}
		return m, db.MapError(err)
	}
	return m, nil
}

// keepOwner refuses a change that would leave the client without an owner.
func keepOwner(ctx context.Context, q *dbsqlc.Queries, clientID int64, target dbsqlc.ClientUser) error {
	if Role(target.Role) != Owner {
		return nil
	}
	n, err := q.CountOwners(ctx, clientID)
	if err != nil {
		return db.MapError(err)
	}
	if n <= 1 {
		return herald.Errorf(herald.ECONFLICT, "a client must keep at least one owner: make someone else owner first")
	}
	return nil
}

// SetRole changes a member's role (admins; only owners grant or take away ownership).
func (s *Service) SetRole(ctx context.Context, a Actor, clientID, userID int64, role Role) error {
	mine, err := s.Access(ctx, a, clientID, Admin)
	if err != nil {
		return err
	}
	return s.db.InTx(ctx, func(q *dbsqlc.Queries, _ pgxTx) error {
		target, err := member(ctx, q, clientID, userID)
		if err != nil {
			return err
		}
		if (role == Owner || Role(target.Role) == Owner) && mine != Owner {
			return herald.Errorf(herald.EFORBIDDEN, "only an owner can grant or take away the owner role")
		}
		if role != Owner {
			if err := keepOwner(ctx, q, clientID, target); err != nil {
				return err
			}
		}
		if _, err = q.SetClientUserRole(ctx, dbsqlc.SetClientUserRoleParams{ClientID: clientID, ConsoleUserID: userID, Role: string(role)}); err != nil {
			return db.MapError(err)
		}
		e, err := memberEvent(ctx, q, audit.MemberRoleChanged, userID, map[string]any{"from": target.Role, "to": role})
		if err != nil {
			return err
		}
		return s.record(ctx, q, a, clientID, e)
	})
}

// Remove takes a member out of a client: admins remove others (owners only by owners);
// anyone may leave.
func (s *Service) Remove(ctx context.Context, a Actor, clientID, userID int64) error {
	min := Admin
	if userID == a.UserID {
		min = Viewer
	}
	mine, err := s.Access(ctx, a, clientID, min)
	if err != nil {
		return err
	}
	return s.db.InTx(ctx, func(q *dbsqlc.Queries, _ pgxTx) error {
		target, err := member(ctx, q, clientID, userID)
		if err != nil {
			return err
		}
		if Role(target.Role) == Owner && mine != Owner {
			return herald.Errorf(herald.EFORBIDDEN, "only an owner can remove an owner")
		}
		if err := keepOwner(ctx, q, clientID, target); err != nil {
			return err
		}
		// The event is read before the row goes: the member's email labels it.
		e, err := memberEvent(ctx, q, audit.MemberRemoved, userID, map[string]any{"role": target.Role, "left": userID == a.UserID})
		if err != nil {
			return err
		}
		if _, err = q.RemoveClientUser(ctx, dbsqlc.RemoveClientUserParams{ClientID: clientID, ConsoleUserID: userID}); err != nil {
			return db.MapError(err)
		}
		return s.record(ctx, q, a, clientID, e)
	})
}

// memberEvent describes a change to a member, labelled with the member's email.
func memberEvent(ctx context.Context, q *dbsqlc.Queries, action string, userID int64, details map[string]any) (audit.Event, error) {
	u, err := q.GetConsoleUser(ctx, userID)
	if err != nil {
		return audit.Event{}, db.MapError(err)
	}
	e := audit.Event{Action: action, Details: details}
	audit.UserTarget(&e, userID, u.Email)
	return e, nil
}

// CanSee reports whether two console users share a client, so one may read the other's
// console profile.
func (s *Service) CanSee(ctx context.Context, viewer, subject int64) (bool, error) {
	if viewer == subject {
		return true, nil
	}
	ok, err := s.db.ShareClient(ctx, dbsqlc.ShareClientParams{A: viewer, B: subject})
	return ok, db.MapError(err)
}
