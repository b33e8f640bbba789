// Package prefs holds a user's delivery preferences: one switch per category × channel,
// where a pair the user never set follows the app's default for the category (on unless
// the category's channelDefaults turn it off; docs/preferences.md).
package prefs

import (
	"context"
	"encoding/json"
	"slices"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/db/dbsqlc"
	"github.com/heraldhq/herald/internal/audience/categories"
	"github.com/heraldhq/herald/internal/audience/users"
	js "github.com/heraldhq/herald/internal/platform/jsonshape"
)

// MaxPairs caps the (category, channel) pairs of one update.
const MaxPairs = 1000

// Preference is a category's switches as GET /preferences shows them. A critical
// category's switches are locked: its notifications are delivered whatever they say, and
// lockedReason tells the user why.
type Preference struct {
	Category           categories.Category `json:"category"`
	ChannelPreferences []ChannelPreference `json:"channelPreferences"`
	Critical           bool                `json:"critical"`
	LockedReason       string              `json:"lockedReason,omitempty"`
}

// ChannelPreference is one channel's switch.
type ChannelPreference struct {
	Channel string `json:"channel"`
	Enabled bool   `json:"enabled"`
}

// Service reads and sets preferences.
type Service struct {
	db         *db.DB
	categories *categories.Service
}

// NewService returns a Service over the database.
func NewService(d *db.DB, cats *categories.Service) *Service {
	return &Service{db: d, categories: cats}
}

// AppChannels returns the channels the app delivers on, in the order of herald.Channels.
// Today that is the in-app inbox, which needs no provider; channels with a configured
// provider join it once the delivery layer stores provider configuration.
func (s *Service) AppChannels(context.Context, int64) ([]string, error) {
	return []string{herald.ChannelInApp}, nil
}

// Get returns the user's switches for every category of the app: each of the app's
// channels, every channel the user has set and every channel with an app default; an
// unset switch shows the app's default for the category (on when it has none).
func (s *Service) Get(ctx context.Context, appID int64, identifier string) ([]Preference, error) {
	cats, err := s.categories.List(ctx, appID)
	if err != nil {
		return nil, err
	}
	channels, err := s.AppChannels(ctx, appID)
	if err != nil {
		return nil, err
	}
	set := map[int64]map[string]bool{}
	u, err := s.db.GetUserByIdentifier(ctx, dbsqlc.GetUserByIdentifierParams{AppID: appID, Identifier: identifier})
	switch err = db.MapError(err); {
	case err == nil:
		rows, err := s.db.ListUserPreferences(ctx, dbsqlc.ListUserPreferencesParams{AppID: appID, UserID: u.ID})
		if err != nil {
			return nil, db.MapError(err)
		}
		for _, r := range rows {
			if set[*r.CategoryID] == nil {
				set[*r.CategoryID] = map[string]bool{}
			}
			set[*r.CategoryID][r.Channel] = r.Enabled
		}
	case herald.ErrorCode(err) != herald.ENOTFOUND:
		return nil, err
	}
	out := make([]Preference, len(cats))
	for i, c := range cats {
		out[i] = Preference{Category: c, ChannelPreferences: []ChannelPreference{}, Critical: c.Critical}
		if c.Critical {
			out[i].LockedReason = categories.LockedReason
		}
		for _, ch := range herald.Channels {
			enabled, explicit := set[c.ID][ch]
			_, hasDefault := c.ChannelDefaults[ch]
			if !explicit && !hasDefault && !slices.Contains(channels, ch) {
				continue
			}
			if !explicit {
				// The user never chose: the app's default for the category (unset: on).
				enabled = DefaultEnabled(c, ch)
			}
			out[i].ChannelPreferences = append(out[i].ChannelPreferences, ChannelPreference{Channel: ch, Enabled: enabled})
		}
	}
	return out, nil
}

// pair is one switch of an update.
type pair struct {
	category int64
	channel  string
	enabled  bool
}

