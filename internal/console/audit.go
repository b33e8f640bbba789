package console

import (
	"context"
	"net/mail"
	"strconv"

	"github.com/heraldhq/herald/db/dbsqlc"
	"github.com/heraldhq/herald/internal/console/audit"
	"github.com/heraldhq/herald/internal/console/mailer"
)

// Sign-in methods, as the audit log names them.
const (
	methodPassword     = "password"
	methodTOTP         = "totp"
	methodRecoveryCode = "recovery_code"
	methodCodeHost     = "codehost"
)

// record writes an event about the account u, done by u itself, for every client u belongs
// to. It fails the operation when it cannot be written: no security change without a trail.
func (s *Service) record(ctx context.Context, q *dbsqlc.Queries, u dbsqlc.ConsoleUser, from Caller, action string, details map[string]any) error {
	e := audit.Event{Action: action, ActorID: u.ID, IP: from.IP, UserAgent: from.UserAgent, Details: details}
	audit.UserTarget(&e, u.ID, u.Email)
	return s.audit.Account(ctx, q, u.ID, e)
}

// recordRefusal writes a refused sign-in step. Nobody is signed in, so there is no actor;
// the target is the account. It is best effort: the refusal must not depend on it.
func (s *Service) recordRefusal(ctx context.Context, u dbsqlc.ConsoleUser, from Caller, reason string) {
	e := audit.Event{Action: audit.SignInFailed, IP: from.IP, UserAgent: from.UserAgent, Details: map[string]any{"reason": reason}}
	audit.UserTarget(&e, u.ID, u.Email)
	s.audit.Warn(ctx, s.audit.Account(ctx, nil, u.ID, e), audit.SignInFailed)
}

// recordUnknownFailure writes a failed sign-in for an email without an account: no client
// may read it (operators can). What was typed is kept only when it is an address, since
// people sometimes type their password into the email field.
func (s *Service) recordUnknownFailure(ctx context.Context, email string, from Caller) {
	label := "(not an email address)"
	if a, err := mail.ParseAddress(email); err == nil && a.Address == email {
		label = email
	}
	e := audit.Event{Action: audit.SignInFailed, TargetType: audit.TargetEmail, TargetLabel: label,
		IP: from.IP, UserAgent: from.UserAgent, Details: map[string]any{"reason": "unknown_email"}}
	s.audit.Warn(ctx, s.audit.Unattached(ctx, e), audit.SignInFailed)
}

// notify emails the account about a change to its security. It is best effort: the change
// is made, and a mail server that is down must not undo it.
func (s *Service) notify(ctx context.Context, u dbsqlc.ConsoleUser, subject, text string, from Caller) {
	where := ""
	if from.IP != "" {
		where = "\n\nRequest from: " + from.IP
		if from.UserAgent != "" {
			where += " (" + truncate(from.UserAgent, 200) + ")"
		}
	}
	text += where + "\n\nIf this was not you, sign in, change your password and review the sessions and the audit log of your clients.\n"
	if err := s.mail.Send(ctx, mailer.Message{To: u.Email, Subject: subject, Text: text}); err != nil {
		s.log.ErrorContext(ctx, "sending a security notification failed", "userId", strconv.FormatInt(u.ID, 10), "error", err)
	}
}

// callerOf is the caller of a request the context carries, for events of signed-in users.
func callerOf(ctx context.Context) Caller {
	o := audit.OriginOf(ctx)
	return Caller{IP: o.IP, UserAgent: o.UserAgent}
}
