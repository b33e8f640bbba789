package v3

import (
	"github.com/gofiber/fiber/v2"

	"github.com/heraldhq/herald/api/web"
)

// getPreferences returns the caller's switches per category and channel.
func (h *Handlers) getPreferences(c *fiber.Ctx) error {
	p := web.PrincipalOf(c)
	prefs, err := h.Prefs.Get(c.UserContext(), p.App.ID, p.UserID)
	if err != nil {
		return err
	}
	return c.JSON(prefs)
}

// patchPreferences sets some of the caller's switches; the answer is a string (docs/decisions.md#preferences).
func (h *Handlers) patchPreferences(c *fiber.Ctx) error {
	p := web.PrincipalOf(c)
	if err := h.Prefs.Update(c.UserContext(), p.App.ID, p.UserID, c.Body()); err != nil {
		return err
	}
	return c.JSON("preferences updated")
}

// getChannelPreferences returns the caller's switch for every channel as a whole.
func (h *Handlers) getChannelPreferences(c *fiber.Ctx) error {
	p := web.PrincipalOf(c)
	out, err := h.Prefs.Channels(c.UserContext(), p.App.ID, p.UserID)
	if err != nil {
		return err
	}
	return c.JSON(out)
}

// putChannelPreferences sets some of the caller's channel switches ({"sms": false}) and
// answers all of them.
func (h *Handlers) putChannelPreferences(c *fiber.Ctx) error {
	p := web.PrincipalOf(c)
	out, err := h.Prefs.SetChannels(c.UserContext(), p.App.ID, p.UserID, c.Body())
	if err != nil {
		return err
	}
	return c.JSON(out)
}

// getFlowPreferences returns the caller's switches per workflow.
func (h *Handlers) getFlowPreferences(c *fiber.Ctx) error {
	p := web.PrincipalOf(c)
	out, err := h.Prefs.Flows(c.UserContext(), p.App.ID, p.UserID)
	if err != nil {
		return err
	}
	return c.JSON(out)
}

// patchFlowPreferences sets some of the caller's switches per workflow and answers all.
func (h *Handlers) patchFlowPreferences(c *fiber.Ctx) error {
	p := web.PrincipalOf(c)
	if err := h.Prefs.SetFlows(c.UserContext(), p.App.ID, p.UserID, c.Body()); err != nil {
		return err
	}
	return h.getFlowPreferences(c)
}

// getQuietHours returns the caller's quiet hours and time zone.
func (h *Handlers) getQuietHours(c *fiber.Ctx) error {
	p := web.PrincipalOf(c)
	out, err := h.Prefs.QuietHours(c.UserContext(), p.App.ID, p.UserID)
	if err != nil {
		return err
	}
	return c.JSON(out)
}

// putQuietHours replaces the caller's quiet hours ({"enabled": false} removes them) and
// answers them.
func (h *Handlers) putQuietHours(c *fiber.Ctx) error {
	p := web.PrincipalOf(c)
	out, err := h.Prefs.SetQuietHours(c.UserContext(), p.App.ID, p.UserID, c.Body())
	if err != nil {
		return err
	}
	return c.JSON(out)
}
