package channels

import (
	"context"
	"encoding/json"
	"slices"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/internal/providers"
)

// The /channels/{channel}/providers/{provider} routes address a provider on a channel
// rather than an instance: the one instance of that provider kind there. With several
// instances of the kind, the instance routes must be used.

// ProviderInstance returns the instance of a provider kind on a channel.
func (s *Service) ProviderInstance(ctx context.Context, appID int64, channel, provider string) (Instance, error) {
	list, err := s.ofKind(ctx, appID, channel, provider)
	if err != nil {
		return Instance{}, err
	}
	switch len(list) {
	case 0:
		return Instance{}, herald.Errorf(herald.ENOTFOUND, "%s is not configured on %s", provider, channel)
	case 1:
		return list[0], nil
	}
	return Instance{}, herald.Errorf(herald.ECONFLICT, "%d instances of %s are configured on %s: address one through /channels/%s/providerInstances/{id}", len(list), provider, channel, channel)
}

func (s *Service) ofKind(ctx context.Context, appID int64, channel, provider string) ([]Instance, error) {
	var p herald.Problems
	checkChannel(channel, &p)
	if err := p.Err(); err != nil {
		return nil, err
	}
	all, err := s.ListInstances(ctx, appID, channel)
	if err != nil {
		return nil, err
	}
	return slices.DeleteFunc(all, func(i Instance) bool { return i.Provider != provider }), nil
}

// EnableProvider configures a provider on a channel: it creates the provider's instance, or
// merges the configuration into the existing one, and enables it.
func (s *Service) EnableProvider(ctx context.Context, appID int64, channel, provider string, in InstanceInput) (Instance, error) {
	in.Provider = provider
	on := true
	if in.Enabled == nil {
		in.Enabled = &on
	}
	inst, err := s.ProviderInstance(ctx, appID, channel, provider)
	switch {
	case err == nil:
		return s.UpdateInstance(ctx, appID, inst.ID, in)
	case herald.ErrorCode(err) == herald.ENOTFOUND:
		return s.CreateInstance(ctx, appID, channel, in)
	}
	return Instance{}, err
}

// UpdateProvider changes the provider's instance on a channel.
func (s *Service) UpdateProvider(ctx context.Context, appID int64, channel, provider string, in InstanceInput) (Instance, error) {
	inst, err := s.ProviderInstance(ctx, appID, channel, provider)
	if err != nil {
		return Instance{}, err
	}
	return s.UpdateInstance(ctx, appID, inst.ID, in)
}

// SetProviderEnabled enables or disables the provider's instance on a channel.
func (s *Service) SetProviderEnabled(ctx context.Context, appID int64, channel, provider string, enabled bool) (Instance, error) {
	inst, err := s.ProviderInstance(ctx, appID, channel, provider)
	if err != nil {
		return Instance{}, err
	}
	return s.SetInstanceEnabled(ctx, appID, inst.ID, enabled)
}

// Routing is a channel's default delivery order: the enabled instances by priority, tried in
// turn when no route decides.
type Routing struct {
	Channel   string     `json:"channel"`
	Instances []Instance `json:"providerInstances"`
}

// SetProviderPriority sets the priority of the provider's instance on a channel and returns
// the channel's resulting order.
func (s *Service) SetProviderPriority(ctx context.Context, appID int64, channel, provider string, priority int) (Routing, error) {
	inst, err := s.ProviderInstance(ctx, appID, channel, provider)
	if err != nil {
		return Routing{}, err
	}
	if _, err := s.UpdateInstance(ctx, appID, inst.ID, InstanceInput{Priority: &priority}); err != nil {
		return Routing{}, err
	}
	list, err := s.ListInstances(ctx, appID, channel)
	return Routing{Channel: channel, Instances: list}, err
}

// ChannelSummary is one channel of an app as the console's channel page shows it.
type ChannelSummary struct {
	Channel string `json:"channel"`
	// Configured: the channel can deliver (an enabled instance; in-app always can).
	Configured bool              `json:"configured"`
	Providers  []ProviderSummary `json:"providers"`
	Routes     int               `json:"routes"`
}

// ProviderSummary is a provider kind on a channel with the app's instances of it.
type ProviderSummary struct {
	Identifier string `json:"identifier"`
	Name       string `json:"name"`
	// ConfigSchema is the kind's configuration schema (left out of the overview).
	ConfigSchema json.RawMessage `json:"configSchema,omitempty"`
	Instances    []Instance      `json:"instances"`
}

// Overview summarises every channel of the app: the provider kinds available on it and the
// app's instances of each.
func (s *Service) Overview(ctx context.Context, appID int64) ([]ChannelSummary, error) {
	out := []ChannelSummary{{Channel: herald.ChannelInApp, Configured: true, Providers: []ProviderSummary{}}}
	for _, ch := range DeliveryChannels() {
		sum, err := s.ChannelProviders(ctx, appID, ch)
		if err != nil {
			return nil, err
		}
		routes, err := s.ListRoutes(ctx, appID, ch)
		if err != nil {
			return nil, err
		}
		cs := ChannelSummary{Channel: ch, Providers: sum, Routes: len(routes)}
		for i, p := range sum {
			sum[i].ConfigSchema = nil
			for _, i := range p.Instances {
				cs.Configured = cs.Configured || i.Enabled
			}
		}
		out = append(out, cs)
	}
	return out, nil
}

// ChannelProviders returns the provider kinds of a channel with the app's instances of each
// (kinds of instances no longer in the build included).
func (s *Service) ChannelProviders(ctx context.Context, appID int64, channel string) ([]ProviderSummary, error) {
	var p herald.Problems
	checkChannel(channel, &p)
	if err := p.Err(); err != nil {
		return nil, err
	}
	list, err := s.ListInstances(ctx, appID, channel)
	if err != nil {
		return nil, err
	}
	var out []ProviderSummary
	add := func(k providers.Kind) {
		ps := ProviderSummary{Identifier: k.Identifier, Name: k.Name, ConfigSchema: k.ConfigSchema, Instances: []Instance{}}
		for _, i := range list {
			if i.Provider == k.Identifier {
				ps.Instances = append(ps.Instances, i)
			}
		}
		out = append(out, ps)
	}
	for _, k := range s.catalogue.List(channel) {
		add(k)
	}
	for _, i := range list {
		if _, ok := s.catalogue.Lookup(i.Provider); !ok && !slices.ContainsFunc(out, func(p ProviderSummary) bool { return p.Identifier == i.Provider }) {
			add(providers.Kind{Identifier: i.Provider, Name: i.Provider + " (not in this build)"})
		}
	}
	if out == nil {
		out = []ProviderSummary{}
	}
	return out, nil
}

// RouteOwner returns the app and client owning a route, for the management API's role
// check; a route of an app without a client is not found there.
func (s *Service) RouteOwner(ctx context.Context, id int64) (appID, clientID int64, err error) {
	r, err := s.db.GetRouteClient(ctx, id)
	if err != nil || r.ClientID == nil {
		return 0, 0, herald.NotFound("route")
	}
	return r.AppID, *r.ClientID, nil
}
