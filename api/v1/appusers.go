package v1

import (
	"math"
	"strings"
	"unicode/utf8"

	"github.com/gofiber/fiber/v2"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/api/web"
	"github.com/heraldhq/herald/internal/audience/appadmin"
	"github.com/heraldhq/herald/internal/audience/categories"
	"github.com/heraldhq/herald/internal/audience/users"
	"github.com/heraldhq/herald/internal/console/clients"
	"github.com/heraldhq/herald/internal/inbox"
	"github.com/heraldhq/herald/internal/lifecycle/erasure"
	"github.com/heraldhq/herald/internal/lifecycle/export"
	"github.com/heraldhq/herald/internal/platform/jsonshape"
)

// listUsers pages through the app's users (pageNo, limit, identifier prefix).
func (h *Console) listUsers(c *fiber.Ctx, s appScope) error {
	var p herald.Problems
	pageNo := web.QueryInt(c, "pageNo", 1, 1, math.MaxInt32/appadmin.MaxLimit, &p)
	limit := web.QueryInt(c, "limit", appadmin.DefaultLimit, 1, appadmin.MaxLimit, &p)
	if !utf8.ValidString(c.Query("identifier")) {
		p.Addf("identifier must be valid UTF-8")
	}
	if err := p.Err(); err != nil {
		return err
	}
	page, err := h.AppAdmin.Users(c.UserContext(), s.AppID, pageNo, limit, strings.Clone(c.Query("identifier")))
	if err != nil {
		return err
	}
	return c.JSON(page)
}

// createUser adds a user (CreateUserDTO {identifier, profile}).
func (h *Console) createUser(c *fiber.Ctx, s appScope) error {
	b, err := readBody(c)
	if err != nil {
		return err
	}
	id := b.str("identifier", true)
	profile := b.object("profile")
	if id != "" {
		users.CheckIdentifier("identifier", id, &b.p)
	}
	if err := b.err(); err != nil {
		return err
	}
	u, err := h.AppAdmin.CreateUser(c.UserContext(), s.AppID, id, profile)
	if err != nil {
		return err
	}
	return c.JSON(u)
}

// upsertUser creates the user or merges the body (profile fields) into its profile.
func (h *Console) upsertUser(c *fiber.Ctx, s appScope) error {
	body := c.Body()
	if jsonshape.Kind(body) != "object" {
		return herald.Invalid("body must be a JSON object")
	}
	u, err := h.AppAdmin.UpsertUser(c.UserContext(), s.AppID, param(c, "identifier"), body)
	if err != nil {
		return err
	}
	return c.JSON(u)
}

// deleteUser erases a user and everything about it (internal/lifecycle/erasure) and
// answers what was erased, per kind.
func (h *Console) deleteUser(c *fiber.Ctx, s appScope) error {
	a := actor(c)
	rep, err := h.Erasure.Erase(c.UserContext(), s.AppID, param(c, "identifier"),
		erasure.Actor{ConsoleUserID: a.UserID, ViaTokenID: a.TokenID, Via: "console"})
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{"erased": rep})
}

// exportUser answers everything Herald holds about a user as one JSON document (a
// data-subject access request), as a download.
func (h *Console) exportUser(c *fiber.Ctx, s appScope) error {
	a := actor(c)
	identifier := param(c, "identifier")
	out, err := h.Export.Export(c.UserContext(), s.AppID, identifier,
		export.Reader{ConsoleUserID: a.UserID, ViaTokenID: a.TokenID, ClientID: s.ClientID})
	if err != nil {
		return err
	}
	c.Set(fiber.HeaderContentDisposition, `attachment; filename="user-export.json"`)
	c.Set(fiber.HeaderCacheControl, "no-store")
	return c.JSON(out)
}

func (h *Console) userProfile(c *fiber.Ctx, s appScope) error {
	p, err := h.AppAdmin.Profile(c.UserContext(), s.AppID, param(c, "identifier"))
	if err != nil {
		return err
	}
	c.Set(fiber.HeaderContentType, fiber.MIMEApplicationJSON)
	return c.Send(p)
}

func (h *Console) userPreferences(c *fiber.Ctx, s appScope) error {
	list, err := h.AppAdmin.Preferences(c.UserContext(), s.AppID, param(c, "identifier"))
	if err != nil {
		return err
	}
	return c.JSON(list)
}

// createCategory adds a category (CreateCategoryDTO {identifier, name}).
func (h *Console) createCategory(c *fiber.Ctx, s appScope) error {
	cat, err := h.Categories.Create(c.UserContext(), s.AppID, c.Body())
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(cat.Entity())
}

func (h *Console) listCategories(c *fiber.Ctx, s appScope) error {
	list, err := h.Categories.List(c.UserContext(), s.AppID)
	if err != nil {
		return err
	}
	out := make([]categories.Entity, len(list))
	for i, cat := range list {
		out[i] = cat.Entity()
	}
	return c.JSON(out)
}

