package v1

import (
	"github.com/gofiber/fiber/v2"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/api/web"
	"github.com/heraldhq/herald/internal/console/appinsights"
	"github.com/heraldhq/herald/internal/console/apps"
	"github.com/heraldhq/herald/internal/console/clients"
	"github.com/heraldhq/herald/internal/delivery/assistant"
	"github.com/heraldhq/herald/internal/delivery/templates"
	"github.com/heraldhq/herald/internal/ops/billing"
	"github.com/heraldhq/herald/internal/ops/license"
	"github.com/heraldhq/herald/internal/ops/usage"
	"github.com/heraldhq/herald/internal/platform/logctx"
	"github.com/heraldhq/herald/internal/send"
)

// Operations holds the handlers of usage, integration status, profile attributes, the
// console's test send, plans, subscriptions, payment methods, invoices, licenses, the
// default email layout, the assistant, and the inbound payment and licensing webhooks.
type Operations struct {
	*Console
	Notify    *send.Service
	Usage     *usage.Reports
	Gate      *usage.Gate
	Insights  *appinsights.Service
	Billing   *billing.Service
	Licenses  *license.Service
	Templates *templates.Service
	Assistant *assistant.Service
}

// Register mounts the routes on r (the /v1 group).
func (h *Operations) Register(r fiber.Router) {
	member := h.Auth.Member()

	r.Get("/apps/:appId/usage", member, h.app(clients.Viewer, h.appUsage))
	r.Get("/apps/:appId/integration-status", member, h.app(clients.Viewer, h.integrationStatus))
	r.Get("/apps/:appId/profile-attributes", member, h.app(clients.Viewer, h.profileAttributes))
	r.Post("/apps/:appId/notifications", member, h.app(clients.Developer, h.testSend))

	r.Get("/clients/:clientId/usage", member, h.client(clients.Viewer, h.clientUsage))
	r.Get("/clients/:clientId/subscription", member, h.client(clients.Viewer, h.getSubscription))
	r.Put("/clients/:clientId/subscription", member, h.client(clients.Admin, h.putSubscription))
	r.Delete("/clients/:clientId/subscription", member, h.client(clients.Admin, h.deleteSubscription))
	r.Delete("/clients/:clientId/subscription/cancellationRequest", member, h.client(clients.Admin, h.withdrawCancellation))
	r.Get("/clients/:clientId/paymentMethods", member, h.client(clients.Admin, h.listPaymentMethods))
	r.Post("/clients/:clientId/paymentMethod/:paymentMethodId/default", member, h.client(clients.Admin, h.setDefaultPaymentMethod))
	r.Delete("/clients/:clientId/paymentMethod/:paymentMethodId", member, h.client(clients.Admin, h.deletePaymentMethod))
	r.Get("/clients/:clientId/setupIntent", member, h.client(clients.Admin, h.setupIntent))
	r.Get("/clients/:clientId/payment_method", member, h.client(clients.Admin, h.defaultPaymentMethod))
	r.Get("/clients/:clientId/invoices", member, h.client(clients.Admin, h.invoices))
	r.Get("/clients/:clientId/license", member, h.client(clients.Viewer, h.getLicense))
	r.Get("/plans", h.plans)

	r.Post("/auth/issue-license", member, h.issueLicense)
	r.Post("/auth/issue-default-layout", member, h.issueDefaultLayout)
	r.Get("/ai", member, h.assistantStatus)
	r.Post("/ai", member, h.draft)

	r.Post("/webhook/payments", h.paymentsWebhook)
	r.Post("/webhook/licensing-server", h.licensingWebhook)
}

// client wraps a handler of /clients/:clientId/...: the caller needs at least min on it;
// other clients are not found.
func (h *Operations) client(min clients.Role, fn func(*fiber.Ctx, int64) error) fiber.Handler {
	return func(c *fiber.Ctx) error {
		id, err := clientID(c)
		if err != nil {
			return err
		}
		if _, err := h.Clients.Access(c.UserContext(), actor(c), id, min); err != nil {
			return err
		}
		logctx.SetClient(c.UserContext(), id)
		return fn(c, id)
	}
}

// callerClient is the client named by the clientId query parameter, or the caller's only
// client; the caller needs at least min on it.
func (h *Operations) callerClient(c *fiber.Ctx, min clients.Role) (int64, error) {
	var id int64
	if c.Query("clientId") != "" {
		var p herald.Problems
		id = int64(web.QueryInt(c, "clientId", 0, 1, 1<<62, &p))
		if err := p.Err(); err != nil {
			return 0, err
		}
	} else {
		var err error
		if id, err = h.Clients.DefaultClient(c.UserContext(), actor(c)); err != nil {
			return 0, err
		}
	}
	if _, err := h.Clients.Access(c.UserContext(), actor(c), id, min); err != nil {
		return 0, err
	}
	logctx.SetClient(c.UserContext(), id)
	return id, nil
}

func (h *Operations) appUsage(c *fiber.Ctx, s appScope) error {
	u, err := h.Usage.App(c.UserContext(), s.AppID)
	if err != nil {
		return err
	}
	return c.JSON(u)
}

func (h *Operations) clientUsage(c *fiber.Ctx, clientID int64) error {
	u, err := h.Usage.Client(c.UserContext(), clientID)
	if err != nil {
		return err
	}
	return c.JSON(u)
}

// integrationStatus is the app (AppEntity) with how far its integration has come.
func (h *Operations) integrationStatus(c *fiber.Ctx, s appScope) error {
	app, err := h.Apps.GetInClient(c.UserContext(), s.ClientID, s.AppID)
	if err != nil {
		return err
	}
	st, err := h.Insights.IntegrationStatus(c.UserContext(), s.AppID)
	if err != nil {
		return err
	}
	return c.JSON(struct {
		apps.Entity
		IntegrationStatus appinsights.Status `json:"integrationStatus"`
	}{app, st})
}

// profileAttributes lists profile keys, or with attribute the values of one key.
func (h *Operations) profileAttributes(c *fiber.Ctx, s appScope) error {
	attr := c.Query("attribute")
	if attr == "" {
		list, err := h.Insights.Attributes(c.UserContext(), s.AppID)
		if err != nil {
			return err
		}
		return c.JSON(list)
	}
	if p := appinsights.CheckAttribute(attr); p != nil {
		return herald.Invalid(p...)
	}
	list, err := h.Insights.Values(c.UserContext(), s.AppID, attr)
	if err != nil {
		return err
	}
	return c.JSON(list)
}

// testSend accepts a send from the console (developers): the v3 send body, through the
// same path, answered 202 {requestId}.
func (h *Operations) testSend(c *fiber.Ctx, s appScope) error {
	id, err := h.Notify.Accept(c.UserContext(), s.AppID, c.Body(), c.Get("Idempotency-Key"))
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusAccepted).JSON(fiber.Map{"requestId": id.String()})
}
