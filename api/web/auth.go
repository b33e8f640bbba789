package web

import (
	"strings"

	"github.com/gofiber/fiber/v2"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/internal/console/apps"
	"github.com/heraldhq/herald/internal/platform/logctx"
)

// Mode is how a caller authenticated.
type Mode int

// Authentication modes (docs/decisions.md#authentication).
const (
	ModeApp    Mode = iota + 1 // API key + API secret: a backend
	ModeUser                   // API key + user id (+ signature), or a bearer token: a user's client
	ModeDevice                 // user mode + device id
)

// Principal is the authenticated caller of a request.
type Principal struct {
	App  apps.App
	Mode Mode
	// UserID is the user identifier the call acts for (user and device modes).
	UserID string
	// DeviceID is set in device mode.
	DeviceID string
	// Token is set when a verified bearer JWT named the user (secure mode).
	Token bool
}

const principalKey = "herald.principal"

// setPrincipal records the authenticated caller, and its app for the request's log lines.
func setPrincipal(c *fiber.Ctx, p *Principal) {
	c.Locals(principalKey, p)
	logctx.SetApp(c.UserContext(), p.App.ID)
}

// PrincipalOf returns the caller; routes without auth middleware have none.
func PrincipalOf(c *fiber.Ctx) *Principal {
	p, _ := c.Locals(principalKey).(*Principal)
	return p
}

// HeaderNames are the credential header names under the configured prefix.
type HeaderNames struct {
	APIKey, APISecret, SecretKey, UserID, DeviceID, Signature string
}

// NewHeaderNames derives the header names from a prefix such as "X-SERVICE-".
func NewHeaderNames(prefix string) HeaderNames {
	return HeaderNames{
		APIKey:    prefix + "API-KEY",
		APISecret: prefix + "API-SECRET",
		SecretKey: prefix + "SECRET-KEY",
		UserID:    prefix + "USER-ID",
		DeviceID:  prefix + "DEVICE-ID",
		Signature: prefix + "USER-SIGNATURE",
	}
}

// Auth builds the credential middlewares.
type Auth struct {
	Apps    *apps.Service
	Headers HeaderNames
}

// credentials are the raw credential headers of a request, copied out of fasthttp's buffers.
type credentials struct {
	apiKey, apiSecret, secretKey, userID, deviceID, signature, bearer string
}

func (a *Auth) read(c *fiber.Ctx) credentials {
	h := a.Headers
	cr := credentials{
		apiKey:    strings.Clone(c.Get(h.APIKey)),
		apiSecret: strings.Clone(c.Get(h.APISecret)),
		secretKey: strings.Clone(c.Get(h.SecretKey)),
		userID:    strings.Clone(c.Get(h.UserID)),
		deviceID:  strings.Clone(c.Get(h.DeviceID)),
		signature: strings.Clone(c.Get(h.Signature)),
	}
	if v := c.Get(fiber.HeaderAuthorization); len(v) > 7 && strings.EqualFold(v[:7], "bearer ") {
		cr.bearer = strings.Clone(strings.TrimSpace(v[7:]))
	}
	return cr
}

func (cr credentials) none() bool {
	return cr.apiKey == "" && cr.apiSecret == "" && cr.secretKey == "" && cr.userID == "" && cr.bearer == ""
}

func unauthorized(msg string) error { return herald.Errorf(herald.EUNAUTHORIZED, "%s", msg) }

func (a *Auth) noParams() error {
	return unauthorized("No authentication parameters found: send " + a.Headers.APIKey + " with " + a.Headers.APISecret +
		" (app) or with " + a.Headers.UserID + " (user)")
}

// app resolves the app of an API key; an unknown key is a 401, never a 404.
func (a *Auth) app(c *fiber.Ctx, key string) (apps.App, error) {
	app, err := a.Apps.ByAPIKey(c.UserContext(), key)
	if err != nil {
		if herald.ErrorCode(err) == herald.ENOTFOUND {
			return apps.App{}, unauthorized("Invalid API key")
		}
		return apps.App{}, err
	}
	return app, nil
}

