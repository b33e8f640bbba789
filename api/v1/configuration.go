package v1

import (
	"context"
	"log/slog"

	"github.com/gofiber/fiber/v2"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/internal/audience/topics"
	"github.com/heraldhq/herald/internal/console/clients"
	"github.com/heraldhq/herald/internal/console/commits"
	"github.com/heraldhq/herald/internal/delivery/channels"
	"github.com/heraldhq/herald/internal/delivery/templates"
	"github.com/heraldhq/herald/internal/flow"
	"github.com/heraldhq/herald/internal/send/schedules"
)

// Configuration holds the handlers of what the console configures per app: channels,
// providers, provider instances and routes, templates, layouts, translations, topics,
// workflows, scheduled notifications, commits and publishing. It shares the console's
// authentication and app scoping. Reading needs the viewer role on the app's client,
// changing the developer role, publishing the admin role.
type Configuration struct {
	*Console
	Channels  *channels.Service
	Templates *templates.Service
	Flows     *flow.Service
	Schedules *schedules.Service
	// FlowSchedules keeps the recurring triggers of published workflows.
	FlowSchedules *flow.ScheduleService
	Topics        *topics.Service
	Commits       *commits.Service
	// TemporalUI is the Temporal Web UI's address of the namespace's workflows
	// (<ui>/namespaces/<namespace>/workflows); empty: runs carry no link.
	TemporalUI string
	// Canceler cancels workflow runs (POST …/workflows/{identifier}/runs/{requestId}/cancel).
	Canceler flow.Canceler
	// Log records runs whose Temporal cancel failed.
	Log *slog.Logger
}

