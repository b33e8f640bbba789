package appadmin

import (
	"context"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/db/dbsqlc"
	"github.com/heraldhq/herald/internal/audience/categories"
	"github.com/heraldhq/herald/internal/audience/prefs"
)

// CategoryRef names a category in a preference row; nil stands for notifications
// without a category.
type CategoryRef struct {
	ID         int64  `json:"id"`
	Identifier string `json:"identifier"`
	Name       string `json:"name"`
	// Critical categories are delivered whatever the switches say.
	Critical bool `json:"critical"`
}

// ChannelPreference is one channel's switch.
type ChannelPreference struct {
	Channel string `json:"channel"`
	Enabled bool   `json:"enabled"`
}

// Preference is a user's preferences for one category (the shape of GET /v3/preferences).
type Preference struct {
	Category           *CategoryRef        `json:"category"`
	ChannelPreferences []ChannelPreference `json:"channelPreferences"`
	Critical           bool                `json:"critical"`
	LockedReason       string              `json:"lockedReason,omitempty"`
}

// Preferences returns a user's effective preferences: the default row (no category) and
// one row per category of the app, every channel listed; an unset pair shows the app's
// default for the category (on when it has none).
func (s *Service) Preferences(ctx context.Context, appID int64, identifier string) ([]Preference, error) {
	u, err := s.user(ctx, appID, identifier)
	if err != nil {
		return nil, err
	}
	cats, err := s.db.ListAppCategories(ctx, appID)
	if err != nil {
		return nil, db.MapError(err)
	}
	rows, err := s.db.ListUserPreferenceRows(ctx, dbsqlc.ListUserPreferenceRowsParams{AppID: appID, UserID: u.ID})
	if err != nil {
		return nil, db.MapError(err)
	}
	type key struct {
		cat     int64
		channel string
	}
	set := map[key]bool{}
	for _, r := range rows {
		var c int64
		if r.CategoryID != nil {
			c = *r.CategoryID
		}
		set[key{c, r.Channel}] = r.Enabled
	}
	row := func(cat *CategoryRef, defaults map[string]bool) Preference {
		var id int64
		if cat != nil {
			id = cat.ID
		}
		p := Preference{Category: cat, ChannelPreferences: make([]ChannelPreference, 0, len(herald.Channels))}
		if cat != nil && cat.Critical {
			p.Critical, p.LockedReason = true, categories.LockedReason
		}
		for _, ch := range herald.Channels {
			on, ok := set[key{id, ch}]
			if !ok {
				on = prefs.DefaultEnabled(categories.Category{ChannelDefaults: defaults}, ch)
			}
			p.ChannelPreferences = append(p.ChannelPreferences, ChannelPreference{Channel: ch, Enabled: on})
		}
		return p
	}
	out := []Preference{row(nil, nil)}
	for _, c := range cats {
		out = append(out, row(&CategoryRef{ID: c.ID, Identifier: c.Identifier, Name: c.Name, Critical: c.Critical},
			categories.DecodeDefaults(c.ChannelDefaults)))
	}
	return out, nil
}

// Channels returns a known user's switches for whole channels (unknown: not found).
func (s *Service) Channels(ctx context.Context, appID int64, identifier string) (map[string]bool, error) {
	if _, err := s.user(ctx, appID, identifier); err != nil {
		return nil, err
	}
	return s.Detail.Prefs.Channels(ctx, appID, identifier)
}

// SetChannels changes a known user's switches for whole channels ({"sms": false}) and
// returns them all.
func (s *Service) SetChannels(ctx context.Context, appID int64, identifier string, body []byte) (map[string]bool, error) {
	if _, err := s.user(ctx, appID, identifier); err != nil {
		return nil, err
	}
	return s.Detail.Prefs.SetChannels(ctx, appID, identifier, body)
}

// Flows returns a known user's switches per workflow (unknown: not found).
func (s *Service) Flows(ctx context.Context, appID int64, identifier string) ([]prefs.FlowPreference, error) {
	if _, err := s.user(ctx, appID, identifier); err != nil {
		return nil, err
	}
	return s.Detail.Prefs.Flows(ctx, appID, identifier)
}

// SetFlows changes a known user's switches per workflow (the body of PATCH
// /v3/preferences/workflows) and returns them all.
func (s *Service) SetFlows(ctx context.Context, appID int64, identifier string, body []byte) ([]prefs.FlowPreference, error) {
	if _, err := s.user(ctx, appID, identifier); err != nil {
		return nil, err
	}
	if err := s.Detail.Prefs.SetFlows(ctx, appID, identifier, body); err != nil {
		return nil, err
	}
	return s.Detail.Prefs.Flows(ctx, appID, identifier)
}

// QuietHours returns a known user's quiet hours (unknown: not found).
func (s *Service) QuietHours(ctx context.Context, appID int64, identifier string) (prefs.QuietHours, error) {
	if _, err := s.user(ctx, appID, identifier); err != nil {
		return prefs.QuietHours{}, err
	}
	return s.Detail.Prefs.QuietHours(ctx, appID, identifier)
}

// SetQuietHours replaces a known user's quiet hours (the body of PUT
// /v3/preferences/quiet-hours) and returns them.
func (s *Service) SetQuietHours(ctx context.Context, appID int64, identifier string, body []byte) (prefs.QuietHours, error) {
	if _, err := s.user(ctx, appID, identifier); err != nil {
		return prefs.QuietHours{}, err
	}
	return s.Detail.Prefs.SetQuietHours(ctx, appID, identifier, body)
}
