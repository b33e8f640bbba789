// Package channels manages how an app delivers on each channel: provider instances
// (configured providers, secrets sealed at rest), routes (which instances, in which order,
// for which sends, with failover), and provider delivery callbacks. The management API
// exposes it; the delivery activities ask it which providers to use.
package channels

import (
	"context"
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/db/dbsqlc"
	"github.com/heraldhq/herald/internal/platform/secrets"
	"github.com/heraldhq/herald/internal/providers"
	"github.com/heraldhq/herald/internal/providers/configschema"
)

// MaxNameLength caps instance and route names.
const MaxNameLength = 100

// Instance is a provider instance as callers see it: secret fields masked.
type Instance struct {
	ID        int64           `json:"id"`
	AppID     int64           `json:"appId"`
	Channel   string          `json:"channel"`
	Provider  string          `json:"providerIdentifier"`
	Name      string          `json:"name"`
	Config    json.RawMessage `json:"config"`
	Enabled   bool            `json:"enabled"`
	Priority  int             `json:"priority"`
	CreatedAt time.Time       `json:"createdAt"`
	UpdatedAt time.Time       `json:"updatedAt"`
	// ConnectionTest reports the test run before this save: "passed", or "not supported" by
	// the provider; empty when none was asked for.
	ConnectionTest string `json:"connectionTest,omitempty"`
}

// InstanceInput creates an instance, or changes one: on update, unset fields keep their
// value and config is merged into the stored one (a secret field left out or sent as Mask
// keeps its value).
type InstanceInput struct {
	Provider string
	Name     string
	Config   json.RawMessage
	Enabled  *bool
	Priority *int
	// Test runs the provider's connection test (see providers.Tester) on the resulting
	// configuration before saving; a failure saves nothing.
	Test bool
	// MayRedirect: the caller may change where an existing instance connects (its
	// "x-destination" keys; the owner and admin roles). Such a change must also enter
	// every stored secret again (see checkRepoint); without MayRedirect it is a 403.
	MayRedirect bool
}

// Service manages instances and routes and builds providers for delivery.
type Service struct {
	db        *db.DB
	box       *secrets.Box
	catalogue *providers.Catalogue
	// Keys returns an app's web push key pair, making it on first use (nil: read only).
	Keys func(ctx context.Context, appID int64) (*providers.VAPIDKeys, error)
	deps providers.Deps

	mu    sync.Mutex
	built map[builtKey]providers.Provider
}

// NewService returns a Service; deps are passed to the providers it builds.
func NewService(d *db.DB, box *secrets.Box, catalogue *providers.Catalogue, deps providers.Deps) *Service {
	return &Service{db: d, box: box, catalogue: catalogue, deps: deps, built: map[builtKey]providers.Provider{}}
}

// Catalogue is the provider kinds this build supports.
func (s *Service) Catalogue() *providers.Catalogue { return s.catalogue }

// CreateInstance configures a provider on a channel of the app.
func (s *Service) CreateInstance(ctx context.Context, appID int64, channel string, in InstanceInput) (Instance, error) {
	var p herald.Problems
	checkChannel(channel, &p)
	kind, schema := s.checkKind(in.Provider, channel, &p)
	name := strings.TrimSpace(in.Name)
	if name == "" {
		name = in.Provider
	}
	checkName(name, &p)
	config := map[string]json.RawMessage{}
	if len(in.Config) > 0 && json.Unmarshal(in.Config, &config) != nil {
		p.Addf("config must be an object")
	}
	public, sealed, tested, err := s.prepare(ctx, p, schema, kind, config, in.Test)
	if err != nil {
		return Instance{}, err
	}
	row, err := s.db.CreateProviderInstance(ctx, dbsqlc.CreateProviderInstanceParams{
		AppID: appID, Channel: channel, Provider: kind.Identifier, Name: name, Config: public, SecretsSealed: sealed,
		Enabled: in.Enabled == nil || *in.Enabled, Priority: int32(deref(in.Priority, 0)),
	})
	if err != nil {
		return Instance{}, conflict(err, "a provider instance named "+name+" already exists on "+channel)
	}
	out := s.instance(row)
	out.ConnectionTest = tested
	return out, nil
}

