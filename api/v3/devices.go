package v3

import (
	"github.com/gofiber/fiber/v2"

	"github.com/heraldhq/herald/api/web"
)

// connect registers the caller's device and describes the app to it.
func (h *Handlers) connect(c *fiber.Ctx) error {
	p := web.PrincipalOf(c)
	conn, err := h.Devices.Connect(c.UserContext(), p.App, p.UserID, p.DeviceID, c.Body())
	if err != nil {
		return err
	}
	return c.JSON(conn)
}

// saveWebPushSubscription stores a browser PushSubscription for one of the caller's devices.
func (h *Handlers) saveWebPushSubscription(c *fiber.Ctx) error {
	p := web.PrincipalOf(c)
	deviceID, err := pathString(c, "deviceId")
	if err != nil {
		return err
	}
	sub, err := h.Devices.SaveWebPush(c.UserContext(), p.App.ID, p.UserID, deviceID, c.Body())
	if err != nil {
		return err
	}
	return c.JSON(sub)
}
