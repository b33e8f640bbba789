package v3

import (
	"github.com/gofiber/fiber/v2"

	"github.com/heraldhq/herald/api/web"
	"github.com/heraldhq/herald/categories"
	"github.com/heraldhq/herald/devices"
	"github.com/heraldhq/herald/inbox"
	"github.com/heraldhq/herald/notify"
	"github.com/heraldhq/herald/prefs"
	"github.com/heraldhq/herald/ratelimit"
	"github.com/heraldhq/herald/realtime"
	"github.com/heraldhq/herald/templates"
	"github.com/heraldhq/herald/topics"
	"github.com/heraldhq/herald/users"
)

// Handlers are the developer API handlers and the services they call.
type Handlers struct {
	Auth       *web.Auth
	Notify     *notify.Service
	Inbox      *inbox.Service
	Users      *users.Service
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
	SendLimit *ratelimit.Limiter
}

// Register mounts the developer API on r (the /v3 group).
func (h *Handlers) Register(r fiber.Router) {
	r.Post("/notifications", h.Auth.App(), web.SendRateLimit(h.SendLimit), h.sendNotification)
	r.Get("/notifications", h.Auth.UserOrApp("userIdentifier"), h.listNotifications)

	app, user := h.Auth.App(), h.Auth.User()
	// The bulk routes come before /notifications/:notificationId.
	r.Post("/notifications/markAllNotificationsAsSeen", user, h.markAllSeen)
	r.Post("/notifications/markAllNotificationsAsRead", user, h.markAllRead)
	r.Post("/notifications/markAllNotificationsAsDeleted", user, h.markAllDeleted)
	r.Get("/notifications/:notificationId", user, h.getNotification)
	r.Delete("/notifications/:notificationId", user, h.deleteNotification)
	r.Post("/notifications/:notificationId/click", user, h.applyChange(inbox.Click))
	r.Post("/notifications/:notificationId/views", user, h.applyChange(inbox.MarkSeen))
	r.Delete("/notifications/:notificationId/views", user, h.applyChange(inbox.MarkUnseen))
	r.Post("/notifications/:notificationId/reads", user, h.applyChange(inbox.MarkRead))
	r.Delete("/notifications/:notificationId/reads", user, h.applyChange(inbox.MarkUnread))
	r.Put("/notifications/:notificationId/state", user, h.setState)

	r.Get("/profile", user, h.getProfile)
	r.Put("/profile", user, h.putProfile)
	r.Patch("/profile", user, h.patchProfile)
	r.Get("/preferences", user, h.getPreferences)
	r.Patch("/preferences", user, h.patchPreferences)
	r.Get("/categories", user, h.listCategories)
	r.Post("/categories", h.Auth.AppWithSecretKey(), h.createCategory)
	r.Delete("/categories/:categoryId", h.Auth.AppWithSecretKey(), h.deleteCategory)
	r.Post("/users", app, h.createUser)
	r.Put("/users/:identifier", app, h.putUser)
	r.Delete("/users/:identifier", app, h.deleteUser)

	r.Post("/sdk/connect", h.Auth.Device(), h.connect)
	r.Post("/devices/:deviceId/webPushSubscription", user, h.saveWebPushSubscription)

	r.Post("/topics", app, h.createTopic)
	r.Get("/topics", app, h.listTopics)
	r.Get("/topics/subscriptions/:userIdentifier", app, h.listUserSubscriptions)
	r.Patch("/topics/:topicId", app, h.renameTopic)
	r.Delete("/topics/:topicId", app, h.deleteTopic)
	r.Post("/topics/:topicId/users", app, h.attachTopicUsers)
	r.Post("/topics/:topicId/detachUsers", app, h.detachTopicUsers)
	r.Put("/topics/:topicId/users/:userIdentifier", app, h.updateTopicSubscription)

	r.Post("/sdk/realtimeTokenRequests", user, h.requestRealtimeToken)
	r.Get("/realtime", h.realtimeStream())
	r.Get("/translations/inapp", user, h.inAppTranslations)
	r.Post("/workflows/cancel", app, h.cancelWorkflows)
	r.Post("/workflows/schedules", app, h.createRecurring)
	r.Get("/workflows/schedules", app, h.listRecurring)
	r.Delete("/workflows/schedules/:scheduleId", app, h.deleteRecurring)

	r.Get("/openapi.json", h.openAPI)
}
