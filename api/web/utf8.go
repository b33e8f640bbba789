package web

import (
	"strings"
	"unicode/utf8"

	"github.com/gofiber/fiber/v2"

	herald "github.com/heraldhq/herald"
)

// InvalidTextMessage is the 400 for text Postgres cannot store: bodies with invalid UTF-8
// and NUL characters (found by the store) get the same answer.
const InvalidTextMessage = "text must be valid UTF-8 without NUL characters"

// RequireUTF8 refuses a request body that is not valid UTF-8 with 400, before any handler
// reads it. JSON decoders would otherwise turn each bad byte into U+FFFD and store the
// mangled text. Multipart bodies (uploads) carry binary files and are left to their
// handlers. One pass over the body: cheap next to parsing it.
func RequireUTF8(c *fiber.Ctx) error {
	body := c.Body()
	if len(body) == 0 || utf8.Valid(body) {
		return c.Next()
	}
	if strings.HasPrefix(strings.ToLower(c.Get(fiber.HeaderContentType)), "multipart/") {
		return c.Next()
	}
	return herald.Invalid(InvalidTextMessage)
}
