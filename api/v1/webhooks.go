package v1

import (
	"slices"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/api/web"
	"github.com/heraldhq/herald/internal/console/clients"
	"github.com/heraldhq/herald/internal/platform/jsonshape"
	"github.com/heraldhq/herald/internal/webhooks"
)

// Webhooks holds the handlers of an app's event webhook endpoints and their delivery log.
// Reading needs the viewer role on the app's client, changing the developer role.
type Webhooks struct {
	*Console
	Webhooks *webhooks.Service
}

// Register mounts the routes on r (the /v1 group).
func (h *Webhooks) Register(r fiber.Router) {
	member := h.Auth.Member()
	view, dev := clients.Viewer, clients.Developer
	r.Get("/apps/:appId/webhooks", member, h.app(view, h.list))
	r.Post("/apps/:appId/webhooks", member, h.app(dev, h.create))
	r.Get("/apps/:appId/webhooks/:webhookId", member, h.app(view, h.endpoint(h.get)))
	r.Patch("/apps/:appId/webhooks/:webhookId", member, h.app(dev, h.endpoint(h.update)))
	r.Delete("/apps/:appId/webhooks/:webhookId", member, h.app(dev, h.endpoint(h.remove)))
	r.Post("/apps/:appId/webhooks/:webhookId/rotate-secret", member, h.app(dev, h.endpoint(h.rotate)))
	r.Get("/apps/:appId/webhooks/:webhookId/deliveries", member, h.app(view, h.endpoint(h.deliveries)))
	r.Post("/apps/:appId/webhooks/:webhookId/deliveries/:deliveryId/resend", member, h.app(dev, h.endpoint(h.resend)))
	r.Post("/apps/:appId/webhooks/:webhookId/replay", member, h.app(dev, h.endpoint(h.replay)))
	r.Get("/apps/:appId/webhook-deliveries", member, h.app(view, h.appDeliveries))
}

// endpoint reads the :webhookId of an app's route.
func (h *Webhooks) endpoint(fn func(*fiber.Ctx, appScope, int64) error) func(*fiber.Ctx, appScope) error {
	return func(c *fiber.Ctx, s appScope) error {
		var p herald.Problems
		id := pathID(c, "webhookId", &p)
		if err := p.Err(); err != nil {
			return err
		}
		return fn(c, s, id)
	}
}

func (h *Webhooks) list(c *fiber.Ctx, s appScope) error {
	list, err := h.Webhooks.List(c.UserContext(), s.AppID)
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{"data": list})
}

// create adds an endpoint; the answer carries its secret, shown this once.
func (h *Webhooks) create(c *fiber.Ctx, s appScope) error {
	e, err := h.Webhooks.Create(c.UserContext(), s.AppID, c.Body())
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(e)
}

func (h *Webhooks) get(c *fiber.Ctx, s appScope, id int64) error {
	e, err := h.Webhooks.Get(c.UserContext(), s.AppID, id)
	if err != nil {
		return err
	}
	return c.JSON(e)
}

func (h *Webhooks) update(c *fiber.Ctx, s appScope, id int64) error {
	e, err := h.Webhooks.Update(c.UserContext(), s.AppID, id, c.Body())
	if err != nil {
		return err
	}
	return c.JSON(e)
}

func (h *Webhooks) remove(c *fiber.Ctx, s appScope, id int64) error {
	if err := h.Webhooks.Delete(c.UserContext(), s.AppID, id); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}

// rotate gives the endpoint a new secret (shown this once); the old one keeps signing for
// the grace period.
func (h *Webhooks) rotate(c *fiber.Ctx, s appScope, id int64) error {
	e, err := h.Webhooks.Rotate(c.UserContext(), s.AppID, id)
	if err != nil {
		return err
	}
	return c.JSON(e)
}

func (h *Webhooks) deliveries(c *fiber.Ctx, s appScope, id int64) error {
	return h.deliveryPage(c, s, id)
}

func (h *Webhooks) appDeliveries(c *fiber.Ctx, s appScope) error {
	return h.deliveryPage(c, s, 0)
}

// deliveryPage answers a page of the delivery log: status, before (a delivery id), limit.
func (h *Webhooks) deliveryPage(c *fiber.Ctx, s appScope, endpointID int64) error {
	var p herald.Problems
	status := c.Query("status")
	if status != "" && !slices.Contains(webhooks.DeliveryStatuses, status) {
		p.Addf("status must be one of %s", strings.Join(webhooks.DeliveryStatuses, ", "))
	}
	before := web.QueryInt(c, "before", 0, 0, 1<<53, &p)
	limit := web.QueryInt(c, "limit", 50, 1, 200, &p)
	if err := p.Err(); err != nil {
		return err
	}
	page, err := h.Webhooks.Deliveries(c.UserContext(), s.AppID, endpointID, strings.Clone(status), int64(before), limit)
	if err != nil {
		return err
	}
	return c.JSON(page)
}

// resend queues one delivery again with its webhook-id.
func (h *Webhooks) resend(c *fiber.Ctx, s appScope, id int64) error {
	var p herald.Problems
	deliveryID := pathID(c, "deliveryId", &p)
	if err := p.Err(); err != nil {
		return err
	}
	d, err := h.Webhooks.Resend(c.UserContext(), s.AppID, id, deliveryID)
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusAccepted).JSON(d)
}

// replay queues again every delivery of the endpoint since a time ({"since": RFC 3339}).
func (h *Webhooks) replay(c *fiber.Ctx, s appScope, id int64) error {
	f := jsonshape.Fields(c.Body())
	if f == nil {
		return herald.Invalid("body must be a JSON object")
	}
	raw, ok := jsonshape.String(f["since"])
	since, err := time.Parse(time.RFC3339Nano, raw)
	if !ok || err != nil {
		return herald.Invalid("since must be an RFC 3339 date-time")
	}
	n, err := h.Webhooks.Replay(c.UserContext(), s.AppID, id, since)
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusAccepted).JSON(fiber.Map{"queued": n})
}
