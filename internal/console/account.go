package console

import (
	"context"
	"encoding/json"
	"fmt"
	"net/mail"
	"strings"
	"time"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/db/dbsqlc"
	"github.com/heraldhq/herald/internal/console/audit"
	"github.com/heraldhq/herald/internal/console/mailer"
	"github.com/heraldhq/herald/internal/platform/jsonshape"
	"github.com/heraldhq/herald/internal/platform/secrets"
)

// SignUpInput is SignUpWithCaptchaDTO.
type SignUpInput struct {
	Email, Password, Name, CaptchaToken string
	// Redirect is the checked console page the verification link opens.
	Redirect string
}

// CheckEmail records a problem when email is not a plain address.
func CheckEmail(field, email string, p *herald.Problems) {
	if email == "" {
		return
	}
	a, err := mail.ParseAddress(email)
	if err != nil || a.Address != email || len(email) > 254 {
		p.Addf("%s must be an email address", field)
	}
}

// CheckPassword records a problem when pw breaks the length rules.
func CheckPassword(field, pw string, p *herald.Problems) {
	if pw == "" {
		return
	}
	if len(pw) < minPassword {
		p.Addf("%s must be at least %d characters", field, minPassword)
	} else if len(pw) > maxPassword {
		p.Addf("%s must be at most %d characters", field, maxPassword)
	}
}

// Check records every rule the input breaks (beyond presence, which the handler checks).
func (in SignUpInput) Check(p *herald.Problems) {
	CheckEmail("email", in.Email, p)
	CheckPassword("password", in.Password, p)
	if len(in.Name) > 100 {
		p.Addf("name must be at most 100 characters")
	}
}

// SignedUp is the answer to a sign-up. It is the same whether or not the address already
// had an account, so it holds only what the caller sent: no user id, no dates.
type SignedUp struct {
	Email                string `json:"email"`
	VerificationRequired bool   `json:"verificationRequired"`
	Redirect             string `json:"redirect"`
}

// CaptchaRequired reports whether sign-ups must carry a captcha token.
func (s *Service) CaptchaRequired() bool { return s.captcha.Enabled() }

// SignUp creates an account and emails its verification link. When the address already
// has an account it answers exactly the same (201, the same body) and emails that account
// instead: someone tried to sign up with your address. So sign-up cannot be used to find
// out which addresses have accounts; password reset and resending verification answer the
// same either way too. Both paths hash the password and send one email, so they take about
// as long; both count against the address's email limit.
func (s *Service) SignUp(ctx context.Context, in SignUpInput, from Caller) (SignedUp, error) {
	var p herald.Problems
	in.Check(&p)
	if s.captcha.Enabled() && in.CaptchaToken == "" {
		p.Addf("captchaToken should not be empty")
	}
	if err := p.Err(); err != nil {
		return SignedUp{}, err
	}
	// The cheap checks first: the limits and the mail throttle cost a store call each; the
	// captcha is a call to its provider, the password hash tens of milliseconds of CPU.
	if err := s.limits.Take(ctx, LimitSignUp, in.Email, from.IP); err != nil {
		return SignedUp{}, err
	}
	if err := s.throttleEmail(ctx, in.Email); err != nil {
		return SignedUp{}, err
	}
	if s.captcha.Enabled() {
		ok, err := s.captcha.Verify(ctx, in.CaptchaToken, from.IP)
		if err != nil {
			return SignedUp{}, &herald.Error{Code: herald.EUNAVAILABLE, Message: "captcha verification is unavailable: try again", Err: err}
		}
		if !ok {
			return SignedUp{}, herald.Invalid("captchaToken is not valid")
		}
	}
	answer := SignedUp{Email: in.Email, VerificationRequired: true, Redirect: in.Redirect}
	hash := hashPassword(in.Password)
	row, err := s.db.CreateConsoleUser(ctx, dbsqlc.CreateConsoleUserParams{Email: in.Email, Name: in.Name, PasswordHash: &hash})
	if err != nil {
		if herald.ErrorCode(db.MapError(err)) == herald.ECONFLICT {
			return answer, s.signUpTaken(ctx, in, from)
		}
		return SignedUp{}, db.MapError(err)
	}
	if err := s.sendVerification(ctx, row, in.Redirect); err != nil {
		return SignedUp{}, err
	}
	return answer, nil
}

