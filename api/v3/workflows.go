package v3

import (
	"log/slog"

	"github.com/gofiber/fiber/v2"

	"github.com/heraldhq/herald/api/web"
	"github.com/heraldhq/herald/flows"
)

// Workflows are the services behind /v3/workflows: cancelling runs by key and recurring
// triggers of published workflows.
type Workflows struct {
	Flows     *flows.Service
	Recurring *flows.RecurringService
	// Canceler cancels Temporal runs (the Temporal client).
	Canceler flows.Canceler
	Log      *slog.Logger
}

// cancelWorkflows cancels the running runs started with a cancellation key, optionally of
// some recipients only: {cancelled, failed}.
func (h *Handlers) cancelWorkflows(c *fiber.Ctx) error {
	w := h.Workflows
	out, err := w.Flows.CancelByKey(c.UserContext(), web.PrincipalOf(c).App.ID, c.Body(), w.Canceler, w.Log)
	if err != nil {
		return err
	}
	return c.JSON(out)
}

// createRecurring adds a recurring trigger of a published workflow: 201 with it.
func (h *Handlers) createRecurring(c *fiber.Ctx) error {
	r, err := h.Workflows.Recurring.Create(c.UserContext(), web.PrincipalOf(c).App.ID, c.Body())
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(r)
}

// listRecurring returns the app's recurring triggers.
func (h *Handlers) listRecurring(c *fiber.Ctx) error {
	rs, err := h.Workflows.Recurring.List(c.UserContext(), web.PrincipalOf(c).App.ID)
	if err != nil {
		return err
	}
	return c.JSON(rs)
}

// deleteRecurring removes a recurring trigger and its schedule.
func (h *Handlers) deleteRecurring(c *fiber.Ctx) error {
	id, err := pathID(c, "scheduleId")
	if err != nil {
		return err
	}
	if err := h.Workflows.Recurring.Delete(c.UserContext(), web.PrincipalOf(c).App.ID, id); err != nil {
		return err
	}
	return deleted(c, "recurring schedule")
}
