// Package inbox serves a user's in-app notifications: listing, counting and (with the
// developer API) changing their states.
package inbox

import (
	"context"
	"encoding/json"
	"time"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/db/dbsqlc"
)

// Paging limits of the inbox list (spec §8).
const (
	DefaultLimit = 10
	MaxLimit     = 20
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
type Time time.Time

// MarshalJSON implements json.Marshaler.
func (t Time) MarshalJSON() ([]byte, error) {
	return []byte(`"` + time.Time(t).UTC().Format("2006-01-02T15:04:05.000Z") + `"`), nil
}

func timePtr(t *time.Time) *Time {
	if t == nil {
		return nil
	}
	v := Time(*t)
	return &v
}

// Page is the list envelope of spec §2.
type Page struct {
	UnreadCount int64          `json:"unreadCount"`
	Pagination  Pagination     `json:"pagination"`
	Data        []Notification `json:"data"`
}

// Pagination describes the position of a page.
type Pagination struct {
	TotalCount int64 `json:"totalCount"`
	PageNo     int   `json:"pageNo"`
	Limit      int   `json:"limit"`
}

// ListQuery selects a page of the inbox.
type ListQuery struct {
	PageNo int
	Limit  int
}

// Service reads and changes inboxes.
type Service struct {
	db *db.DB
}

// NewService returns a Service over the database.
func NewService(d *db.DB) *Service { return &Service{db: d} }

// List returns a page of a user's inbox, newest first, with the unread and total counts. A
// user who does not exist yet has an empty inbox.
func (s *Service) List(ctx context.Context, appID int64, userIdentifier string, q ListQuery) (Page, error) {
	page := Page{Data: []Notification{}, Pagination: Pagination{PageNo: q.PageNo, Limit: q.Limit}}
	user, err := s.db.GetUserByIdentifier(ctx, dbsqlc.GetUserByIdentifierParams{AppID: appID, Identifier: userIdentifier})
	if err != nil {
		if err = db.MapError(err); herald.ErrorCode(err) == herald.ENOTFOUND {
			return page, nil
		}
		return page, err
	}
	rows, err := s.db.ListInbox(ctx, dbsqlc.ListInboxParams{
		AppID: appID, UserID: user.ID, MaxRows: int32(q.Limit), SkipRows: int32((q.PageNo - 1) * q.Limit),
	})
	if err != nil {
		return page, db.MapError(err)
	}
	for _, r := range rows {
		page.Data = append(page.Data, fromListRow(r))
	}
	if page.Pagination.TotalCount, err = s.db.CountInbox(ctx, dbsqlc.CountInboxParams{AppID: appID, UserID: user.ID}); err != nil {
		return page, db.MapError(err)
	}
	if page.UnreadCount, err = s.db.CountUnread(ctx, dbsqlc.CountUnreadParams{AppID: appID, UserID: user.ID}); err != nil {
		return page, db.MapError(err)
	}
	return page, nil
}

func fromListRow(r dbsqlc.ListInboxRow) Notification {
	n := Notification{
		ID: r.ID, Title: r.Title, Message: r.Message, Icon: r.Icon, URL: r.Url,
		Blocks: r.Blocks, Data: r.Data, State: r.State, CreatedAt: Time(r.CreatedAt),
		SeenAt: timePtr(r.SeenAt), ReadAt: timePtr(r.ReadAt), ClickedAt: timePtr(r.ClickedAt),
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
