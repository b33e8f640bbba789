// Package appinsights answers the console's questions about one app's setup: whether it
// has sent, has connected devices and has providers configured (integration status), and
// which profile attributes its users have (for autocomplete in audience and template
// editors).
package appinsights

import (
	"context"
	"log/slog"
	"strings"

	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/db/dbsqlc"
)

// Bounds of the profile attribute lookups: the most recent users read, and the rows
// returned.
const (
	ProfileSample = 10_000
	MaxAttributes = 100
)

// ProvidersConfigured tells whether an app has a delivery provider configured.
type ProvidersConfigured func(ctx context.Context, appID int64) (bool, error)

// Service reads an app's setup.
type Service struct {
	db        *db.DB
	providers ProvidersConfigured
}

// NewService returns a Service; providers nil means ProviderInstancesTable.
func NewService(d *db.DB, providers ProvidersConfigured, log *slog.Logger) *Service {
	if providers == nil {
		providers = ProviderInstancesTable(d, log)
	}
	return &Service{db: d, providers: providers}
}

// Status is an app's integration status.
type Status struct {
	HasSent                bool `json:"hasSent"`
	HasConnectedDevices    bool `json:"hasConnectedDevices"`
	HasProvidersConfigured bool `json:"hasProvidersConfigured"`
}

// IntegrationStatus reports how far an app's integration has come.
func (s *Service) IntegrationStatus(ctx context.Context, appID int64) (Status, error) {
	row, err := s.db.AppIntegrationStatus(ctx, appID)
	if err != nil {
		return Status{}, db.MapError(err)
	}
	prov, err := s.providers(ctx, appID)
	if err != nil {
		return Status{}, err
	}
	return Status{HasSent: row.HasSent, HasConnectedDevices: row.HasDevices, HasProvidersConfigured: prov}, nil
}

// ProviderInstancesTable reads the provider_instances table of the channels and providers
// work (issue 9) when the database has it, with an app_id column; until then no app has
// providers. It is the hook to replace once that table's shape is settled.
func ProviderInstancesTable(d *db.DB, log *slog.Logger) ProvidersConfigured {
	return func(ctx context.Context, appID int64) (bool, error) {
		var hasTable bool
		err := d.Pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM information_schema.columns
			WHERE table_schema = current_schema() AND table_name = 'provider_instances' AND column_name = 'app_id')`).Scan(&hasTable)
		if err != nil || !hasTable {
			return false, db.MapError(err)
		}
		var has bool
		if err := d.Pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM provider_instances WHERE app_id = $1)`, appID).Scan(&has); err != nil {
			log.Warn("integration status: cannot read provider_instances", "error", err)
			return false, nil
		}
		return has, nil
	}
}

// Attribute is a profile key with the number of (sampled) users that have it.
type Attribute struct {
	Attribute string `json:"attribute"`
	Users     int64  `json:"users"`
}

// Value is one value of a profile key with the number of (sampled) users that have it.
type Value struct {
	Value string `json:"value"`
	Users int64  `json:"users"`
}

// Attributes lists the top-level profile keys of the app's most recent users, most
// common first.
func (s *Service) Attributes(ctx context.Context, appID int64) ([]Attribute, error) {
	rows, err := s.db.ProfileKeys(ctx, dbsqlc.ProfileKeysParams{AppID: appID, Sample: ProfileSample, MaxRows: MaxAttributes})
	if err != nil {
		return nil, db.MapError(err)
	}
	out := make([]Attribute, 0, len(rows))
	for _, r := range rows {
		out = append(out, Attribute{Attribute: r.Key, Users: r.Users})
	}
	return out, nil
}

// Values lists the scalar values of one profile key among the app's most recent users,
// most common first.
func (s *Service) Values(ctx context.Context, appID int64, key string) ([]Value, error) {
	rows, err := s.db.ProfileValues(ctx, dbsqlc.ProfileValuesParams{AppID: appID, Key: key, Sample: ProfileSample, MaxRows: MaxAttributes})
	if err != nil {
		return nil, db.MapError(err)
	}
	out := make([]Value, 0, len(rows))
	for _, r := range rows {
		out = append(out, Value{Value: r.Value, Users: r.Users})
	}
	return out, nil
}

// CheckAttribute records a problem with an attribute name.
func CheckAttribute(name string) []string {
	switch {
	case strings.TrimSpace(name) == "":
		return []string{"attribute should not be empty"}
	case len(name) > 255:
		return []string{"attribute must be at most 255 characters"}
	}
	return nil
}
