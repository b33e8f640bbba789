// Package categories manages an app's notification categories: the tags users set their
// preferences by.
package categories

import (
	"context"
	"encoding/json"
	"maps"
	"regexp"
	"slices"
	"strings"
	"time"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/db/dbsqlc"
	js "github.com/heraldhq/herald/internal/platform/jsonshape"
)

// Limits of a category's fields.
const (
	MaxIdentifierLength = 100
	MaxNameLength       = 255
)

// LockedReason is what preference surfaces show beside a critical category's switches.
const LockedReason = "Critical notifications (such as security alerts, receipts and one-time codes) are always delivered, whatever your preferences."

// Category is a category as the developer API shows it.
type Category struct {
	ID         int64  `json:"id"`
	Identifier string `json:"identifier"`
	Name       string `json:"name"`
	// Critical categories are delivered whatever the recipient's opt-outs.
	Critical bool `json:"critical"`
	// ChannelDefaults are the app's defaults for the category's channels: a channel set
	// false starts off for every user until the user turns it on; a channel not listed
	// starts on.
	// The developer API leaves it out when no channel starts off (the published shape).
	ChannelDefaults map[string]bool `json:"channelDefaults,omitempty"`
	AppID           int64           `json:"-"`
	CreatedAt       time.Time       `json:"-"`
}

// Entity is a category as the management API shows it (CategoryEntity).
type Entity struct {
	ID         int64  `json:"id"`
	AppID      int64  `json:"appId"`
	Identifier string `json:"identifier"`
	Name       string `json:"name"`
	Critical   bool   `json:"critical"`
	// ChannelDefaults: see Category.ChannelDefaults.
	ChannelDefaults map[string]bool `json:"channelDefaults"`
	CreatedAt       time.Time       `json:"createdAt"`
}

// Entity returns the management API's view of the category.
func (c Category) Entity() Entity {
	return Entity{ID: c.ID, AppID: c.AppID, Identifier: c.Identifier, Name: c.Name, Critical: c.Critical,
		ChannelDefaults: c.ChannelDefaults, CreatedAt: c.CreatedAt}
}

// identifierPattern keeps identifiers usable in URLs, templates and preference keys.
var identifierPattern = regexp.MustCompile(`^[A-Za-z0-9_.:-]+$`)

// Service manages categories.
type Service struct {
	db *db.DB
}

// NewService returns a Service over the database.
func NewService(d *db.DB) *Service { return &Service{db: d} }

// List returns the app's categories in creation order.
func (s *Service) List(ctx context.Context, appID int64) ([]Category, error) {
	rows, err := s.db.ListAppCategories(ctx, appID)
	if err != nil {
		return nil, db.MapError(err)
	}
	out := make([]Category, len(rows))
	for i, r := range rows {
		out[i] = fromRow(r)
	}
	return out, nil
}

// Create adds a category from the body {identifier, name, critical?, channelDefaults?}; an
// identifier the app already uses is a conflict.
func (s *Service) Create(ctx context.Context, appID int64, body []byte) (Category, error) {
	f := js.Fields(body)
	if f == nil {
		return Category{}, herald.Invalid("body must be a JSON object")
	}
	identifier, name, p := check(f)
	critical := optionalBool(f, "critical", &p)
	defaults := channelDefaults(f, &p)
	if err := p.Err(); err != nil {
		return Category{}, err
	}
	return s.insert(ctx, appID, identifier, name, critical != nil && *critical, defaults)
}

// Check checks a category body {identifier, name, critical?, channelDefaults?} as Create
// does, without a database (the herald CLI validates with it), and returns every problem.
func Check(body []byte) []string {
	f := js.Fields(body)
	if f == nil {
		return []string{"body must be a JSON object"}
	}
	_, _, p := check(f)
	optionalBool(f, "critical", &p)
	channelDefaults(f, &p)
	return p
}

// channelDefaults reads the optional channelDefaults object {channel: boolean} (nil when
// absent or null). Every key must be a channel identifier and every value a boolean.
func channelDefaults(f map[string]json.RawMessage, p *herald.Problems) map[string]bool {
	raw, ok := f["channelDefaults"]
	if !ok || js.Kind(raw) == "null" {
		return nil
	}
	var m map[string]json.RawMessage
	if js.Kind(raw) != "object" || json.Unmarshal(raw, &m) != nil {
		p.Addf("channelDefaults must be an object of channel: boolean")
		return nil
	}
	out := make(map[string]bool, len(m))
	for _, ch := range slices.Sorted(maps.Keys(m)) {
		if !slices.Contains(herald.Channels, ch) {
			p.Addf("channelDefaults.%s: unknown channel (one of %s)", ch, strings.Join(herald.Channels, ", "))
			continue
		}
		var v bool
		if js.Kind(m[ch]) != "boolean" || json.Unmarshal(m[ch], &v) != nil {
			p.Addf("channelDefaults.%s must be a boolean value", ch)
			continue
		}
		out[ch] = v
	}
	return out
}