// authApp checks app credentials; the secret may come in the API-SECRET header or, where
// acceptSecretKey is set, the SECRET-KEY header.
func (a *Auth) authApp(c *fiber.Ctx, cr credentials, acceptSecretKey bool) (*Principal, error) {
	secret := cr.apiSecret
	if secret == "" && acceptSecretKey {
		secret = cr.secretKey
	}
	if cr.apiKey == "" || secret == "" {
		if cr.none() {
			return nil, a.noParams()
		}
		want := a.Headers.APISecret
		if acceptSecretKey {
			want += " (or " + a.Headers.SecretKey + ")"
		}
		return nil, unauthorized("No valid combination of authentication parameters found: this route needs " + a.Headers.APIKey + " and " + want)
	}
	app, err := a.app(c, cr.apiKey)
	if err != nil {
		return nil, err
	}
	if !apps.CheckSecret(app, secret) {
		return nil, unauthorized("Invalid API key or secret")
	}
	return &Principal{App: app, Mode: ModeApp}, nil
}

// authUser checks user credentials: a bearer token (secure mode), or API key + user id
// with the HMAC signature when the app requires it. An app in secure mode accepts only the
// token.
func (a *Auth) authUser(c *fiber.Ctx, cr credentials) (*Principal, error) {
	if cr.bearer != "" {
		return a.authToken(c, cr)
	}
	if cr.apiKey == "" || cr.userID == "" {
		if cr.none() {
			return nil, a.noParams()
		}
		return nil, unauthorized("No valid combination of authentication parameters found: this route needs " + a.Headers.APIKey + " and " + a.Headers.UserID)
	}
	app, err := a.app(c, cr.apiKey)
	if err != nil {
		return nil, err
	}
	if app.SecureAuth {
		return nil, unauthorized("This app is in secure mode: send the user's token as Authorization: Bearer <JWT>")
	}
	if app.HMACAuth {
		if err := a.checkSignature(c, app, cr); err != nil {
			return nil, err
		}
	}
	return &Principal{App: app, Mode: ModeUser, UserID: cr.userID}, nil
}

// checkSignature verifies the deprecated HMAC signature: base64(HMAC-SHA256(secret, user id)).
func (a *Auth) checkSignature(c *fiber.Ctx, app apps.App, cr credentials) error {
	if cr.signature == "" {
		return unauthorized("This app requires " + a.Headers.Signature)
	}
	ok, err := a.Apps.VerifySignature(c.UserContext(), app.ID, cr.userID, cr.signature)
	if err != nil {
		return err
	}
	if !ok {
		return unauthorized("Invalid user signature")
	}
	return nil
}

// App requires app credentials (API key + API secret).
func (a *Auth) App() fiber.Handler {
	return func(c *fiber.Ctx) error {
		p, err := a.authApp(c, a.read(c), false)
		if err != nil {
			return err
		}
		setPrincipal(c, p)
		return c.Next()
	}
}

// AppWithSecretKey requires app credentials, taking the secret from either the API-SECRET or
// the SECRET-KEY header (category create and delete).
func (a *Auth) AppWithSecretKey() fiber.Handler {
	return func(c *fiber.Ctx) error {
		p, err := a.authApp(c, a.read(c), true)
		if err != nil {
			return err
		}
		setPrincipal(c, p)
		return c.Next()
	}
}

// Device requires user credentials and the device id header (device connect).
func (a *Auth) Device() fiber.Handler {
	return func(c *fiber.Ctx) error {
		cr := a.read(c)
		if cr.deviceID == "" {
			if cr.none() {
				return a.noParams()
			}
			return unauthorized("No valid combination of authentication parameters found: this route needs " + a.Headers.DeviceID + " with the user's credentials")
		}
		p, err := a.authUser(c, cr)
		if err != nil {
			return err
		}
		p.Mode, p.DeviceID = ModeDevice, cr.deviceID
		setPrincipal(c, p)
		return c.Next()
	}
}

// User requires user credentials.
func (a *Auth) User() fiber.Handler {
	return func(c *fiber.Ctx) error {
		p, err := a.authUser(c, a.read(c))
		if err != nil {
			return err
		}
		setPrincipal(c, p)
		return c.Next()
	}
}

// UserOrApp accepts app credentials (a backend acting for the user named by the query
// parameter userParam) or user credentials.
func (a *Auth) UserOrApp(userParam string) fiber.Handler {
	return func(c *fiber.Ctx) error {
		cr := a.read(c)
		var (
			p   *Principal
			err error
		)
		if cr.apiSecret != "" {
			p, err = a.authApp(c, cr, false)
			if err == nil {
				p.UserID = strings.Clone(c.Query(userParam))
				if p.UserID == "" {
					p.UserID = cr.userID
				}
				if p.UserID == "" {
					return herald.Invalid(userParam + " must be a non-empty string when calling with app credentials")
				}
			}
		} else {
			p, err = a.authUser(c, cr)
		}
		if err != nil {
			return err
		}
		setPrincipal(c, p)
		return c.Next()
	}
}
