package v3

import (
	"github.com/gofiber/fiber/v2"

	"github.com/heraldhq/herald/api/web"
	"github.com/heraldhq/herald/internal/lifecycle/erasure"
)

// createUser creates a user (or merges the profile of an existing one).
func (h *Handlers) createUser(c *fiber.Ctx) error {
	u, err := h.Users.Create(c.UserContext(), web.PrincipalOf(c).App.ID, c.Body())
	if err != nil {
		return err
	}
	return c.JSON(u)
}

// putUser creates the user named by the path or merges the body into its profile.
func (h *Handlers) putUser(c *fiber.Ctx) error {
	identifier, err := pathString(c, "identifier")
	if err != nil {
		return err
	}
	u, err := h.Users.Put(c.UserContext(), web.PrincipalOf(c).App.ID, identifier, c.Body())
	if err != nil {
		return err
	}
	return c.JSON(u)
}

// deleteUser erases a user: everything Herald holds about it (internal/lifecycle/erasure).
// The answer counts what was erased per kind.
func (h *Handlers) deleteUser(c *fiber.Ctx) error {
	identifier, err := pathString(c, "identifier")
	if err != nil {
		return err
	}
	rep, err := h.Erasure.Erase(c.UserContext(), web.PrincipalOf(c).App.ID, identifier, erasure.Actor{Via: "developerApi"})
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{"statusCode": fiber.StatusOK, "message": "user deleted", "erased": rep})
}
