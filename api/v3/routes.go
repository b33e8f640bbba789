package v3

import (
	"github.com/gofiber/fiber/v2"

	"github.com/heraldhq/herald/api/web"
	"github.com/heraldhq/herald/inbox"
	"github.com/heraldhq/herald/notify"
	"github.com/heraldhq/herald/realtime"
)

// Handlers are the developer API handlers and the services they call.
type Handlers struct {
	Auth   *web.Auth
	Notify *notify.Service
	Inbox  *inbox.Service
	// Realtime issues realtime tokens and serves the SSE stream.
	Realtime *realtime.Service
}

// Register mounts the developer API on r (the /v3 group).
func (h *Handlers) Register(r fiber.Router) {
	r.Post("/notifications", h.Auth.App(), h.sendNotification)
	r.Get("/notifications", h.Auth.UserOrApp("userIdentifier"), h.listNotifications)
	r.Post("/sdk/realtimeTokenRequests", h.Auth.User(), h.requestRealtimeToken)
	r.Get("/realtime", h.realtimeStream())
}
