package v3

import (
	_ "embed"

	"github.com/gofiber/fiber/v2"
)

// OpenAPI is the OpenAPI 3 document of the developer API, kept by hand next to the routes;
// a test fails when the two disagree.
//
//go:embed openapi.json
var OpenAPI []byte

// openAPI serves the document; it needs no credentials.
func (h *Handlers) openAPI(c *fiber.Ctx) error {
	c.Set(fiber.HeaderContentType, fiber.MIMEApplicationJSON)
	return c.Send(OpenAPI)
}
