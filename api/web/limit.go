package web

import (
	"github.com/gofiber/fiber/v2"

	herald "github.com/heraldhq/herald"
)

// TransportBodyLimit is the most the HTTP server reads of any body. Routes enforce their own,
// smaller limits with BodyLimit: a body read in full can be refused with a clean 413, while
// one cut off by the server would reset the connection before the client sees the answer.
const TransportBodyLimit = 16 << 20

// BodyLimit refuses bodies over n bytes with 413.
func BodyLimit(n int) fiber.Handler {
	return func(c *fiber.Ctx) error {
		if len(c.Body()) > n {
			return herald.Errorf(herald.ETOOLARGE, "request body too large: the limit is %d bytes", n)
		}
		return c.Next()
	}
}
