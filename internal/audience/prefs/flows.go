package prefs

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/jackc/pgx/v5"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/db/dbsqlc"
	"github.com/heraldhq/herald/internal/audience/categories"
	"github.com/heraldhq/herald/internal/audience/users"
	js "github.com/heraldhq/herald/internal/platform/jsonshape"
)

// MaxFlowItems caps the workflows of one flow preference update.
const MaxFlowItems = 200

// FlowRef names a workflow in a flow preference.
type FlowRef struct {
	Identifier string `json:"identifier"`
	Name       string `json:"name"`
}

// FlowPreference is a user's switches for one workflow: Enabled for the whole workflow
// (unset: on) and the channels the user set for it (a channel not listed follows the
// workflow's switch, then the category's). Critical workflows are locked.
type FlowPreference struct {
	Workflow     FlowRef         `json:"workflow"`
	Enabled      bool            `json:"enabled"`
	Channels     map[string]bool `json:"channels"`
	Critical     bool            `json:"critical"`
	LockedReason string          `json:"lockedReason,omitempty"`
}

// Flows returns the user's switches for every published, unarchived workflow of the app.
func (s *Service) Flows(ctx context.Context, appID int64, identifier string) ([]FlowPreference, error) {
	flows, err := s.db.ListAppFlowsForPreferences(ctx, appID)
	if err != nil {
		return nil, db.MapError(err)
	}
	set := map[string]map[string]bool{}
	u, err := s.db.GetUserByIdentifier(ctx, dbsqlc.GetUserByIdentifierParams{AppID: appID, Identifier: identifier})
	switch err = db.MapError(err); {
	case err == nil:
		rows, err := s.db.ListFlowPreferences(ctx, dbsqlc.ListFlowPreferencesParams{AppID: appID, UserID: u.ID})
		if err != nil {
			return nil, db.MapError(err)
		}
		for _, r := range rows {
			if set[r.Identifier] == nil {
				set[r.Identifier] = map[string]bool{}
			}
			set[r.Identifier][r.Channel] = r.Enabled
		}
	case herald.ErrorCode(err) != herald.ENOTFOUND:
		return nil, err
	}
	out := make([]FlowPreference, len(flows))
	for i, f := range flows {
		p := FlowPreference{Workflow: FlowRef{Identifier: f.Identifier, Name: f.Name}, Enabled: true, Channels: map[string]bool{}, Critical: f.Critical}
		for ch, on := range set[f.Identifier] {
			if ch == "" {
				p.Enabled = on
			} else {
				p.Channels[ch] = on
			}
		}
		if f.Critical {
			p.LockedReason = categories.LockedReason
		}
		out[i] = p
	}
	return out, nil
}

// SetFlows sets switches from the body {"workflows": [{"identifier", "enabled"?,
// "channels"?: {"sms": false}}]}, creating the user when needed. Every problem is reported
// at once (identifiers must name workflows of the app) and nothing changes then.
func (s *Service) SetFlows(ctx context.Context, appID int64, identifier string, body []byte) error {
	var p herald.Problems
	users.CheckIdentifier("user id", identifier, &p)
	type sw struct {
		flow, channel string
		on            bool
	}
	var switches []sw
	var refs, refFields []string
	top := js.Fields(body)
	items, ok := js.Elements(top["workflows"])
	switch {
	case top == nil:
		p.Addf("body must be a JSON object")
	case !ok:
		p.Addf("workflows must be an array")
	case len(items) > MaxFlowItems:
		p.Addf("workflows must have no more than %d items", MaxFlowItems)
	}
	for i, raw := range items {
		field := fmt.Sprintf("workflows[%d]", i)
		f := js.Fields(raw)
		if f == nil {
			p.Addf("%s must be an object", field)
			continue
		}
		id, ok := js.String(f["identifier"])
		if !ok || id == "" {
			p.Addf("%s.identifier must be a workflow identifier", field)
			continue
		}
		refs, refFields = append(refs, id), append(refFields, field+".identifier")
		add := func(ch string, raw json.RawMessage, name string) {
			var on bool
			if js.Kind(raw) != "boolean" || json.Unmarshal(raw, &on) != nil {
				p.Addf("%s must be a boolean value", name)
				return
			}
			switches = append(switches, sw{id, ch, on})
		}
		if raw, given := f["enabled"]; given {
			add("", raw, field+".enabled")
		}
		if raw, given := f["channels"]; given {
			chans := js.Fields(raw)
			if chans == nil {
				p.Addf("%s.channels must be an object from channel names to booleans", field)
				continue
			}
			keys := make([]string, 0, len(chans))
			for k := range chans {
				keys = append(keys, k)
			}
			slices.Sort(keys)
			for _, ch := range keys {
				if !herald.IsChannel(ch) {
					p.Addf("%s.channels.%s is not a channel: the keys must be among the following values: %s", field, ch, strings.Join(herald.Channels, ", "))
					continue
				}
				add(ch, chans[ch], field+".channels."+ch)
			}
		}
	}
	if len(p) == 0 && len(refs) > 0 {
		found, err := s.db.AppFlowIdentifiers(ctx, dbsqlc.AppFlowIdentifiersParams{AppID: appID, Identifiers: refs})
		if err != nil {
			return db.MapError(err)
		}
		for i, id := range refs {
			if !slices.Contains(found, id) {
				p.Addf("%s must name one of the app's workflows (%q does not)", refFields[i], id)
			}
		}
	}
	if err := p.Err(); err != nil {
		return err
	}
	// A later switch overrides an earlier one for the same workflow and channel.
	last := map[[2]string]int{}
	for i, w := range switches {
		last[[2]string{w.flow, w.channel}] = i
	}
	var params dbsqlc.UpsertFlowPreferencesParams
	for i, w := range switches {
		if last[[2]string{w.flow, w.channel}] == i {
			params.Identifiers = append(params.Identifiers, w.flow)
			params.Channels = append(params.Channels, w.channel)
			params.Enabled = append(params.Enabled, w.on)
		}
	}
	if len(params.Identifiers) == 0 {
		return nil
	}
	return s.db.InTx(ctx, func(q *dbsqlc.Queries, _ pgx.Tx) error {
		ids, err := users.Ensure(ctx, q, appID, []string{identifier})
		if err != nil {
			return err
		}
		params.AppID, params.UserID = appID, ids[0]
		return db.MapError(q.UpsertFlowPreferences(ctx, params))
	})
}