// category resolves :categoryId to its app, checking the caller's role through the app's
// client; other clients' categories are not found.
func (h *Console) category(c *fiber.Ctx) (appID, categoryID int64, err error) {
	var p herald.Problems
	categoryID = pathID(c, "categoryId", &p)
	if err := p.Err(); err != nil {
		return 0, 0, err
	}
	appID, clientID, err := h.Categories.Owner(c.UserContext(), categoryID)
	if err != nil {
		return 0, 0, err
	}
	if _, err := h.Clients.Access(c.UserContext(), actor(c), clientID, clients.Developer); err != nil {
		if herald.ErrorCode(err) == herald.ENOTFOUND {
			return 0, 0, herald.NotFound("category")
		}
		return 0, 0, err
	}
	return appID, categoryID, nil
}

// updateCategory renames a category and/or marks it critical (UpdateCategoryDto {name, critical}).
func (h *Console) updateCategory(c *fiber.Ctx) error {
	appID, id, err := h.category(c)
	if err != nil {
		return err
	}
	cat, err := h.Categories.Update(c.UserContext(), appID, id, c.Body())
	if err != nil {
		return err
	}
	return c.JSON(cat.Entity())
}

func (h *Console) deleteCategory(c *fiber.Ctx) error {
	appID, id, err := h.category(c)
	if err != nil {
		return err
	}
	if err := h.Categories.Delete(c.UserContext(), appID, id); err != nil {
		return err
	}
	return c.JSON(true)
}

// setUserPreferences changes a known user's preference switches (the body of the developer
// API's PATCH /v3/preferences) and answers the effective preferences.
func (h *Console) setUserPreferences(c *fiber.Ctx, s appScope) error {
	list, err := h.AppAdmin.SetPreferences(c.UserContext(), s.AppID, param(c, "identifier"), c.Body())
	if err != nil {
		return err
	}
	return c.JSON(list)
}

// userChannelPreferences returns a known user's switches for whole channels.
func (h *Console) userChannelPreferences(c *fiber.Ctx, s appScope) error {
	out, err := h.AppAdmin.Channels(c.UserContext(), s.AppID, param(c, "identifier"))
	if err != nil {
		return err
	}
	return c.JSON(out)
}

// setUserChannelPreferences changes a known user's channel switches ({"sms": false}) and
// answers all of them.
func (h *Console) setUserChannelPreferences(c *fiber.Ctx, s appScope) error {
	out, err := h.AppAdmin.SetChannels(c.UserContext(), s.AppID, param(c, "identifier"), c.Body())
	if err != nil {
		return err
	}
	return c.JSON(out)
}

// userFlowPreferences returns a known user's switches per workflow.
func (h *Console) userFlowPreferences(c *fiber.Ctx, s appScope) error {
	out, err := h.AppAdmin.Flows(c.UserContext(), s.AppID, param(c, "identifier"))
	if err != nil {
		return err
	}
	return c.JSON(out)
}

// setUserFlowPreferences changes a known user's switches per workflow and answers all.
func (h *Console) setUserFlowPreferences(c *fiber.Ctx, s appScope) error {
	out, err := h.AppAdmin.SetFlows(c.UserContext(), s.AppID, param(c, "identifier"), c.Body())
	if err != nil {
		return err
	}
	return c.JSON(out)
}

// userDevices lists a known user's devices with their push tokens shortened.
func (h *Console) userDevices(c *fiber.Ctx, s appScope) error {
	list, err := h.AppAdmin.Devices(c.UserContext(), s.AppID, param(c, "identifier"))
	if err != nil {
		return err
	}
	return c.JSON(list)
}

// userInbox pages through a known user's in-app notifications (pageNo, limit).
func (h *Console) userInbox(c *fiber.Ctx, s appScope) error {
	var p herald.Problems
	q := inbox.ListQuery{
		PageNo: web.QueryInt(c, "pageNo", 1, 1, math.MaxInt32/inbox.MaxLimit, &p),
		Limit:  web.QueryInt(c, "limit", 20, 1, inbox.MaxLimit, &p),
	}
	if err := p.Err(); err != nil {
		return err
	}
	page, err := h.AppAdmin.Inbox(c.UserContext(), s.AppID, param(c, "identifier"), q)
	if err != nil {
		return err
	}
	return c.JSON(page)
}

// userQuietHours returns a known user's quiet hours and time zone.
func (h *Console) userQuietHours(c *fiber.Ctx, s appScope) error {
	out, err := h.AppAdmin.QuietHours(c.UserContext(), s.AppID, param(c, "identifier"))
	if err != nil {
		return err
	}
	return c.JSON(out)
}

// setUserQuietHours replaces a known user's quiet hours and answers them.
func (h *Console) setUserQuietHours(c *fiber.Ctx, s appScope) error {
	out, err := h.AppAdmin.SetQuietHours(c.UserContext(), s.AppID, param(c, "identifier"), c.Body())
	if err != nil {
		return err
	}
	return c.JSON(out)
}
