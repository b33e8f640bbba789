// Package v1 holds the handlers of the management API (/v1).
package v1

import (
	"context"
	"time"

	"github.com/gofiber/fiber/v2"
)

// Check reports whether one dependency answers.
type Check func(ctx context.Context) error

// Health reports the status of Herald's dependencies.
type Health struct {
	Checks map[string]Check
}

type component struct {
	Status string `json:"status"`
	Error  string `json:"error,omitempty"`
}

// get answers 200 when every dependency is up and 503 otherwise, with a status per
// dependency. Error texts name the dependency's problem, never credentials.
func (h *Health) get(c *fiber.Ctx) error {
	ctx, cancel := context.WithTimeout(c.UserContext(), 3*time.Second)
	defer cancel()
	out := fiber.Map{}
	status, code := "ok", fiber.StatusOK
	for name, check := range h.Checks {
		if err := check(ctx); err != nil {
			out[name] = component{Status: "down", Error: err.Error()}
			status, code = "degraded", fiber.StatusServiceUnavailable
			continue
		}
		out[name] = component{Status: "up"}
	}
	out["status"] = status
	return c.Status(code).JSON(out)
}

// Register mounts the management API on r (the /v1 group).
func (h *Health) Register(r fiber.Router) {
	r.Get("/health", h.get)
}
