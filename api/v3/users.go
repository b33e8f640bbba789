package v3

import (
	"github.com/gofiber/fiber/v2"

	"github.com/heraldhq/herald/api/web"
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

// deleteUser deletes a user with everything it owns.
func (h *Handlers) deleteUser(c *fiber.Ctx) error {
	identifier, err := pathString(c, "identifier")
	if err != nil {
		return err
	}
	if err := h.Users.Delete(c.UserContext(), web.PrincipalOf(c).App.ID, identifier); err != nil {
		return err
	}
	return deleted(c, "user")
}
