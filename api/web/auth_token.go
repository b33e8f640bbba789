package web

import (
	"errors"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/heraldhq/herald/internal/audience/userjwt"
	"github.com/heraldhq/herald/internal/platform/secrets"
)

// authToken checks a bearer user JWT (secure mode, docs/decisions.md#authentication). The app is the one of
// the API key header or, without it, of the token's apiKey claim; the token must verify
// with that app's public key, and its subject is the user. A user id header, when sent,
// must name the same user. A valid token replaces the deprecated HMAC signature.
func (a *Auth) authToken(c *fiber.Ctx, cr credentials) (*Principal, error) {
	claims, err := userjwt.Unverified(cr.bearer)
	if err != nil {
		return nil, unauthorized("Invalid bearer token: it is not a JWT")
	}
	key := cr.apiKey
	switch {
	case key == "" && claims.APIKey == "":
		return nil, unauthorized("No valid combination of authentication parameters found: send " + a.Headers.APIKey +
			" with the bearer token, or put the API key in its apiKey claim")
	case key == "":
		key = claims.APIKey
	case claims.APIKey != "" && !secrets.Equal([]byte(claims.APIKey), []byte(key)):
		return nil, unauthorized("Invalid bearer token: it was issued for another app")
	}
	app, err := a.app(c, key)
	if err != nil {
		return nil, err
	}
	verified, err := userjwt.Verify(cr.bearer, app.RSAPublicKey, time.Now(), app.AllowLongLivedUserTokens)
	switch {
	case errors.Is(err, userjwt.ErrNoKey):
		return nil, unauthorized("Invalid bearer token: the app has no signing key for secure mode")
	case errors.Is(err, userjwt.ErrNoExpiry):
		return nil, unauthorized("Invalid bearer token: it has no expiry (exp claim); sign user tokens with one, or allow long-lived tokens in the app's settings")
	case err != nil:
		return nil, unauthorized("Invalid bearer token: it is invalid, expired or not signed by this app")
	}
	user := verified.User()
	if cr.userID != "" && cr.userID != user {
		return nil, unauthorized("Invalid bearer token: its subject does not match " + a.Headers.UserID)
	}
	return &Principal{App: app, Mode: ModeUser, UserID: user, Token: true}, nil
}
