package console

import (
	"context"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/jackc/pgx/v5/pgtype"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/db/dbsqlc"
	"github.com/heraldhq/herald/internal/console/audit"
	"github.com/heraldhq/herald/internal/platform/secrets"
)

// Caller describes where a sign-in comes from, for throttling and the session record.
type Caller struct {
	IP        string
	UserAgent string
}

// Session is the answer to a completed sign-in: send AccessToken as
// "Authorization: Bearer" and trade RefreshToken for a new pair before it expires.
type Session struct {
	AccessToken  string `json:"accessToken"`
	RefreshToken string `json:"refreshToken"`
	TokenType    string `json:"tokenType"`
	ExpiresIn    int    `json:"expiresIn"`
	User         User   `json:"user"`
}

// SignInResult is a session, or, when the account has 2FA, a challenge to complete with a
// TOTP or recovery code.
type SignInResult struct {
	*Session
	TwoFactorRequired bool   `json:"twoFactorRequired"`
	ChallengeToken    string `json:"challengeToken,omitempty"`
	Redirect          string `json:"redirect,omitempty"`
}

// Principal is an authenticated console session.
type Principal struct {
	UserID    int64
	SessionID int64
}

// refreshPrefix marks Herald refresh tokens so a token pasted in the wrong place is
// recognisable.
const refreshPrefix = "hrt_"

func unauthorized(msg string) error { return herald.Errorf(herald.EUNAUTHORIZED, "%s", msg) }

// startSession opens a session for a user who passed every factor.
func (s *Service) startSession(ctx context.Context, u dbsqlc.ConsoleUser, from Caller) (*Session, error) {
	refresh := refreshPrefix + secrets.Token(32)
	var row dbsqlc.ConsoleSession
	err := s.db.InTx(ctx, func(q *dbsqlc.Queries, _ pgxTx) error {
		var err error
		row, err = q.CreateConsoleSession(ctx, dbsqlc.CreateConsoleSessionParams{
			ConsoleUserID: u.ID, RefreshHash: secrets.Hash(refresh), ExpiresAt: s.now().Add(s.cfg.RefreshTTL),
			Ip: from.IP, UserAgent: truncate(from.UserAgent, 400),
		})
		if err != nil {
			return db.MapError(err)
		}
		return db.MapError(q.CreateConsoleRefreshToken(ctx, dbsqlc.CreateConsoleRefreshTokenParams{Hash: secrets.Hash(refresh), SessionID: row.ID}))
	})
	if err != nil {
		return nil, err
	}
	return s.session(u, row.ID, refresh), nil
}

func (s *Service) session(u dbsqlc.ConsoleUser, sessionID int64, refresh string) *Session {
	return &Session{
		AccessToken:  s.sign(kindAccess, u.ID, sessionID, s.cfg.AccessTTL, ""),
		RefreshToken: refresh, TokenType: "Bearer", ExpiresIn: int(s.cfg.AccessTTL.Seconds()), User: userOf(u),
	}
}

// Authenticate checks an access token and that its session is still open (sign-out,
// password changes and refresh-token theft close sessions at once).
func (s *Service) Authenticate(ctx context.Context, token string) (Principal, error) {
	c, err := s.parse(token, kindAccess)
	if err != nil {
		return Principal{}, unauthorized("invalid or expired access token: sign in again or refresh the session")
	}
	if _, err := s.db.GetActiveConsoleSession(ctx, dbsqlc.GetActiveConsoleSessionParams{ID: c.SessionID, ConsoleUserID: c.userID()}); err != nil {
		if herald.ErrorCode(db.MapError(err)) == herald.ENOTFOUND {
			return Principal{}, unauthorized("the session has ended: sign in again")
		}
		return Principal{}, db.MapError(err)
	}
	return Principal{UserID: c.userID(), SessionID: c.SessionID}, nil
}

// RefreshGrace is how long after its rotation the console's refresh cookie is still
// accepted once: a browser that reloads the console while its refresh is being answered
// never stores the rotated cookie and presents the old one. That replay gets a sibling
// token and leaves the family's newest token working (it may be the legitimate client's,
// when the replay is a thief's). A second replay, or one past the grace, revokes the
// session. Refresh tokens of the JSON API have no grace.
const RefreshGrace = 20 * time.Second

// Refresh trades a refresh token for a new access token and a new refresh token. A refresh
// token works once: presenting an already-rotated one ends the session, since one of the
// two holders is not its owner.
func (s *Service) Refresh(ctx context.Context, refresh string) (*Session, error) {
	return s.rotate(ctx, refresh, 0)
}

// RefreshCookie is Refresh for the console's cookie: a rotated cookie works once more
// within RefreshGrace of its rotation.
func (s *Service) RefreshCookie(ctx context.Context, refresh string) (*Session, error) {
	return s.rotate(ctx, refresh, RefreshGrace)
}

