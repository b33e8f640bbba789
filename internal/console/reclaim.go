package console

import (
	"context"

	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/db/dbsqlc"
	"github.com/heraldhq/herald/internal/console/audit"
)

// reclaim hands an account whose address was not verified to whoever just proved the
// address (an emailed verification code, or a code host's verified email). Anything set up
// before that proof may be someone else's — a password chosen by whoever registered the
// address first — so it is dropped: the password becomes hash (nil: none), sessions end,
// CLI tokens are revoked, 2FA is turned off; the address is marked verified. When a
// password or other credential was dropped, auth.account_reclaimed is recorded with how
// the address was proven.
func (s *Service) reclaim(ctx context.Context, q *dbsqlc.Queries, row dbsqlc.ConsoleUser, hash *string, method string, from Caller) (dbsqlc.ConsoleUser, error) {
	if err := q.ReclaimConsoleUser(ctx, dbsqlc.ReclaimConsoleUserParams{ID: row.ID, PasswordHash: hash}); err != nil {
		return row, db.MapError(err)
	}
	if err := q.RevokeConsoleUserSessions(ctx, dbsqlc.RevokeConsoleUserSessionsParams{ConsoleUserID: row.ID}); err != nil {
		return row, db.MapError(err)
	}
	tokens, err := q.RevokeConsoleUserCLITokens(ctx, row.ID)
	if err != nil {
		return row, db.MapError(err)
	}
	if err := q.DeleteRecoveryCodes(ctx, row.ID); err != nil {
		return row, db.MapError(err)
	}
	fresh, err := q.GetConsoleUser(ctx, row.ID)
	if err != nil {
		return row, db.MapError(err)
	}
	droppedPassword := row.PasswordHash != nil && hash == nil
	if droppedPassword || len(tokens) > 0 || row.TotpEnabled {
		details := map[string]any{"method": method, "passwordDropped": droppedPassword, "cliTokensRevoked": len(tokens), "twoFactorDropped": row.TotpEnabled}
		if err := s.record(ctx, q, fresh, from, audit.AccountReclaimed, details); err != nil {
			return row, err
		}
	}
	return fresh, nil
}
