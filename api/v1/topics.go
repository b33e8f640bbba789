package v1

import (
	"math"

	"github.com/gofiber/fiber/v2"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/api/web"
)

// createTopic adds a topic (CreateTopicDto {identifier, name}).
func (h *Configuration) createTopic(c *fiber.Ctx, s appScope) error {
	t, err := h.Topics.Create(c.UserContext(), s.AppID, c.Body())
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(t)
}

func (h *Configuration) listTopics(c *fiber.Ctx, s appScope) error {
	list, err := h.Topics.List(c.UserContext(), s.AppID)
	if err != nil {
		return err
	}
	return c.JSON(list)
}

// renameTopic changes a topic's name (UpdateTopicDto {name}).
func (h *Configuration) renameTopic(c *fiber.Ctx, s appScope, id int64) error {
	t, err := h.Topics.Rename(c.UserContext(), s.AppID, id, c.Body())
	if err != nil {
		return err
	}
	return c.JSON(t)
}

func (h *Configuration) deleteTopic(c *fiber.Ctx, s appScope, id int64) error {
	if err := h.Topics.Delete(c.UserContext(), s.AppID, id); err != nil {
		return err
	}
	return c.JSON(true)
}

// attachTopicUsers subscribes users (AttachUserToTopicDTO {users: [{identifier,
// channels}]}); unknown users are created.
func (h *Configuration) attachTopicUsers(c *fiber.Ctx, s appScope, id int64) error {
	n, err := h.Topics.Subscribe(c.UserContext(), s.AppID, id, c.Body())
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(n)
}

// listTopicUsers pages through a topic's subscriptions (pageNo, limit).
func (h *Configuration) listTopicUsers(c *fiber.Ctx, s appScope, id int64) error {
	var p herald.Problems
	pageNo := web.QueryInt(c, "pageNo", 1, 1, math.MaxInt32/maxPageLimit, &p)
	limit := web.QueryInt(c, "limit", defaultPageLimit, 1, maxPageLimit, &p)
	if err := p.Err(); err != nil {
		return err
	}
	page, err := h.Topics.Subscribers(c.UserContext(), s.AppID, id, pageNo, limit)
	if err != nil {
		return err
	}
	return c.JSON(page)
}

func (h *Configuration) detachTopicUser(c *fiber.Ctx, s appScope, id int64) error {
	var p herald.Problems
	userID := pathID(c, "userId", &p)
	if err := p.Err(); err != nil {
		return err
	}
	if err := h.Topics.DetachUser(c.UserContext(), s.AppID, id, userID); err != nil {
		return err
	}
	return c.JSON(true)
}

func (h *Configuration) deleteTopicSubscription(c *fiber.Ctx, s appScope, id int64) error {
	var p herald.Problems
	sub := pathID(c, "subscriptionId", &p)
	if err := p.Err(); err != nil {
		return err
	}
	if err := h.Topics.DeleteSubscription(c.UserContext(), s.AppID, id, sub); err != nil {
		return err
	}
	return c.JSON(true)
}
