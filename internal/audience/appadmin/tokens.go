package appadmin

import (
	"context"
	"time"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/internal/audience/userjwt"
	"github.com/heraldhq/herald/internal/audience/users"
)

// Lifetimes of test tokens minted in the console.
const (
	DefaultTokenTTL = time.Hour
	MaxTokenTTL     = 7 * 24 * time.Hour
)

// UserToken is a secure-mode user token minted with the app's signing key.
type UserToken struct {
	Token      string    `json:"token"`
	Identifier string    `json:"identifier"`
	ExpiresAt  time.Time `json:"expiresAt"`
}

// MintUserToken signs a token for a user of the app, as the app's backend would, so the
// console (or a developer) can try secure mode.
func (s *Service) MintUserToken(ctx context.Context, appID int64, identifier string, ttl time.Duration) (UserToken, error) {
	var p herald.Problems
	users.CheckIdentifier("identifier", identifier, &p)
	if err := p.Err(); err != nil {
		return UserToken{}, err
	}
	key, err := s.apps.RSAPrivateKey(ctx, appID)
	if err != nil {
		return UserToken{}, err
	}
	row, err := s.db.GetAppByID(ctx, appID)
	if err != nil {
		return UserToken{}, db.MapError(err)
	}
	now := s.now()
	tok, err := userjwt.Mint(key, row.ApiKey, identifier, ttl, now)
	if err != nil {
		return UserToken{}, err
	}
	return UserToken{Token: tok, Identifier: identifier, ExpiresAt: now.Add(ttl)}, nil
}
