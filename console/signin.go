package console

import (
	"context"

	"github.com/jackc/pgx/v5"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/db/dbsqlc"
)

type pgxTx = pgx.Tx

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
	if !checkPassword(hash, password) || err != nil || row.PasswordHash == nil {
		s.failSignIn(ctx, email, from)
		return SignInResult{}, unauthorized("wrong email or password")
	}
	if err := s.db.ClearThrottle(ctx, accountKey(email)); err != nil {
		return SignInResult{}, db.MapError(err)
	}
	return s.admit(ctx, row, redirect, from)
}

// admit finishes a first-factor sign-in: unverified accounts are refused, accounts with
// 2FA get a challenge, others a session.
func (s *Service) admit(ctx context.Context, row dbsqlc.ConsoleUser, redirect string, from Caller) (SignInResult, error) {
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
	return SignInResult{Session: sess, Redirect: redirect}, nil
}
