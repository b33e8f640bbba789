package v3

import (
	"github.com/gofiber/fiber/v2"

	"github.com/heraldhq/herald/api/web"
)

// createTopic adds a topic: 201 with the topic.
func (h *Handlers) createTopic(c *fiber.Ctx) error {
	t, err := h.Topics.Create(c.UserContext(), web.PrincipalOf(c).App.ID, c.Body())
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(t)
}

// listTopics returns the app's topics.
func (h *Handlers) listTopics(c *fiber.Ctx) error {
	ts, err := h.Topics.List(c.UserContext(), web.PrincipalOf(c).App.ID)
	if err != nil {
		return err
	}
	return c.JSON(ts)
}

// renameTopic changes a topic's name.
func (h *Handlers) renameTopic(c *fiber.Ctx) error {
	id, err := pathID(c, "topicId")
	if err != nil {
		return err
	}
	t, err := h.Topics.Rename(c.UserContext(), web.PrincipalOf(c).App.ID, id, c.Body())
	if err != nil {
		return err
	}
	return c.JSON(t)
}

// deleteTopic removes a topic and its subscriptions.
func (h *Handlers) deleteTopic(c *fiber.Ctx) error {
	id, err := pathID(c, "topicId")
	if err != nil {
		return err
	}
	if err := h.Topics.Delete(c.UserContext(), web.PrincipalOf(c).App.ID, id); err != nil {
		return err
	}
	return deleted(c, "topic")
}

// attachTopicUsers subscribes users to a topic.
func (h *Handlers) attachTopicUsers(c *fiber.Ctx) error {
	id, err := pathID(c, "topicId")
	if err != nil {
		return err
	}
	n, err := h.Topics.Subscribe(c.UserContext(), web.PrincipalOf(c).App.ID, id, c.Body())
	if err != nil {
		return err
	}
	return c.JSON(n)
}

// detachTopicUsers unsubscribes users from a topic.
func (h *Handlers) detachTopicUsers(c *fiber.Ctx) error {
	id, err := pathID(c, "topicId")
	if err != nil {
		return err
	}
	n, err := h.Topics.Unsubscribe(c.UserContext(), web.PrincipalOf(c).App.ID, id, c.Body())
	if err != nil {
		return err
	}
	return c.JSON(n)
}

// updateTopicSubscription sets the channels of one user's subscription.
func (h *Handlers) updateTopicSubscription(c *fiber.Ctx) error {
	id, err := pathID(c, "topicId")
	if err != nil {
		return err
	}
	user, err := pathString(c, "userIdentifier")
	if err != nil {
		return err
	}
	sub, err := h.Topics.UpdateSubscription(c.UserContext(), web.PrincipalOf(c).App.ID, id, user, c.Body())
	if err != nil {
		return err
	}
	return c.JSON(sub)
}

// listUserSubscriptions returns a user's topic subscriptions.
func (h *Handlers) listUserSubscriptions(c *fiber.Ctx) error {
	user, err := pathString(c, "userIdentifier")
	if err != nil {
		return err
	}
	subs, err := h.Topics.Subscriptions(c.UserContext(), web.PrincipalOf(c).App.ID, user)
	if err != nil {
		return err
	}
	return c.JSON(subs)
}
