package console

import (
	"context"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/db/dbsqlc"
)

// EnsureDevAccount returns the verified account of email, signing in with password: it
// creates the account, or sets its password and marks it verified. Only `herald dev`
// calls it, so a newcomer has a console account to sign in with at once.
func (s *Service) EnsureDevAccount(ctx context.Context, email, name, password string) (User, error) {
	hash := hashPassword(password)
	row, err := s.db.GetConsoleUserByEmail(ctx, email)
	switch {
	case herald.ErrorCode(db.MapError(err)) == herald.ENOTFOUND:
		now := s.now()
		row, err = s.db.CreateConsoleUser(ctx, dbsqlc.CreateConsoleUserParams{Email: email, Name: name, PasswordHash: &hash, EmailVerifiedAt: &now})
		if err != nil {
			return User{}, db.MapError(err)
		}
		return userOf(row), nil
	case err != nil:
		return User{}, db.MapError(err)
	}
	if err := s.db.SetConsoleUserPassword(ctx, dbsqlc.SetConsoleUserPasswordParams{ID: row.ID, PasswordHash: &hash}); err != nil {
		return User{}, db.MapError(err)
	}
	if row.EmailVerifiedAt == nil {
		if err := s.db.MarkConsoleUserVerified(ctx, row.ID); err != nil {
			return User{}, db.MapError(err)
		}
	}
	return userOf(row), nil
}
