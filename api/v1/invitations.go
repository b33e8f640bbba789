package v1

import (
	"github.com/gofiber/fiber/v2"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/api/web"
	"github.com/heraldhq/herald/internal/console"
)

// getInvitation describes an invitation to the holder of its code (no sign-in needed:
// the console shows it before the invitee signs up or in).
func (h *Console) getInvitation(c *fiber.Ctx) error {
	v, err := h.Clients.ByCode(c.UserContext(), param(c, "code"))
	if err != nil {
		return err
	}
	return c.JSON(v)
}

// acceptInvitation makes the signed-in user a member of the inviting client.
func (h *Console) acceptInvitation(c *fiber.Ctx) error {
	me, err := h.Console.Me(c.UserContext(), actor(c).UserID)
	if err != nil {
		return err
	}
	v, err := h.Clients.Accept(c.UserContext(), me.ID, me.Email, param(c, "code"))
	if err != nil {
		return err
	}
	return c.JSON(v)
}

func (h *Console) resendInvitation(c *fiber.Ctx) error {
	var p herald.Problems
	id := pathID(c, "invitationId", &p)
	if err := p.Err(); err != nil {
		return err
	}
	inv, err := h.Clients.Resend(c.UserContext(), actor(c), id)
	if err != nil {
		return err
	}
	return c.JSON(inv)
}

// consoleUserID reads :id of /clientUsers/:id; people outside the caller's clients are not
// found.
func (h *Console) consoleUserID(c *fiber.Ctx) (int64, error) {
	var p herald.Problems
	id := pathID(c, "id", &p)
	if err := p.Err(); err != nil {
		return 0, err
	}
	ok, err := h.Clients.CanSee(c.UserContext(), actor(c).UserID, id)
	if err != nil {
		return 0, err
	}
	if !ok {
		return 0, herald.NotFound("client user")
	}
	return id, nil
}

// getConsoleUser returns a console user: oneself or someone sharing a client.
func (h *Console) getConsoleUser(c *fiber.Ctx) error {
	id, err := h.consoleUserID(c)
	if err != nil {
		return err
	}
	u, err := h.Console.Me(c.UserContext(), id)
	if err != nil {
		return err
	}
	if id != actor(c).UserID {
		// Only the person sees their own security settings and progress.
		return c.JSON(fiber.Map{"id": u.ID, "email": u.Email, "name": u.Name})
	}
	return c.JSON(u)
}

// self checks that :id is the caller: people change only their own account.
func (h *Console) self(c *fiber.Ctx) error {
	id, err := h.consoleUserID(c)
	if err != nil {
		return err
	}
	if id != web.ConsoleOf(c).Session.UserID {
		return herald.Errorf(herald.EFORBIDDEN, "only the account holder can change this account")
	}
	return nil
}

// updateConsoleUser changes one's name (UpdateClientUserDTO {name}).
func (h *Console) updateConsoleUser(c *fiber.Ctx) error {
	if err := h.self(c); err != nil {
		return err
	}
	b, err := readBody(c)
	if err != nil {
		return err
	}
	name := b.str("name", true)
	if err := b.err(); err != nil {
		return err
	}
	u, err := h.Console.UpdateName(c.UserContext(), actor(c).UserID, name)
	if err != nil {
		return err
	}
	return c.JSON(u)
}

// changePassword replaces one's password (UpdatePasswordDTO {currentPassword,
// newPassword}); other sessions end.
func (h *Console) changePassword(c *fiber.Ctx) error {
	if err := h.self(c); err != nil {
		return err
	}
	b, err := readBody(c)
	if err != nil {
		return err
	}
	cur, next := b.str("currentPassword", false), b.str("newPassword", true)
	var p herald.Problems
	console.CheckPassword("newPassword", next, &p)
	if err := b.err(p); err != nil {
		return err
	}
	if err := h.Console.ChangePassword(c.UserContext(), web.ConsoleOf(c).Session, cur, next); err != nil {
		return err
	}
	return c.JSON("password updated")
}
