package api

import (
	"context"
	"slices"
	"time"

	"github.com/gofiber/fiber/v2"

	v1 "github.com/heraldhq/herald/api/v1"
)

// Probes answer the orchestrator's probes at the root of the API listener, public like
// /v1/health: /livez says the process serves HTTP and asks no dependency (restart it only
// when this fails), /readyz says whether it should receive traffic. Not ready (503) while
// it drains after SIGTERM or while a dependency of the health document (Postgres,
// Temporal) does not answer. The reasons name the dependency only: error texts stay in
// /v1/health.
type Probes struct {
	Checks map[string]v1.Check
	// Draining reports that the process is shutting down; nil: never.
	Draining func() bool
}

// ReadyTimeout bounds the dependency checks of one /readyz.
const ReadyTimeout = 2 * time.Second

// Register mounts /livez and /readyz on r (the app's root).
func (p *Probes) Register(r fiber.Router) {
	r.Get("/livez", p.live)
	r.Get("/readyz", p.ready)
}

func (p *Probes) live(c *fiber.Ctx) error {
	c.Set(fiber.HeaderCacheControl, "no-store")
	return c.JSON(fiber.Map{"status": "alive"})
}

func (p *Probes) ready(c *fiber.Ctx) error {
	c.Set(fiber.HeaderCacheControl, "no-store")
	reasons := []string{}
	if p.Draining != nil && p.Draining() {
		reasons = append(reasons, "draining: the process is shutting down")
	} else {
		ctx, cancel := context.WithTimeout(c.UserContext(), ReadyTimeout)
		defer cancel()
		for name, check := range p.Checks {
			if err := check(ctx); err != nil {
				reasons = append(reasons, name+": unreachable")
			}
		}
		slices.Sort(reasons)
	}
	if len(reasons) > 0 {
		return c.Status(fiber.StatusServiceUnavailable).JSON(fiber.Map{"status": "not ready", "reasons": reasons})
	}
	return c.JSON(fiber.Map{"status": "ready", "reasons": reasons})
}