// signUpTaken tells the owner of an address that someone tried to sign up with it, and
// records the attempt in the audit log of the account's clients.
func (s *Service) signUpTaken(ctx context.Context, in SignUpInput, from Caller) error {
	row, err := s.db.GetConsoleUserByEmail(ctx, in.Email)
	if err != nil {
		return db.MapError(err)
	}
	e := audit.Event{Action: audit.SignUpExistingEmail, IP: from.IP, UserAgent: from.UserAgent}
	audit.UserTarget(&e, row.ID, row.Email)
	if err := s.audit.Account(ctx, nil, row.ID, e); err != nil {
		return err
	}
	text := "Someone just tried to create a Herald account with your email address (" + row.Email + "), which already has an account.\n\n" +
		"If it was you, sign in instead: " + s.link("/signin", "email", row.Email) + "\n\n" +
		"Forgot your password? Reset it here: " + s.link("/forgot-password", "email", row.Email) + "\n\n"
	if row.EmailVerifiedAt == nil {
		// The owner may never have received the first link: send a fresh one.
		code, err := s.issueCode(ctx, row.ID, "verify", verifyTTL)
		if err != nil {
			return err
		}
		target := in.Redirect
		if target == "" {
			target = "/verify"
		}
		text += "Your address is not verified yet. Confirm it here: " + s.link(target, "verificationCode", code) + "\n\n"
	}
	text += "If it was not you, you can ignore this email: nothing changed and no account was created.\n"
	return s.send(ctx, mailer.Message{To: row.Email, Subject: "Someone tried to sign up for Herald with your address", Text: text})
}

// issueCode stores a fresh one-time code (voiding earlier ones of the purpose) and returns it.
func (s *Service) issueCode(ctx context.Context, userID int64, purpose string, ttl time.Duration) (string, error) {
	code := secrets.Token(24)
	err := s.db.InTx(ctx, func(q *dbsqlc.Queries, _ pgxTx) error {
		if err := q.ExpireConsoleCodes(ctx, dbsqlc.ExpireConsoleCodesParams{ConsoleUserID: userID, Purpose: purpose}); err != nil {
			return db.MapError(err)
		}
		return db.MapError(q.CreateConsoleCode(ctx, dbsqlc.CreateConsoleCodeParams{
			ConsoleUserID: userID, Purpose: purpose, CodeHash: secrets.Hash(code), ExpiresAt: s.now().Add(ttl),
		}))
	})
	return code, err
}

func (s *Service) sendVerification(ctx context.Context, u dbsqlc.ConsoleUser, redirect string) error {
	code, err := s.issueCode(ctx, u.ID, "verify", verifyTTL)
	if err != nil {
		return err
	}
	target := redirect
	if target == "" {
		target = "/verify"
	}
	text := fmt.Sprintf("Welcome to Herald.\n\nConfirm your email address by opening this link:\n\n%s\n\n"+
		"or enter this verification code in the console: %s\n\nThe code is valid for 24 hours. If you did not sign up, ignore this email.\n",
		s.link(target, "verificationCode", code), code)
	return s.send(ctx, mailer.Message{To: u.Email, Subject: "Verify your email address for Herald", Text: text})
}

func (s *Service) send(ctx context.Context, m mailer.Message) error {
	if err := s.mail.Send(ctx, m); err != nil {
		return &herald.Error{Code: herald.EUNAVAILABLE, Message: "the email could not be sent: try again later", Err: err}
	}
	return nil
}