// UpdateInstance changes an instance's name, configuration, priority or enabled state. A
// change of its destinations needs in.MayRedirect and its secrets entered again, so a
// stored secret (and the connection test) never goes where it was not entered for.
func (s *Service) UpdateInstance(ctx context.Context, appID, id int64, in InstanceInput) (Instance, error) {
	row, err := s.db.GetProviderInstance(ctx, dbsqlc.GetProviderInstanceParams{AppID: appID, ID: id})
	if err != nil {
		return Instance{}, notFound(err)
	}
	var p herald.Problems
	if in.Provider != "" && in.Provider != row.Provider {
		p.Addf("providerIdentifier cannot change (create another instance)")
	}
	name := row.Name
	if in.Name != "" {
		name = strings.TrimSpace(in.Name)
		checkName(name, &p)
	}
	kind, _ := s.catalogue.Lookup(row.Provider)
	schema, _ := configschema.Parse(kind.ConfigSchema)
	config, err := unseal(s.box, row.Config, row.SecretsSealed)
	if err != nil {
		return Instance{}, err
	}
	before := maps.Clone(config)
	patch := map[string]json.RawMessage{}
	if len(in.Config) > 0 {
		if json.Unmarshal(in.Config, &patch) != nil {
			p.Addf("config must be an object")
		}
		secret := map[string]bool{}
		if schema != nil {
			for _, f := range schema.SecretFields() {
				secret[f] = true
			}
		}
		for k, v := range patch {
			var str string
			if secret[k] && json.Unmarshal(v, &str) == nil && str == Mask {
				continue
			}
			if string(v) == "null" {
				delete(config, k)
				continue
			}
			config[k] = v
		}
	}
	if len(p) == 0 {
		if err := checkRepoint(schema, changedDestinations(schema, before, config), before, patch, in.MayRedirect, &p); err != nil {
			return Instance{}, err
		}
	}
	public, sealed, tested, err := s.prepare(ctx, p, schema, kind, config, in.Test)
	if err != nil {
		return Instance{}, err
	}
	row, err = s.db.UpdateProviderInstance(ctx, dbsqlc.UpdateProviderInstanceParams{
		AppID: appID, ID: id, Name: name, Config: public, SecretsSealed: sealed,
		Enabled: deref(in.Enabled, row.Enabled), Priority: int32(deref(in.Priority, int(row.Priority))),
	})
	if err != nil {
		return Instance{}, conflict(err, "a provider instance named "+name+" already exists on "+row.Channel)
	}
	out := s.instance(row)
	out.ConnectionTest = tested
	return out, nil
}

// SetInstanceEnabled enables or disables an instance.
func (s *Service) SetInstanceEnabled(ctx context.Context, appID, id int64, enabled bool) (Instance, error) {
	row, err := s.db.SetProviderInstanceEnabled(ctx, dbsqlc.SetProviderInstanceEnabledParams{AppID: appID, ID: id, Enabled: enabled})
	if err != nil {
		return Instance{}, notFound(err)
	}
	return s.instance(row), nil
}

// GetInstance returns one instance of the app.
func (s *Service) GetInstance(ctx context.Context, appID, id int64) (Instance, error) {
	row, err := s.db.GetProviderInstance(ctx, dbsqlc.GetProviderInstanceParams{AppID: appID, ID: id})
	if err != nil {
		return Instance{}, notFound(err)
	}
	return s.instance(row), nil
}

// ListInstances returns the app's instances, of one channel when channel is set.
func (s *Service) ListInstances(ctx context.Context, appID int64, channel string) ([]Instance, error) {
	rows, err := s.db.ListProviderInstances(ctx, dbsqlc.ListProviderInstancesParams{AppID: appID, Channel: channel})
	if err != nil {
		return nil, db.MapError(err)
	}
	out := make([]Instance, len(rows))
	for i, r := range rows {
		out[i] = s.instance(r)
	}
	return out, nil
}

// ConfiguredChannels returns the channels on which the app has an enabled instance.
func (s *Service) ConfiguredChannels(ctx context.Context, appID int64) (map[string]bool, error) {
	rows, err := s.db.ConfiguredChannels(ctx, appID)
	if err != nil {
		return nil, db.MapError(err)
	}
	out := make(map[string]bool, len(rows))
	for _, c := range rows {
		out[c] = true
	}
	return out, nil
}

func (s *Service) instance(r dbsqlc.ProviderInstance) Instance {
	return Instance{
		ID: r.ID, AppID: r.AppID, Channel: r.Channel, Provider: r.Provider, Name: r.Name,
		Config: masked(s.box, r.Config, r.SecretsSealed), Enabled: r.Enabled, Priority: int(r.Priority),
		CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt,
	}
}

