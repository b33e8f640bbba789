package v1

import (
	"github.com/gofiber/fiber/v2"
)

// getRetention answers the app's retention per kind of data, with the defaults.
func (h *Console) getRetention(c *fiber.Ctx, s appScope) error {
	v, err := h.Retention.Get(c.UserContext(), s.AppID)
	if err != nil {
		return err
	}
	return c.JSON(v)
}

// putRetention changes some of the app's retention settings ({"messageLogs": 30}; null
// returns a kind to its default) and answers them all.
func (h *Console) putRetention(c *fiber.Ctx, s appScope) error {
	v, err := h.Retention.Update(c.UserContext(), s.AppID, c.Body())
	if err != nil {
		return err
	}
	return c.JSON(v)
}
