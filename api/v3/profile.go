package v3

import (
	"github.com/gofiber/fiber/v2"

	"github.com/heraldhq/herald/api/web"
)

// getProfile returns the caller's profile.
func (h *Handlers) getProfile(c *fiber.Ctx) error {
	p := web.PrincipalOf(c)
	profile, err := h.Users.Profile(c.UserContext(), p.App.ID, p.UserID)
	if err != nil {
		return err
	}
	return sendJSON(c, profile)
}

// putProfile merges the body's keys into the caller's profile.
func (h *Handlers) putProfile(c *fiber.Ctx) error {
	p := web.PrincipalOf(c)
	profile, err := h.Users.MergeProfile(c.UserContext(), p.App.ID, p.UserID, c.Body())
	if err != nil {
		return err
	}
	return sendJSON(c, profile)
}

// patchProfile applies a JSON Patch to the caller's profile.
func (h *Handlers) patchProfile(c *fiber.Ctx) error {
	p := web.PrincipalOf(c)
	profile, err := h.Users.PatchProfile(c.UserContext(), p.App.ID, p.UserID, c.Body())
	if err != nil {
		return err
	}
	return sendJSON(c, profile)
}

// sendJSON answers with a JSON document as it is stored.
func sendJSON(c *fiber.Ctx, doc []byte) error {
	c.Set(fiber.HeaderContentType, fiber.MIMEApplicationJSON)
	return c.Send(doc)
}
