package pipeline

import (
	"context"
	"encoding/json"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/db/dbsqlc"
	sendwf "github.com/heraldhq/herald/workflows/send"
)

// A pack of single-recipient sends would cost a user upsert and a preference query per
// request; a DeliverBatch call instead resolves the inline recipients of all its requests
// with one upsert per app up front, and loads preferences once per app and category for
// every user it has resolved.

// prefKey names the preferences of an app for one category (0: without a category).
type prefKey struct {
	app      int64
	category int64
}

// userCache holds what a call resolved: user ids by app and identifier, and preferences.
type userCache struct {
	ids         map[int64]map[string]int64
	prefs       map[prefKey]map[int64]map[string]bool
	prefsLoaded map[prefKey]map[int64]bool
}

func newUserCache() *userCache {
	return &userCache{
		ids:         map[int64]map[string]int64{},
		prefs:       map[prefKey]map[int64]map[string]bool{},
		prefsLoaded: map[prefKey]map[int64]bool{},
	}
}

// preResolve creates the inline recipients the call will reach (within its budget, in
// cursor order) with one upsert per app and remembers their ids.
func (a *Service) preResolve(ctx context.Context, cache *userCache, cursors []sendwf.Cursor, reqs map[int]*herald.SendRequest, apps map[int]int64, budget int) error {
	byApp := map[int64][]herald.Recipient{}
	for i, c := range cursors {
		req, ok := reqs[i]
		if !ok || budget <= 0 || req.Notification.Flow != nil || c.Offset >= len(req.Recipients) {
			continue
		}
		end := min(c.Offset+budget, len(req.Recipients))
		byApp[apps[i]] = append(byApp[apps[i]], req.Recipients[c.Offset:end]...)
		budget -= end - c.Offset
	}
	for app, rs := range byApp {
		rs = uniqueRecipients(rs)
		ids, err := EnsureUsers(ctx, a.DB.Queries, app, rs)
		if err != nil {
			return db.MapError(err)
		}
		m := cache.ids[app]
		if m == nil {
			m = map[string]int64{}
			cache.ids[app] = m
		}
		for i, r := range rs {
			m[r.Identifier] = ids[i]
		}
	}
	return nil
}

// uniqueRecipients keeps one entry per identifier, merging the inline profiles of its
// repeats (the same user named by two requests of the pack).
func uniqueRecipients(rs []herald.Recipient) []herald.Recipient {
	seen := make(map[string]int, len(rs))
	out := make([]herald.Recipient, 0, len(rs))
	for _, r := range rs {
		i, ok := seen[r.Identifier]
		if !ok {
			seen[r.Identifier] = len(out)
			out = append(out, r)
			continue
		}
		if len(r.Profile) > 0 {
			out[i].Profile = mergeProfiles(out[i].Profile, r.Profile)
		}
	}
	return out
}

func mergeProfiles(a, b json.RawMessage) json.RawMessage {
	if len(a) == 0 {
		return b
	}
	var m, n map[string]json.RawMessage
	if json.Unmarshal(a, &m) != nil || json.Unmarshal(b, &n) != nil {
		return b
	}
	for k, v := range n {
		m[k] = v
	}
	out, err := json.Marshal(m)
	if err != nil {
		return b
	}
	return out
}

// cachedIDs returns the ids of recipients when the call resolved all of them.
func (c *userCache) cachedIDs(app int64, rs []herald.Recipient) ([]int64, bool) {
	if c == nil {
		return nil, false
	}
	m := c.ids[app]
	if m == nil {
		return nil, false
	}
	out := make([]int64, len(rs))
	for i, r := range rs {
		id, ok := m[r.Identifier]
		if !ok {
			return nil, false
		}
		out[i] = id
	}
	return out, true
}

// callPreferences returns the explicit preferences of some users for the send's category. The
// first ask for an app and category loads them for every user the call resolved for that
// app, so the other requests of the pack need no query.
func (a *Service) callPreferences(ctx context.Context, c *userCache, sc *sendContext, ids []int64) (map[int64]map[string]bool, error) {
	if c == nil {
		c = newUserCache()
	}
	key := prefKey{app: sc.appID}
	if sc.categoryID != nil {
		key.category = *sc.categoryID
	}
	loaded := c.prefsLoaded[key]
	if loaded == nil {
		loaded = map[int64]bool{}
		c.prefsLoaded[key] = loaded
		c.prefs[key] = map[int64]map[string]bool{}
	}
	var missing []int64
	for _, id := range ids {
		if !loaded[id] {
			missing = append(missing, id)
		}
	}
	if len(missing) > 0 {
		want := missing
		if len(loaded) == 0 {
			// First ask: take every user the call resolved for this app along.
			for _, id := range c.ids[sc.appID] {
				if !loaded[id] {
					want = append(want, id)
				}
			}
		}
		rows, err := a.DB.DeliveryPreferences(ctx, dbsqlc.DeliveryPreferencesParams{AppID: sc.appID, UserIds: want, CategoryID: sc.categoryID})
		if err != nil {
			return nil, db.MapError(err)
		}
		for _, id := range want {
			loaded[id] = true
		}
		for _, p := range rows {
			if c.prefs[key][p.UserID] == nil {
				c.prefs[key][p.UserID] = map[string]bool{}
			}
			c.prefs[key][p.UserID][p.Channel] = p.Enabled
		}
	}
	return c.prefs[key], nil
}

// channelsOff returns, per user, the channels the user turned off for every notification.
func (a *Service) channelsOff(ctx context.Context, appID int64, ids []int64) (map[int64]map[string]bool, error) {
	rows, err := a.DB.DeliveryChannelsOff(ctx, dbsqlc.DeliveryChannelsOffParams{AppID: appID, UserIds: ids})
	if err != nil {
		return nil, db.MapError(err)
	}
	out := map[int64]map[string]bool{}
	for _, r := range rows {
		if out[r.UserID] == nil {
			out[r.UserID] = map[string]bool{}
		}
		out[r.UserID][r.Channel] = true
	}
	return out, nil
}
