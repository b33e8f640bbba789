package console

import (
	"context"

	"github.com/jackc/pgx/v5"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/db/dbsqlc"
	"github.com/heraldhq/herald/internal/console/audit"
)

type pgxTx = pgx.Tx

// wrongCredentials is the one answer to a refused first factor: a wrong password, an email
// without an account, and an account whose address is not verified yet look the same, so
// sign-in cannot tell whether an address has an account (a fresh sign-up with a known
// password would otherwise show it: unverified for a new address, wrong password for a
// taken one).
const wrongCredentials = "wrong email or password, or the email address is not verified yet (open the link we emailed; POST /v1/auth/resendVerificationEmail sends another)"

// SignIn checks an email and password. Failures are counted per account and per address;
// while either is locked every attempt gets 429 without the password being looked at.
func (s *Service) SignIn(ctx context.Context, email, password, redirect string, from Caller) (SignInResult, error) {
	if err := s.checkThrottle(ctx, s.throttleKeys(email, from)...); err != nil {
		return SignInResult{}, err
	}
	row, err := s.db.GetConsoleUserByEmail(ctx, email)
	if err != nil && herald.ErrorCode(db.MapError(err)) != herald.ENOTFOUND {
		return SignInResult{}, db.MapError(err)
	}
	hash := dummyHash
	if err == nil && row.PasswordHash != nil {
		hash = *row.PasswordHash
	}
	matches := checkPassword(hash, password)
	switch {
	case err != nil:
		s.failSignIn(ctx, email, from)
		s.recordUnknownFailure(ctx, email, from)
		return SignInResult{}, unauthorized(wrongCredentials)
	case !matches || row.PasswordHash == nil:
		s.failSignIn(ctx, email, from)
		s.recordRefusal(ctx, row, from, "wrong_password")
		return SignInResult{}, unauthorized(wrongCredentials)
	case row.EmailVerifiedAt == nil:
		s.failSignIn(ctx, email, from)
		s.recordRefusal(ctx, row, from, "email_not_verified")
		return SignInResult{}, unauthorized(wrongCredentials)
	}
	if err := s.db.ClearThrottle(ctx, accountKey(email)); err != nil {
		return SignInResult{}, db.MapError(err)
	}
	return s.admit(ctx, row, redirect, from, methodPassword)
}

// admit finishes a first-factor sign-in: unverified accounts are refused, accounts with
// 2FA get a challenge, others a session.
func (s *Service) admit(ctx context.Context, row dbsqlc.ConsoleUser, redirect string, from Caller, method string) (SignInResult, error) {
	if row.EmailVerifiedAt == nil {
		return SignInResult{}, herald.Errorf(herald.EFORBIDDEN,
			"the email address is not verified yet: open the link we emailed (POST /v1/auth/resendVerificationEmail sends another)")
	}
	if row.TotpEnabled {
		return SignInResult{TwoFactorRequired: true, ChallengeToken: s.sign(kindChallenge, row.ID, 0, challengeTTL, redirect), Redirect: redirect}, nil
	}
	sess, err := s.startSession(ctx, row, from)
	if err != nil {
		return SignInResult{}, err
	}
	if err := s.record(ctx, nil, row, from, audit.SignIn, map[string]any{"method": method}); err != nil {
		return SignInResult{}, err
	}
	return SignInResult{Session: sess, Redirect: redirect}, nil
}
