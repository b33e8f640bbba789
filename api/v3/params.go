package v3

import (
	"net/url"
	"strconv"
	"strings"

	"github.com/gofiber/fiber/v2"

	herald "github.com/heraldhq/herald"
)

// pathID reads a positive integer path parameter; anything else is a 400.
func pathID(c *fiber.Ctx, name string) (int64, error) {
	id, err := strconv.ParseInt(c.Params(name), 10, 64)
	if err != nil || id < 1 {
		return 0, herald.Invalid(name + " must be a positive integer number")
	}
	return id, nil
}

// pathString reads a path parameter, percent-decoded (identifiers may hold any character)
// and copied out of Fiber's buffers.
func pathString(c *fiber.Ctx, name string) (string, error) {
	v, err := url.PathUnescape(c.Params(name))
	if err != nil {
		return "", herald.Invalid(name + " must be a valid percent-encoded path segment")
	}
	return strings.Clone(v), nil
}

// deleted is the answer of the delete routes: {statusCode, message}.
func deleted(c *fiber.Ctx, what string) error {
	return c.JSON(fiber.Map{"statusCode": fiber.StatusOK, "message": what + " deleted"})
}
