package web

import (
	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"
)

const requestIDKey = "herald.requestId"

// RequestIDHeader carries the request id in and out.
const RequestIDHeader = "X-Request-Id"

// RequestIDMiddleware gives every request an id (the caller's X-Request-Id when sane), echoed
// in the response and attached to log lines and 5xx bodies.
func RequestIDMiddleware(c *fiber.Ctx) error {
	id := c.Get(RequestIDHeader)
	if id == "" || len(id) > 64 {
		id = uuid.NewString()
	} else {
		id = string([]byte(id)) // copy: fasthttp reuses the header buffer
	}
	c.Locals(requestIDKey, id)
	c.Set(RequestIDHeader, id)
	return c.Next()
}

// RequestID returns the id of the current request.
func RequestID(c *fiber.Ctx) string {
	id, _ := c.Locals(requestIDKey).(string)
	return id
}
