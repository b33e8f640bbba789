package web

import (
	"strings"

	"github.com/gofiber/fiber/v2"
)

// BodyLimitExcept is BodyLimit for every request but POSTs to the given paths (uploads),
// whose routes apply their own, larger limits.
func BodyLimitExcept(n int, paths ...string) fiber.Handler {
	limit := BodyLimit(n)
	return func(c *fiber.Ctx) error {
		if c.Method() == fiber.MethodPost {
			for _, p := range paths {
				if strings.TrimRight(c.Path(), "/") == p {
					return c.Next()
				}
			}
		}
		return limit(c)
	}
}
