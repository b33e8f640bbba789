package v1

import (
	"slices"
	"strings"

	"github.com/gofiber/fiber/v2"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/internal/console/clients"
	"github.com/heraldhq/herald/internal/delivery/channels"
	"github.com/heraldhq/herald/internal/providers"
)

// listProviders is the catalogue of provider kinds (?channel= keeps one channel's), each
// with the JSON Schema of its configuration; secret keys carry "x-secret": true.
func (h *Configuration) listProviders(c *fiber.Ctx) error {
	ch := strings.Clone(c.Query("channel"))
	if ch != "" {
		var p herald.Problems
		checkChannelName(ch, &p)
		if err := p.Err(); err != nil {
			return err
		}
	}
	list := h.Channels.Catalogue().List(ch)
	if list == nil {
		list = []providers.Kind{}
	}
	return c.JSON(list)
}

// checkChannelName accepts the channels that deliver through providers.
func checkChannelName(ch string, p *herald.Problems) {
	if !slices.Contains(channels.DeliveryChannels(), ch) {
		p.Addf("channel must be one of %s", strings.Join(channels.DeliveryChannels(), ", "))
	}
}

// channelParam reads and checks :channel.
func channelParam(c *fiber.Ctx) (string, error) {
	ch := param(c, "channel")
	var p herald.Problems
	checkChannelName(ch, &p)
	return ch, p.Err()
}

// listChannelInstances lists the app's provider instances: every channel's, or the
// :channel's when the route names one.
func (h *Configuration) listChannelInstances(c *fiber.Ctx, s appScope) error {
	ch := ""
	if c.Params("channel") != "" {
		var err error
		if ch, err = channelParam(c); err != nil {
			return err
		}
	}
	list, err := h.Channels.ListInstances(c.UserContext(), s.AppID, ch)
	if err != nil {
		return err
	}
	return c.JSON(list)
}

func (h *Configuration) channelOverview(c *fiber.Ctx, s appScope) error {
	out, err := h.Channels.Overview(c.UserContext(), s.AppID)
	if err != nil {
		return err
	}
	return c.JSON(out)
}

func (h *Configuration) channelProviderKinds(c *fiber.Ctx, s appScope) error {
	ch, err := channelParam(c)
	if err != nil {
		return err
	}
	out, err := h.Channels.ChannelProviders(c.UserContext(), s.AppID, ch)
	if err != nil {
		return err
	}
	return c.JSON(out)
}

func (h *Configuration) channelProviderKind(c *fiber.Ctx, s appScope) error {
	ch, err := channelParam(c)
	if err != nil {
		return err
	}
	list, err := h.Channels.ChannelProviders(c.UserContext(), s.AppID, ch)
	if err != nil {
		return err
	}
	id := param(c, "providerIdentifier")
	for _, k := range list {
		if k.Identifier == id {
			return c.JSON(k)
		}
	}
	return herald.Errorf(herald.ENOTFOUND, "provider %q is not a provider of %s", id, ch)
}

// instanceInput reads EnableChannelDTO / CreateProviderInstanceDto / the PATCH bodies:
// {providerIdentifier, name, config, priority, enabled, test}. A connection test runs when
// the body's test is true or the query has ?test=true. Owners and admins may change where
// an existing instance connects (developers: 403).
func instanceInput(c *fiber.Ctx, s appScope, withProvider bool) (channels.InstanceInput, error) {
	b, err := readBody(c)
	if err != nil {
		return channels.InstanceInput{}, err
	}
	in := channels.InstanceInput{Config: b.object("config"), Enabled: b.boolean("enabled"), Priority: b.integer("priority"),
		MayRedirect: s.Role.AtLeast(clients.Admin)}
	if withProvider {
		in.Provider = b.str("providerIdentifier", true)
	}
	if n := b.optStr("name"); n != nil {
		in.Name = *n
	}
	test := b.boolean("test")
	q := queryBool(c, "test", &b.p)
	in.Test = (test != nil && *test) || (q != nil && *q)
	return in, b.err()
}

// enableProvider configures a provider on a channel (EnableChannelDTO {config, name,
// priority, test}): its instance is created, or its configuration merged, and enabled.
func (h *Configuration) enableProvider(c *fiber.Ctx, s appScope) error {
	ch, err := channelParam(c)
	if err != nil {
		return err
	}
	in, err := instanceInput(c, s, false)
	if err != nil {
		return err
	}
	inst, err := h.Channels.EnableProvider(c.UserContext(), s.AppID, ch, param(c, "providerIdentifier"), in)
	if err != nil {
		return err
	}
	return c.JSON(inst)
}

// updateProvider changes the provider's instance on a channel; answers true.
func (h *Configuration) updateProvider(c *fiber.Ctx, s appScope) error {
	ch, err := channelParam(c)
	if err != nil {
		return err
	}
	in, err := instanceInput(c, s, false)
	if err != nil {
		return err
	}
	if _, err := h.Channels.UpdateProvider(c.UserContext(), s.AppID, ch, param(c, "providerIdentifier"), in); err != nil {
		return err
	}
	return c.JSON(true)
}

func (h *Configuration) setProviderEnabled(on bool) func(*fiber.Ctx, appScope) error {
	return func(c *fiber.Ctx, s appScope) error {
		ch, err := channelParam(c)
		if err != nil {
			return err
		}
		inst, err := h.Channels.SetProviderEnabled(c.UserContext(), s.AppID, ch, param(c, "providerIdentifier"), on)
		if err != nil {
			return err
		}
		return c.JSON(inst)
	}
}

