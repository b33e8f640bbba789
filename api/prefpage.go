package api

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"time"

	"github.com/gofiber/fiber/v2"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/internal/audience/prefpage"
	"github.com/heraldhq/herald/internal/audience/unsubscribe"
	"github.com/heraldhq/herald/internal/platform/secrets"
)

// PreferencePage serves the hosted preference page ({{preferencesUrl}} of emails) at the
// root of the API listener, outside the credential middleware: the signed preference
// token in the path is the credential (an unsubscribe token does not open it).
//
//	GET  /preferences/:token  the page: every switch of the token's user, in a plain form
//	POST /preferences/:token  saves the form (with its CSRF field and cookie), then 303 to
//	                          the page with ?saved=1; a missing or wrong CSRF pair: 403,
//	                          nothing changed
//
// A bad, expired or other-purpose token answers 404 with a page saying what to do (the
// error envelope to clients that do not accept HTML). Both routes are rate-limited per
// client address.
type PreferencePage struct {
	Service *prefpage.Service
	// CSRFKey signs the form's CSRF field (a key derived from HERALD_SECRET_KEY for it).
	CSRFKey []byte
	// Limit takes a token of the client address's budget (nil: no limit).
	Limit func(ctx context.Context, client string) (bool, time.Duration)
}

// CSRF pair of the form: a random nonce in a SameSite=Strict, HttpOnly cookie, and in the
// form an HMAC of the nonce and the page's preference token.
const (
	prefCSRFCookie = "herald_prefs_csrf"
	prefCSRFField  = "csrf"
	// prefMaxFields caps the fields of one POST (switches and the CSRF field).
	prefMaxFields = 5000
)

// Register mounts the routes on r (the app's root).
func (p *PreferencePage) Register(r fiber.Router) {
	limit := rateLimited(p.Limit, func(c *fiber.Ctx, _ int) error {
		return p.message(c, fiber.StatusTooManyRequests, "Too many requests", "Too many requests from your address. Please try again in a moment.", "")
	})
	r.Get(unsubscribe.PreferencesPath+":token", limit, p.page)
	r.Post(unsubscribe.PreferencesPath+":token", limit, p.save)
}

func (p *PreferencePage) page(c *fiber.Ctx) error {
	token := c.Params("token")
	pg, err := p.Service.Open(c.UserContext(), token)
	if err != nil {
		return p.failed(c, err)
	}
	nonce := c.Cookies(prefCSRFCookie)
	if !validNonce(nonce) {
		nonce = secrets.Token(16)
	}
	// Set on every page (also when reused) so the cookie follows the page's scheme. No
	// Path attribute: the browser scopes it to the page's folder (/preferences, or
	// /prefix/preferences behind a proxy that strips a path prefix).
	cookie := prefCSRFCookie + "=" + nonce + "; HttpOnly; SameSite=Strict"
	if c.Protocol() == "https" {
		cookie += "; Secure"
	}
	c.Append(fiber.HeaderSetCookie, cookie)
	return p.render(c, fiber.StatusOK, prefView{Title: "Notification preferences", App: pg.AppName, Page: &pg,
		CSRF: p.csrf(nonce, token), Saved: c.Query("saved") == "1"})
}

func (p *PreferencePage) save(c *fiber.Ctx) error {
	ctx := c.UserContext()
	token := c.Params("token")
	pg, err := p.Service.Open(ctx, token)
	if err != nil {
		return p.failed(c, err)
	}
	args := c.Request().PostArgs()
	if args.Len() > prefMaxFields {
		return p.message(c, fiber.StatusRequestEntityTooLarge, "Form too large", "The form has too many fields.", pg.AppName)
	}
	form := make(map[string]string, args.Len())
	args.VisitAll(func(k, v []byte) { form[string(k)] = string(v) }) // the last value of a name wins
	nonce := c.Cookies(prefCSRFCookie)
	given, err := base64.RawURLEncoding.Strict().DecodeString(form[prefCSRFField])
	want, _ := base64.RawURLEncoding.DecodeString(p.csrf(nonce, token))
	if !validNonce(nonce) || err != nil || !hmac.Equal(given, want) {
		return p.message(c, fiber.StatusForbidden, "This form has expired",
			"Your changes were not saved: the form could not be verified. Open the page again from the link and make your changes there.", pg.AppName)
	}
	if _, err := p.Service.Save(ctx, pg, form); err != nil {
		return p.failed(c, err)
	}
	// Redirect after POST: reloading the confirmation does not post again.
	// The Location is relative to the page (its last path segment) so it holds behind a
	// proxy that adds a path prefix.
	return c.Redirect(token+"?saved=1", fiber.StatusSeeOther)
}

// csrf is the form's CSRF field for a nonce and a token: it binds the form to the
// browser that got the cookie and to this preference link.
func (p *PreferencePage) csrf(nonce, token string) string {
	m := hmac.New(sha256.New, p.CSRFKey)
	m.Write([]byte(nonce))
	m.Write([]byte{0})
	m.Write([]byte(token))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

// validNonce is a nonce as page makes them (16 random bytes, base64url).
func validNonce(n string) bool {
	b, err := base64.RawURLEncoding.Strict().DecodeString(n)
	return err == nil && len(b) == 16
}

// failed answers a bad link with a 404 page, the same for every reason; other errors go
// through the error handler.
func (p *PreferencePage) failed(c *fiber.Ctx, err error) error {
	if herald.ErrorCode(err) != herald.ENOTFOUND {
		return err
	}
	return p.message(c, fiber.StatusNotFound, "This link has expired",
		"This preferences link is not valid or has expired (links work for 60 days). Open the preferences link in a more recent email, or manage your notifications in the app.", "")
}

// message answers a refusal: a page for browsers (Accept names text/html), the usual
// error envelope for other clients.
func (p *PreferencePage) message(c *fiber.Ctx, status int, title, msg, app string) error {
	if !wantsHTML(c) {
		return herald.Errorf(prefErrorCodes[status], "%s", msg)
	}
	return p.render(c, status, prefView{Title: title, Message: msg, App: app})
}

var prefErrorCodes = map[int]string{
	fiber.StatusNotFound: herald.ENOTFOUND, fiber.StatusForbidden: herald.EFORBIDDEN,
	fiber.StatusRequestEntityTooLarge: herald.ETOOLARGE, fiber.StatusTooManyRequests: herald.ERATELIMIT,
}

// render writes the page; its CSP allows nothing but its stylesheet (by hash) and form
// posts to itself.
func (p *PreferencePage) render(c *fiber.Ctx, status int, v prefView) error {
	return renderHostedPage(c, status, prefPageCSP, prefPageTemplate, v)
}
