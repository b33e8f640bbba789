package v3

import (
	"github.com/gofiber/fiber/v2"

	"github.com/heraldhq/herald/api/web"
	"github.com/heraldhq/herald/internal/audience/categories"
	"github.com/heraldhq/herald/internal/audience/devices"
	"github.com/heraldhq/herald/internal/audience/prefs"
	"github.com/heraldhq/herald/internal/audience/topics"
	"github.com/heraldhq/herald/internal/audience/users"
	"github.com/heraldhq/herald/internal/delivery/templates"
	"github.com/heraldhq/herald/internal/inbox"
	"github.com/heraldhq/herald/internal/lifecycle/erasure"
	"github.com/heraldhq/herald/internal/platform/ratelimit"
	"github.com/heraldhq/herald/internal/realtime"
	"github.com/heraldhq/herald/internal/send"
)

// Handlers are the developer API handlers and the services they call.
type Handlers struct {
	Auth       *web.Auth
	Notify     *send.Service
	Inbox      *inbox.Service
	Users      *users.Service
	Erasure    *erasure.Service // erases a user and everything about it (DELETE /users/{identifier})
	Prefs      *prefs.Service
	Categories *categories.Service
	Topics     *topics.Service
	Devices    *devices.Service
	// Realtime issues realtime tokens and serves the SSE stream.
	Realtime *realtime.Service
	// Templates serves the in-app UI strings (translations).
	Templates *templates.Service
	Workflows *Workflows
	// SendLimit caps sends per app and second (nil: no limit).
	SendLimit ratelimit.KeyLimiter
}

// Register mounts the developer API on r (the /v3 group).
func (h *Handlers) Register(r fiber.Router) {
	r.Post("/notifications", h.Auth.App(), web.SendRateLimit(h.SendLimit), h.sendNotification)

	// The routes a user's browser calls (the inbox widget) answer cross-origin requests from
	// the origins the app allows; routes taking the API secret never do.
	b := &browserRoutes{r: r, cors: h.Auth.CORS(), methods: map[string][]string{}}
	app, user := h.Auth.App(), h.Auth.User()
	b.add(fiber.MethodGet, "/notifications", h.Auth.UserOrApp("userIdentifier"), h.listNotifications)
	// The bulk routes come before /notifications/:notificationId.
	b.add(fiber.MethodPost, "/notifications/markAllNotificationsAsSeen", user, h.markAllSeen)
	b.add(fiber.MethodPost, "/notifications/markAllNotificationsAsRead", user, h.markAllRead)
	b.add(fiber.MethodPost, "/notifications/markAllNotificationsAsDeleted", user, h.markAllDeleted)
	b.add(fiber.MethodGet, "/notifications/:notificationId", user, h.getNotification)
	b.add(fiber.MethodDelete, "/notifications/:notificationId", user, h.deleteNotification)
	b.add(fiber.MethodPost, "/notifications/:notificationId/click", user, h.applyChange(inbox.Click))
	b.add(fiber.MethodPost, "/notifications/:notificationId/views", user, h.applyChange(inbox.MarkSeen))
	b.add(fiber.MethodDelete, "/notifications/:notificationId/views", user, h.applyChange(inbox.MarkUnseen))
	b.add(fiber.MethodPost, "/notifications/:notificationId/reads", user, h.applyChange(inbox.MarkRead))
	b.add(fiber.MethodDelete, "/notifications/:notificationId/reads", user, h.applyChange(inbox.MarkUnread))
	b.add(fiber.MethodPut, "/notifications/:notificationId/state", user, h.setState)
	b.add(fiber.MethodPut, "/notifications/:notificationId/snooze", user, h.snooze)
	b.add(fiber.MethodDelete, "/notifications/:notificationId/snooze", user, h.unsnooze)

	b.add(fiber.MethodGet, "/profile", user, h.getProfile)
	b.add(fiber.MethodPut, "/profile", user, h.putProfile)
	b.add(fiber.MethodPatch, "/profile", user, h.patchProfile)
	b.add(fiber.MethodGet, "/preferences", user, h.getPreferences)
	b.add(fiber.MethodPatch, "/preferences", user, h.patchPreferences)
	b.add(fiber.MethodGet, "/preferences/channels", user, h.getChannelPreferences)
	b.add(fiber.MethodPut, "/preferences/channels", user, h.putChannelPreferences)
	b.add(fiber.MethodGet, "/preferences/workflows", user, h.getFlowPreferences)
	b.add(fiber.MethodPatch, "/preferences/workflows", user, h.patchFlowPreferences)
	b.add(fiber.MethodGet, "/preferences/quiet-hours", user, h.getQuietHours)
	b.add(fiber.MethodPut, "/preferences/quiet-hours", user, h.putQuietHours)
	b.add(fiber.MethodGet, "/categories", user, h.listCategories)
	r.Post("/categories", h.Auth.AppWithSecretKey(), h.createCategory)
	r.Delete("/categories/:categoryId", h.Auth.AppWithSecretKey(), h.deleteCategory)
	r.Post("/users", app, h.createUser)
	r.Put("/users/:identifier", app, h.putUser)
	r.Delete("/users/:identifier", app, h.deleteUser)

	b.add(fiber.MethodPost, "/sdk/connect", h.Auth.Device(), h.connect)
	b.add(fiber.MethodPost, "/devices/:deviceId/webPushSubscription", user, h.saveWebPushSubscription)

	r.Post("/topics", app, h.createTopic)
	r.Get("/topics", app, h.listTopics)
	r.Get("/topics/subscriptions/:userIdentifier", app, h.listUserSubscriptions)
	r.Patch("/topics/:topicId", app, h.renameTopic)
	r.Delete("/topics/:topicId", app, h.deleteTopic)
	r.Post("/topics/:topicId/users", app, h.attachTopicUsers)
	r.Post("/topics/:topicId/detachUsers", app, h.detachTopicUsers)
	r.Put("/topics/:topicId/users/:userIdentifier", app, h.updateTopicSubscription)

	b.add(fiber.MethodPost, "/sdk/realtimeTokenRequests", user, h.requestRealtimeToken)
	b.add(fiber.MethodGet, "/realtime", h.realtimeStream())
	b.add(fiber.MethodGet, "/translations/inapp", user, h.inAppTranslations)
	r.Post("/workflows/cancel", app, h.cancelWorkflows)
	r.Post("/workflows/schedules", app, h.createFlowSchedule)
	r.Get("/workflows/schedules", app, h.listFlowSchedules)
	r.Delete("/workflows/schedules/:scheduleId", app, h.deleteFlowSchedule)

	r.Get("/openapi.json", h.openAPI)
	b.preflights(h.Auth)
}

// browserRoutes registers routes that answer CORS, remembering each path's methods for its
// OPTIONS preflight.
type browserRoutes struct {
	r       fiber.Router
	cors    fiber.Handler
	paths   []string
	methods map[string][]string
}

func (b *browserRoutes) add(method, path string, handlers ...fiber.Handler) {
	b.r.Add(method, path, append([]fiber.Handler{b.cors}, handlers...)...)
	if _, ok := b.methods[path]; !ok {
		b.paths = append(b.paths, path)
	}
	b.methods[path] = append(b.methods[path], method)
}

// preflights registers the OPTIONS routes, in the order the paths were added so literal
// paths still come before parameters.
func (b *browserRoutes) preflights(a *web.Auth) {
	for _, p := range b.paths {
		b.r.Options(p, a.Preflight(b.methods[p]...))
	}
}
