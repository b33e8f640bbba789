// Package appinsights answers the console's questions about one app's setup: whether it
// has sent, has connected devices and has providers configured (integration status), and
// which profile attributes its users have (for autocomplete in audience and template
// editors).
package appinsights

import (
	"context"
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

// Service reads an app's setup.
type Service struct {
	db *db.DB
}

// NewService returns a Service.
func NewService(d *db.DB) *Service { return &Service{db: d} }

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
	return Status{HasSent: row.HasSent, HasConnectedDevices: row.HasDevices, HasProvidersConfigured: row.HasProviders}, nil
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