// Update sets switches from the body {preference: [{categoryId, channels: [{channel,
// enabled}]}]}, creating the user when needed. Every pair is checked first (categories of
// this app, known channels); a later pair overrides an earlier one for the same switch.
func (s *Service) Update(ctx context.Context, appID int64, identifier string, body []byte) error {
	var p herald.Problems
	users.CheckIdentifier("user id", identifier, &p)
	pairs, refs := parseUpdate(body, &p)
	if len(pairs) > MaxPairs {
		p.Addf("preference must set no more than %d category and channel pairs", MaxPairs)
	}
	if len(p) == 0 && len(pairs) > 0 {
		if err := s.checkCategories(ctx, appID, refs, &p); err != nil {
			return err
		}
	}
	if err := p.Err(); err != nil {
		return err
	}
	if len(pairs) == 0 {
		return nil
	}
	type key struct {
		category int64
		channel  string
	}
	last := map[key]int{}
	for i, pr := range pairs {
		last[key{pr.category, pr.channel}] = i
	}
	var params dbsqlc.UpsertPreferencesParams
	for i, pr := range pairs {
		if last[key{pr.category, pr.channel}] != i {
			continue
		}
		params.CategoryIds = append(params.CategoryIds, pr.category)
		params.Channels = append(params.Channels, pr.channel)
		params.Enabled = append(params.Enabled, pr.enabled)
	}
	return s.db.InTx(ctx, func(q *dbsqlc.Queries, _ pgx.Tx) error {
		ids, err := users.Ensure(ctx, q, appID, []string{identifier})
		if err != nil {
			return err
		}
		params.AppID, params.UserID = appID, ids[0]
		return db.MapError(q.UpsertPreferences(ctx, params))
	})
}

// categoryRef is a categoryId of the body and where it was given.
type categoryRef struct {
	id    int64
	field string
}

// checkCategories records every categoryId that is not a category of the app.
func (s *Service) checkCategories(ctx context.Context, appID int64, refs []categoryRef, p *herald.Problems) error {
	ids := make([]int64, len(refs))
	for i, r := range refs {
		ids[i] = r.id
	}
	found, err := s.db.AppCategoryIDs(ctx, dbsqlc.AppCategoryIDsParams{AppID: appID, Ids: ids})
	if err != nil {
		return db.MapError(err)
	}
	for _, r := range refs {
		if !slices.Contains(found, r.id) {
			p.Addf("%s must be the id of one of the app's categories (%d is not)", r.field, r.id)
		}
	}
	return nil
}

// parseUpdate checks the shape of an update body, recording every problem.
func parseUpdate(body []byte, p *herald.Problems) ([]pair, []categoryRef) {
	top := js.Fields(body)
	if top == nil {
		p.Addf("body must be a JSON object")
		return nil, nil
	}
	items, ok := js.Elements(top["preference"])
	if !ok {
		p.Addf("preference must be an array")
		return nil, nil
	}
	var (
		pairs []pair
		refs  []categoryRef
	)
	for i, raw := range items {
		field := "preference[" + strconv.Itoa(i) + "]"
		f := js.Fields(raw)
		if f == nil {
			p.Addf("%s must be an object", field)
			continue
		}
		var category int64
		if js.Kind(f["categoryId"]) != "number" || json.Unmarshal(f["categoryId"], &category) != nil {
			p.Addf("%s.categoryId must be an integer number", field)
		} else {
			refs = append(refs, categoryRef{id: category, field: field + ".categoryId"})
		}
		chans, ok := js.Elements(f["channels"])
		if !ok {
			p.Addf("%s.channels must be an array", field)
			continue
		}
		for j, rawCh := range chans {
			cf := field + ".channels[" + strconv.Itoa(j) + "]"
			c := js.Fields(rawCh)
			if c == nil {
				p.Addf("%s must be an object", cf)
				continue
			}
			name, ok := js.String(c["channel"])
			if !ok || !herald.IsChannel(name) {
				p.Addf("%s.channel must be one of the following values: %s", cf, strings.Join(herald.Channels, ", "))
			}
			var enabled bool
			if js.Kind(c["enabled"]) != "boolean" || json.Unmarshal(c["enabled"], &enabled) != nil {
				p.Addf("%s.enabled must be a boolean value", cf)
			}
			pairs = append(pairs, pair{category: category, channel: name, enabled: enabled})
		}
	}
	return pairs, refs
}
