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
	"github.com/heraldhq/herald/internal/audience/quiethours"
	"github.com/heraldhq/herald/internal/audience/users"
	js "github.com/heraldhq/herald/internal/platform/jsonshape"
)

// QuietHours is a user's quiet hours as GET /preferences/quiet-hours shows them: Enabled
// false (and nothing else) when none are set. Start and End are HH:MM (HH:MM:SS when the
// seconds are set) in Timezone, the profile key timezone ("UTC" when unset).
type QuietHours struct {
	Enabled  bool     `json:"enabled"`
	Start    string   `json:"start,omitempty"`
	End      string   `json:"end,omitempty"`
	Days     []string `json:"days"`
	Timezone string   `json:"timezone"`
}

// QuietHours returns the user's quiet hours; a user Herald does not know has none.
func (s *Service) QuietHours(ctx context.Context, appID int64, identifier string) (QuietHours, error) {
	out := QuietHours{Days: []string{}, Timezone: "UTC"}
	u, err := s.db.GetUserByIdentifier(ctx, dbsqlc.GetUserByIdentifierParams{AppID: appID, Identifier: identifier})
	if err = db.MapError(err); herald.ErrorCode(err) == herald.ENOTFOUND {
		return out, nil
	} else if err != nil {
		return out, err
	}
	var profile struct {
		Timezone string `json:"timezone"`
	}
	if json.Unmarshal(u.Profile, &profile) == nil && profile.Timezone != "" {
		out.Timezone = profile.Timezone
	}
	row, err := s.db.GetQuietHours(ctx, dbsqlc.GetQuietHoursParams{AppID: appID, UserID: u.ID})
	if err = db.MapError(err); herald.ErrorCode(err) == herald.ENOTFOUND {
		return out, nil
	} else if err != nil {
		return out, err
	}
	out.Enabled = true
	if row.StartSecond != row.EndSecond {
		out.Start, out.End = quiethours.FormatSeconds(int(row.StartSecond)), quiethours.FormatSeconds(int(row.EndSecond))
	}
	for d, name := range quiethours.DayNames {
		if row.Days&(1<<d) != 0 {
			out.Days = append(out.Days, name)
		}
	}
	return out, nil
}

// SetQuietHours replaces the user's quiet hours from the body of PUT
// /preferences/quiet-hours — {"start": "22:00", "end": "07:00", "days": ["saturday",
// "sunday"], "timezone": "Europe/Paris"}, or {"enabled": false} to remove them — creating
// the user when needed, and returns them. timezone, when given, is written to the profile
// key timezone. Every problem is reported at once and nothing is changed then.
func (s *Service) SetQuietHours(ctx context.Context, appID int64, identifier string, body []byte) (QuietHours, error) {
	var p herald.Problems
	users.CheckIdentifier("user id", identifier, &p)
	f := js.Fields(body)
	if f == nil {
		p.Addf("body must be a JSON object with start, end, days, timezone or enabled")
		return QuietHours{}, p.Err()
	}
	known := []string{"enabled", "start", "end", "days", "timezone"}
	keys := make([]string, 0, len(f))
	for k := range f {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if !slices.Contains(known, k) {
			p.Addf("%s is not a field of quiet hours: the fields are %s", k, strings.Join(known, ", "))
		}
	}
	enabled := true
	if raw, ok := f["enabled"]; ok && (js.Kind(raw) != "boolean" || json.Unmarshal(raw, &enabled) != nil) {
		p.Addf("enabled must be a boolean value")
	}
	var start, end int
	var hasStart, hasEnd bool
	readTime := func(name string, dst *int, has *bool) {
		raw, ok := f[name]
		if !ok || js.Kind(raw) == "null" {
			return
		}
		var v string
		if js.Kind(raw) == "string" && json.Unmarshal(raw, &v) == nil {
			if sec, ok := quiethours.ParseSeconds(v); ok {
				*dst, *has = sec, true
				return
			}
		}
		p.Addf("%s must be a time of day HH:MM or HH:MM:SS (24-hour clock, 00:00 to 23:59:59)", name)
	}
	readTime("start", &start, &hasStart)
	readTime("end", &end, &hasEnd)
	var days uint8
	if raw, ok := f["days"]; ok && js.Kind(raw) != "null" {
		var names []string
		if js.Kind(raw) != "array" || json.Unmarshal(raw, &names) != nil {
			p.Addf("days must be an array of day names (%s)", strings.Join(quiethours.DayNames[:], ", "))
		}
		for _, n := range names {
			d := slices.Index(quiethours.DayNames[:], strings.ToLower(n))
			if d < 0 {
				p.Addf("days: %q is not a day: the values are %s", n, strings.Join(quiethours.DayNames[:], ", "))
				continue
			}
			days |= 1 << d
		}
	}
	var tz string
	if raw, ok := f["timezone"]; ok && js.Kind(raw) != "null" {
		if js.Kind(raw) != "string" || json.Unmarshal(raw, &tz) != nil || !users.ValidTimezone(tz) {
			p.Addf("timezone must be an IANA time zone name such as Europe/Paris or UTC")
		}
	}
	if enabled {
		switch {
		case hasStart != hasEnd:
			p.Addf("start and end go together: give both, or neither for quiet days only")
		case hasStart && start == end:
			p.Addf("start and end must differ (a window from %s to %s is empty)", quiethours.FormatSeconds(start), quiethours.FormatSeconds(end))
		case !hasStart && days == 0:
			p.Addf("quiet hours need a window (start and end) or days; send {\"enabled\": false} to remove them")
		}
		if days == 0x7f {
			p.Addf("days must not list every day of the week: messages would never go out")
		}
	}
	if err := p.Err(); err != nil {
		return QuietHours{}, err
	}
	err := s.db.InTx(ctx, func(q *dbsqlc.Queries, _ pgx.Tx) error {
		ids, err := users.Ensure(ctx, q, appID, []string{identifier})
		if err != nil {
			return err
		}
		if tz != "" {
			profile, _ := json.Marshal(map[string]string{"timezone": tz})
			if _, err := q.UpsertUserProfile(ctx, dbsqlc.UpsertUserProfileParams{AppID: appID, Identifier: identifier, Profile: profile}); err != nil {
				return db.MapError(err)
			}
		}
		if !enabled {
			return db.MapError(q.DeleteQuietHours(ctx, dbsqlc.DeleteQuietHoursParams{AppID: appID, UserID: ids[0]}))
		}
		return db.MapError(q.UpsertQuietHours(ctx, dbsqlc.UpsertQuietHoursParams{
			AppID: appID, UserID: ids[0], StartSecond: int32(start), EndSecond: int32(end), Days: int16(days),
		}))
	})
	if err != nil {
		return QuietHours{}, err
	}
	return s.QuietHours(ctx, appID, identifier)
}