// Verify confirms an email address with the emailed code and sets the account's password
// to password, chosen in the same step. Whoever holds the code proved the address, but not
// that they chose the password given at sign-up: someone may have registered the address
// before its owner. So the password set before verification never survives it: it is
// replaced by password or, when password is empty, dropped (the owner then sets one with a
// password reset, or signs in through the code host), and whatever else was set up before
// the proof is dropped too (reclaim). A code of an account verified meanwhile changes
// nothing.
func (s *Service) Verify(ctx context.Context, code, password string) (User, error) {
	var p herald.Problems
	CheckPassword("password", password, &p)
	if err := p.Err(); err != nil {
		return User{}, err
	}
	var row dbsqlc.ConsoleUser
	err := s.db.InTx(ctx, func(q *dbsqlc.Queries, _ pgxTx) error {
		id, err := q.UseConsoleCode(ctx, dbsqlc.UseConsoleCodeParams{CodeHash: secrets.Hash(code), Purpose: "verify"})
		if err != nil {
			if herald.ErrorCode(db.MapError(err)) == herald.ENOTFOUND {
				return herald.NotFound("verification code (it may have expired or been used)")
			}
			return db.MapError(err)
		}
		if row, err = q.GetConsoleUser(ctx, id); err != nil {
			return db.MapError(err)
		}
		if row.EmailVerifiedAt != nil {
			return nil
		}
		var hash *string // hashed only once the code is known good
		if password != "" {
			h := hashPassword(password)
			hash = &h
		}
		row, err = s.reclaim(ctx, q, row, hash, "email_verification", callerOf(ctx))
		return err
	})
	if err != nil {
		return User{}, err
	}
	return userOf(row), nil
}

// ResendVerification emails a new link to an unverified account. It answers the same
// whether or not the account exists, so it cannot be used to probe addresses.
func (s *Service) ResendVerification(ctx context.Context, email, redirect string) error {
	if err := s.throttleEmail(ctx, email); err != nil {
		return err
	}
	row, err := s.db.GetConsoleUserByEmail(ctx, email)
	if err != nil {
		if herald.ErrorCode(db.MapError(err)) == herald.ENOTFOUND {
			return nil
		}
		return db.MapError(err)
	}
	if row.EmailVerifiedAt != nil {
		return nil
	}
	return s.sendVerification(ctx, row, redirect)
}

// RequestPasswordReset emails a reset link when the account exists; it answers the same
// either way.
func (s *Service) RequestPasswordReset(ctx context.Context, email, redirect string) error {
	if err := s.limits.Take(ctx, LimitReset, email, callerOf(ctx).IP); err != nil {
		return err
	}
	if err := s.throttleEmail(ctx, email); err != nil {
		return err
	}
	row, err := s.db.GetConsoleUserByEmail(ctx, email)
	if err != nil {
		if herald.ErrorCode(db.MapError(err)) == herald.ENOTFOUND {
			return nil
		}
		return db.MapError(err)
	}
	code, err := s.issueCode(ctx, row.ID, "reset", resetTTL)
	if err != nil {
		return err
	}
	if err := s.record(ctx, nil, row, callerOf(ctx), audit.PasswordResetRequested, nil); err != nil {
		return err
	}
	text := fmt.Sprintf("Someone asked to reset the password of your Herald account.\n\nChoose a new password here:\n\n%s\n\n"+
		"or use this reset code: %s\n\nThe code is valid for one hour. If it was not you, ignore this email; your password is unchanged.\n",
		s.link(redirect, "resetCode", code), code)
	return s.send(ctx, mailer.Message{To: row.Email, Subject: "Reset your Herald password", Text: text})
}

// ResetPassword sets a new password with an emailed reset code, ends every session and
// revokes every CLI token of the account (in every client): whoever had the old password
// may have made them.
// Following the emailed link also proves the address, so it counts as verification.
func (s *Service) ResetPassword(ctx context.Context, code, password string) error {
	var p herald.Problems
	CheckPassword("password", password, &p)
	if err := p.Err(); err != nil {
		return err
	}
	return s.db.InTx(ctx, func(q *dbsqlc.Queries, _ pgxTx) error {
		id, err := q.UseConsoleCode(ctx, dbsqlc.UseConsoleCodeParams{CodeHash: secrets.Hash(code), Purpose: "reset"})
		if err != nil {
			if herald.ErrorCode(db.MapError(err)) == herald.ENOTFOUND {
				return herald.NotFound("reset code (it may have expired or been used)")
			}
			return db.MapError(err)
		}
		hash := hashPassword(password)
		if err := q.SetConsoleUserPassword(ctx, dbsqlc.SetConsoleUserPasswordParams{ID: id, PasswordHash: &hash}); err != nil {
			return db.MapError(err)
		}
		if err := q.MarkConsoleUserVerified(ctx, id); err != nil {
			return db.MapError(err)
		}
		if err := q.RevokeConsoleUserSessions(ctx, dbsqlc.RevokeConsoleUserSessionsParams{ConsoleUserID: id}); err != nil {
			return db.MapError(err)
		}
		tokens, err := q.RevokeConsoleUserCLITokens(ctx, id)
		if err != nil {
			return db.MapError(err)
		}
		row, err := q.GetConsoleUser(ctx, id)
		if err != nil {
			return db.MapError(err)
		}
		return s.record(ctx, q, row, callerOf(ctx), audit.PasswordReset, map[string]any{"sessionsEnded": "all", "cliTokensRevoked": len(tokens)})
	})
}

