package channels

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/db/dbsqlc"
	"github.com/heraldhq/herald/internal/providers"
	"github.com/heraldhq/herald/internal/providers/configschema"
)

// Candidate is an instance chosen to deliver a message.
type Candidate struct {
	InstanceID int64
	AppID      int64
	Channel    string
	// Provider is the kind's identifier.
	Provider string
	Name     string
	// SendRate is the instance's send rate in messages per second (config.sendRate), which
	// deliveries honour across every worker; 0 is no limit.
	SendRate float64

	public    json.RawMessage
	sealed    []byte
	updatedAt time.Time
}

// Plan returns the instances to try, in order, for a message of the app on a channel. The
// first enabled route (by priority) whose conditions hold for facts and that has an
// enabled instance decides: its instances in order, or only the first without failover.
// Without such a route, every enabled instance is tried by priority. Empty means the
// channel is not configured.
func (s *Service) Plan(ctx context.Context, appID int64, channel string, facts map[string]any) ([]Candidate, error) {
	p, err := s.Planner(ctx, appID, channel)
	if err != nil {
		return nil, err
	}
	return p.Plan(facts), nil
}

// Planner holds an app's enabled instances and routes of one channel, loaded once, so a
// batch of messages is planned without a query per message.
type Planner struct {
	byID      map[int64]dbsqlc.ProviderInstance
	instances []dbsqlc.ProviderInstance
	routes    []dbsqlc.Route
}

// Planner loads what Plan decides on for an app's channel.
func (s *Service) Planner(ctx context.Context, appID int64, channel string) (*Planner, error) {
	rows, err := s.db.ListEnabledProviderInstances(ctx, dbsqlc.ListEnabledProviderInstancesParams{AppID: appID, Channel: channel})
	if err != nil {
		return nil, db.MapError(err)
	}
	p := &Planner{instances: rows, byID: make(map[int64]dbsqlc.ProviderInstance, len(rows))}
	if len(rows) == 0 {
		return p, nil
	}
	for _, r := range rows {
		p.byID[r.ID] = r
	}
	if p.routes, err = s.db.ListEnabledRoutes(ctx, dbsqlc.ListEnabledRoutesParams{AppID: appID, Channel: channel}); err != nil {
		return nil, db.MapError(err)
	}
	return p, nil
}

// Plan returns the instances to try for a message whose template data is facts (see
// Service.Plan).
func (p *Planner) Plan(facts map[string]any) []Candidate {
	if len(p.instances) == 0 {
		return nil
	}
	for _, r := range p.routes {
		var conds []Condition
		if json.Unmarshal(r.Conditions, &conds) != nil || !matchAll(conds, facts) {
			continue
		}
		var out []Candidate
		for _, id := range r.InstanceIds {
			if inst, ok := p.byID[id]; ok {
				out = append(out, candidate(inst))
			}
		}
		if len(out) == 0 {
			continue
		}
		if !r.Failover {
			out = out[:1]
		}
		return out
	}
	out := make([]Candidate, len(p.instances))
	for i, r := range p.instances {
		out[i] = candidate(r)
	}
	return out
}

func candidate(r dbsqlc.ProviderInstance) Candidate {
	return Candidate{
		InstanceID: r.ID, AppID: r.AppID, Channel: r.Channel, Provider: r.Provider, Name: r.Name,
		public: r.Config, sealed: r.SecretsSealed, updatedAt: r.UpdatedAt, SendRate: storedSendRate(r.Config),
	}
}

// builtKey identifies a built provider: a changed instance is rebuilt.
type builtKey struct {
	id      int64
	updated time.Time
	vapid   string
}

// maxBuilt bounds the providers kept built per process.
const maxBuilt = 1000

// Provider returns the provider of a candidate, built once per instance version. overlay
// (the send's override.<provider>._config) changes ordinary keys of the stored
// configuration, or replaces it whole with the send's own credentials (see overlayConfig:
// a stored secret never goes to a destination the send chose); such a provider is built
// for the one message.
func (s *Service) Provider(ctx context.Context, c Candidate, overlay json.RawMessage) (providers.Provider, error) {
	kind, ok := s.catalogue.Lookup(c.Provider)
	if !ok {
		return nil, providers.Permanent("provider %q is not in this build", c.Provider)
	}
	deps := s.deps
	if c.Channel == herald.ChannelWebPush {
		keys, err := s.vapidKeys(ctx, c.AppID)
		if err != nil {
			return nil, err
		}
		deps.AppVAPID = keys
	}
	key := builtKey{id: c.InstanceID, updated: c.updatedAt}
	if deps.AppVAPID != nil {
		key.vapid = deps.AppVAPID.PublicKey
	}
	if len(overlay) == 0 {
		s.mu.Lock()
		p, ok := s.built[key]
		s.mu.Unlock()
		if ok {
			return p, nil
		}
	}
	config, err := unseal(s.box, c.public, c.sealed)
	if err != nil {
		return nil, err
	}
	delete(config, SendRateKey)
	if len(overlay) > 0 {
		extra := map[string]json.RawMessage{}
		if json.Unmarshal(overlay, &extra) != nil {
			return nil, providers.Permanent("override.%s._config must be an object", c.Provider)
		}
		schema, _ := configschema.Parse(kind.ConfigSchema)
		merged, probs := overlayConfig(schema, config, extra, "override."+c.Provider+"._config")
		if len(probs) > 0 {
			return nil, providers.Permanent("%s", strings.Join(probs, "; "))
		}
		config = merged
		delete(config, SendRateKey)
	}
	raw, _ := json.Marshal(config)
	p, err := kind.New(raw, deps)
	if err != nil {
		return nil, providers.Permanent("provider %s (instance %d) cannot start: %v", c.Provider, c.InstanceID, err)
	}
	if len(overlay) == 0 {
		s.mu.Lock()
		if len(s.built) >= maxBuilt {
			clear(s.built)
		}
		s.built[key] = p
		s.mu.Unlock()
	}
	return p, nil
}

// vapidKeys returns the app's web push key pair (made on first use when Keys is set), nil
// when it has none.
func (s *Service) vapidKeys(ctx context.Context, appID int64) (*providers.VAPIDKeys, error) {
	if s.Keys != nil {
		return s.Keys(ctx, appID)
	}
	app, err := s.db.GetAppByID(ctx, appID)
	if err != nil {
		return nil, db.MapError(err)
	}
	if app.VapidPublicKey == nil || len(app.VapidPrivateKeySealed) == 0 {
		return nil, nil
	}
	priv, err := s.box.Open(app.VapidPrivateKeySealed)
	if err != nil {
		return nil, fmt.Errorf("app %d VAPID key: %w", appID, err)
	}
	return &providers.VAPIDKeys{PublicKey: *app.VapidPublicKey, PrivateKey: string(priv)}, nil
}
