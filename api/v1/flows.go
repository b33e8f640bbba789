package v1

import (
	"net/url"

	"github.com/gofiber/fiber/v2"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/internal/flow"
	"github.com/heraldhq/herald/internal/send/schedules"
)

// createWorkflow saves a new workflow's draft (CreateWorkflowDTO {identifier, name,
// definition}); templates it names must exist.
func (h *Configuration) createWorkflow(c *fiber.Ctx, s appScope) error {
	f, err := h.Flows.Create(c.UserContext(), s.AppID, c.Body())
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(f)
}

// listWorkflows lists the app's workflows; ?published=true keeps those with a published
// version, ?published=false those without; archived ones only with ?archived=true.
func (h *Configuration) listWorkflows(c *fiber.Ctx, s appScope) error {
	var p herald.Problems
	published := queryBool(c, "published", &p)
	archived := queryBool(c, "archived", &p)
	if err := p.Err(); err != nil {
		return err
	}
	list, err := h.Flows.List(c.UserContext(), s.AppID, published != nil && *published, archived != nil && *archived)
	if err != nil {
		return err
	}
	if published != nil && !*published {
		out := []flow.Flow{}
		for _, f := range list {
			if f.PublishedVersion == nil {
				out = append(out, f)
			}
		}
		list = out
	}
	return c.JSON(list)
}

func (h *Configuration) getWorkflow(c *fiber.Ctx, s appScope) error {
	f, err := h.Flows.Get(c.UserContext(), s.AppID, param(c, "identifier"))
	if err != nil {
		return err
	}
	return c.JSON(f)
}

// updateWorkflow replaces a workflow's draft ({name, definition}).
func (h *Configuration) updateWorkflow(c *fiber.Ctx, s appScope) error {
	f, err := h.Flows.Update(c.UserContext(), s.AppID, param(c, "identifier"), c.Body())
	if err != nil {
		return err
	}
	return c.JSON(f)
}

// patchWorkflow renames ({name}) and/or archives or unarchives ({archived}) a workflow; its
// identifier, draft and versions stay.
func (h *Configuration) patchWorkflow(c *fiber.Ctx, s appScope) error {
	f, err := h.Flows.Patch(c.UserContext(), s.AppID, param(c, "identifier"), c.Body())
	if err != nil {
		return err
	}
	return c.JSON(f)
}

// duplicateWorkflow copies a workflow's draft into a new unpublished one ({identifier?,
// name?}; by default "<identifier>-copy").
func (h *Configuration) duplicateWorkflow(c *fiber.Ctx, s appScope) error {
	f, err := h.Flows.Duplicate(c.UserContext(), s.AppID, param(c, "identifier"), c.Body())
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(f)
}

// deleteWorkflow deletes a workflow and its versions; refused (409) while a flow schedule
// sends it.
func (h *Configuration) deleteWorkflow(c *fiber.Ctx, s appScope) error {
	if err := h.Flows.Delete(c.UserContext(), s.AppID, param(c, "identifier")); err != nil {
		return err
	}
	return c.JSON(true)
}

// cancelWorkflowRun cancels the running runs of a workflow that one send request started
// (the console's Cancel on a test run's timeline; POST /v3/workflows/cancel does it by
// cancellation key).
func (h *Configuration) cancelWorkflowRun(c *fiber.Ctx, s appScope) error {
	out, err := h.Flows.CancelRun(c.UserContext(), s.AppID, param(c, "identifier"), param(c, "requestId"), h.Canceler, h.Log)
	if err != nil {
		return err
	}
	return c.JSON(out)
}

// publishWorkflow makes the draft the next immutable version, the one sends run; a draft
// that does not compile is refused (400, every problem listed).
func (h *Configuration) publishWorkflow(c *fiber.Ctx, s appScope) error {
	v, err := h.Flows.Publish(c.UserContext(), s.AppID, param(c, "identifier"))
	if err != nil {
		return err
	}
	f, err := h.Flows.Get(c.UserContext(), s.AppID, param(c, "identifier"))
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{"version": v, "workflow": f})
}

// workflowVersions lists a workflow's published versions, newest first, with their
// definitions (the designer's version history and diff).
func (h *Configuration) workflowVersions(c *fiber.Ctx, s appScope) error {
	list, err := h.Flows.Versions(c.UserContext(), s.AppID, param(c, "identifier"))
	if err != nil {
		return err
	}
	return c.JSON(list)
}

// runView is a run of the timeline with its link in the Temporal Web UI, when one is
// configured.
type runView struct {
	flow.Run
	TemporalURL string `json:"temporalUrl,omitempty"`
}

// workflowRun is the timeline of the runs of a workflow that one send request started
// (the designer's test run polls it).
func (h *Configuration) workflowRun(c *fiber.Ctx, s appScope) error {
	t, err := h.Flows.Timeline(c.UserContext(), s.AppID, param(c, "identifier"), param(c, "requestId"))
	if err != nil {
		return err
	}
	runs := make([]runView, len(t.Runs))
	for i, r := range t.Runs {
		runs[i] = runView{Run: r}
		if h.TemporalUI != "" {
			runs[i].TemporalURL = h.TemporalUI + "/" + url.PathEscape(r.WorkflowID)
		}
	}
	return c.JSON(fiber.Map{"requestId": t.RequestID, "workflow": t.Workflow, "runs": runs})
}

// logPage is a page of the workflow log.
type logPage struct {
	Pagination pagination      `json:"pagination"`
	Data       []flow.LogEntry `json:"data"`
}

func (h *Configuration) workflowLogs(c *fiber.Ctx, s appScope) error {
	var p herald.Problems
	page, limit := pageQuery(c, "page", &p)
	if err := p.Err(); err != nil {
		return err
	}
	list, total, err := h.Flows.Logs(c.UserContext(), s.AppID, page, limit)
	if err != nil {
		return err
	}
	return c.JSON(logPage{Pagination: pagination{TotalCount: int(total), Page: page, Limit: limit}, Data: list})
}

// listScheduled lists the app's scheduled notifications, soonest first (page, limit;
// ?all=true includes sent and cancelled ones).
func (h *Configuration) listScheduled(c *fiber.Ctx, s appScope) error {
	var p herald.Problems
	page, limit := pageQuery(c, "page", &p)
	all := queryBool(c, "all", &p)
	if err := p.Err(); err != nil {
		return err
	}
	list, err := h.Schedules.List(c.UserContext(), s.AppID, page, limit, all != nil && *all)
	if err != nil {
		return err
	}
	if list == nil {
		list = []schedules.Scheduled{}
	}
	return c.JSON(list)
}

// cancelScheduled cancels a scheduled notification that has not gone out.
func (h *Configuration) cancelScheduled(c *fiber.Ctx, s appScope) error {
	var p herald.Problems
	id := pathID(c, "scheduledNotificationId", &p)
	if err := p.Err(); err != nil {
		return err
	}
	if err := h.Schedules.Cancel(c.UserContext(), s.AppID, id); err != nil {
		return err
	}
	return c.JSON(true)
}