// Register mounts the routes on r (the /v1 group).
func (h *Configuration) Register(r fiber.Router) {
	member := h.Auth.Member()
	view, dev, admin := clients.Viewer, clients.Developer, clients.Admin

	r.Get("/providers", member, h.listProviders)

	// Channels: the v1 views come before /channels/:channel/… so "v1" is not a channel.
	r.Get("/apps/:appId/channels", member, h.app(view, h.listChannelInstances))
	r.Get("/apps/:appId/channels/v1", member, h.app(view, h.channelOverview))
	r.Get("/apps/:appId/channels/v1/:channel/providers", member, h.app(view, h.channelProviderKinds))
	r.Get("/apps/:appId/channels/v1/:channel/providers/:providerIdentifier", member, h.app(view, h.channelProviderKind))
	r.Get("/apps/:appId/channels/:channel/providers", member, h.app(view, h.listChannelInstances))
	r.Post("/apps/:appId/channels/:channel/providers/:providerIdentifier", member, h.app(dev, h.enableProvider))
	r.Patch("/apps/:appId/channels/:channel/providers/:providerIdentifier", member, h.app(dev, h.updateProvider))
	r.Post("/apps/:appId/channels/:channel/providers/:providerIdentifier/enable", member, h.app(dev, h.setProviderEnabled(true)))
	r.Post("/apps/:appId/channels/:channel/providers/:providerIdentifier/disable", member, h.app(dev, h.setProviderEnabled(false)))
	r.Put("/apps/:appId/channels/:channel/providers/:providerIdentifier/routing", member, h.app(dev, h.setProviderRouting))
	r.Post("/apps/:appId/channels/:channel/providerInstances", member, h.app(dev, h.createInstance))
	r.Get("/apps/:appId/channels/:channel/providerInstances", member, h.app(view, h.listChannelInstances))
	r.Get("/apps/:appId/channels/:channel/providerInstances/:providerInstance", member, h.app(view, h.getInstance))
	r.Patch("/apps/:appId/channels/:channel/providerInstances/:providerInstance", member, h.app(dev, h.updateInstance))
	r.Put("/apps/:appId/channels/:channel/providerInstances/:providerInstance/enable", member, h.app(dev, h.setInstanceEnabled(true)))
	r.Put("/apps/:appId/channels/:channel/providerInstances/:providerInstance/disable", member, h.app(dev, h.setInstanceEnabled(false)))
	r.Get("/apps/:appId/channels/:channel/routes", member, h.app(view, h.listRoutes))
	r.Post("/apps/:appId/channels/:channel/routes", member, h.app(dev, h.createRoute))
	r.Get("/routes/:routeId", member, h.owned("routeId", "route", view, h.Channels.RouteOwner, h.getRoute))
	r.Put("/routes/:routeId", member, h.owned("routeId", "route", dev, h.Channels.RouteOwner, h.updateRoute))
	r.Delete("/routes/:routeId", member, h.owned("routeId", "route", dev, h.Channels.RouteOwner, h.deleteRoute))

	r.Get("/apps/:appId/templates", member, h.app(view, h.listTemplates))
	r.Post("/apps/:appId/templates", member, h.app(dev, h.createTemplate))
	tpl := func(min clients.Role, fn func(*fiber.Ctx, appScope, int64) error) fiber.Handler {
		return h.owned("templateId", "template", min, h.Templates.Owner, fn)
	}
	r.Get("/templates/:templateId", member, tpl(view, h.getTemplate))
	r.Put("/templates/:templateId", member, tpl(dev, h.updateTemplate))
	r.Delete("/templates/:templateId", member, tpl(dev, h.deleteTemplate))
	r.Post("/templates/:templateId/contents/order", member, tpl(dev, h.orderContents))
	r.Get("/templates/:templateId/contents/email/:fileName", member, tpl(view, h.emailFile))
	r.Get("/templates/:templateId/contents/:channel", member, tpl(view, h.getContent))
	r.Put("/templates/:templateId/contents/:channel", member, tpl(dev, h.putContent))
	r.Patch("/templates/:templateId/contents/:channel", member, tpl(dev, h.patchContent))
	r.Delete("/templates/:templateId/contents/:channel", member, tpl(dev, h.deleteContent))
	r.Put("/templates/:templateId/contents/:channel/batchingContent", member, tpl(dev, h.putBatchingContent))
	r.Put("/templates/:templateId/duplicate", member, tpl(dev, h.duplicateTemplate))
	r.Post("/templates/:templateId/notification-content-state", member, tpl(dev, h.createContentState))
	r.Post("/templates/:templateId/preview", member, tpl(view, h.previewTemplate))
	r.Post("/apps/:appId/content-preview", member, h.app(view, h.previewContent))

	r.Post("/apps/:appId/layouts", member, h.app(dev, h.createLayout))
	r.Get("/apps/:appId/layouts", member, h.app(view, h.listLayouts))
	r.Get("/apps/:appId/layouts/default", member, h.app(view, h.defaultLayout))
	r.Put("/apps/:appId/layouts/:layoutId", member, h.app(dev, h.updateLayout))
	r.Delete("/apps/:appId/layouts/:layoutId", member, h.app(dev, h.deleteLayout))
	r.Get("/clients/:clientId/email-layouts", member, h.clientEmailLayouts)
	r.Post("/apps/:appId/translations", member, h.app(dev, h.createTranslation))
	r.Get("/apps/:appId/translations", member, h.app(view, h.listTranslations))
	r.Get("/apps/:appId/translations/default", member, h.app(view, h.defaultTranslation))

	r.Post("/apps/:appId/topics", member, h.app(dev, h.createTopic))
	r.Get("/apps/:appId/topics", member, h.app(view, h.listTopics))
	topic := func(min clients.Role, fn func(*fiber.Ctx, appScope, int64) error) fiber.Handler {
		return h.owned("topicId", "topic", min, h.Topics.Owner, fn)
	}
	r.Patch("/topics/:topicId", member, topic(dev, h.renameTopic))
	r.Delete("/topics/:topicId", member, topic(dev, h.deleteTopic))
	r.Post("/topics/:topicId/users", member, topic(dev, h.attachTopicUsers))
	r.Get("/topics/:topicId/users", member, topic(view, h.listTopicUsers))
	r.Delete("/topics/:topicId/users/:userId", member, topic(dev, h.detachTopicUser))
	r.Delete("/topics/:topicId/subscriptions/:subscriptionId", member, topic(dev, h.deleteTopicSubscription))

	r.Post("/apps/:appId/workflows", member, h.app(dev, h.createWorkflow))
	r.Get("/apps/:appId/workflows", member, h.app(view, h.listWorkflows))
	r.Get("/apps/:appId/workflows/logs", member, h.app(view, h.workflowLogs))
	r.Get("/apps/:appId/workflows/:identifier", member, h.app(view, h.getWorkflow))
	r.Put("/apps/:appId/workflows/:identifier", member, h.app(dev, h.updateWorkflow))
	r.Patch("/apps/:appId/workflows/:identifier", member, h.app(dev, h.patchWorkflow))
	r.Delete("/apps/:appId/workflows/:identifier", member, h.app(dev, h.deleteWorkflow))
	r.Post("/apps/:appId/workflows/:identifier/duplicate", member, h.app(dev, h.duplicateWorkflow))
	r.Post("/apps/:appId/workflows/:identifier/publish", member, h.app(dev, h.publishWorkflow))
	r.Get("/apps/:appId/workflows/:identifier/versions", member, h.app(view, h.workflowVersions))
	r.Get("/apps/:appId/workflows/:identifier/runs/:requestId", member, h.app(view, h.workflowRun))
	r.Post("/apps/:appId/workflows/:identifier/runs/:requestId/cancel", member, h.app(dev, h.cancelWorkflowRun))
	r.Get("/apps/:appId/scheduled-notifications", member, h.app(view, h.listScheduled))
	r.Delete("/apps/:appId/scheduled-notifications/:scheduledNotificationId", member, h.app(dev, h.cancelScheduled))
	r.Get("/apps/:appId/workflow-schedules", member, h.app(view, h.listFlowSchedules))
	r.Post("/apps/:appId/workflow-schedules", member, h.app(dev, h.createFlowSchedule))
	r.Patch("/apps/:appId/workflow-schedules/:scheduleId", member, h.app(dev, h.updateFlowSchedule))
	r.Delete("/apps/:appId/workflow-schedules/:scheduleId", member, h.app(dev, h.deleteFlowSchedule))

	r.Get("/apps/:appId/uncommited-changes", member, h.app(view, h.uncommitted))
	r.Post("/apps/:appId/commits", member, h.app(dev, h.createCommit))
	r.Get("/apps/:appId/commits", member, h.app(view, h.listCommits))
	r.Post("/apps/:appId/publish", member, h.app(admin, h.publish))
	r.Post("/apps/:appId/publish/preview", member, h.app(admin, h.previewPublish))
}

// owned wraps a handler of a resource addressed by its own id (/templates/:templateId,
// /topics/:topicId, /routes/:routeId): owner names its app and client, where the caller
// needs at least min. Other clients' resources are not found.
func (h *Configuration) owned(param, what string, min clients.Role, owner func(context.Context, int64) (int64, int64, error),
	fn func(*fiber.Ctx, appScope, int64) error) fiber.Handler {
	return func(c *fiber.Ctx) error {
		var p herald.Problems
		id := pathID(c, param, &p)
		if err := p.Err(); err != nil {
			return err
		}
		appID, clientID, err := owner(c.UserContext(), id)
		if err != nil {
			return err
		}
		role, err := h.Clients.Access(c.UserContext(), actor(c), clientID, min)
		if err != nil {
			if herald.ErrorCode(err) == herald.ENOTFOUND {
				return herald.NotFound(what)
			}
			return err
		}
		return fn(c, appScope{AppID: appID, ClientID: clientID, Role: role}, id)
	}
}
