package v1

import (
	"bytes"
	"net/http"
	"net/url"

	"github.com/gofiber/fiber/v2"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/internal/delivery/channels"
	"github.com/heraldhq/herald/internal/providers"
)

// ProviderCallbacks receives delivery events from providers at
// /v1/providerInstances/{instanceId}/callback. There are no credentials: the instance's
// provider verifies the signature where the provider signs its callbacks.
type ProviderCallbacks struct {
	Channels *channels.Service
}

// callbackMethods are the methods providers call back with, as the spec lists them. HEAD
// is listed on its own: r.Add(GET) does not bring HEAD along as r.Get does.
var callbackMethods = []string{fiber.MethodGet, fiber.MethodPost, fiber.MethodPut, fiber.MethodDelete, fiber.MethodPatch, fiber.MethodOptions, fiber.MethodHead}

// Register mounts the callback route on r (the /v1 group) for the methods of the spec.
func (h *ProviderCallbacks) Register(r fiber.Router) {
	for _, m := range callbackMethods {
		r.Add(m, "/providerInstances/:instanceId/callback", h.callback)
	}
}

func (h *ProviderCallbacks) callback(c *fiber.Ctx) error {
	id, err := c.ParamsInt("instanceId")
	if err != nil || id <= 0 {
		return herald.NotFound("provider instance")
	}
	header := http.Header{}
	for k, vs := range c.GetReqHeaders() {
		for _, v := range vs {
			header.Add(k, v)
		}
	}
	query, _ := url.ParseQuery(string(c.Request().URI().QueryString()))
	req := providers.CallbackRequest{
		Method: c.Method(),
		URL:    c.BaseURL() + c.OriginalURL(),
		Header: header,
		Query:  query,
		Body:   bytes.Clone(c.Body()),
	}
	n, err := h.Channels.Callback(c.UserContext(), int64(id), req)
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{"status": "ok", "updated": n})
}
