// Package audit is the trail of security-relevant events of the console: sign-ins and
// their failures, two-factor changes, recovery codes, passwords, sessions, roles,
// invitations, CLI tokens and secret reveals. Each event is kept per client, so a client's
// owners and admins read their own trail through /v1 and nothing of other clients; events
// about a console account are written once for each client the account belongs to.
package audit

import (
	"context"
	"encoding/json"
	"log/slog"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/db/dbsqlc"
)

// Actions recorded. The names are stable: filters and alerts may match on them.
const (
	SignIn                   = "auth.signin"
	SignInFailed             = "auth.signin_failed"
	SignOut                  = "auth.signout"
	SessionRevoked           = "auth.session_revoked"
	RefreshReuse             = "auth.refresh_reuse"
	PasswordChanged          = "auth.password_changed"
	PasswordResetRequested   = "auth.password_reset_requested"
	PasswordReset            = "auth.password_reset"
	SignUpExistingEmail      = "auth.signup_existing_email"
	AccountReclaimed         = "auth.account_reclaimed"
	TwoFactorEnabled         = "auth.2fa_enabled"
	TwoFactorDisabled        = "auth.2fa_disabled"
	RecoveryCodesRegenerated = "auth.recovery_codes_regenerated"
	RecoveryCodeUsed         = "auth.recovery_code_used"
	MemberJoined             = "member.joined"
	MemberRoleChanged        = "member.role_changed"
	MemberRemoved            = "member.removed"
	InvitationCreated        = "invitation.created"
	InvitationResent         = "invitation.resent"
	InvitationRevoked        = "invitation.revoked"
	CLITokenCreated          = "cli_token.created"
	CLITokenRevoked          = "cli_token.revoked"
	AppCreated               = "app.created"
	AppSecretRevealed        = "app.secret_revealed"
	AppRSAKeyGenerated       = "app.rsa_key_generated"
	// AppUserErased and AppUserExported record an erasure and an export of an app's user
	// (internal/lifecycle); the target is a digest of the user, never its identifier.
	AppUserErased   = "app_user.erased"
	AppUserExported = "app_user.exported"
)

// Actions lists every action, for validating filters and for the documentation.
var Actions = []string{
	SignIn, SignInFailed, SignOut, SessionRevoked, RefreshReuse, PasswordChanged, PasswordResetRequested, PasswordReset,
	SignUpExistingEmail, AccountReclaimed, TwoFactorEnabled, TwoFactorDisabled, RecoveryCodesRegenerated, RecoveryCodeUsed,
	MemberJoined, MemberRoleChanged, MemberRemoved, InvitationCreated, InvitationResent, InvitationRevoked,
	CLITokenCreated, CLITokenRevoked, AppCreated, AppSecretRevealed, AppRSAKeyGenerated,
	AppUserErased, AppUserExported,
}

// Target types.
const (
	TargetConsoleUser = "consoleUser"
	TargetEmail       = "email"
	TargetInvitation  = "invitation"
	TargetCLIToken    = "cliToken"
	TargetApp         = "app"
	TargetAppUser     = "appUser"
)

// Origin is where a request came from: the client address (behind trusted proxies, the
// forwarded one) and its user agent.
type Origin struct {
	IP, UserAgent string
}

type originKey struct{}

// WithOrigin returns ctx carrying the request's origin, for events recorded deeper down.
func WithOrigin(ctx context.Context, o Origin) context.Context {
	return context.WithValue(ctx, originKey{}, o)
}

// OriginOf returns the origin carried by ctx (zero when none).
func OriginOf(ctx context.Context) Origin {
	o, _ := ctx.Value(originKey{}).(Origin)
	return o
}

// Event is one thing that happened. Zero fields are left out.
type Event struct {
	Action string
	// ActorID is the console user who acted (0: nobody signed in); ViaTokenID the CLI
	// token used, if any. The actor's email is looked up when the event is written.
	ActorID, ViaTokenID int64
	// Target is what the event is about.
	TargetType, TargetID, TargetLabel string
	// IP and UserAgent default to the request's origin carried by the context.
	IP, UserAgent string
	// Details are further facts (never secrets): a role change's roles, a sign-in's method.
	Details map[string]any
}

// Log writes and reads the audit trail.
type Log struct {
	db  *db.DB
	log *slog.Logger
}

// New returns the audit log on d; log receives failures of best-effort writes.
func New(d *db.DB, log *slog.Logger) *Log { return &Log{db: d, log: log} }

func (l *Log) queries(q *dbsqlc.Queries) *dbsqlc.Queries {
	if q != nil {
		return q
	}
	return l.db.Queries
}

// fill completes an event from the context and encodes its details.
func fill(ctx context.Context, e Event) (Event, json.RawMessage) {
	o := OriginOf(ctx)
	if e.IP == "" {
		e.IP = o.IP
	}
	if e.UserAgent == "" {
		e.UserAgent = o.UserAgent
	}
	e.IP, e.UserAgent = clip(e.IP, 100), clip(e.UserAgent, 400)
	e.TargetLabel = clip(e.TargetLabel, 320)
	details := json.RawMessage(`{}`)
	if len(e.Details) > 0 {
		if b, err := json.Marshal(e.Details); err == nil {
			details = b
		}
	}
	return e, details
}

