package inbox

import (
	"context"

	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/db/dbsqlc"
	"github.com/heraldhq/herald/internal/inbox/events"
)

// PageRef names one page of the inbox list (newest first) for the bulk marks.
type PageRef struct {
	Page, Limit int
}

func (p PageRef) skip() int32 { return int32((p.Page - 1) * p.Limit) }

// BulkResult is the answer of a bulk mark: how many notifications changed, and the unread
// count afterwards.
type BulkResult struct {
	Count       int64 `json:"count"`
	UnreadCount int64 `json:"unreadCount"`
}

// MarkAllSeen marks the notifications of one page of the list seen or, with page nil (the
// deprecated form), the newest FirstUnseenLimit unseen ones.
func (s *Service) MarkAllSeen(ctx context.Context, appID int64, userIdentifier string, page *PageRef) (BulkResult, error) {
	return s.bulk(ctx, appID, userIdentifier, func(uid int64) (ids []int64, n int64, kind string, err error) {
		if page == nil {
			ids, err = s.db.MarkFirstUnseenSeen(ctx, dbsqlc.MarkFirstUnseenSeenParams{AppID: appID, UserID: uid, MaxRows: FirstUnseenLimit})
		} else {
			ids, err = s.db.MarkInboxPageSeen(ctx, dbsqlc.MarkInboxPageSeenParams{AppID: appID, UserID: uid, MaxRows: int32(page.Limit), SkipRows: page.skip()})
		}
		return ids, int64(len(ids)), events.NotificationSeen, err
	})
}

// MarkAllRead marks the notifications of one page of the list read or, with page nil,
// every notification of the inbox.
func (s *Service) MarkAllRead(ctx context.Context, appID int64, userIdentifier string, page *PageRef) (BulkResult, error) {
	return s.bulk(ctx, appID, userIdentifier, func(uid int64) (ids []int64, n int64, kind string, err error) {
		if page == nil {
			n, err = s.db.MarkInboxAllRead(ctx, dbsqlc.MarkInboxAllReadParams{AppID: appID, UserID: uid})
			return nil, n, events.AllNotificationRead, err
		}
		ids, err = s.db.MarkInboxPageRead(ctx, dbsqlc.MarkInboxPageReadParams{AppID: appID, UserID: uid, MaxRows: int32(page.Limit), SkipRows: page.skip()})
		return ids, int64(len(ids)), events.NotificationRead, err
	})
}

// MarkAllDeleted removes every notification from the user's inbox.
func (s *Service) MarkAllDeleted(ctx context.Context, appID int64, userIdentifier string) (BulkResult, error) {
	return s.bulk(ctx, appID, userIdentifier, func(uid int64) ([]int64, int64, string, error) {
		n, err := s.db.MarkInboxAllDeleted(ctx, dbsqlc.MarkInboxAllDeletedParams{AppID: appID, UserID: uid})
		return nil, n, events.AllNotificationDeleted, err
	})
}

// bulk runs one bulk statement for a user, announces it when it changed anything, and
// reads the unread count after it. A user who does not exist has nothing to mark.
func (s *Service) bulk(ctx context.Context, appID int64, userIdentifier string, mark func(uid int64) ([]int64, int64, string, error)) (BulkResult, error) {
	uid, ok, err := s.userID(ctx, appID, userIdentifier)
	if err != nil || !ok {
		return BulkResult{}, err
	}
	ids, n, kind, err := mark(uid)
	if err != nil {
		return BulkResult{}, db.MapError(err)
	}
	if n > 0 {
		s.publish(ctx, kind, appID, uid, ids)
	}
	unread, err := s.unreadCount(ctx, appID, uid)
	return BulkResult{Count: n, UnreadCount: unread}, err
}
