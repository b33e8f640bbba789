package v3

import (
	"bytes"
	"encoding/json"

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

// sendJSON answers with a stored JSON document, compacted like every other answer.
func sendJSON(c *fiber.Ctx, doc []byte) error {
	var buf bytes.Buffer
	if err := json.Compact(&buf, doc); err != nil {
		return err
	}
	c.Set(fiber.HeaderContentType, fiber.MIMEApplicationJSON)
	return c.Send(buf.Bytes())
}
