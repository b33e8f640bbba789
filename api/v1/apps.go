package v1

import (
	"github.com/gofiber/fiber/v2"

	"github.com/heraldhq/herald/internal/console/apps"
	"github.com/heraldhq/herald/internal/console/audit"
)

func (h *Console) getApp(c *fiber.Ctx, s appScope) error {
	app, err := h.Apps.GetInClient(c.UserContext(), s.ClientID, s.AppID)
	if err != nil {
		return err
	}
	return c.JSON(app)
}

// updateApp changes name and settings (UpdateAppDTO {name, enableWebPush, hideBranding,
// hmacAuth, allowedOrigins, allowLongLivedUserTokens}; absent fields stay).
func (h *Console) updateApp(c *fiber.Ctx, s appScope) error {
	b, err := readBody(c)
	if err != nil {
		return err
	}
	u := apps.Update{Name: b.optStr("name"), EnableWebPush: b.boolean("enableWebPush"),
		HideBranding: b.boolean("hideBranding"), HMACAuth: b.boolean("hmacAuth"),
		AllowLongLivedUserTokens: b.boolean("allowLongLivedUserTokens")}
	if u.Name != nil {
		apps.CheckName(*u.Name, &b.p)
	}
	if origins, ok := b.stringList("allowedOrigins"); ok {
		u.AllowedOrigins = apps.CheckOrigins(origins, &b.p)
	}
	if err := b.err(); err != nil {
		return err
	}
	app, err := h.Apps.UpdateInClient(c.UserContext(), s.ClientID, s.AppID, u)
	if err != nil {
		return err
	}
	return c.JSON(app)
}

func (h *Console) deleteApp(c *fiber.Ctx, s appScope) error {
	if err := h.Apps.DeleteInClient(c.UserContext(), s.ClientID, s.AppID); err != nil {
		return err
	}
	return c.JSON(true)
}

// appSecret reveals the API secret (admins and owners).
func (h *Console) appSecret(c *fiber.Ctx, s appScope) error {
	app, err := h.Apps.RevealSecret(c.UserContext(), s.ClientID, s.AppID)
	if err != nil {
		return err
	}
	if err := h.recordApp(c, s, audit.AppSecretRevealed, app.Name, nil); err != nil {
		return err
	}
	c.Set(fiber.HeaderCacheControl, "no-store")
	return c.JSON(app)
}

// newRSAKey generates the signing key pair; the private key is in this answer only.
func (h *Console) newRSAKey(c *fiber.Ctx, s appScope) error {
	app, err := h.Apps.NewRSAKey(c.UserContext(), s.ClientID, s.AppID)
	if err != nil {
		return err
	}
	if err := h.recordApp(c, s, audit.AppRSAKeyGenerated, app.Name, map[string]any{"privateKeyShown": true}); err != nil {
		return err
	}
	c.Set(fiber.HeaderCacheControl, "no-store")
	return c.JSON(app)
}

// getRSAKey returns the app with its public key.
func (h *Console) getRSAKey(c *fiber.Ctx, s appScope) error { return h.getApp(c, s) }

func (h *Console) toggleSecureAuth(c *fiber.Ctx, s appScope) error {
	app, err := h.Apps.ToggleSecureAuth(c.UserContext(), s.ClientID, s.AppID)
	if err != nil {
		return err
	}
	return c.JSON(app)
}
