// Package activities holds the Temporal activities: structs that carry their dependencies
// (store, publisher, providers) and whose methods do the I/O the workflows decide on.
package activities

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"slices"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/db/dbsqlc"
	"github.com/heraldhq/herald/events"
	"github.com/heraldhq/herald/notify"
	"github.com/heraldhq/herald/workflows/send"
)

// DefaultBatchSize is how many recipients one DeliverBatch call handles at most.
const DefaultBatchSize = 1000

// Delivery delivers send requests.
type Delivery struct {
	DB *db.DB
	// Publisher announces each committed batch of inbox rows (one event per batch).
	Publisher events.Publisher
	BatchSize int
	Log       *slog.Logger
}

// DeliverBatch delivers the next slice of recipients of the given requests, up to
// BatchSize recipients in all, and returns the cursors still pending. Each slice is one
// transaction; a retried call writes nothing twice (inbox rows are unique per request and
// user).
func (a *Delivery) DeliverBatch(ctx context.Context, in send.DeliverInput) (send.DeliverResult, error) {
	ids := make([]uuid.UUID, len(in.Cursors))
	for i, c := range in.Cursors {
		ids[i] = c.RequestID
	}
	rows, err := a.DB.GetRequestsByIDs(ctx, ids)
	if err != nil {
		return send.DeliverResult{}, db.MapError(err)
	}
	byID := make(map[uuid.UUID]dbsqlc.GetRequestsByIDsRow, len(rows))
	for _, r := range rows {
		byID[r.ID] = r
	}
	budget := a.BatchSize
	if budget <= 0 {
		budget = DefaultBatchSize
	}
	var res send.DeliverResult
	for _, c := range in.Cursors {
		row, ok := byID[c.RequestID]
		if !ok || row.Status == "completed" || row.Status == "failed" {
			continue
		}
		if budget == 0 {
			res.Pending = append(res.Pending, c)
			continue
		}
		var req notify.SendRequest
		if err := json.Unmarshal(row.Payload, &req); err != nil {
			a.fail(ctx, c.RequestID, fmt.Sprintf("stored request is unreadable: %v", err))
			continue
		}
		end := min(c.Offset+budget, len(req.Recipients))
		start := min(c.Offset, end)
		n, err := a.deliverInApp(ctx, row.AppID, c.RequestID, &req, req.Recipients[start:end], end == len(req.Recipients))
		if err != nil {
			return send.DeliverResult{}, err
		}
		res.Delivered += n
		budget -= end - start
		if end < len(req.Recipients) {
			res.Pending = append(res.Pending, send.Cursor{RequestID: c.RequestID, Offset: end})
		}
	}
	return res, nil
}

// FailRequests records that requests could not be delivered.
func (a *Delivery) FailRequests(ctx context.Context, in send.FailInput) error {
	for _, id := range in.RequestIDs {
		if err := a.DB.FailRequest(ctx, dbsqlc.FailRequestParams{ID: id, Error: &in.Reason}); err != nil {
			return db.MapError(err)
		}
	}
	return nil
}

func (a *Delivery) fail(ctx context.Context, id uuid.UUID, reason string) {
	a.Log.Error("request failed", "requestId", id, "reason", reason)
	if err := a.DB.FailRequest(ctx, dbsqlc.FailRequestParams{ID: id, Error: &reason}); err != nil {
		a.Log.Error("could not record request failure", "requestId", id, "error", err)
	}
}

// deliverInApp writes one slice of a request's inbox rows and its progress in one
// transaction, then publishes the batch.
func (a *Delivery) deliverInApp(ctx context.Context, appID int64, requestID uuid.UUID, req *notify.SendRequest, recipients []notify.Recipient, last bool) (int, error) {
	wantInApp := req.Override == nil || len(req.Override.Channels) == 0 || slices.Contains(req.Override.Channels, notify.ChannelInApp)
	var written []dbsqlc.InsertNotificationsRow
	err := a.DB.InTx(ctx, func(q *dbsqlc.Queries, _ pgx.Tx) error {
		userIDs, err := ensureUsers(ctx, q, appID, recipients)
		if err != nil {
			return err
		}
		if wantInApp && len(userIDs) > 0 {
			categoryID, err := resolveCategory(ctx, q, appID, req)
			if err != nil {
				return err
			}
			c := req.Notification
			written, err = q.InsertNotifications(ctx, dbsqlc.InsertNotificationsParams{
				AppID: appID, RequestID: requestID, UserIds: userIDs,
				Title: c.Title, Message: c.Message, Icon: c.Icon, Url: c.URL,
				Data: orEmpty(req.Data, "{}"), Blocks: orEmpty(c.Blocks, "[]"), CategoryID: categoryID,
			})
			if err != nil {
				return err
			}
		}
		return q.RecordDelivered(ctx, dbsqlc.RecordDeliveredParams{ID: requestID, Delivered: int32(len(written)), Done: last})
	})
	if err != nil {
		return 0, db.MapError(err)
	}
	if len(written) > 0 {
		ev := events.Event{Kind: events.NewNotification, AppID: appID, UserIDs: make([]int64, len(written)), NotificationIDs: make([]int64, len(written))}
		for i, w := range written {
			ev.UserIDs[i], ev.NotificationIDs[i] = w.UserID, w.ID
		}
		a.Publisher.Publish(ctx, ev)
	}
	return len(written), nil
}

// ensureUsers creates unknown recipients, merges inline profiles, and returns user ids in
// recipient order.
func ensureUsers(ctx context.Context, q *dbsqlc.Queries, appID int64, recipients []notify.Recipient) ([]int64, error) {
	if len(recipients) == 0 {
		return nil, nil
	}
	identifiers := make([]string, len(recipients))
	profiles := make([]json.RawMessage, len(recipients))
	withProfile := false
	for i, r := range recipients {
		identifiers[i] = r.Identifier
		profiles[i] = orEmpty(r.Profile, "{}")
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

// resolveCategory finds the request's category; the deprecated top-level form creates it.
func resolveCategory(ctx context.Context, q *dbsqlc.Queries, appID int64, req *notify.SendRequest) (*int64, error) {
	name := req.Notification.Category
	if name == "" {
		return nil, nil
	}
	if req.CreateCategory {
		id, err := q.EnsureCategory(ctx, dbsqlc.EnsureCategoryParams{AppID: appID, Identifier: name})
		if err != nil {
			return nil, err
		}
		return &id, nil
	}
	cat, err := q.GetCategoryByIdentifier(ctx, dbsqlc.GetCategoryByIdentifierParams{AppID: appID, Identifier: name})
	if err == pgx.ErrNoRows {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return &cat.ID, nil
}

func orEmpty(raw json.RawMessage, empty string) json.RawMessage {
	if len(raw) == 0 {
		return json.RawMessage(empty)
	}
	return raw
}
