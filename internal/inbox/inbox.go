// Package inbox serves a user's in-app notifications: listing with filters, reading one,
// and changing their states (seen, read, clicked, state, deleted) one at a time or in bulk.
// Every change is one atomic, idempotent statement scoped by app and user; after it commits
// the service publishes the matching realtime event.
package inbox

import (
	"context"
	"encoding/json"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/db/dbsqlc"
	"github.com/heraldhq/herald/internal/inbox/events"
	"github.com/heraldhq/herald/internal/platform/jsontime"
)

// Limits of the inbox API (docs/decisions.md#limits).
const (
	DefaultLimit = 10
	MaxLimit     = 20
	// FirstUnseenLimit is how many notifications the deprecated bulk mark-seen form marks.
	FirstUnseenLimit = 15
	// MaxStateLength caps the free-form state of a notification.
	MaxStateLength = 64
)

// Notification is an inbox item as the developer API shows it.
type Notification struct {
	ID        int64           `json:"id"`
	Title     string          `json:"title"`
	Message   string          `json:"message"`
	Icon      string          `json:"icon"`
	URL       string          `json:"url"`
	Blocks    json.RawMessage `json:"blocks"`
	Data      json.RawMessage `json:"data"`
	State     *string         `json:"state"`
	Category  *Category       `json:"category"`
	CreatedAt Time            `json:"createdAt"`
	SeenAt    *Time           `json:"seenAt"`
	ReadAt    *Time           `json:"readAt"`
	ClickedAt *Time           `json:"clickedAt"`
}

// Category is the category summary carried by a notification.
type Category struct {
	ID         int64  `json:"id"`
	Identifier string `json:"identifier"`
	Name       string `json:"name"`
}

// Time marshals as ISO 8601 in UTC with milliseconds.
type Time = jsontime.Time

// Service reads and changes inboxes.
type Service struct {
	db  *db.DB
	pub events.Publisher
}

// NewService returns a Service over the database that announces committed changes to pub
// (nil: nowhere).
func NewService(d *db.DB, pub events.Publisher) *Service {
	if pub == nil {
		pub = events.Nop{}
	}
	return &Service{db: d, pub: pub}
}

// userID finds the internal id of an app's user; ok is false when the user does not exist
// (yet), which callers treat as an empty inbox.
func (s *Service) userID(ctx context.Context, appID int64, identifier string) (id int64, ok bool, err error) {
	u, err := s.db.GetUserByIdentifier(ctx, dbsqlc.GetUserByIdentifierParams{AppID: appID, Identifier: identifier})
	if err != nil {
		if err = db.MapError(err); herald.ErrorCode(err) == herald.ENOTFOUND {
			return 0, false, nil
		}
		return 0, false, err
	}
	return u.ID, true, nil
}

// load reads items of a user's inbox in the order of ids; ids no longer in the inbox are
// left out.
func (s *Service) load(ctx context.Context, appID, userID int64, ids []int64) ([]Notification, error) {
	out := make([]Notification, 0, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	rows, err := s.db.GetInboxItems(ctx, dbsqlc.GetInboxItemsParams{Ids: ids, AppID: appID, UserID: userID})
	if err != nil {
		return nil, db.MapError(err)
	}
	byID := make(map[int64]Notification, len(rows))
	for _, r := range rows {
		byID[r.ID] = fromItemRow(r)
	}
	for _, id := range ids {
		if n, ok := byID[id]; ok {
			out = append(out, n)
		}
	}
	return out, nil
}

func (s *Service) unreadCount(ctx context.Context, appID, userID int64) (int64, error) {
	c, err := s.counters(ctx, appID, userID)
	return c.Unread, err
}

// counters reads the user's maintained badge and total (one primary-key lookup).
func (s *Service) counters(ctx context.Context, appID, userID int64) (dbsqlc.InboxCountersRow, error) {
	c, err := s.db.InboxCounters(ctx, dbsqlc.InboxCountersParams{AppID: appID, UserID: userID})
	return c, db.MapError(err)
}

// publish announces one kind of change of a user's notifications.
func (s *Service) publish(ctx context.Context, kind string, appID, userID int64, ids []int64) {
	s.pub.Publish(ctx, events.Event{Kind: kind, AppID: appID, UserIDs: []int64{userID}, NotificationIDs: ids})
}

func fromItemRow(r dbsqlc.GetInboxItemsRow) Notification {
	n := Notification{
		ID: r.ID, Title: r.Title, Message: r.Message, Icon: r.Icon, URL: r.Url,
		Blocks: r.Blocks, Data: r.Data, State: r.State, CreatedAt: Time(r.CreatedAt),
		SeenAt: jsontime.Ptr(r.SeenAt), ReadAt: jsontime.Ptr(r.ReadAt), ClickedAt: jsontime.Ptr(r.ClickedAt),
	}
	if r.CategoryID != nil && r.CategoryIdentifier != nil {
		n.Category = &Category{ID: *r.CategoryID, Identifier: *r.CategoryIdentifier, Name: deref(r.CategoryName)}
	}
	return n
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
