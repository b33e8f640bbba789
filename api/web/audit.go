package web

import (
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/heraldhq/herald/internal/console/audit"
)

// AuditOrigin puts the caller's address (ClientIPOf: the forwarded client behind a
// trusted proxy, the peer otherwise) and user agent into the request's context, where the
// services find them when they record audit events.
func AuditOrigin(c *fiber.Ctx) error {
	c.SetUserContext(audit.WithOrigin(c.UserContext(), audit.Origin{
		IP: ClientIPOf(c), UserAgent: strings.Clone(c.Get(fiber.HeaderUserAgent)),
	}))
	return c.Next()
}
