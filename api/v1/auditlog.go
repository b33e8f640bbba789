package v1

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/internal/console/audit"
	"github.com/heraldhq/herald/internal/console/clients"
)

// auditPage is a page of a client's audit log.
type auditPage struct {
	Pagination pagination    `json:"pagination"`
	Data       []audit.Entry `json:"data"`
}

// listAuditLogs pages through the audit log of a client (owners and admins): clientId may
// be omitted by callers with one client and by CLI tokens. Filters: action, actorId, and
// the time range [from, to) in RFC 3339.
func (h *Console) listAuditLogs(c *fiber.Ctx) error {
	var p herald.Problems
	page, limit := pageQuery(c, "page", &p)
	var clientID int64
	if raw := c.Query("clientId"); raw != "" {
		n, err := strconv.ParseInt(raw, 10, 64)
		if err != nil || n <= 0 {
			p.Addf("clientId must be a positive integer")
		}
		clientID = n
	}
	f := audit.Filter{Page: page, Limit: limit, Action: strings.Clone(c.Query("action"))}
	if f.Action != "" && !slices.Contains(audit.Actions, f.Action) {
		p.Addf("action must be one of %s", strings.Join(audit.Actions, ", "))
	}
	if raw := c.Query("actorId"); raw != "" {
		n, err := strconv.ParseInt(raw, 10, 64)
		if err != nil || n <= 0 {
			p.Addf("actorId must be a positive integer")
		}
		f.ActorID = n
	}
	f.From, f.To = timeQuery(c, "from", &p), timeQuery(c, "to", &p)
	if f.From != nil && f.To != nil && !f.From.Before(*f.To) {
		p.Addf("from must be before to")
	}
	if err := p.Err(); err != nil {
		return err
	}
	ctx := c.UserContext()
	if clientID == 0 {
		var err error
		if clientID, err = h.Clients.DefaultClient(ctx, actor(c)); err != nil {
			return err
		}
	}
	if _, err := h.Clients.Access(ctx, actor(c), clientID, clients.Admin); err != nil {
		return err
	}
	list, total, err := h.Audit.List(ctx, clientID, f)
	if err != nil {
		return err
	}
	c.Set(fiber.HeaderCacheControl, "no-store")
	return c.JSON(auditPage{Pagination: pagination{TotalCount: total, Page: page, Limit: limit}, Data: list})
}

// timeQuery reads an optional RFC 3339 time query parameter.
func timeQuery(c *fiber.Ctx, name string, p *herald.Problems) *time.Time {
	raw := c.Query(name)
	if raw == "" {
		return nil
	}
	t, err := time.Parse(time.RFC3339Nano, raw)
	if err != nil {
		p.Addf("%s must be a time in RFC 3339 form, such as 2026-01-31T09:00:00Z", name)
		return nil
	}
	return &t
}

// recordApp writes an event about an app of the caller's client; a secret is shown only
// once its reveal is on record.
func (h *Console) recordApp(c *fiber.Ctx, s appScope, action, appName string, details map[string]any) error {
	return h.Clients.Record(c.UserContext(), actor(c), s.ClientID, audit.Event{
		Action: action, TargetType: audit.TargetApp, TargetID: strconv.FormatInt(s.AppID, 10), TargetLabel: appName, Details: details,
	})
}