// encodeDefaults stores only the channels that start off: on is the default, so a stored
// true would say nothing.
func encodeDefaults(m map[string]bool) json.RawMessage {
	off := OffChannels(m)
	if off == nil {
		return json.RawMessage(`{}`)
	}
	b, _ := json.Marshal(off)
	return b
}

// OffChannels keeps the channels of a defaults map that start off: on is every channel's
// default, so only the offs say something (nil when none).
func OffChannels(defaults map[string]bool) map[string]bool {
	var off map[string]bool
	for ch, on := range defaults {
		if !on {
			if off == nil {
				off = map[string]bool{}
			}
			off[ch] = false
		}
	}
	return off
}

// DecodeDefaults reads a stored channel_defaults column (channels that start off); a
// malformed value counts as none.
func DecodeDefaults(raw []byte) map[string]bool {
	out := map[string]bool{}
	_ = json.Unmarshal(raw, &out)
	return out
}

func check(f map[string]json.RawMessage) (identifier, name string, p herald.Problems) {
	identifier = js.RequiredString(f, "identifier", MaxIdentifierLength, &p)
	if strings.TrimSpace(identifier) != "" && len(identifier) <= MaxIdentifierLength && !identifierPattern.MatchString(identifier) {
		p.Addf("identifier must be 1 to %d letters, digits or _ . : -", MaxIdentifierLength)
	}
	name = js.RequiredString(f, "name", MaxNameLength, &p)
	return identifier, name, p
}

// optionalBool reads an optional boolean field (nil when absent or null).
func optionalBool(f map[string]json.RawMessage, field string, p *herald.Problems) *bool {
	raw, ok := f[field]
	if !ok || js.Kind(raw) == "null" {
		return nil
	}
	var v bool
	if js.Kind(raw) != "boolean" || json.Unmarshal(raw, &v) != nil {
		p.Addf("%s must be a boolean value", field)
		return nil
	}
	return &v
}

func (s *Service) insert(ctx context.Context, appID int64, identifier, name string, critical bool, defaults map[string]bool) (Category, error) {
	row, err := s.db.InsertCategory(ctx, dbsqlc.InsertCategoryParams{AppID: appID, Identifier: identifier, Name: name,
		Critical: critical, ChannelDefaults: encodeDefaults(defaults)})
	if err != nil {
		if err = db.MapError(err); herald.ErrorCode(err) == herald.ECONFLICT {
			return Category{}, herald.Errorf(herald.ECONFLICT, "a category with identifier %q already exists", identifier)
		}
		return Category{}, err
	}
	return fromRow(row), nil
}

// Delete removes a category of the app. Its notifications stay, without a category; the
// preferences set for it go.
func (s *Service) Delete(ctx context.Context, appID, id int64) error {
	n, err := s.db.DeleteAppCategory(ctx, dbsqlc.DeleteAppCategoryParams{AppID: appID, ID: id})
	if err != nil {
		return db.MapError(err)
	}
	if n == 0 {
		return herald.NotFound("category")
	}
	return nil
}

// Update changes a category from the body {name?, critical?, channelDefaults?} (name is
// required unless critical or channelDefaults is given); its identifier is fixed (sends
// name it). channelDefaults replaces the category's defaults as a whole.
func (s *Service) Update(ctx context.Context, appID, id int64, body []byte) (Category, error) {
	f := js.Fields(body)
	if f == nil {
		return Category{}, herald.Invalid("body must be a JSON object")
	}
	var p herald.Problems
	critical := optionalBool(f, "critical", &p)
	defaults := channelDefaults(f, &p)
	var name *string
	if _, given := f["name"]; given || (critical == nil && defaults == nil) {
		n := js.RequiredString(f, "name", MaxNameLength, &p)
		name = &n
	}
	if err := p.Err(); err != nil {
		return Category{}, err
	}
	var stored json.RawMessage
	if defaults != nil {
		stored = encodeDefaults(defaults)
	}
	row, err := s.db.UpdateAppCategory(ctx, dbsqlc.UpdateAppCategoryParams{ID: id, AppID: appID, Name: name, Critical: critical, ChannelDefaults: stored})
	if err != nil {
		if err = db.MapError(err); herald.ErrorCode(err) == herald.ENOTFOUND {
			return Category{}, herald.NotFound("category")
		}
		return Category{}, err
	}
	return fromRow(row), nil
}

// Owner returns the app and the client owning a category, for the management API's role
// check; a category of an app without a client is not found there.
func (s *Service) Owner(ctx context.Context, id int64) (appID, clientID int64, err error) {
	r, err := s.db.GetCategoryClient(ctx, id)
	if err != nil || r.ClientID == nil {
		return 0, 0, herald.NotFound("category")
	}
	return r.AppID, *r.ClientID, nil
}

func fromRow(r dbsqlc.Category) Category {
	return Category{ID: r.ID, AppID: r.AppID, Identifier: r.Identifier, Name: r.Name, Critical: r.Critical,
		ChannelDefaults: DecodeDefaults(r.ChannelDefaults), CreatedAt: r.CreatedAt}
}
