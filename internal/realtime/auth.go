package realtime

import (
	"context"
	"strings"
	"time"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/internal/audience/userjwt"
	"github.com/heraldhq/herald/internal/console/apps"
)

// Credentials are what a realtime client presents, gathered from the query string, the
// Socket.IO CONNECT auth payload or the usual headers.
type Credentials struct {
	APIKey, UserID, Signature string
	// Token is a user JWT (secure mode) or a realtime token from
	// /v3/sdk/realtimeTokenRequests.
	Token string
}

// clean drops the values JavaScript clients send for unset variables.
func clean(v string) string {
	v = strings.TrimSpace(v)
	if v == "undefined" || v == "null" {
		return ""
	}
	return v
}

// Principal is an authenticated realtime user.
type Principal struct {
	App apps.App
	// User is the user identifier.
	User string
}

// Authenticator checks realtime credentials with the same rules as the developer API's
// user mode: API key + user id (+ the HMAC signature when the app requires it), refused in
// secure mode, where a user JWT is needed; or a realtime token.
type Authenticator struct {
	Apps   *apps.Service
	Tokens *Tokens
	Now    func() time.Time
}

func unauthorized(msg string) error { return herald.Errorf(herald.EUNAUTHORIZED, "%s", msg) }

// Authenticate returns the user the credentials stand for, or an EUNAUTHORIZED error whose
// message tells the client what is wrong.
func (a *Authenticator) Authenticate(ctx context.Context, cr Credentials) (Principal, error) {
	cr.Token, cr.Signature = clean(cr.Token), clean(cr.Signature)
	switch {
	case strings.HasPrefix(cr.Token, TokenPrefix):
		return a.realtimeToken(ctx, cr)
	case cr.Token != "":
		return a.userJWT(ctx, cr)
	case cr.APIKey == "" && cr.UserID == "":
		return Principal{}, unauthorized("No authentication parameters found: pass apiKey and userId, or a token")
	case cr.APIKey == "" || cr.UserID == "":
		return Principal{}, unauthorized("No valid combination of authentication parameters found: pass apiKey with userId, or a token")
	}
	app, err := a.app(ctx, cr.APIKey)
	if err != nil {
		return Principal{}, err
	}
	if app.SecureAuth {
		return Principal{}, unauthorized("This app requires a user token (secure mode): pass the user's JWT as token")
	}
	if app.HMACAuth {
		if cr.Signature == "" {
			return Principal{}, unauthorized("This app requires userSignature")
		}
		ok, err := a.Apps.VerifySignature(ctx, app.ID, cr.UserID, cr.Signature)
		if err != nil {
			return Principal{}, err
		}
		if !ok {
			return Principal{}, unauthorized("Invalid user signature")
		}
	}
	return Principal{App: app, User: cr.UserID}, nil
}

func (a *Authenticator) realtimeToken(ctx context.Context, cr Credentials) (Principal, error) {
	key, user, err := a.Tokens.Verify(cr.Token)
	if err != nil {
		return Principal{}, unauthorized(err.Error())
	}
	if cr.APIKey != "" && cr.APIKey != key {
		return Principal{}, unauthorized("The token was issued for another app")
	}
	if cr.UserID != "" && cr.UserID != user {
		return Principal{}, unauthorized("The token was issued for another user")
	}
	app, err := a.app(ctx, key)
	if err != nil {
		return Principal{}, err
	}
	return Principal{App: app, User: user}, nil
}

// userJWT verifies a secure-mode token against the app's public key; the app comes from
// the API key, or from the token's apiKey claim when none is given.
func (a *Authenticator) userJWT(ctx context.Context, cr Credentials) (Principal, error) {
	key := cr.APIKey
	if key == "" {
		claims, err := userjwt.Unverified(cr.Token)
		if err != nil {
			return Principal{}, unauthorized(err.Error())
		}
		if key = claims.APIKey; key == "" {
			return Principal{}, unauthorized("No API key: pass apiKey, or a token with an apiKey claim")
		}
	}
	app, err := a.app(ctx, key)
	if err != nil {
		return Principal{}, err
	}
	claims, err := userjwt.Verify(cr.Token, app.RSAPublicKey, a.Now(), app.AllowLongLivedUserTokens)
	if err != nil {
		return Principal{}, unauthorized(err.Error())
	}
	if cr.UserID != "" && cr.UserID != claims.User() {
		return Principal{}, unauthorized("The token was issued for another user")
	}
	return Principal{App: app, User: claims.User()}, nil
}

// app resolves an API key; an unknown key is unauthorized, never not found.
func (a *Authenticator) app(ctx context.Context, key string) (apps.App, error) {
	app, err := a.Apps.ByAPIKey(ctx, key)
	if herald.ErrorCode(err) == herald.ENOTFOUND {
		return apps.App{}, unauthorized("Invalid API key")
	}
	return app, err
}
