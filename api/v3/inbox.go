package v3

import (
	"math"
	"time"

	"github.com/gofiber/fiber/v2"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/api/web"
	"github.com/heraldhq/herald/internal/inbox"
)

// getNotification returns one notification of the caller's inbox and marks it seen.
func (h *Handlers) getNotification(c *fiber.Ctx) error {
	return h.changeNotification(c, func(p *web.Principal, id int64) (inbox.Notification, error) {
		return h.Inbox.Get(c.UserContext(), p.App.ID, p.UserID, id)
	})
}

// deleteNotification removes one notification from the caller's inbox.
func (h *Handlers) deleteNotification(c *fiber.Ctx) error {
	p := web.PrincipalOf(c)
	id, err := pathID(c, "notificationId")
	if err != nil {
		return err
	}
	if err := h.Inbox.Delete(c.UserContext(), p.App.ID, p.UserID, id); err != nil {
		return err
	}
	return deleted(c, "notification")
}

// applyChange answers a route that applies a fixed change to one notification.
func (h *Handlers) applyChange(change inbox.Change) fiber.Handler {
	return func(c *fiber.Ctx) error {
		return h.changeNotification(c, func(p *web.Principal, id int64) (inbox.Notification, error) {
			return h.Inbox.Apply(c.UserContext(), p.App.ID, p.UserID, id, change)
		})
	}
}

// setState sets a notification's state from the body {state}.
func (h *Handlers) setState(c *fiber.Ctx) error {
	change, err := inbox.ParseStateChange(c.Body())
	if err != nil {
		return err
	}
	return h.changeNotification(c, func(p *web.Principal, id int64) (inbox.Notification, error) {
		return h.Inbox.Apply(c.UserContext(), p.App.ID, p.UserID, id, change)
	})
}

// snooze hides a notification of the caller's inbox until the body's {until}.
func (h *Handlers) snooze(c *fiber.Ctx) error {
	id, err := pathID(c, "notificationId")
	if err != nil {
		return err
	}
	until, err := inbox.ParseSnooze(c.Body(), time.Now())
	if err != nil {
		return err
	}
	p := web.PrincipalOf(c)
	out, err := h.Inbox.Snooze(c.UserContext(), p.App.ID, p.UserID, id, until)
	if err != nil {
		return err
	}
	return c.JSON(out)
}

// unsnooze brings a snoozed notification of the caller's inbox back now, unread.
func (h *Handlers) unsnooze(c *fiber.Ctx) error {
	return h.changeNotification(c, func(p *web.Principal, id int64) (inbox.Notification, error) {
		return h.Inbox.Unsnooze(c.UserContext(), p.App.ID, p.UserID, id)
	})
}

// changeNotification runs a change of the notification named by the path and answers it.
func (h *Handlers) changeNotification(c *fiber.Ctx, change func(*web.Principal, int64) (inbox.Notification, error)) error {
	id, err := pathID(c, "notificationId")
	if err != nil {
		return err
	}
	n, err := change(web.PrincipalOf(c), id)
	if err != nil {
		return err
	}
	return c.JSON(n)
}

// markAllSeen marks a page of the inbox seen; without page and limit (deprecated) the
// newest 15 unseen notifications.
func (h *Handlers) markAllSeen(c *fiber.Ctx) error {
	p := web.PrincipalOf(c)
	page, err := pageRef(c)
	if err != nil {
		return err
	}
	if page == nil {
		c.Set("Deprecation", "true")
	}
	res, err := h.Inbox.MarkAllSeen(c.UserContext(), p.App.ID, p.UserID, page)
	if err != nil {
		return err
	}
	return c.JSON(res)
}

// markAllRead marks a page of the inbox read; without page and limit every notification.
func (h *Handlers) markAllRead(c *fiber.Ctx) error {
	p := web.PrincipalOf(c)
	page, err := pageRef(c)
	if err != nil {
		return err
	}
	res, err := h.Inbox.MarkAllRead(c.UserContext(), p.App.ID, p.UserID, page)
	if err != nil {
		return err
	}
	return c.JSON(res)
}

// markAllDeleted empties the caller's inbox.
func (h *Handlers) markAllDeleted(c *fiber.Ctx) error {
	p := web.PrincipalOf(c)
	res, err := h.Inbox.MarkAllDeleted(c.UserContext(), p.App.ID, p.UserID)
	if err != nil {
		return err
	}
	return c.JSON(res)
}

// pageRef reads the optional page and limit query parameters of the bulk marks; they come
// together or not at all.
func pageRef(c *fiber.Ctx) (*inbox.PageRef, error) {
	hasPage, hasLimit := c.Query("page") != "", c.Query("limit") != ""
	var probs herald.Problems
	ref := inbox.PageRef{
		Page:  web.QueryInt(c, "page", 1, 1, math.MaxInt32/inbox.MaxLimit, &probs),
		Limit: web.QueryInt(c, "limit", inbox.DefaultLimit, 1, inbox.MaxLimit, &probs),
	}
	if hasPage != hasLimit {
		probs.Addf("page and limit must be given together")
	}
	if err := probs.Err(); err != nil {
		return nil, err
	}
	if !hasPage {
		return nil, nil
	}
	return &ref, nil
}
