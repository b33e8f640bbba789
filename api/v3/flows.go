package v3

import (
	"log/slog"

	"github.com/gofiber/fiber/v2"

	"github.com/heraldhq/herald/api/web"
	"github.com/heraldhq/herald/internal/flow"
)

// Workflows are the services behind /v3/workflows: cancelling runs by key and recurring
// triggers of published workflows.
type Workflows struct {
	Flows     *flow.Service
	Schedules *flow.ScheduleService
	// Canceler cancels Temporal runs (the Temporal client).
	Canceler flow.Canceler
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

// createFlowSchedule adds a flow schedule of a published workflow: 201 with it.
func (h *Handlers) createFlowSchedule(c *fiber.Ctx) error {
	r, err := h.Workflows.Schedules.Create(c.UserContext(), web.PrincipalOf(c).App.ID, c.Body())
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(r)
}

// listFlowSchedules returns the app's flow schedules.
func (h *Handlers) listFlowSchedules(c *fiber.Ctx) error {
	rs, err := h.Workflows.Schedules.List(c.UserContext(), web.PrincipalOf(c).App.ID)
	if err != nil {
		return err
	}
	return c.JSON(rs)
}

// deleteFlowSchedule removes a flow schedule and its schedule.
func (h *Handlers) deleteFlowSchedule(c *fiber.Ctx) error {
	id, err := pathID(c, "scheduleId")
	if err != nil {
		return err
	}
	if err := h.Workflows.Schedules.Delete(c.UserContext(), web.PrincipalOf(c).App.ID, id); err != nil {
		return err
	}
	return deleted(c, "recurring schedule")
}
