package web

import (
	"strings"

	"github.com/gofiber/fiber/v2"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/internal/console"
	"github.com/heraldhq/herald/internal/console/clients"
)

// ConsolePrincipal is the caller of a management API (/v1) route: a console session, or
// a CLI token acting for its creator on one client.
type ConsolePrincipal struct {
	// Session is zero for CLI tokens.
	Session console.Principal
	Actor   clients.Actor
}

// ViaToken reports whether the caller used a CLI token.
func (p *ConsolePrincipal) ViaToken() bool { return p.Actor.ViaToken() }

const consoleKey = "herald.console"

// ConsoleOf returns the /v1 caller; routes without console auth have none.
func ConsoleOf(c *fiber.Ctx) *ConsolePrincipal {
	p, _ := c.Locals(consoleKey).(*ConsolePrincipal)
	return p
}

// Bearer returns the token of an "Authorization: Bearer" header, copied.
func Bearer(c *fiber.Ctx) string {
	v := c.Get(fiber.HeaderAuthorization)
	if len(v) > 7 && strings.EqualFold(v[:7], "bearer ") {
		return strings.Clone(strings.TrimSpace(v[7:]))
	}
	return ""
}

// ConsoleAuth builds the /v1 credential middlewares: console access tokens and CLI
// tokens, both sent as "Authorization: Bearer".
type ConsoleAuth struct {
	Console *console.Service
	Clients *clients.Service
}

func (a *ConsoleAuth) authenticate(c *fiber.Ctx, allowToken bool) error {
	tok := Bearer(c)
	if tok == "" {
		return herald.Errorf(herald.EUNAUTHORIZED, "sign in first: send the access token as Authorization: Bearer <token>")
	}
	if strings.HasPrefix(tok, clients.TokenPrefix) {
		if !allowToken {
			return herald.Errorf(herald.EFORBIDDEN, "CLI tokens are not accepted here: this route needs a console session")
		}
		actor, err := a.Clients.AuthenticateToken(c.UserContext(), tok)
		if err != nil {
			return err
		}
		c.Locals(consoleKey, &ConsolePrincipal{Actor: actor})
		return c.Next()
	}
	p, err := a.Console.Authenticate(c.UserContext(), tok)
	if err != nil {
		return err
	}
	c.Locals(consoleKey, &ConsolePrincipal{Session: p, Actor: clients.Actor{UserID: p.UserID}})
	return c.Next()
}

// Session requires a console session (account and security routes).
func (a *ConsoleAuth) Session() fiber.Handler {
	return func(c *fiber.Ctx) error { return a.authenticate(c, false) }
}

// Member requires a console session or a CLI token (client-scoped routes; the handler
// checks the role on the client owning the resource).
func (a *ConsoleAuth) Member() fiber.Handler {
	return func(c *fiber.Ctx) error { return a.authenticate(c, true) }
}
