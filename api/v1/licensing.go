package v1

import (
	"bytes"
	"time"

	"github.com/gofiber/fiber/v2"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/internal/console/clients"
	"github.com/heraldhq/herald/internal/delivery/assistant"
	"github.com/heraldhq/herald/internal/ops/billing"
	"github.com/heraldhq/herald/internal/ops/license"
	"github.com/heraldhq/herald/internal/platform/jsonshape"
)

// licenseView is a client's license with what it grants now.
type licenseView struct {
	// Status is none, valid or expired.
	Status      string              `json:"status"`
	License     *license.License    `json:"license"`
	Entitlement billing.Entitlement `json:"entitlement"`
}

// getLicense shows the client's license (the token only to admins) and the plan in force.
func (h *Operations) getLicense(c *fiber.Ctx, clientID int64) error {
	l, err := h.Licenses.Get(c.UserContext(), clientID)
	if err != nil {
		return err
	}
	ent, err := h.Billing.Entitlement(c.UserContext(), clientID)
	if err != nil {
		return err
	}
	v := licenseView{Status: "none", License: l, Entitlement: ent}
	if l != nil {
		v.Status = "valid"
		if l.Expired(h.Licenses.Now()) {
			v.Status = "expired"
		}
		if role, _ := h.Clients.Access(c.UserContext(), actor(c), clientID, clients.Viewer); !role.AtLeast(clients.Admin) {
			l.Token = ""
		}
	}
	return c.JSON(v)
}

// issueLicense signs a license for the caller's client (query clientId when the caller has
// several; admins) on the client's current plan, lasting until the paid period ends or the
// configured lifetime.
func (h *Operations) issueLicense(c *fiber.Ctx) error {
	clientID, err := h.callerClient(c, clients.Admin)
	if err != nil {
		return err
	}
	if !h.Licenses.CanIssue() {
		return herald.Errorf(herald.EUNAVAILABLE, "issuing licenses is not configured on this installation: set HERALD_LICENSE_SIGNING_KEY")
	}
	sub, err := h.Billing.Subscription(c.UserContext(), clientID)
	if err != nil {
		return err
	}
	var until time.Time
	if sub.Source == billing.FromSubscription && sub.CurrentPeriodEnd != nil {
		until = *sub.CurrentPeriodEnd
	}
	l, err := h.Licenses.Issue(c.UserContext(), clientID, sub.Plan.ID, license.Limits{MonthlyNotifications: sub.Plan.MonthlyQuota}, until)
	if err != nil {
		return err
	}
	h.Gate.Forget(clientID)
	c.Set(fiber.HeaderCacheControl, "no-store")
	return c.Status(fiber.StatusCreated).JSON(l)
}

// licensingWebhook accepts a license pushed by the licensing server, as a JSON body
// {"license": "<token>"} or the bare token. The token's Ed25519 signature authenticates
// it; a replayed or older license changes nothing (200 "unchanged").
func (h *Operations) licensingWebhook(c *fiber.Ctx) error {
	raw := bytes.TrimSpace(c.Body())
	token := string(raw)
	if len(raw) > 0 && raw[0] == '{' {
		f := jsonshape.Fields(raw)
		tok, ok := jsonshape.String(f["license"])
		if f == nil || !ok {
			return herald.Invalid("license must be a string")
		}
		token = tok
	}
	l, changed, err := h.Licenses.Accept(c.UserContext(), token)
	if err != nil {
		return err
	}
	if !changed {
		return c.JSON("unchanged")
	}
	h.Gate.Forget(l.ClientID)
	return c.Status(fiber.StatusCreated).JSON("accepted")
}

// issueDefaultLayout gives every app of the caller's client (query clientId when it has
// several; developers) a default email layout, from Herald's starter layout, where it has
// none: 201 when any was created, 200 when all had one. Answers the apps' default layouts.
func (h *Operations) issueDefaultLayout(c *fiber.Ctx) error {
	clientID, err := h.callerClient(c, clients.Developer)
	if err != nil {
		return err
	}
	list, err := h.Apps.ListInClient(c.UserContext(), clientID)
	if err != nil {
		return err
	}
	out := make([]fiber.Map, 0, len(list))
	status := fiber.StatusOK
	for _, a := range list {
		l, created, err := h.Templates.EnsureDefaultLayout(c.UserContext(), a.ID)
		if err != nil {
			return err
		}
		if created {
			status = fiber.StatusCreated
		}
		out = append(out, fiber.Map{"appId": a.ID, "created": created, "layout": l})
	}
	return c.Status(status).JSON(out)
}

// assistantStatus tells a signed-in member whether the assistant is configured on this
// installation and which channels it drafts for, so the console shows its control only
// when POST /v1/ai can answer.
func (h *Operations) assistantStatus(c *fiber.Ctx) error {
	channels := []string{}
	if h.Assistant.Configured() {
		channels = assistant.Channels()
	}
	return c.JSON(fiber.Map{"configured": h.Assistant.Configured(), "channels": channels})
}

// draft writes template content for a channel from a prompt (GeneratePromptDTO {prompt,
// channel}); developers of some client, or a CLI token with that role.
func (h *Operations) draft(c *fiber.Ctx) error {
	if err := h.needDeveloper(c); err != nil {
		return err
	}
	b, err := readBody(c)
	if err != nil {
		return err
	}
	prompt, channel := b.str("prompt", true), b.str("channel", true)
	var p herald.Problems
	assistant.Check(prompt, channel, &p)
	if err := b.err(p); err != nil {
		return err
	}
	d, err := h.Assistant.Draft(c.UserContext(), prompt, channel)
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(d)
}

// needDeveloper requires the developer role (or higher) on at least one client.
func (h *Operations) needDeveloper(c *fiber.Ctx) error {
	a := actor(c)
	if a.ViaToken() {
		if a.TokenRole.AtLeast(clients.Developer) {
			return nil
		}
	} else {
		list, err := h.Clients.List(c.UserContext(), a)
		if err != nil {
			return err
		}
		for _, cl := range list {
			if cl.Role.AtLeast(clients.Developer) {
				return nil
			}
		}
	}
	return herald.Errorf(herald.EFORBIDDEN, "drafting templates needs the developer role (or higher) on a client")
}