func optID(id int64) *int64 {
	if id == 0 {
		return nil
	}
	return &id
}

// Client records an event of one client. With q (a transaction's queries) the event
// commits or rolls back with the change it describes.
func (l *Log) Client(ctx context.Context, q *dbsqlc.Queries, clientID int64, e Event) error {
	e, details := fill(ctx, e)
	return db.MapError(l.queries(q).InsertAuditEvent(ctx, dbsqlc.InsertAuditEventParams{
		ClientID: optID(clientID), Action: e.Action, ActorID: optID(e.ActorID), ViaTokenID: optID(e.ViaTokenID),
		TargetType: e.TargetType, TargetID: e.TargetID, TargetLabel: e.TargetLabel, Ip: e.IP, UserAgent: e.UserAgent, Details: details,
	}))
}

// Account records an event about a console account: once for each client the account
// belongs to, or once without a client (operators only) when it belongs to none.
func (l *Log) Account(ctx context.Context, q *dbsqlc.Queries, accountID int64, e Event) error {
	e, details := fill(ctx, e)
	return db.MapError(l.queries(q).InsertAccountAuditEvent(ctx, dbsqlc.InsertAccountAuditEventParams{
		AccountID: accountID, Action: e.Action, ActorID: optID(e.ActorID),
		TargetType: e.TargetType, TargetID: e.TargetID, TargetLabel: e.TargetLabel, Ip: e.IP, UserAgent: e.UserAgent, Details: details,
	}))
}

// Unattached records an event no client may read (a failed sign-in for an email without
// an account); operators find it with client_id IS NULL.
func (l *Log) Unattached(ctx context.Context, e Event) error { return l.Client(ctx, nil, 0, e) }

// Warn logs a failed best-effort write (events of refused attempts, whose answer must not
// depend on the log).
func (l *Log) Warn(ctx context.Context, err error, action string) {
	if err != nil {
		l.log.ErrorContext(ctx, "writing an audit event failed", "action", action, "error", err)
	}
}

// UserTarget names a console user as an event's target.
func UserTarget(e *Event, id int64, email string) {
	e.TargetType, e.TargetID, e.TargetLabel = TargetConsoleUser, strconv.FormatInt(id, 10), email
}

// clip makes s valid UTF-8 and cuts it to at most n bytes on a character boundary.
func clip(s string, n int) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// Entry is an event as the API shows it.
type Entry struct {
	ID          int64           `json:"id"`
	ClientID    int64           `json:"clientId"`
	Action      string          `json:"action"`
	ActorID     *int64          `json:"actorId"`
	ActorEmail  *string         `json:"actorEmail"` // nil when nobody acted (failed sign-ins), as ActorID
	ViaTokenID  *int64          `json:"viaCliTokenId"`
	TargetType  string          `json:"targetType"`
	TargetID    string          `json:"targetId"`
	TargetLabel string          `json:"targetLabel"`
	IP          string          `json:"ip"`
	UserAgent   string          `json:"userAgent"`
	Details     json.RawMessage `json:"details"`
	CreatedAt   time.Time       `json:"createdAt"`
}

// orNil is nil for "" (the column's "nobody"), else a pointer to s.
func orNil(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// Filter selects a client's events; zero fields match everything. From is inclusive, To
// exclusive.
type Filter struct {
	Action      string
	ActorID     int64
	From, To    *time.Time
	Page, Limit int
}

// List returns a page of a client's events, newest first, and the total count. The
// caller checks that the reader may see the client's trail.
func (l *Log) List(ctx context.Context, clientID int64, f Filter) ([]Entry, int, error) {
	total, err := l.db.CountAuditEvents(ctx, dbsqlc.CountAuditEventsParams{
		ClientID: &clientID, Action: f.Action, ActorID: optID(f.ActorID), FromTime: f.From, ToTime: f.To,
	})
	if err != nil {
		return nil, 0, db.MapError(err)
	}
	rows, err := l.db.ListAuditEvents(ctx, dbsqlc.ListAuditEventsParams{
		ClientID: &clientID, Action: f.Action, ActorID: optID(f.ActorID), FromTime: f.From, ToTime: f.To,
		Lim: int32(f.Limit), Off: int32((f.Page - 1) * f.Limit),
	})
	if err != nil {
		return nil, 0, db.MapError(err)
	}
	out := make([]Entry, 0, len(rows))
	for _, r := range rows {
		out = append(out, Entry{ID: r.ID, ClientID: clientID, Action: r.Action, ActorID: r.ActorID, ActorEmail: orNil(r.ActorEmail),
			ViaTokenID: r.ViaTokenID, TargetType: r.TargetType, TargetID: r.TargetID, TargetLabel: r.TargetLabel,
			IP: r.Ip, UserAgent: r.UserAgent, Details: r.Details, CreatedAt: r.CreatedAt})
	}
	return out, int(total), nil
}
