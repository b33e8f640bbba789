package web

import (
	"context"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"
)

// RequestTimeout gives each request's context a deadline of d (HERALD_REQUEST_TIMEOUT), so
// a request waiting on a stalled dependency, such as a database that stopped answering,
// ends with 503 instead of hanging. The deadline's context is cancelled when the handler
// returns, so routes whose body is written later through that context (Server-Sent Events,
// WebSockets, a file streamed from object storage) are listed as stream prefixes and keep
// no deadline. A d of zero disables it.
func RequestTimeout(d time.Duration, streams ...string) fiber.Handler {
	return func(c *fiber.Ctx) error {
		if d <= 0 {
			return c.Next()
		}
		path := c.Path()
		for _, s := range streams {
			if strings.HasPrefix(path, s) {
				return c.Next()
			}
		}
		ctx, cancel := context.WithTimeout(c.UserContext(), d)
		defer cancel()
		c.SetUserContext(ctx)
		return c.Next()
	}
}
