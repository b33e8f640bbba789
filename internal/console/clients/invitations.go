package clients

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/db/dbsqlc"
	"github.com/heraldhq/herald/internal/console"
	"github.com/heraldhq/herald/internal/console/audit"
	"github.com/heraldhq/herald/internal/console/mailer"
	"github.com/heraldhq/herald/internal/platform/secrets"
)

// Invitation limits.
const (
	inviteTTL        = 7 * 24 * time.Hour
	maxInvitesAtOnce = 50
)

// Invitation is an open invitation (InvitationEntity).
type Invitation struct {
	ID        int64     `json:"id"`
	ClientID  int64     `json:"clientId"`
	Email     string    `json:"email"`
	Role      Role      `json:"role"`
	ExpiresAt time.Time `json:"expiresAt"`
	CreatedAt time.Time `json:"createdAt"`
}

func invitationOf(r dbsqlc.Invitation) Invitation {
	return Invitation{ID: r.ID, ClientID: r.ClientID, Email: r.Email, Role: Role(r.Role), ExpiresAt: r.ExpiresAt, CreatedAt: r.CreatedAt}
}

// Invite invites each address to the client with a role and emails the links (admins;
// only owners invite owners). Every address is checked before anything is written.
func (s *Service) Invite(ctx context.Context, a Actor, clientID int64, emails []string, role Role) ([]Invitation, error) {
	mine, err := s.Access(ctx, a, clientID, Admin)
	if err != nil {
		return nil, err
	}
	var p herald.Problems
	if len(emails) == 0 {
		p.Addf("at least one email address is required")
	}
	if len(emails) > maxInvitesAtOnce {
		p.Addf("at most %d email addresses can be invited at once", maxInvitesAtOnce)
	}
	if role == Owner && mine != Owner {
		return nil, herald.Errorf(herald.EFORBIDDEN, "only an owner can invite owners")
	}
	members, err := s.db.ListClientUsers(ctx, clientID)
	if err != nil {
		return nil, db.MapError(err)
	}
	seen := map[string]bool{}
	var list []string
	for i, e := range emails {
		e = strings.TrimSpace(e)
		console.CheckEmail(fmt.Sprintf("emails[%d]", i), e, &p)
		if e == "" {
			p.Addf("emails[%d] should not be empty", i)
		}
		key := strings.ToLower(e)
		for _, m := range members {
			if strings.EqualFold(m.Email, e) {
				p.Addf("%s is already a member of this client", e)
			}
		}
		if !seen[key] {
			seen[key] = true
			list = append(list, e)
		}
	}
	if err := p.Err(); err != nil {
		return nil, err
	}
	// Each invitation emails a stranger: it spends the caller's address's budget and the
	// invited address's.
	for _, e := range list {
		if err := s.Limits.Take(ctx, console.LimitInvite, e, audit.OriginOf(ctx).IP); err != nil {
			return nil, err
		}
	}
	client, err := s.db.GetClient(ctx, clientID)
	if err != nil {
		return nil, db.MapError(err)
	}
	type sent struct {
		inv  dbsqlc.Invitation
		code string
	}
	var out []sent
	err = s.db.InTx(ctx, func(q *dbsqlc.Queries, _ pgxTx) error {
		for _, e := range list {
			code := secrets.Token(24)
			inviter := a.UserID
			inv, err := q.CreateInvitation(ctx, dbsqlc.CreateInvitationParams{
				ClientID: clientID, Email: e, Role: string(role), CodeHash: secrets.Hash(code),
				InvitedBy: &inviter, ExpiresAt: s.now().Add(inviteTTL),
			})
			if err != nil {
				return db.MapError(err)
			}
			if err := s.record(ctx, q, a, clientID, invitationEvent(audit.InvitationCreated, inv)); err != nil {
				return err
			}
			out = append(out, sent{inv, code})
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	res := make([]Invitation, 0, len(out))
	for _, o := range out {
		if err := s.sendInvitation(ctx, client.Name, o.inv, o.code); err != nil {
			return nil, err
		}
		res = append(res, invitationOf(o.inv))
	}
	return res, nil
}

// invitationEvent describes an invitation in the audit log (never its code).
func invitationEvent(action string, inv dbsqlc.Invitation) audit.Event {
	return audit.Event{Action: action, TargetType: audit.TargetInvitation, TargetID: strconv.FormatInt(inv.ID, 10),
		TargetLabel: inv.Email, Details: map[string]any{"role": inv.Role}}
}

func (s *Service) sendInvitation(ctx context.Context, clientName string, inv dbsqlc.Invitation, code string) error {
	link := s.consoleURL + "/invitations/" + code
	text := fmt.Sprintf("You are invited to join %q on Herald as %s.\n\nAccept the invitation here:\n\n%s\n\n"+
		"or with this invitation code: %s\n\nThe invitation is valid for 7 days.\n", clientName, inv.Role, link, code)
	err := s.mail.Send(ctx, mailer.Message{To: inv.Email, Subject: "You are invited to " + clientName + " on Herald", Text: text})
	if err != nil {
		return &herald.Error{Code: herald.EUNAVAILABLE, Message: "the invitation email could not be sent: resend it later", Err: err}
	}
	return nil
}

// Invitations lists a client's open invitations (admins).
func (s *Service) Invitations(ctx context.Context, a Actor, clientID int64) ([]Invitation, error) {
	if _, err := s.Access(ctx, a, clientID, Admin); err != nil {
		return nil, err
	}
	rows, err := s.db.ListOpenInvitations(ctx, clientID)
	if err != nil {
		return nil, db.MapError(err)
	}
	out := make([]Invitation, 0, len(rows))
	for _, r := range rows {
		out = append(out, invitationOf(r))
	}
	return out, nil
}

// Revoke deletes an open invitation (admins).
func (s *Service) Revoke(ctx context.Context, a Actor, clientID, invitationID int64) error {
	if _, err := s.Access(ctx, a, clientID, Admin); err != nil {
		return err
	}
	return s.db.InTx(ctx, func(q *dbsqlc.Queries, _ pgxTx) error {
		inv, err := q.GetInvitation(ctx, invitationID)
		if err != nil || inv.ClientID != clientID {
			if err == nil || herald.ErrorCode(db.MapError(err)) == herald.ENOTFOUND {
				return herald.NotFound("invitation")
			}
			return db.MapError(err)
		}
		n, err := q.DeleteInvitation(ctx, dbsqlc.DeleteInvitationParams{ID: invitationID, ClientID: clientID})
		if err != nil {
			return db.MapError(err)
		}
		if n == 0 {
			return herald.NotFound("invitation")
		}
		return s.record(ctx, q, a, clientID, invitationEvent(audit.InvitationRevoked, inv))
	})
}

// Resend emails an open invitation again with a new code and a new expiry (admins of its
// client); the old code stops working.
func (s *Service) Resend(ctx context.Context, a Actor, invitationID int64) (Invitation, error) {
	inv, err := s.db.GetInvitation(ctx, invitationID)
	if err != nil {
		return Invitation{}, db.MapError(err)
	}
	if _, err := s.Access(ctx, a, inv.ClientID, Admin); err != nil {
		if herald.ErrorCode(err) == herald.ENOTFOUND {
			return Invitation{}, herald.NotFound("invitation")
		}
		return Invitation{}, err
	}
	if err := s.Limits.Take(ctx, console.LimitInvite, inv.Email, audit.OriginOf(ctx).IP); err != nil {
		return Invitation{}, err
	}
	code := secrets.Token(24)
	err = s.db.InTx(ctx, func(q *dbsqlc.Queries, _ pgxTx) error {
		var err error
		inv, err = q.RenewInvitation(ctx, dbsqlc.RenewInvitationParams{ID: invitationID, ClientID: inv.ClientID,
			CodeHash: secrets.Hash(code), ExpiresAt: s.now().Add(inviteTTL)})
		if err != nil {
			if herald.ErrorCode(db.MapError(err)) == herald.ENOTFOUND {
				return herald.NotFound("invitation")
			}
			return db.MapError(err)
		}
		return s.record(ctx, q, a, inv.ClientID, invitationEvent(audit.InvitationResent, inv))
	})
	if err != nil {
		return Invitation{}, err
	}
	client, err := s.db.GetClient(ctx, inv.ClientID)
	if err != nil {
		return Invitation{}, db.MapError(err)
	}
	return invitationOf(inv), s.sendInvitation(ctx, client.Name, inv, code)
}

// InvitationView is what the holder of an invitation code may see before accepting.
type InvitationView struct {
	ID         int64     `json:"id"`
	ClientID   int64     `json:"clientId"`
	ClientName string    `json:"clientName"`
	Email      string    `json:"email"`
	Role       Role      `json:"role"`
	Status     string    `json:"status"`
	ExpiresAt  time.Time `json:"expiresAt"`
}

// ByCode describes an invitation to the holder of its code.
func (s *Service) ByCode(ctx context.Context, code string) (InvitationView, error) {
	r, err := s.db.GetInvitationByCode(ctx, secrets.Hash(code))
	if err != nil {
		if herald.ErrorCode(db.MapError(err)) == herald.ENOTFOUND {
			return InvitationView{}, herald.NotFound("invitation")
		}
		return InvitationView{}, db.MapError(err)
	}
	status := "open"
	switch {
	case r.AcceptedAt != nil:
		status = "accepted"
	case !r.ExpiresAt.After(s.now()):
		status = "expired"
	}
	return InvitationView{ID: r.ID, ClientID: r.ClientID, ClientName: r.ClientName, Email: r.Email, Role: Role(r.Role), Status: status, ExpiresAt: r.ExpiresAt}, nil
}

// Accept makes the signed-in user a member with the invitation's role. The invitation must
// be open and addressed to the user's (verified) email.
func (s *Service) Accept(ctx context.Context, userID int64, userEmail, code string) (InvitationView, error) {
	v, err := s.ByCode(ctx, code)
	if err != nil {
		return v, err
	}
	if v.Status != "open" {
		return v, herald.Errorf(herald.ECONFLICT, "the invitation is %s", v.Status)
	}
	if !strings.EqualFold(v.Email, userEmail) {
		return v, herald.Errorf(herald.EFORBIDDEN, "the invitation was sent to another email address: sign in with that account")
	}
	err = s.db.InTx(ctx, func(q *dbsqlc.Queries, _ pgxTx) error {
		n, err := q.AcceptInvitation(ctx, v.ID)
		if err != nil {
			return db.MapError(err)
		}
		if n == 0 {
			return herald.Errorf(herald.ECONFLICT, "the invitation is no longer open")
		}
		if _, err = q.AddClientUser(ctx, dbsqlc.AddClientUserParams{ClientID: v.ClientID, ConsoleUserID: userID, Role: string(v.Role)}); err != nil {
			return db.MapError(err)
		}
		e := audit.Event{Action: audit.MemberJoined, Details: map[string]any{"role": v.Role, "invitationId": v.ID}}
		audit.UserTarget(&e, userID, userEmail)
		return s.record(ctx, q, Actor{UserID: userID}, v.ClientID, e)
	})
	if err == nil {
		v.Status = "accepted"
	}
	return v, err
}
