package v1

import (
	"net/url"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/api/web"
	"github.com/heraldhq/herald/internal/console/clients"
	"github.com/heraldhq/herald/internal/ops/analytics"
)

// Observability holds the handlers of the message log and the delivery analytics. Every
// route reads (viewers and up); apps and templates of other clients are not found.
type Observability struct {
	*Console
	Analytics *analytics.Service
	// Now is the clock of default date ranges (time.Now when nil).
	Now func() time.Time
	// TemporalUI links each message of the log to its run (no links when its URL is empty).
	TemporalUI TemporalUI
}

// TemporalUI is the Temporal Web UI (HERALD_TEMPORAL_UI_URL) and the namespace of the runs.
type TemporalUI struct {
	URL, Namespace string
}

// RunURL is the page of a workflow's latest run in the Web UI, or "" when none is set.
func (t TemporalUI) RunURL(workflowID string) string {
	if t.URL == "" || workflowID == "" {
		return ""
	}
	return strings.TrimRight(t.URL, "/") + "/namespaces/" + url.PathEscape(t.Namespace) + "/workflows/" + url.PathEscape(workflowID)
}

// Register mounts the routes on r (the /v1 group).
func (h *Observability) Register(r fiber.Router) {
	member := h.Auth.Member()
	r.Get("/apps/:appId/logs", member, h.app(clients.Viewer, h.logs))
	r.Get("/apps/:appId/requests", member, h.app(clients.Viewer, h.requests))
	r.Get("/apps/:appId/requests/:requestId", member, h.app(clients.Viewer, h.request))
	r.Get("/analytics/apps/:appId", member, h.app(clients.Viewer, h.appAnalytics))
	r.Get("/analytics/apps/:appId/templates", member, h.app(clients.Viewer, h.templatesAnalytics))
	r.Get("/analytics/apps/:appId/channels", member, h.app(clients.Viewer, h.channelsAnalytics))
	r.Get("/analytics/apps/:appId/templates/:templateId", member, h.app(clients.Viewer, h.templateAnalytics))
	r.Get("/analytics/apps/:appId/templates/:templateId/channels", member, h.app(clients.Viewer, h.templateChannelsAnalytics))
	r.Get("/analytics/apps/:appId/templates/:templateId/notifications", member, h.app(clients.Viewer, h.templateSends))
}

// dateRange reads fromDate and toDate into p.
func (h *Observability) dateRange(c *fiber.Ctx, p *herald.Problems) analytics.Range {
	now := time.Now
	if h.Now != nil {
		now = h.Now
	}
	return analytics.ParseRange(c.Query("fromDate"), c.Query("toDate"), now(), p)
}

// logs searches the app's message log (page and limit, or cursor; fromDate, toDate,
// providerIdentifier, event, channel, userIdentifier repeated or as userIdentifier[]).
func (h *Observability) logs(c *fiber.Ctx, s appScope) error {
	var p herald.Problems
	q := analytics.LogQuery{Range: h.dateRange(c, &p), Cursor: strings.Clone(c.Query("cursor")),
		Provider: strings.Clone(c.Query("providerIdentifier")), Event: strings.Clone(c.Query("event")), Channel: strings.Clone(c.Query("channel"))}
	q.Page, q.Limit = pageQuery(c, "page", &p)
	args := c.Context().QueryArgs()
	for _, name := range []string{"userIdentifier", "userIdentifier[]"} {
		for _, v := range args.PeekMulti(name) {
			q.Users = append(q.Users, string(v))
		}
	}
	q.Check(&p)
	if err := p.Err(); err != nil {
		return err
	}
	page, err := h.Analytics.Logs(c.UserContext(), s.AppID, q)
	if err != nil {
		return err
	}
	for i := range page.Data {
		page.Data[i].TemporalURL = h.TemporalUI.RunURL(page.Data[i].WorkflowID)
	}
	return c.JSON(page)
}

