package v1

import (
	"github.com/gofiber/fiber/v2"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/internal/console/apps"
	"github.com/heraldhq/herald/internal/console/audit"
	"github.com/heraldhq/herald/internal/console/clients"
	"github.com/heraldhq/herald/internal/platform/jsonshape"
)

func (h *Console) listClients(c *fiber.Ctx) error {
	list, err := h.Clients.List(c.UserContext(), actor(c))
	if err != nil {
		return err
	}
	return c.JSON(list)
}

// createClient makes a client (CreateClientDTO {name}) owned by the caller.
func (h *Console) createClient(c *fiber.Ctx) error {
	b, err := readBody(c)
	if err != nil {
		return err
	}
	name := b.str("name", true)
	var p herald.Problems
	clients.CheckName(name, &p)
	if err := b.err(p); err != nil {
		return err
	}
	cl, err := h.Clients.Create(c.UserContext(), actor(c), name)
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(cl)
}

// clientID reads the :clientId path parameter.
func clientID(c *fiber.Ctx) (int64, error) {
	var p herald.Problems
	id := pathID(c, "clientId", &p)
	return id, p.Err()
}

func (h *Console) getClient(c *fiber.Ctx) error {
	id, err := clientID(c)
	if err != nil {
		return err
	}
	cl, err := h.Clients.Get(c.UserContext(), actor(c), id)
	if err != nil {
		return err
	}
	return c.JSON(cl)
}

// updateClient renames a client (UpdateClientDTO {name}).
func (h *Console) updateClient(c *fiber.Ctx) error {
	id, err := clientID(c)
	if err != nil {
		return err
	}
	b, err := readBody(c)
	if err != nil {
		return err
	}
	name := b.str("name", true)
	var p herald.Problems
	clients.CheckName(name, &p)
	if err := b.err(p); err != nil {
		return err
	}
	cl, err := h.Clients.Rename(c.UserContext(), actor(c), id, name)
	if err != nil {
		return err
	}
	return c.JSON(cl)
}

func (h *Console) listApps(c *fiber.Ctx) error {
	id, err := clientID(c)
	if err != nil {
		return err
	}
	if _, err := h.Clients.Access(c.UserContext(), actor(c), id, clients.Viewer); err != nil {
		return err
	}
	list, err := h.Apps.ListInClient(c.UserContext(), id)
	if err != nil {
		return err
	}
	return c.JSON(list)
}

// createApp makes an app under the client (CreateAppDTO {name}, admins); the answer
// carries the API secret.
func (h *Console) createApp(c *fiber.Ctx) error {
	id, err := clientID(c)
	if err != nil {
		return err
	}
	if _, err := h.Clients.Access(c.UserContext(), actor(c), id, clients.Admin); err != nil {
		return err
	}
	b, err := readBody(c)
	if err != nil {
		return err
	}
	name := b.str("name", true)
	var p herald.Problems
	if name != "" {
		apps.CheckName(name, &p)
	}
	if err := b.err(p); err != nil {
		return err
	}
	app, err := h.Apps.CreateInClient(c.UserContext(), id, name)
	if err != nil {
		return err
	}
	if err := h.recordApp(c, appScope{AppID: app.ID, ClientID: id}, audit.AppCreated, app.Name, map[string]any{"secretShown": app.APISecret != ""}); err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(app)
}

// initializeEnvironment gives a client without apps its two default environments,
// Development and Production (admins). A client that has apps keeps them unchanged.
func (h *Console) initializeEnvironment(c *fiber.Ctx) error {
	id, err := clientID(c)
	if err != nil {
		return err
	}
	if _, err := h.Clients.Access(c.UserContext(), actor(c), id, clients.Admin); err != nil {
		return err
	}
	list, err := h.Apps.ListInClient(c.UserContext(), id)
	if err != nil {
		return err
	}
	created := len(list) == 0
	if created {
		for _, name := range []string{"Development", "Production"} {
			app, err := h.Apps.CreateInClient(c.UserContext(), id, name)
			if err != nil {
				return err
			}
			if err := h.recordApp(c, appScope{AppID: app.ID, ClientID: id}, audit.AppCreated, app.Name, map[string]any{"secretShown": app.APISecret != ""}); err != nil {
				return err
			}
			list = append(list, app)
		}
	}
	return c.JSON(fiber.Map{"created": created, "apps": list})
}

func (h *Console) listMembers(c *fiber.Ctx) error {
	id, err := clientID(c)
	if err != nil {
		return err
	}
	list, err := h.Clients.Members(c.UserContext(), actor(c), id)
	if err != nil {
		return err
	}
	return c.JSON(list)
}

