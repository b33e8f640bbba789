package v1

import (
	"errors"
	"strings"

	"github.com/gofiber/fiber/v2"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/internal/ops/billing"
)

// plans lists the plans on offer (public: it is the price list).
func (h *Operations) plans(c *fiber.Ctx) error { return c.JSON(h.Billing.Plans()) }

func (h *Operations) getSubscription(c *fiber.Ctx, clientID int64) error {
	s, err := h.Billing.Subscription(c.UserContext(), clientID)
	if err != nil {
		return err
	}
	return c.JSON(s)
}

// putSubscription moves the client to a plan (UpdateSubscriptionDTO {plan}).
func (h *Operations) putSubscription(c *fiber.Ctx, clientID int64) error {
	b, err := readBody(c)
	if err != nil {
		return err
	}
	plan := b.str("plan", true)
	if err := b.err(); err != nil {
		return err
	}
	s, err := h.Billing.ChangePlan(c.UserContext(), clientID, plan)
	if err != nil {
		return err
	}
	h.Gate.Forget(clientID)
	return c.JSON(s)
}

// deleteSubscription cancels the paid subscription at the end of the paid period, or at
// once with ?immediately=true.
func (h *Operations) deleteSubscription(c *fiber.Ctx, clientID int64) error {
	var p herald.Problems
	now := queryBool(c, "immediately", &p)
	if err := p.Err(); err != nil {
		return err
	}
	s, err := h.Billing.Cancel(c.UserContext(), clientID, now != nil && *now)
	if err != nil {
		return err
	}
	h.Gate.Forget(clientID)
	return c.JSON(s)
}

// withdrawCancellation keeps a subscription that was to end with its period.
func (h *Operations) withdrawCancellation(c *fiber.Ctx, clientID int64) error {
	s, err := h.Billing.Resume(c.UserContext(), clientID)
	if err != nil {
		return err
	}
	return c.JSON(s)
}

func (h *Operations) listPaymentMethods(c *fiber.Ctx, clientID int64) error {
	list, err := h.Billing.PaymentMethods(c.UserContext(), clientID)
	if err != nil {
		return err
	}
	var def *billing.PaymentMethod
	for i := range list {
		if list[i].Default {
			def = &list[i]
		}
	}
	return c.JSON(fiber.Map{"paymentMethods": list, "defaultPaymentMethod": def})
}

// paymentMethodID reads :paymentMethodId.
func paymentMethodID(c *fiber.Ctx) (string, error) {
	id := param(c, "paymentMethodId")
	if strings.TrimSpace(id) == "" || len(id) > 255 {
		return "", herald.Invalid("paymentMethodId must be 1 to 255 characters")
	}
	return id, nil
}

func (h *Operations) setDefaultPaymentMethod(c *fiber.Ctx, clientID int64) error {
	id, err := paymentMethodID(c)
	if err != nil {
		return err
	}
	if err := h.Billing.SetDefaultPaymentMethod(c.UserContext(), clientID, id); err != nil {
		return err
	}
	return c.JSON(true)
}

func (h *Operations) deletePaymentMethod(c *fiber.Ctx, clientID int64) error {
	id, err := paymentMethodID(c)
	if err != nil {
		return err
	}
	if err := h.Billing.DeletePaymentMethod(c.UserContext(), clientID, id); err != nil {
		return err
	}
	return c.JSON(true)
}

// setupIntent starts adding a card: the browser confirms it with the client secret.
func (h *Operations) setupIntent(c *fiber.Ctx, clientID int64) error {
	si, err := h.Billing.SetupIntent(c.UserContext(), clientID)
	if err != nil {
		return err
	}
	c.Set(fiber.HeaderCacheControl, "no-store")
	return c.JSON(si)
}

// defaultPaymentMethod is the card invoices are charged to, or null.
func (h *Operations) defaultPaymentMethod(c *fiber.Ctx, clientID int64) error {
	m, err := h.Billing.DefaultPaymentMethod(c.UserContext(), clientID)
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{"paymentMethod": m})
}

func (h *Operations) invoices(c *fiber.Ctx, clientID int64) error {
	list, err := h.Billing.Invoices(c.UserContext(), clientID)
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{"invoices": list})
}

// paymentsWebhook applies a signed event of the payment provider: 201 true when applied,
// 200 false for an event id seen before (acknowledged, not applied again). Without billing
// it is a 503 whose Retry-After is an hour: the condition lasts until the operator
// configures billing, so the provider should not retry every second.
func (h *Operations) paymentsWebhook(c *fiber.Ctx) error {
	applied, clientID, err := h.Billing.HandleWebhook(c.UserContext(), c.Body(), c.Get(billing.SignatureHeader))
	if errors.Is(err, billing.ErrWebhookUnconfigured) {
		c.Set(fiber.HeaderRetryAfter, "3600")
	}
	if err != nil {
		return err
	}
	if clientID != 0 {
		h.Gate.Forget(clientID) // the plan may have changed: this process sees it at once
	}
	if !applied {
		return c.JSON(false)
	}
	return c.Status(fiber.StatusCreated).JSON(true)
}
