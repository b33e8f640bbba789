package v3

import (
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/heraldhq/herald/api/web"
	"github.com/heraldhq/herald/internal/inbox"
	"github.com/heraldhq/herald/internal/realtime"
)

// realtimeTokenResponse is the answer of POST /v3/sdk/realtimeTokenRequests.
type realtimeTokenResponse struct {
	// Token authenticates one realtime connection of the user: `token` in the Socket.IO
	// CONNECT auth payload, or the `token` query parameter of the SSE stream.
	Token     string     `json:"token"`
	ExpiresAt inbox.Time `json:"expiresAt"`
	// Endpoint is the base URL socket.io-client connects to, at Path.
	Endpoint string `json:"endpoint"`
	Path     string `json:"path"`
	// SSE is the Server-Sent Events stream.
	SSE string `json:"sse"`
}

// requestRealtimeToken issues a short-lived realtime token for the calling user.
func (h *Handlers) requestRealtimeToken(c *fiber.Ctx) error {
	p := web.PrincipalOf(c)
	token, exp := h.Realtime.Tokens.Issue(p.App.APIKey, p.UserID)
	base := strings.TrimSuffix(h.Realtime.Opts.PublicURL, "/")
	if base == "" {
		base = c.BaseURL()
	}
	return c.JSON(realtimeTokenResponse{
		Token: token, ExpiresAt: inbox.Time(exp),
		Endpoint: base, Path: "/socket.io/", SSE: base + "/v3/realtime",
	})
}

// realtimeStream is GET /v3/realtime, the Server-Sent Events stream, taking credentials
// from the query or the configured headers.
func (h *Handlers) realtimeStream() fiber.Handler {
	n := h.Auth.Headers
	return h.Realtime.SSE(realtime.SSEHeaders{APIKey: n.APIKey, UserID: n.UserID, Signature: n.Signature})
}
