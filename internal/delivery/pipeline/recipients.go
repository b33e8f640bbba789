package pipeline

import (
	"context"
	"encoding/json"
	"fmt"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/db/dbsqlc"
	sendwf "github.com/heraldhq/herald/workflows/send"
)

// recipient is one user of a page.
type recipient struct {
	userID     int64
	identifier string
	profile    json.RawMessage
	// topicChannels restricts a topic subscriber's channels (empty: all).
	topicChannels []string
}

// nextPage returns the recipients of a request after cursor c (at most limit), the cursor
// after them, and whether the request has no recipients left. Inline recipients come
// first, then each topic's subscribers in user id order (keyset paging: memory and
// history stay bounded whatever the topic's size).
func (a *Service) nextPage(ctx context.Context, sc *sendContext, c sendwf.Cursor, limit int) ([]recipient, sendwf.Cursor, bool, error) {
	req := sc.req
	if c.Offset < len(req.Recipients) {
		end := min(c.Offset+limit, len(req.Recipients))
		page, err := a.inlinePage(ctx, sc, req.Recipients[c.Offset:end])
		next := c
		next.Offset = end
		return page, next, end == len(req.Recipients) && len(req.Topics) == 0, err
	}
	if c.Topic >= len(req.Topics) {
		return nil, c, true, nil
	}
	next := c
	topicID, err := a.topicID(ctx, sc, req.Topics[c.Topic])
	if err != nil {
		return nil, c, false, err
	}
	if topicID == 0 {
		a.Log.Warn("send names a topic that does not exist", "requestId", sc.requestID, "topic", req.Topics[c.Topic])
		next.Topic, next.AfterUser = c.Topic+1, 0
		return nil, next, next.Topic >= len(req.Topics), nil
	}
	rows, err := a.DB.DeliveryTopicMembers(ctx, dbsqlc.DeliveryTopicMembersParams{AppID: sc.appID, TopicID: topicID, AfterUser: c.AfterUser, MaxRows: int32(limit)})
	if err != nil {
		return nil, c, false, db.MapError(err)
	}
	page := make([]recipient, len(rows))
	for i, r := range rows {
		page[i] = recipient{userID: r.UserID, identifier: r.Identifier, profile: r.Profile, topicChannels: r.Channels}
	}
	if len(rows) < limit {
		next.Topic, next.AfterUser = c.Topic+1, 0
	} else {
		next.AfterUser = rows[len(rows)-1].UserID
	}
	return page, next, next.Topic >= len(req.Topics), nil
}

func (a *Service) topicID(ctx context.Context, sc *sendContext, identifier string) (int64, error) {
	if id, ok := sc.topics[identifier]; ok {
		return id, nil
	}
	id, err := a.DB.DeliveryTopicByIdentifier(ctx, dbsqlc.DeliveryTopicByIdentifierParams{AppID: sc.appID, Identifier: identifier})
	if err != nil {
		if herald.ErrorCode(db.MapError(err)) != herald.ENOTFOUND {
			return 0, db.MapError(err)
		}
		id = 0
	}
	sc.topics[identifier] = id
	return id, nil
}

// inlinePage creates unknown inline recipients, merges their inline profiles, and loads
// the stored profiles when the send needs them.
func (a *Service) inlinePage(ctx context.Context, sc *sendContext, rs []herald.Recipient) ([]recipient, error) {
	ids, ok := sc.users.cachedIDs(sc.appID, rs)
	if !ok {
		var err error
		if ids, err = EnsureUsers(ctx, a.DB.Queries, sc.appID, rs); err != nil {
			return nil, db.MapError(err)
		}
	}
	page := make([]recipient, len(rs))
	for i, r := range rs {
		page[i] = recipient{userID: ids[i], identifier: r.Identifier}
	}
	if !sc.needProfiles {
		return page, nil
	}
	users, err := a.DB.DeliveryUsers(ctx, dbsqlc.DeliveryUsersParams{AppID: sc.appID, Ids: ids})
	if err != nil {
		return nil, db.MapError(err)
	}
	profiles := make(map[int64]json.RawMessage, len(users))
	for _, u := range users {
		profiles[u.ID] = u.Profile
	}
	for i := range page {
		page[i].profile = profiles[page[i].userID]
	}
	return page, nil
}

// EnsureUsers creates unknown recipients, merges inline profiles, and returns user ids in
// recipient order.
func EnsureUsers(ctx context.Context, q *dbsqlc.Queries, appID int64, recipients []herald.Recipient) ([]int64, error) {
	if len(recipients) == 0 {
		return nil, nil
	}
	identifiers := make([]string, len(recipients))
	profiles := make([]json.RawMessage, len(recipients))
	withProfile := false
	for i, r := range recipients {
		identifiers[i] = r.Identifier
		profiles[i] = OrEmpty(r.Profile, "{}")
		withProfile = withProfile || len(r.Profile) > 0
	}
	ids := make(map[string]int64, len(recipients))
	// A second pass picks up users that a concurrent transaction created between this
	// statement's snapshot and its insert.
	for pass := 0; pass < 2 && len(ids) < len(identifiers); pass++ {
		rows, err := q.EnsureUsers(ctx, dbsqlc.EnsureUsersParams{AppID: appID, Identifiers: identifiers, Profiles: profiles})
		if err != nil {
			return nil, err
		}
		for _, r := range rows {
			ids[r.Identifier] = r.ID
		}
	}
	if withProfile {
		if err := q.MergeUserProfiles(ctx, dbsqlc.MergeUserProfilesParams{AppID: appID, Identifiers: identifiers, Profiles: profiles}); err != nil {
			return nil, err
		}
	}
	out := make([]int64, 0, len(identifiers))
	for _, id := range identifiers {
		uid, ok := ids[id]
		if !ok {
			return nil, fmt.Errorf("user %q could not be created", id)
		}
		out = append(out, uid)
	}
	return out, nil
}
