package web

import (
	"strconv"

	"github.com/gofiber/fiber/v2"

	herald "github.com/heraldhq/herald"
)

// QueryInt reads an optional integer query parameter within [min, max], recording a problem
// when it is not a number or out of range.
func QueryInt(c *fiber.Ctx, name string, def, min, max int, p *herald.Problems) int {
	raw := c.Query(name)
	if raw == "" {
		return def
	}
	n, err := strconv.Atoi(raw)
	switch {
	case err != nil:
		p.Addf("%s must be an integer number", name)
		return def
	case n < min:
		p.Addf("%s must not be less than %d", name, min)
		return def
	case n > max:
		p.Addf("%s must not be greater than %d", name, max)
		return def
	}
	return n
}