// readRole reads a role field; required roles must be present.
func readRole(b *body, required bool) clients.Role {
	raw := b.str("role", required)
	if raw == "" {
		return clients.Developer
	}
	r, ok := clients.ParseRole(raw)
	if !ok {
		b.p.Addf("role must be one of owner, admin, developer, viewer")
	}
	return r
}

// addMember invites one address with a role (AddClientUserDTO {email, role}); the person
// joins by accepting, so nobody becomes a member without consent.
func (h *Console) addMember(c *fiber.Ctx) error {
	id, err := clientID(c)
	if err != nil {
		return err
	}
	b, err := readBody(c)
	if err != nil {
		return err
	}
	email := b.str("email", true)
	role := readRole(b, false)
	if err := b.err(); err != nil {
		return err
	}
	inv, err := h.Clients.Invite(c.UserContext(), actor(c), id, []string{email}, role)
	if err != nil {
		return err
	}
	return c.JSON(inv[0])
}

// memberPath reads :clientId and :clientUserId (the member's console user id).
func memberPath(c *fiber.Ctx) (client, user int64, err error) {
	var p herald.Problems
	client = pathID(c, "clientId", &p)
	user = pathID(c, "clientUserId", &p)
	return client, user, p.Err()
}

// setMemberRole changes a member's role (UpdateClientUserRoleDTO {role}).
func (h *Console) setMemberRole(c *fiber.Ctx) error {
	client, user, err := memberPath(c)
	if err != nil {
		return err
	}
	b, err := readBody(c)
	if err != nil {
		return err
	}
	role := readRole(b, true)
	if err := b.err(); err != nil {
		return err
	}
	if err := h.Clients.SetRole(c.UserContext(), actor(c), client, user, role); err != nil {
		return err
	}
	return c.JSON(true)
}

func (h *Console) removeMember(c *fiber.Ctx) error {
	client, user, err := memberPath(c)
	if err != nil {
		return err
	}
	if err := h.Clients.Remove(c.UserContext(), actor(c), client, user); err != nil {
		return err
	}
	return c.JSON(true)
}

func (h *Console) listInvitations(c *fiber.Ctx) error {
	id, err := clientID(c)
	if err != nil {
		return err
	}
	list, err := h.Clients.Invitations(c.UserContext(), actor(c), id)
	if err != nil {
		return err
	}
	return c.JSON(list)
}

func (h *Console) revokeInvitation(c *fiber.Ctx) error {
	var p herald.Problems
	client := pathID(c, "clientId", &p)
	inv := pathID(c, "invitationId", &p)
	if err := p.Err(); err != nil {
		return err
	}
	if err := h.Clients.Revoke(c.UserContext(), actor(c), client, inv); err != nil {
		return err
	}
	return c.JSON(true)
}

// inviteUsers invites every address of the body (an array of strings); role query
// parameter optional (developer by default).
func (h *Console) inviteUsers(c *fiber.Ctx) error {
	id, err := clientID(c)
	if err != nil {
		return err
	}
	emails, ok := jsonshape.Strings(c.Body())
	if !ok {
		return herald.Invalid("body must be an array of email addresses")
	}
	role := clients.Developer
	if raw := c.Query("role"); raw != "" {
		if role, ok = clients.ParseRole(raw); !ok {
			return herald.Invalid("role must be one of owner, admin, developer, viewer")
		}
	}
	list, err := h.Clients.Invite(c.UserContext(), actor(c), id, emails, role)
	if err != nil {
		return err
	}
	return c.JSON(list)
}

func (h *Console) listCLITokens(c *fiber.Ctx) error {
	id, err := clientID(c)
	if err != nil {
		return err
	}
	list, err := h.Clients.Tokens(c.UserContext(), actor(c), id)
	if err != nil {
		return err
	}
	return c.JSON(list)
}

// createCLIToken issues a CLI token (CreateCliTokenDTO {name, role}); the token is in
// this answer only.
func (h *Console) createCLIToken(c *fiber.Ctx) error {
	id, err := clientID(c)
	if err != nil {
		return err
	}
	b, err := readBody(c)
	if err != nil {
		return err
	}
	name := b.str("name", false)
	role := b.str("role", false)
	if err := b.err(); err != nil {
		return err
	}
	t, err := h.Clients.CreateToken(c.UserContext(), actor(c), id, name, clients.Role(role))
	if err != nil {
		return err
	}
	c.Set(fiber.HeaderCacheControl, "no-store")
	return c.Status(fiber.StatusCreated).JSON(t)
}

func (h *Console) revokeCLIToken(c *fiber.Ctx) error {
	var p herald.Problems
	client := pathID(c, "clientId", &p)
	tok := pathID(c, "tokenId", &p)
	if err := p.Err(); err != nil {
		return err
	}
	if err := h.Clients.RevokeToken(c.UserContext(), actor(c), client, tok); err != nil {
		return err
	}
	return c.JSON(true)
}
