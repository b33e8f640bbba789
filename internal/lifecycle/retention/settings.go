package retention

import (
	"context"
	"encoding/json"
	"sort"
	"strings"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/db/dbsqlc"
	js "github.com/heraldhq/herald/internal/platform/jsonshape"
	"github.com/jackc/pgx/v5"
)

// Days maps setting names to a retention in days.
type Days map[string]int

// View is an app's retention as the API shows it: the days in effect for every kind, and
// the defaults they override.
type View struct {
	Retention Days `json:"retention"`
	Defaults  Days `json:"defaults"`
}

// Defaults returns the default of every setting.
func Defaults() Days {
	out := Days{}
	for _, s := range Settings {
		out[s.Name] = s.Default
	}
	return out
}

// Effective applies an app's overrides (the apps.retention column) to the defaults;
// unknown or out-of-range overrides (a setting removed since) are ignored.
func Effective(overrides json.RawMessage) Days {
	out := Defaults()
	var o map[string]int
	_ = json.Unmarshal(overrides, &o)
	for k, v := range o {
		if s, ok := setting(k); ok && v >= s.Min && v <= s.Max {
			out[k] = v
		}
	}
	return out
}

// Service reads and changes apps' retention settings.
type Service struct {
	db *db.DB
}

// NewService returns a Service.
func NewService(d *db.DB) *Service { return &Service{db: d} }

// Get returns the app's retention.
func (s *Service) Get(ctx context.Context, appID int64) (View, error) {
	raw, err := s.db.GetAppRetention(ctx, appID)
	if err != nil {
		if err = db.MapError(err); herald.ErrorCode(err) == herald.ENOTFOUND {
			return View{}, herald.NotFound("app")
		}
		return View{}, err
	}
	return View{Retention: Effective(raw), Defaults: Defaults()}, nil
}

// Update merges body into the app's settings: {"messageLogs": 30} sets a retention in
// days, {"messageLogs": null} returns the kind to its default. Every problem is reported
// at once and nothing changes when there is one.
func (s *Service) Update(ctx context.Context, appID int64, body []byte) (View, error) {
	changes, err := Parse(body)
	if err != nil {
		return View{}, err
	}
	var out View
	err = s.db.InTx(ctx, func(q *dbsqlc.Queries, _ pgx.Tx) error {
		raw, err := q.LockAppRetention(ctx, appID)
		if err != nil {
			if err = db.MapError(err); herald.ErrorCode(err) == herald.ENOTFOUND {
				return herald.NotFound("app")
			}
			return err
		}
		o := map[string]int{}
		_ = json.Unmarshal(raw, &o)
		for k, v := range changes {
			if v == nil {
				delete(o, k)
			} else {
				o[k] = *v
			}
		}
		b, err := json.Marshal(o)
		if err != nil {
			return err
		}
		if err := q.SetAppRetention(ctx, dbsqlc.SetAppRetentionParams{ID: appID, Retention: b}); err != nil {
			return db.MapError(err)
		}
		out = View{Retention: Effective(b), Defaults: Defaults()}
		return nil
	})
	return out, err
}

// Parse validates a settings change: a JSON object whose keys are setting names and whose
// values are whole numbers of days within the setting's bounds, or null.
func Parse(body []byte) (map[string]*int, error) {
	top := js.Fields(body)
	if top == nil {
		return nil, herald.Invalid("body must be a JSON object")
	}
	keys := make([]string, 0, len(top))
	for k := range top {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		return order(keys[i]) < order(keys[j]) || (order(keys[i]) == order(keys[j]) && keys[i] < keys[j])
	})
	var p herald.Problems
	out := map[string]*int{}
	for _, k := range keys {
		raw := top[k]
		st, ok := setting(k)
		if !ok {
			p.Addf("%s is not a kind of data with a retention (one of %s)", k, names())
			continue
		}
		if strings.TrimSpace(string(raw)) == "null" {
			out[k] = nil
			continue
		}
		var f float64
		if err := json.Unmarshal(raw, &f); err != nil || f != float64(int(f)) {
			p.Addf("%s must be a whole number of days or null", k)
			continue
		}
		n := int(f)
		if n < st.Min || n > st.Max {
			p.Addf("%s must be between %d and %d days", k, st.Min, st.Max)
			continue
		}
		out[k] = &n
	}
	if err := p.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

// order is the position of a setting in Settings (unknown names last).
func order(name string) int {
	for i, s := range Settings {
		if s.Name == name {
			return i
		}
	}
	return len(Settings)
}

func names() string {
	out := make([]string, len(Settings))
	for i, s := range Settings {
		out[i] = s.Name
	}
	return strings.Join(out, ", ")
}