// Me returns the signed-in user.
func (s *Service) Me(ctx context.Context, userID int64) (User, error) {
	row, err := s.db.GetConsoleUser(ctx, userID)
	if err != nil {
		return User{}, db.MapError(err)
	}
	return userOf(row), nil
}

// UpdateName renames a user (UpdateClientUserDTO).
func (s *Service) UpdateName(ctx context.Context, userID int64, name string) (User, error) {
	if len(name) > 100 {
		return User{}, herald.Invalid("name must be at most 100 characters")
	}
	row, err := s.db.UpdateConsoleUserName(ctx, dbsqlc.UpdateConsoleUserNameParams{ID: userID, Name: strings.TrimSpace(name)})
	if err != nil {
		return User{}, db.MapError(err)
	}
	return userOf(row), nil
}

// ChangePassword replaces the password after checking the current one, ends every other
// session of the user and revokes the user's CLI tokens (in every client): a password is
// changed when it may be known to someone else, who may have made them.
func (s *Service) ChangePassword(ctx context.Context, p Principal, current, next string) error {
	var probs herald.Problems
	CheckPassword("newPassword", next, &probs)
	if err := probs.Err(); err != nil {
		return err
	}
	row, err := s.db.GetConsoleUser(ctx, p.UserID)
	if err != nil {
		return db.MapError(err)
	}
	if row.PasswordHash != nil && !checkPassword(*row.PasswordHash, current) {
		return herald.Errorf(herald.EFORBIDDEN, "the current password is wrong")
	}
	hash := hashPassword(next)
	return s.db.InTx(ctx, func(q *dbsqlc.Queries, _ pgxTx) error {
		if err := q.SetConsoleUserPassword(ctx, dbsqlc.SetConsoleUserPasswordParams{ID: p.UserID, PasswordHash: &hash}); err != nil {
			return db.MapError(err)
		}
		if err := q.RevokeConsoleUserSessions(ctx, dbsqlc.RevokeConsoleUserSessionsParams{ConsoleUserID: p.UserID, ExceptID: p.SessionID}); err != nil {
			return db.MapError(err)
		}
		tokens, err := q.RevokeConsoleUserCLITokens(ctx, p.UserID)
		if err != nil {
			return db.MapError(err)
		}
		return s.record(ctx, q, row, callerOf(ctx), audit.PasswordChanged, map[string]any{"sessionsEnded": "others", "cliTokensRevoked": len(tokens)})
	})
}

// maxOnboarding bounds the stored onboarding progress.
const maxOnboarding = 8 << 10

// UpdateOnboarding merges the fields of progress (a JSON object) into the user's
// onboarding progress.
func (s *Service) UpdateOnboarding(ctx context.Context, userID int64, progress json.RawMessage) (User, error) {
	if jsonshape.Kind(progress) != "object" {
		return User{}, herald.Invalid("body must be a JSON object")
	}
	if len(progress) > maxOnboarding {
		return User{}, herald.Invalid(fmt.Sprintf("onboarding progress must be at most %d bytes", maxOnboarding))
	}
	row, err := s.db.MergeConsoleUserOnboarding(ctx, dbsqlc.MergeConsoleUserOnboardingParams{ID: userID, Progress: progress})
	if err != nil {
		return User{}, db.MapError(err)
	}
	return userOf(row), nil
}
