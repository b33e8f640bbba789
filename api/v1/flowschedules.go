package v1

import (
	"github.com/gofiber/fiber/v2"

	herald "github.com/heraldhq/herald"
)

// The console's view of flow schedules (recurring triggers of published workflows): the
// same service as /v3/workflows/schedules, behind a console session and the app's roles.

// listFlowSchedules lists the app's flow schedules, oldest first.
func (h *Configuration) listFlowSchedules(c *fiber.Ctx, s appScope) error {
	list, err := h.FlowSchedules.List(c.UserContext(), s.AppID)
	if err != nil {
		return err
	}
	return c.JSON(list)
}

// createFlowSchedule adds a flow schedule {workflow, cron, timezone, sendTo, data}: 201.
func (h *Configuration) createFlowSchedule(c *fiber.Ctx, s appScope) error {
	r, err := h.FlowSchedules.Create(c.UserContext(), s.AppID, c.Body())
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(r)
}

// updateFlowSchedule pauses or resumes a flow schedule ({paused: bool}).
func (h *Configuration) updateFlowSchedule(c *fiber.Ctx, s appScope) error {
	var p herald.Problems
	id := pathID(c, "scheduleId", &p)
	b, err := readBody(c)
	if err != nil {
		return err
	}
	paused := b.boolean("paused")
	if paused == nil && len(b.p) == 0 {
		b.p.Addf("paused must be a boolean")
	}
	if err := append(p, b.p...).Err(); err != nil {
		return err
	}
	r, err := h.FlowSchedules.SetPaused(c.UserContext(), s.AppID, id, *paused)
	if err != nil {
		return err
	}
	return c.JSON(r)
}

// deleteFlowSchedule removes a flow schedule and its Temporal Schedule.
func (h *Configuration) deleteFlowSchedule(c *fiber.Ctx, s appScope) error {
	var p herald.Problems
	id := pathID(c, "scheduleId", &p)
	if err := p.Err(); err != nil {
		return err
	}
	if err := h.FlowSchedules.Delete(c.UserContext(), s.AppID, id); err != nil {
		return err
	}
	return c.JSON(true)
}
