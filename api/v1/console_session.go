package v1

import (
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/internal/console"
)

// The console web app keeps its access token in memory and its refresh token in an
// httpOnly cookie that the API sets (docs/console-api.md). A request speaks for the console
// when it carries ConsoleHeader: 1. Such requests get the cookie on every sign-in and the
// refresh token is left out of the JSON answer, so no script ever holds it.
const (
	// ConsoleHeader marks a request of the console web app.
	ConsoleHeader = "X-Herald-Console"
	// RefreshCookie is the name of the cookie holding the console's refresh token.
	RefreshCookie = "herald_console_refresh"
	// refreshCookiePath scopes the cookie to the auth routes: no other request carries it.
	refreshCookiePath = "/v1/auth"
	// CodeHostNonceCookie binds a code-host sign-in's state to the browser that started it.
	CodeHostNonceCookie = "herald_codehost_nonce"
	// codeHostCookiePath scopes it to the two code-host sign-in routes.
	codeHostCookiePath = "/v1/ee/auth/codehost"
)

// setNonceCookie stores (or, with ttl 0, expires) the code-host nonce: httpOnly,
// SameSite=Lax, short-lived, sent only to the code-host routes, Secure when the console's
// URL or the request is https.
func (h *Console) setNonceCookie(c *fiber.Ctx, nonce string, ttl time.Duration) {
	ck := &fiber.Cookie{
		Name: CodeHostNonceCookie, Value: nonce, Path: codeHostCookiePath,
		MaxAge: int(ttl / time.Second), Expires: time.Now().Add(ttl),
		Secure: c.Protocol() == "https" || h.Console.SecureCookies(), HTTPOnly: true, SameSite: fiber.CookieSameSiteLaxMode,
	}
	if ttl <= 0 {
		ck.MaxAge, ck.Expires = -1, time.Unix(0, 0)
	}
	c.Cookie(ck)
}

// fromConsole reports whether the request is the console's.
func fromConsole(c *fiber.Ctx) bool { return c.Get(ConsoleHeader) == "1" }

// setRefreshCookie stores the refresh token of s in the cookie (and removes it from the
// answer) when the request is the console's.
func (h *Console) setRefreshCookie(c *fiber.Ctx, s *console.Session) {
	if s == nil || !fromConsole(c) {
		return
	}
	c.Cookie(&fiber.Cookie{
		Name: RefreshCookie, Value: s.RefreshToken, Path: refreshCookiePath,
		MaxAge: int(h.Console.RefreshTTL() / time.Second), Expires: time.Now().Add(h.Console.RefreshTTL()),
		Secure: c.Protocol() == "https", HTTPOnly: true, SameSite: fiber.CookieSameSiteStrictMode,
	})
	s.RefreshToken = ""
}

// clearRefreshCookie expires the cookie.
func clearRefreshCookie(c *fiber.Ctx) {
	c.Cookie(&fiber.Cookie{
		Name: RefreshCookie, Value: "", Path: refreshCookiePath, MaxAge: -1, Expires: time.Unix(0, 0),
		Secure: c.Protocol() == "https", HTTPOnly: true, SameSite: fiber.CookieSameSiteStrictMode,
	})
}

// signedIn answers a sign-in result, moving its refresh token to the cookie for the
// console.
func (h *Console) signedIn(c *fiber.Ctx, res console.SignInResult) error {
	h.setRefreshCookie(c, res.Session)
	return c.JSON(res)
}

// consoleCSRF refuses a cookie-authenticated request that is not provably the console's
// own: it must carry ConsoleHeader (a custom header, which a cross-site form cannot send
// and a cross-origin script cannot send without a CORS preflight the API refuses), and
// an Origin header, when present, must be this server's.
func consoleCSRF(c *fiber.Ctx) error {
	if !fromConsole(c) {
		return &herald.Error{Code: herald.EFORBIDDEN, Message: ConsoleHeader + ": 1 is required on the console's cookie routes"}
	}
	if o := c.Get(fiber.HeaderOrigin); o != "" && !strings.EqualFold(o, c.Protocol()+"://"+c.Hostname()) {
		return &herald.Error{Code: herald.EFORBIDDEN, Message: "cross-origin request refused"}
	}
	return nil
}

// consoleRefresh trades the refresh cookie for a new access token (and a rotated cookie);
// without a cookie it answers 204 and no body.
func (h *Console) consoleRefresh(c *fiber.Ctx) error {
	if err := consoleCSRF(c); err != nil {
		return err
	}
	tok := c.Cookies(RefreshCookie)
	if tok == "" {
		// No session to resume: not an error (the console asks on every page load).
		return c.SendStatus(fiber.StatusNoContent)
	}
	s, err := h.Console.RefreshCookie(c.UserContext(), strings.Clone(tok))
	if err != nil {
		clearRefreshCookie(c)
		return err
	}
	h.setRefreshCookie(c, s)
	return c.JSON(s)
}
