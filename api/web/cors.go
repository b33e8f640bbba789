package web

import (
	"slices"
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/heraldhq/herald/internal/audience/userjwt"
	"github.com/heraldhq/herald/internal/console/apps"
)

// Cross-origin access (CORS) for the routes a user's browser calls: the embeddable inbox
// runs on the customer's origin, so its calls are cross-origin. An app lists the origins
// allowed to call it (allowedOrigins, "*" for any) and only those get CORS headers.
//
// A preflight carries no credential headers, so the browser client names its app in the
// apiKey query parameter of every URL; an actual request is matched by its API key header,
// that parameter, or the apiKey claim of its bearer token. A request carrying the API
// secret never gets CORS headers, and a preflight asking to send it is refused, whatever
// the app allows: a secret must not be used from a web page.

// corsMaxAge is how long (seconds) a browser may cache a preflight answer.
const corsMaxAge = "600"

// corsApp finds the app a cross-origin request is for, or false.
func (a *Auth) corsApp(c *fiber.Ctx, preflight bool) (apps.App, bool) {
	key := ""
	if !preflight {
		key = c.Get(a.Headers.APIKey)
	}
	if key == "" {
		key = c.Query("apiKey")
	}
	if key == "" && !preflight {
		if v := c.Get(fiber.HeaderAuthorization); len(v) > 7 && strings.EqualFold(v[:7], "bearer ") {
			if claims, err := userjwt.Unverified(strings.TrimSpace(v[7:])); err == nil {
				key = claims.APIKey
			}
		}
	}
	if key == "" {
		return apps.App{}, false
	}
	app, err := a.Apps.ByAPIKey(c.UserContext(), strings.Clone(key))
	return app, err == nil
}

// carriesSecret reports whether a request sends, or a preflight asks to send, an API secret.
func (a *Auth) carriesSecret(c *fiber.Ctx) bool {
	if c.Get(a.Headers.APISecret) != "" || c.Get(a.Headers.SecretKey) != "" {
		return true
	}
	for _, h := range strings.Split(c.Get(fiber.HeaderAccessControlRequestHeaders), ",") {
		h = strings.TrimSpace(h)
		if strings.EqualFold(h, a.Headers.APISecret) || strings.EqualFold(h, a.Headers.SecretKey) {
			return true
		}
	}
	return false
}

// allowOrigin sets the CORS answer headers when the request's origin may call its app.
func (a *Auth) allowOrigin(c *fiber.Ctx, preflight bool) bool {
	c.Vary(fiber.HeaderOrigin)
	origin := c.Get(fiber.HeaderOrigin)
	if origin == "" || a.carriesSecret(c) {
		return false
	}
	app, ok := a.corsApp(c, preflight)
	if !ok || !app.AllowsOrigin(origin) {
		return false
	}
	c.Set(fiber.HeaderAccessControlAllowOrigin, strings.Clone(origin))
	return true
}

// CORS sets the CORS headers on an actual request to a browser route; it runs before the
// route's auth so error answers (an expired token's 401) are readable by the page too.
func (a *Auth) CORS() fiber.Handler {
	return func(c *fiber.Ctx) error {
		if a.allowOrigin(c, false) {
			c.Set(fiber.HeaderAccessControlExposeHeaders, "X-Request-Id, Retry-After")
		}
		return c.Next()
	}
}

// Preflight answers the OPTIONS preflight of a browser route served for methods (a
// preflight for another method of the path is refused). A refused preflight is a 204 without CORS headers: the browser then does not send the request.
func (a *Auth) Preflight(methods ...string) fiber.Handler {
	allowMethods := strings.Join(methods, ", ")
	h := a.Headers
	allowHeaders := strings.Join([]string{h.APIKey, h.UserID, h.DeviceID, h.Signature,
		fiber.HeaderAuthorization, fiber.HeaderContentType}, ", ")
	return func(c *fiber.Ctx) error {
		if slices.Contains(methods, c.Get(fiber.HeaderAccessControlRequestMethod)) && a.allowOrigin(c, true) {
			c.Set(fiber.HeaderAccessControlAllowMethods, allowMethods)
			c.Set(fiber.HeaderAccessControlAllowHeaders, allowHeaders)
			c.Set(fiber.HeaderAccessControlMaxAge, corsMaxAge)
		}
		return c.SendStatus(fiber.StatusNoContent)
	}
}

// SocketCORS serves CORS for the Socket.IO endpoint (HTTP long-polling is cross-origin
// XHR): preflights are answered here, other requests get the headers and go on. The app is
// the one of the apiKey query parameter the client connects with.
func (a *Auth) SocketCORS() fiber.Handler {
	pre := a.Preflight(fiber.MethodGet, fiber.MethodPost)
	return func(c *fiber.Ctx) error {
		if c.Method() == fiber.MethodOptions {
			return pre(c)
		}
		a.allowOrigin(c, true)
		return c.Next()
	}
}