// prepare finishes checking an instance's configuration (the problems found so far, then the
// provider's schema, then its destinations against the outbound guard), runs the connection
// test when asked, and splits the configuration into its public part and its sealed secrets.
// Create and update share it, so both refuse the same input the same way.
func (s *Service) prepare(ctx context.Context, p herald.Problems, schema *configschema.Schema, kind providers.Kind, config map[string]json.RawMessage, test bool) (public json.RawMessage, sealed []byte, tested string, err error) {
	var rateProblems herald.Problems
	rate := takeSendRate(config, &rateProblems)
	if schema != nil && len(p) == 0 {
		merged, _ := json.Marshal(config)
		p = append(p, schema.Validate(merged, "config")...)
	}
	p = append(p, rateProblems...)
	if len(p) == 0 {
		s.checkDestinations(ctx, schema, config, &p)
	}
	if err := p.Err(); err != nil {
		return nil, nil, "", err
	}
	if tested, err = s.test(ctx, test, kind, config); err != nil {
		return nil, nil, "", err
	}
	if rate != nil {
		config[SendRateKey] = rate
	}
	public, sealed, err = s.store(config, schema)
	return public, sealed, tested, err
}

// SendRateKey is the key of an instance's config holding its send rate: messages per
// second through the instance, all workers together (deliveries over it wait their turn).
// Herald reads it; the provider never sees it.
const SendRateKey = "sendRate"

// MaxSendRate is the highest send rate an instance may set.
const MaxSendRate = 100000

// takeSendRate removes the send rate from config (null removes it for good) and returns
// it when valid, reporting a bad one.
func takeSendRate(config map[string]json.RawMessage, p *herald.Problems) json.RawMessage {
	raw, ok := config[SendRateKey]
	if !ok {
		return nil
	}
	delete(config, SendRateKey)
	if string(raw) == "null" {
		return nil
	}
	var rate float64
	if json.Unmarshal(raw, &rate) != nil {
		p.Addf("config.%s must be a number (messages per second)", SendRateKey)
		return nil
	}
	if rate <= 0 || rate > MaxSendRate {
		p.Addf("config.%s must be more than 0 and at most %d messages per second", SendRateKey, MaxSendRate)
		return nil
	}
	b, _ := json.Marshal(rate)
	return b
}

// storedSendRate reads the send rate of a stored public configuration (0: none).
func storedSendRate(public json.RawMessage) float64 {
	var c struct {
		SendRate float64 `json:"sendRate"`
	}
	_ = json.Unmarshal(public, &c)
	return c.SendRate
}

// store splits a validated configuration into the stored public part and sealed secrets.
func (s *Service) store(config map[string]json.RawMessage, schema *configschema.Schema) (json.RawMessage, []byte, error) {
	var secretFields []string
	if schema != nil {
		secretFields = schema.SecretFields()
	}
	public, secret := split(config, secretFields)
	sealed, err := seal(s.box, secret)
	if err != nil {
		return nil, nil, err
	}
	pub, err := json.Marshal(public)
	return pub, sealed, err
}

func (s *Service) checkKind(identifier, channel string, p *herald.Problems) (providers.Kind, *configschema.Schema) {
	if strings.TrimSpace(identifier) == "" {
		p.Addf("providerIdentifier should not be empty")
		return providers.Kind{}, nil
	}
	kind, ok := s.catalogue.Lookup(identifier)
	if !ok || kind.Channel != channel {
		var known []string
		for _, k := range s.catalogue.List(channel) {
			known = append(known, k.Identifier)
		}
		if len(known) == 0 {
			p.Addf("providerIdentifier %q is not a provider of %s (this build has none for it)", identifier, channel)
		} else {
			p.Addf("providerIdentifier %q is not a provider of %s (known: %s)", identifier, channel, strings.Join(known, ", "))
		}
		return providers.Kind{}, nil
	}
	schema, err := configschema.Parse(kind.ConfigSchema)
	if err != nil {
		p.Addf("provider %s has a broken config schema", identifier)
		return kind, nil
	}
	return kind, schema
}

// DeliveryChannels are the channels that deliver through providers (every channel but
// in-app).
func DeliveryChannels() []string {
	return slices.DeleteFunc(slices.Clone(herald.Channels), func(c string) bool { return c == herald.ChannelInApp })
}

func checkChannel(channel string, p *herald.Problems) {
	if !slices.Contains(DeliveryChannels(), channel) {
		p.Addf("channel must be one of %s", strings.Join(DeliveryChannels(), ", "))
	}
}

func checkName(name string, p *herald.Problems) {
	if name == "" {
		p.Addf("name should not be empty")
	} else if len(name) > MaxNameLength {
		p.Addf("name must be at most %d characters", MaxNameLength)
	}
}

func notFound(err error) error {
	err = db.MapError(err)
	if herald.ErrorCode(err) == herald.ENOTFOUND {
		return herald.NotFound("provider instance")
	}
	return err
}

func conflict(err error, msg string) error {
	err = db.MapError(err)
	if herald.ErrorCode(err) == herald.ECONFLICT {
		return herald.Errorf(herald.ECONFLICT, "%s", msg)
	}
	return err
}

func deref[T any](p *T, dflt T) T {
	if p == nil {
		return dflt
	}
	return *p
}
