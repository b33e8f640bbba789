package v1

import (
	_ "embed"

	"github.com/gofiber/fiber/v2"
)

// Document is the OpenAPI 3.1 document of the management API, served as is at
// /v1/openapi.json. It is written by hand in openapi.json; tests check that it lists the
// routes of the router, that kin-openapi accepts it, and (through stacktest) that every
// request and response of the handler tests matches it.
//
//go:embed openapi.json
var Document []byte

// OpenAPI serves the document at /v1/openapi.json; it needs no credentials.
type OpenAPI struct{}

// Register mounts the document.
func (OpenAPI) Register(r fiber.Router) {
	r.Get("/openapi.json", func(c *fiber.Ctx) error {
		c.Set(fiber.HeaderContentType, fiber.MIMEApplicationJSONCharsetUTF8)
		return c.Send(Document)
	})
}
