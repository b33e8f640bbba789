package v3

import (
	"github.com/gofiber/fiber/v2"

	"github.com/heraldhq/herald/api/web"
)

// listCategories returns the app's categories.
func (h *Handlers) listCategories(c *fiber.Ctx) error {
	cats, err := h.Categories.List(c.UserContext(), web.PrincipalOf(c).App.ID)
	if err != nil {
		return err
	}
	return c.JSON(cats)
}

// createCategory adds a category.
func (h *Handlers) createCategory(c *fiber.Ctx) error {
	cat, err := h.Categories.Create(c.UserContext(), web.PrincipalOf(c).App.ID, c.Body())
	if err != nil {
		return err
	}
	return c.JSON(cat)
}

// deleteCategory removes a category.
func (h *Handlers) deleteCategory(c *fiber.Ctx) error {
	id, err := pathID(c, "categoryId")
	if err != nil {
		return err
	}
	if err := h.Categories.Delete(c.UserContext(), web.PrincipalOf(c).App.ID, id); err != nil {
		return err
	}
	return deleted(c, "category")
}