// requests lists the app's send requests, newest first (limit, cursor; user, workflow,
// status), each linked to the Temporal workflow that carries it.
func (h *Observability) requests(c *fiber.Ctx, s appScope) error {
	var p herald.Problems
	q := analytics.RequestQuery{Cursor: strings.Clone(c.Query("cursor")), User: strings.Clone(c.Query("user")),
		Workflow: strings.Clone(c.Query("workflow")), Status: strings.Clone(c.Query("status"))}
	q.Limit = web.QueryInt(c, "limit", defaultPageLimit, 1, maxPageLimit, &p)
	q.Check(&p)
	if err := p.Err(); err != nil {
		return err
	}
	page, err := h.Analytics.Requests(c.UserContext(), s.AppID, q)
	if err != nil {
		return err
	}
	for i := range page.Data {
		h.linkRequest(&page.Data[i])
	}
	return c.JSON(page)
}

// request returns one send request with its messages and workflow runs, each linked to
// its Temporal workflow.
func (h *Observability) request(c *fiber.Ctx, s appScope) error {
	d, err := h.Analytics.RequestDetail(c.UserContext(), s.AppID, param(c, "requestId"))
	if err != nil {
		return err
	}
	h.linkRequest(&d.Request)
	for i := range d.Messages {
		d.Messages[i].TemporalURL = h.TemporalUI.RunURL(d.Messages[i].WorkflowID)
	}
	for i := range d.Runs {
		d.Runs[i].TemporalURL = h.TemporalUI.RunURL(d.Runs[i].WorkflowID)
	}
	return c.JSON(d)
}

func (h *Observability) linkRequest(r *analytics.Request) {
	if r.WorkflowID != nil {
		r.TemporalURL = h.TemporalUI.RunURL(*r.WorkflowID)
	}
}

// analyticsQuery reads the date range and, on routes that have one, the template id.
func (h *Observability) analyticsQuery(c *fiber.Ctx, withTemplate bool) (analytics.Range, int64, error) {
	var p herald.Problems
	var id int64
	if withTemplate {
		id = pathID(c, "templateId", &p)
	}
	r := h.dateRange(c, &p)
	return r, id, p.Err()
}

func (h *Observability) appAnalytics(c *fiber.Ctx, s appScope) error {
	r, _, err := h.analyticsQuery(c, false)
	if err != nil {
		return err
	}
	days, err := h.Analytics.App(c.UserContext(), s.AppID, r)
	if err != nil {
		return err
	}
	return c.JSON(days)
}

func (h *Observability) templatesAnalytics(c *fiber.Ctx, s appScope) error {
	r, _, err := h.analyticsQuery(c, false)
	if err != nil {
		return err
	}
	rep, err := h.Analytics.Templates(c.UserContext(), s.AppID, r)
	if err != nil {
		return err
	}
	return c.JSON(rep)
}

func (h *Observability) channelsAnalytics(c *fiber.Ctx, s appScope) error {
	r, _, err := h.analyticsQuery(c, false)
	if err != nil {
		return err
	}
	list, err := h.Analytics.Channels(c.UserContext(), s.AppID, r)
	if err != nil {
		return err
	}
	return c.JSON(list)
}

func (h *Observability) templateAnalytics(c *fiber.Ctx, s appScope) error {
	r, id, err := h.analyticsQuery(c, true)
	if err != nil {
		return err
	}
	t, err := h.Analytics.Template(c.UserContext(), s.AppID, id, r)
	if err != nil {
		return err
	}
	return c.JSON(t)
}

func (h *Observability) templateChannelsAnalytics(c *fiber.Ctx, s appScope) error {
	r, id, err := h.analyticsQuery(c, true)
	if err != nil {
		return err
	}
	list, err := h.Analytics.TemplateChannels(c.UserContext(), s.AppID, id, r)
	if err != nil {
		return err
	}
	return c.JSON(list)
}

// templateSends lists the template's sends in the range, newest first (page, limit).
func (h *Observability) templateSends(c *fiber.Ctx, s appScope) error {
	var p herald.Problems
	id := pathID(c, "templateId", &p)
	r := h.dateRange(c, &p)
	page, limit := pageQuery(c, "page", &p)
	if err := p.Err(); err != nil {
		return err
	}
	out, err := h.Analytics.TemplateSends(c.UserContext(), s.AppID, id, r, page, limit)
	if err != nil {
		return err
	}
	return c.JSON(out)
}
