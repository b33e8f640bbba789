// Package v3 holds the handlers of the developer API (/v3). Handlers parse and shape; the
// services hold the rules.
package v3

import (
	"math"

	"github.com/gofiber/fiber/v2"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/api/web"
	"github.com/heraldhq/herald/internal/inbox"
)

// sendNotification accepts a send request: 202 {requestId} once it is in the outbox.
func (h *Handlers) sendNotification(c *fiber.Ctx) error {
	p := web.PrincipalOf(c)
	id, err := h.Notify.Accept(c.UserContext(), p.App.ID, c.Body(), c.Get("Idempotency-Key"))
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusAccepted).JSON(fiber.Map{"requestId": id.String()})
}

// listNotifications returns a page of the caller's inbox.
func (h *Handlers) listNotifications(c *fiber.Ctx) error {
	p := web.PrincipalOf(c)
	var probs herald.Problems
	q := inbox.ListQuery{
		PageNo:   web.QueryInt(c, "pageNo", 1, 1, math.MaxInt32/inbox.MaxLimit, &probs),
		Limit:    web.QueryInt(c, "limit", inbox.DefaultLimit, 1, inbox.MaxLimit, &probs),
		Filter:   c.Query("filter"),
		Category: c.Query("category"),
	}
	if q.Check(&probs); probs.Err() != nil {
		return probs.Err()
	}
	page, err := h.Inbox.List(c.UserContext(), p.App.ID, p.UserID, q)
	if err != nil {
		return err
	}
	c.Set(fiber.HeaderContentType, fiber.MIMEApplicationJSON)
	c.Response().SetBodyRaw(page.AppendJSON(make([]byte, 0, 512+len(page.Data)*512)))
	return nil
}
