package prefs

import (
	"context"
	"encoding/json"
	"slices"
	"strings"

	"github.com/jackc/pgx/v5"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/db/dbsqlc"
	"github.com/heraldhq/herald/internal/audience/users"
	js "github.com/heraldhq/herald/internal/platform/jsonshape"
)

// Channels returns the user's switch for every channel as a whole ("no SMS, ever"): every
// channel of herald.Channels, unset ones on. A user Herald does not know has every
// channel on. A channel switched off skips every notification on it except critical ones.
func (s *Service) Channels(ctx context.Context, appID int64, identifier string) (map[string]bool, error) {
	out := make(map[string]bool, len(herald.Channels))
	for _, ch := range herald.Channels {
		out[ch] = true
	}
	u, err := s.db.GetUserByIdentifier(ctx, dbsqlc.GetUserByIdentifierParams{AppID: appID, Identifier: identifier})
	if err = db.MapError(err); herald.ErrorCode(err) == herald.ENOTFOUND {
		return out, nil
	} else if err != nil {
		return nil, err
	}
	rows, err := s.db.ListChannelPreferences(ctx, dbsqlc.ListChannelPreferencesParams{AppID: appID, UserID: u.ID})
	if err != nil {
		return nil, db.MapError(err)
	}
	for _, r := range rows {
		if _, known := out[r.Channel]; known {
			out[r.Channel] = r.Enabled
		}
	}
	return out, nil
}

// SetChannels sets some of the user's channel switches from the body {"sms": false, …}
// (channel → boolean), creating the user when needed, and returns every switch. Every
// problem is reported at once and nothing is changed then.
func (s *Service) SetChannels(ctx context.Context, appID int64, identifier string, body []byte) (map[string]bool, error) {
	var p herald.Problems
	users.CheckIdentifier("user id", identifier, &p)
	f := js.Fields(body)
	if f == nil {
		p.Addf("body must be a JSON object from channel names to booleans")
	}
	var params dbsqlc.UpsertChannelPreferencesParams
	keys := make([]string, 0, len(f))
	for k := range f {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, ch := range keys {
		if !herald.IsChannel(ch) {
			p.Addf("%s is not a channel: the keys must be among the following values: %s", ch, strings.Join(herald.Channels, ", "))
			continue
		}
		var on bool
		if js.Kind(f[ch]) != "boolean" || json.Unmarshal(f[ch], &on) != nil {
			p.Addf("%s must be a boolean value", ch)
			continue
		}
		params.Channels = append(params.Channels, ch)
		params.Enabled = append(params.Enabled, on)
	}
	if err := p.Err(); err != nil {
		return nil, err
	}
	if len(params.Channels) > 0 {
		err := s.db.InTx(ctx, func(q *dbsqlc.Queries, _ pgx.Tx) error {
			ids, err := users.Ensure(ctx, q, appID, []string{identifier})
			if err != nil {
				return err
			}
			params.AppID, params.UserID = appID, ids[0]
			return db.MapError(q.UpsertChannelPreferences(ctx, params))
		})
		if err != nil {
			return nil, err
		}
	}
	return s.Channels(ctx, appID, identifier)
}
