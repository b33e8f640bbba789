package clients

import (
	"context"
	"strconv"
	"strings"
	"time"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/db/dbsqlc"
	"github.com/heraldhq/herald/internal/console/audit"
	"github.com/heraldhq/herald/internal/platform/secrets"
)

// TokenPrefix starts every CLI token, so the API can tell it from a session token.
const TokenPrefix = "hcli_"

// CLIToken is a command-line token as listed; Token is set only in the answer that
// creates it.
type CLIToken struct {
	ID           int64      `json:"id"`
	ClientID     int64      `json:"clientId"`
	Name         string     `json:"name"`
	Prefix       string     `json:"prefix"`
	CreatedBy    int64      `json:"createdBy"`
	CreatorEmail string     `json:"creatorEmail,omitempty"`
	LastUsedAt   *time.Time `json:"lastUsedAt"`
	RevokedAt    *time.Time `json:"revokedAt"`
	CreatedAt    time.Time  `json:"createdAt"`
	// Role limits the token: it acts with the lower of this and its creator's current role
	// (nil: the creator's role).
	Role  *Role  `json:"role"`
	Token string `json:"token,omitempty"`
}

// CreateToken issues a CLI token acting on the client with the creator's role, or with
// role when given ("" for none), which may not be above the creator's (console sessions
// only: a token cannot mint tokens). The token is shown once; only its hash is kept.
func (s *Service) CreateToken(ctx context.Context, a Actor, clientID int64, name string, role Role) (CLIToken, error) {
	if a.ViaToken() {
		return CLIToken{}, herald.Errorf(herald.EFORBIDDEN, "a CLI token cannot create CLI tokens")
	}
	mine, err := s.Access(ctx, a, clientID, Viewer)
	if err != nil {
		return CLIToken{}, err
	}
	var p herald.Problems
	name = strings.TrimSpace(name)
	if name == "" {
		name = "CLI token"
	}
	if len(name) > 100 {
		p.Addf("name must be at most 100 characters")
	}
	var limit *string
	if role != "" {
		switch {
		case role.rank() == 0:
			p.Addf("role must be one of the following values: viewer, developer, admin, owner")
		case !mine.AtLeast(role):
			p.Addf("role must not be above your own role (%s)", mine)
		default:
			r := string(role)
			limit = &r
		}
	}
	if err := p.Err(); err != nil {
		return CLIToken{}, err
	}
	tok := TokenPrefix + secrets.Token(32)
	var r dbsqlc.CliToken
	err = s.db.InTx(ctx, func(q *dbsqlc.Queries, _ pgxTx) error {
		var err error
		r, err = q.CreateCLIToken(ctx, dbsqlc.CreateCLITokenParams{
			ClientID: clientID, ConsoleUserID: a.UserID, Name: name, TokenHash: secrets.Hash(tok), TokenPrefix: tok[:len(TokenPrefix)+6],
			Role: limit,
		})
		if err != nil {
			return db.MapError(err)
		}
		return s.record(ctx, q, a, clientID, audit.Event{Action: audit.CLITokenCreated, TargetType: audit.TargetCLIToken,
			TargetID: strconv.FormatInt(r.ID, 10), TargetLabel: r.Name, Details: map[string]any{"prefix": r.TokenPrefix}})
	})
	if err != nil {
		return CLIToken{}, err
	}
	return CLIToken{ID: r.ID, ClientID: r.ClientID, Name: r.Name, Prefix: r.TokenPrefix, CreatedBy: r.ConsoleUserID, CreatedAt: r.CreatedAt,
		Role: roleOf(r.Role), Token: tok}, nil
}

// roleOf is a token's stored role limit.
func roleOf(s *string) *Role {
	if s == nil {
		return nil
	}
	r := Role(*s)
	return &r
}

// Tokens lists a client's CLI tokens: admins see all, other members their own.
func (s *Service) Tokens(ctx context.Context, a Actor, clientID int64) ([]CLIToken, error) {
	role, err := s.Access(ctx, a, clientID, Viewer)
	if err != nil {
		return nil, err
	}
	only := a.UserID
	if role.AtLeast(Admin) {
		only = 0
	}
	rows, err := s.db.ListCLITokens(ctx, dbsqlc.ListCLITokensParams{ClientID: clientID, ConsoleUserID: only})
	if err != nil {
		return nil, db.MapError(err)
	}
	out := make([]CLIToken, 0, len(rows))
	for _, r := range rows {
		out = append(out, CLIToken{ID: r.ID, ClientID: r.ClientID, Name: r.Name, Prefix: r.TokenPrefix, CreatedBy: r.ConsoleUserID,
			CreatorEmail: r.CreatorEmail, LastUsedAt: r.LastUsedAt, RevokedAt: r.RevokedAt, CreatedAt: r.CreatedAt, Role: roleOf(r.Role)})
	}
	return out, nil
}

// RevokeToken stops a CLI token from working (its creator, or an admin).
func (s *Service) RevokeToken(ctx context.Context, a Actor, clientID, tokenID int64) error {
	role, err := s.Access(ctx, a, clientID, Viewer)
	if err != nil {
		return err
	}
	t, err := s.db.GetCLIToken(ctx, dbsqlc.GetCLITokenParams{ID: tokenID, ClientID: clientID})
	if err != nil {
		if herald.ErrorCode(db.MapError(err)) == herald.ENOTFOUND {
			return herald.NotFound("CLI token")
		}
		return db.MapError(err)
	}
	if t.ConsoleUserID != a.UserID && !role.AtLeast(Admin) {
		return herald.NotFound("CLI token")
	}
	return s.db.InTx(ctx, func(q *dbsqlc.Queries, _ pgxTx) error {
		n, err := q.RevokeCLIToken(ctx, dbsqlc.RevokeCLITokenParams{ID: tokenID, ClientID: clientID})
		if err != nil {
			return db.MapError(err)
		}
		if n == 0 {
			return herald.Errorf(herald.ECONFLICT, "the CLI token is already revoked")
		}
		return s.record(ctx, q, a, clientID, audit.Event{Action: audit.CLITokenRevoked, TargetType: audit.TargetCLIToken,
			TargetID: strconv.FormatInt(tokenID, 10), TargetLabel: t.Name, Details: map[string]any{"prefix": t.TokenPrefix, "createdBy": t.ConsoleUserID}})
	})
}

// AuthenticateToken resolves a CLI token to the actor it stands for: its creator, limited
// to its client, with the creator's current role there or the token's role when lower.
func (s *Service) AuthenticateToken(ctx context.Context, tok string) (Actor, error) {
	r, err := s.db.AuthCLIToken(ctx, secrets.Hash(tok))
	if err != nil {
		if herald.ErrorCode(db.MapError(err)) == herald.ENOTFOUND {
			return Actor{}, herald.Errorf(herald.EUNAUTHORIZED, "invalid or revoked CLI token")
		}
		return Actor{}, db.MapError(err)
	}
	role := Role(r.Role)
	if r.TokenRole != nil && Role(*r.TokenRole).rank() < role.rank() {
		role = Role(*r.TokenRole)
	}
	return Actor{UserID: r.ConsoleUserID, TokenClientID: r.ClientID, TokenRole: role, TokenID: r.ID}, nil
}