// setProviderRouting sets the provider's place in the channel's default order
// (UpdateProviderRoutingConfig {priority}; lower first).
func (h *Configuration) setProviderRouting(c *fiber.Ctx, s appScope) error {
	ch, err := channelParam(c)
	if err != nil {
		return err
	}
	b, err := readBody(c)
	if err != nil {
		return err
	}
	prio := b.integer("priority")
	if prio == nil && len(b.p) == 0 {
		b.p.Addf("priority should not be empty")
	}
	if err := b.err(); err != nil {
		return err
	}
	out, err := h.Channels.SetProviderPriority(c.UserContext(), s.AppID, ch, param(c, "providerIdentifier"), *prio)
	if err != nil {
		return err
	}
	return c.JSON(out)
}

// createInstance adds a provider instance (CreateProviderInstanceDto {providerIdentifier,
// name, config, priority, enabled, test}).
func (h *Configuration) createInstance(c *fiber.Ctx, s appScope) error {
	ch, err := channelParam(c)
	if err != nil {
		return err
	}
	in, err := instanceInput(c, s, true)
	if err != nil {
		return err
	}
	inst, err := h.Channels.CreateInstance(c.UserContext(), s.AppID, ch, in)
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(inst)
}

// instanceOf reads :channel and :providerInstance; an instance of another channel is not
// found.
func (h *Configuration) instanceOf(c *fiber.Ctx, s appScope) (channels.Instance, error) {
	ch, err := channelParam(c)
	if err != nil {
		return channels.Instance{}, err
	}
	var p herald.Problems
	id := pathID(c, "providerInstance", &p)
	if err := p.Err(); err != nil {
		return channels.Instance{}, err
	}
	inst, err := h.Channels.GetInstance(c.UserContext(), s.AppID, id)
	if err != nil {
		return channels.Instance{}, err
	}
	if inst.Channel != ch {
		return channels.Instance{}, herald.NotFound("provider instance")
	}
	return inst, nil
}

func (h *Configuration) getInstance(c *fiber.Ctx, s appScope) error {
	inst, err := h.instanceOf(c, s)
	if err != nil {
		return err
	}
	return c.JSON(inst)
}

// updateInstance changes an instance ({name, config, priority, enabled, test}; config is
// merged: a secret sent as "********" or left out keeps its value, null removes a key).
func (h *Configuration) updateInstance(c *fiber.Ctx, s appScope) error {
	inst, err := h.instanceOf(c, s)
	if err != nil {
		return err
	}
	in, err := instanceInput(c, s, false)
	if err != nil {
		return err
	}
	out, err := h.Channels.UpdateInstance(c.UserContext(), s.AppID, inst.ID, in)
	if err != nil {
		return err
	}
	return c.JSON(out)
}

func (h *Configuration) setInstanceEnabled(on bool) func(*fiber.Ctx, appScope) error {
	return func(c *fiber.Ctx, s appScope) error {
		inst, err := h.instanceOf(c, s)
		if err != nil {
			return err
		}
		out, err := h.Channels.SetInstanceEnabled(c.UserContext(), s.AppID, inst.ID, on)
		if err != nil {
			return err
		}
		return c.JSON(out)
	}
}

func (h *Configuration) listRoutes(c *fiber.Ctx, s appScope) error {
	ch, err := channelParam(c)
	if err != nil {
		return err
	}
	list, err := h.Channels.ListRoutes(c.UserContext(), s.AppID, ch)
	if err != nil {
		return err
	}
	return c.JSON(list)
}

// routeInput reads CreateRouteDto / UpdateRouteDto {name, providerInstanceIds, conditions,
// failover, priority, enabled}.
func routeInput(c *fiber.Ctx) (channels.RouteInput, error) {
	b, err := readBody(c)
	if err != nil {
		return channels.RouteInput{}, err
	}
	in := channels.RouteInput{InstanceIDs: b.ids("providerInstanceIds"), Conditions: b.raw("conditions"),
		Failover: b.boolean("failover"), Priority: b.integer("priority"), Enabled: b.boolean("enabled")}
	if n := b.optStr("name"); n != nil {
		in.Name = *n
	}
	return in, b.err()
}

func (h *Configuration) createRoute(c *fiber.Ctx, s appScope) error {
	ch, err := channelParam(c)
	if err != nil {
		return err
	}
	in, err := routeInput(c)
	if err != nil {
		return err
	}
	r, err := h.Channels.CreateRoute(c.UserContext(), s.AppID, ch, in)
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(r)
}

func (h *Configuration) getRoute(c *fiber.Ctx, s appScope, id int64) error {
	r, err := h.Channels.GetRoute(c.UserContext(), s.AppID, id)
	if err != nil {
		return err
	}
	return c.JSON(r)
}

func (h *Configuration) updateRoute(c *fiber.Ctx, s appScope, id int64) error {
	in, err := routeInput(c)
	if err != nil {
		return err
	}
	r, err := h.Channels.UpdateRoute(c.UserContext(), s.AppID, id, in)
	if err != nil {
		return err
	}
	return c.JSON(r)
}

func (h *Configuration) deleteRoute(c *fiber.Ctx, s appScope, id int64) error {
	if err := h.Channels.DeleteRoute(c.UserContext(), s.AppID, id); err != nil {
		return err
	}
	return c.JSON(true)
}
