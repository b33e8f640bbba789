package inbox

import (
	"context"

	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/db/dbsqlc"
)

// Owned is a notification with the internal id of the user whose inbox holds it.
type Owned struct {
	UserID int64
	Notification
}

// ByIDs loads the app's undeleted notifications of the given ids in one query, for the
// realtime layer that pushes them to connected users. Ids of another app are ignored.
func (s *Service) ByIDs(ctx context.Context, appID int64, ids []int64) ([]Owned, error) {
	rows, err := s.db.NotificationsByIDs(ctx, dbsqlc.NotificationsByIDsParams{AppID: appID, Ids: ids})
	if err != nil {
		return nil, db.MapError(err)
	}
	out := make([]Owned, len(rows))
	for i, r := range rows {
		out[i] = Owned{UserID: r.UserID, Notification: fromItemRow(dbsqlc.GetInboxItemsRow{
			ID: r.ID, Title: r.Title, Message: r.Message, Icon: r.Icon, Url: r.Url, Data: r.Data, Blocks: r.Blocks,
			State: r.State, CreatedAt: r.CreatedAt, SeenAt: r.SeenAt, ReadAt: r.ReadAt, ClickedAt: r.ClickedAt,
			CategoryID: r.CategoryID, CategoryIdentifier: r.CategoryIdentifier, CategoryName: r.CategoryName,
		})}
	}
	return out, nil
}

// UnreadCounts returns the unread count (the badge) of each of the app's given users in
// one query; every asked user is in the result, with 0 when nothing is unread.
func (s *Service) UnreadCounts(ctx context.Context, appID int64, userIDs []int64) (map[int64]int64, error) {
	rows, err := s.db.CountUnreadByUsers(ctx, dbsqlc.CountUnreadByUsersParams{AppID: appID, UserIds: userIDs})
	if err != nil {
		return nil, db.MapError(err)
	}
	out := make(map[int64]int64, len(userIDs))
	for _, id := range userIDs {
		out[id] = 0
	}
	for _, r := range rows {
		out[r.UserID] = r.Unread
	}
	return out, nil
}