// rotate answers a refresh token of a session's family (console_refresh_tokens): a live
// token is rotated (every live token of the family is retired, a new one issued); a token
// rotated within grace, the first time it is presented again, gets a live sibling without
// retiring anything; any other reuse revokes the session and is audited.
func (s *Service) rotate(ctx context.Context, refresh string, grace time.Duration) (*Session, error) {
	refused := unauthorized("invalid, expired or already used refresh token: sign in again")
	if !strings.HasPrefix(refresh, refreshPrefix) {
		return nil, unauthorized("invalid refresh token")
	}
	hash := secrets.Hash(refresh)
	next := refreshPrefix + secrets.Token(32)
	var (
		tok    dbsqlc.LockConsoleRefreshTokenRow
		reused bool
	)
	err := s.db.InTx(ctx, func(q *dbsqlc.Queries, _ pgxTx) error {
		var err error
		tok, err = q.LockConsoleRefreshToken(ctx, dbsqlc.LockConsoleRefreshTokenParams{
			Hash: hash, Grace: pgtype.Interval{Microseconds: grace.Microseconds(), Valid: true},
		})
		if err != nil {
			return db.MapError(err)
		}
		switch {
		case !tok.Open:
			return refused
		case tok.UsedAt == nil:
			if err := q.RetireConsoleRefreshTokens(ctx, dbsqlc.RetireConsoleRefreshTokensParams{Hash: hash, SessionID: tok.SessionID}); err != nil {
				return db.MapError(err)
			}
		case tok.InGrace && !tok.GraceUsed:
			if err := q.UseConsoleRefreshGrace(ctx, hash); err != nil {
				return db.MapError(err)
			}
		default:
			reused = true
			return db.MapError(q.RevokeConsoleSession(ctx, dbsqlc.RevokeConsoleSessionParams{ID: tok.SessionID, ConsoleUserID: tok.ConsoleUserID}))
		}
		if err := q.CreateConsoleRefreshToken(ctx, dbsqlc.CreateConsoleRefreshTokenParams{Hash: secrets.Hash(next), SessionID: tok.SessionID}); err != nil {
			return db.MapError(err)
		}
		return db.MapError(q.TouchConsoleSession(ctx, tok.SessionID))
	})
	if herald.ErrorCode(err) == herald.ENOTFOUND {
		return nil, refused
	}
	if err != nil {
		return nil, err
	}
	if reused {
		s.recordReuse(ctx, tok, grace)
		return nil, refused
	}
	u, err := s.db.GetConsoleUser(ctx, tok.ConsoleUserID)
	if err != nil {
		return nil, db.MapError(err)
	}
	return s.session(u, tok.SessionID, next), nil
}

// recordReuse audits the revocation of a session whose rotated refresh token came back.
func (s *Service) recordReuse(ctx context.Context, tok dbsqlc.LockConsoleRefreshTokenRow, grace time.Duration) {
	s.log.WarnContext(ctx, "a rotated console refresh token was presented again; the session is revoked", "sessionId", tok.SessionID)
	u, err := s.db.GetConsoleUser(ctx, tok.ConsoleUserID)
	if err != nil {
		s.log.ErrorContext(ctx, "auditing a refresh token reuse", "error", err)
		return
	}
	// no_grace: a JSON API token; grace_spent: within the grace, but the token's one replay
	// was given already or another token of the family was rotated since.
	reason := "outside_grace"
	switch {
	case grace == 0:
		reason = "no_grace"
	case tok.InGrace:
		reason = "grace_spent"
	}
	e := audit.Event{Action: audit.RefreshReuse, Details: map[string]any{"sessionId": tok.SessionID, "reason": reason, "sessionRevoked": true}}
	audit.UserTarget(&e, u.ID, u.Email)
	s.audit.Warn(ctx, s.audit.Account(ctx, nil, u.ID, e), audit.RefreshReuse)
}

// SignOut ends the session of p: its access and refresh tokens stop working.
func (s *Service) SignOut(ctx context.Context, p Principal) error {
	u, err := s.db.GetConsoleUser(ctx, p.UserID)
	if err != nil {
		return db.MapError(err)
	}
	return s.db.InTx(ctx, func(q *dbsqlc.Queries, _ pgxTx) error {
		if err := q.RevokeConsoleSession(ctx, dbsqlc.RevokeConsoleSessionParams{ID: p.SessionID, ConsoleUserID: p.UserID}); err != nil {
			return db.MapError(err)
		}
		return s.record(ctx, q, u, callerOf(ctx), audit.SignOut, map[string]any{"sessionId": p.SessionID})
	})
}

// truncate makes s valid UTF-8 (Postgres text refuses anything else) and cuts it to at
// most n bytes on a character boundary.
func truncate(s string, n int) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// RefreshTTL is the lifetime of a session (and of the console's refresh cookie).
func (s *Service) RefreshTTL() time.Duration { return s.cfg.RefreshTTL }
