package activities

import (
	"context"
	"slices"

	"github.com/jackc/pgx/v5"

	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/db/dbsqlc"
	"github.com/heraldhq/herald/delivery"
	"github.com/heraldhq/herald/events"
	"github.com/heraldhq/herald/notify"
	"github.com/heraldhq/herald/render"
	"github.com/heraldhq/herald/templates"
	"github.com/heraldhq/herald/workflows/send"
)

// pageWrites are the rows one page writes, as the column arrays of the multi-row inserts.
type pageWrites struct {
	inbox dbsqlc.InsertInboxRowsParams
	logs  dbsqlc.InsertMessageLogsParams
}

func (w *pageWrites) log(r recipient, channel, status, reason, errText string) {
	l := &w.logs
	l.UserIds = append(l.UserIds, r.userID)
	l.UserIdentifiers = append(l.UserIdentifiers, r.identifier)
	l.Channels = append(l.Channels, channel)
	l.Statuses = append(l.Statuses, status)
	l.Reasons = append(l.Reasons, reason)
	l.Errors = append(l.Errors, errText)
}

func (w *pageWrites) inboxRow(r recipient, title, message, icon, url string) {
	in := &w.inbox
	in.UserIds = append(in.UserIds, r.userID)
	in.Titles = append(in.Titles, title)
	in.Messages = append(in.Messages, message)
	in.Icons = append(in.Icons, icon)
	in.Urls = append(in.Urls, url)
}

// deliverPage decides each recipient × channel of a page, then in one transaction writes
// the inbox rows, the message log and the request's progress; it returns the inbox rows
// written and the queued external deliveries.
func (a *Delivery) deliverPage(ctx context.Context, sc *sendContext, page []recipient, done bool) (int, []send.Job, error) {
	w := &pageWrites{}
	if len(page) > 0 {
		if err := a.decide(ctx, sc, page, w); err != nil {
			return 0, nil, err
		}
	}
	req := sc.req
	w.inbox.AppID, w.inbox.RequestID, w.inbox.CategoryID = sc.appID, sc.requestID, sc.categoryID
	w.inbox.Data, w.inbox.Blocks = orEmpty(req.Data, "{}"), orEmpty(req.Notification.Blocks, "[]")
	w.logs.AppID, w.logs.RequestID, w.logs.WorkflowID = sc.appID, sc.requestID, sc.workflowID
	w.logs.TemplateIdentifier = req.Notification.TemplateIdentifier

	var written []dbsqlc.InsertInboxRowsRow
	var logged []dbsqlc.InsertMessageLogsRow
	err := a.DB.InTx(ctx, func(q *dbsqlc.Queries, _ pgx.Tx) error {
		var err error
		if len(w.inbox.UserIds) > 0 {
			if written, err = q.InsertInboxRows(ctx, w.inbox); err != nil {
				return err
			}
		}
		if len(w.logs.UserIds) > 0 {
			if logged, err = q.InsertMessageLogs(ctx, w.logs); err != nil {
				return err
			}
		}
		return q.RecordDelivered(ctx, dbsqlc.RecordDeliveredParams{ID: sc.requestID, Delivered: int32(len(written)), Done: done})
	})
	if err != nil {
		return 0, nil, db.MapError(err)
	}
	a.pageDecided(logged)
	jobs, err := a.jobs(ctx, sc, w, logged)
	if err != nil {
		return 0, nil, err
	}
	if len(written) > 0 {
		ev := events.Event{Kind: events.NewNotification, AppID: sc.appID, UserIDs: make([]int64, len(written)), NotificationIDs: make([]int64, len(written))}
		for i, r := range written {
			ev.UserIDs[i], ev.NotificationIDs[i] = r.UserID, r.ID
		}
		a.Publisher.Publish(ctx, ev)
	}
	return len(written), jobs, nil
}

// jobs returns the queued external deliveries of a page. When some log rows existed
// already (a retried slice, a user reached twice), the queued ones are read back so a retry
// hands out the same jobs.
func (a *Delivery) jobs(ctx context.Context, sc *sendContext, w *pageWrites, logged []dbsqlc.InsertMessageLogsRow) ([]send.Job, error) {
	var jobs []send.Job
	if len(logged) == len(w.logs.UserIds) {
		for _, l := range logged {
			if l.Status == delivery.StatusQueued {
				jobs = append(jobs, send.Job{LogID: l.ID, Channel: l.Channel})
			}
		}
		return jobs, nil
	}
	queued, err := a.DB.QueuedMessageLogs(ctx, dbsqlc.QueuedMessageLogsParams{RequestID: sc.requestID, UserIds: slices.Compact(slices.Sorted(slices.Values(w.logs.UserIds)))})
	if err != nil {
		return nil, db.MapError(err)
	}
	for _, l := range queued {
		jobs = append(jobs, send.Job{LogID: l.ID, Channel: l.Channel})
	}
	return jobs, nil
}

// decide fills the page's writes: skips with their reasons, in-app rows (rendered per
// recipient with a template), and queued external deliveries.
func (a *Delivery) decide(ctx context.Context, sc *sendContext, page []recipient, w *pageWrites) error {
	ids := make([]int64, len(page))
	for i, r := range page {
		ids[i] = r.userID
	}
	prefs, err := a.preferences(ctx, sc, ids)
	if err != nil {
		return err
	}
	webPush, err := a.usersWith(ctx, sc, notify.ChannelWebPush, ids)
	if err != nil {
		return err
	}
	pushTokens, err := a.usersWith(ctx, sc, notify.ChannelMobilePush, ids)
	if err != nil {
		return err
	}
	for _, r := range page {
		profile := map[string]any{}
		if sc.needProfiles {
			if p, ok := decodeProfile(r.profile); ok {
				profile = p
			}
		}
		reach := delivery.Reach{WebPush: webPush[r.userID], PushToken: pushTokens[r.userID]}
		deliver, skips := delivery.ForRecipient(sc.channels, delivery.Recipient{
			TopicChannels: r.topicChannels,
			Preferences:   prefs[r.userID],
			Missing:       func(ch string) string { return delivery.MissingAddress(ch, profile, reach) },
		})
		for _, s := range skips {
			w.log(r, s.Channel, delivery.StatusSkipped, s.Reason, "")
		}
		for _, ch := range deliver {
			switch {
			case sc.templateErr != "":
				w.log(r, ch, delivery.StatusFailed, "", sc.templateErr)
			case ch == notify.ChannelInApp:
				a.inApp(ctx, sc, r, w)
			default:
				w.log(r, ch, delivery.StatusQueued, "", "")
			}
		}
	}
	return nil
}

// inApp adds a recipient's inbox row, rendered from the template's in-app content when the
// send has a template; a rendering error fails only this recipient's in-app delivery.
func (a *Delivery) inApp(ctx context.Context, sc *sendContext, r recipient, w *pageWrites) {
	n := sc.req.Notification
	if sc.bundle == nil {
		w.inboxRow(r, n.Title, n.Message, n.Icon, n.URL)
		w.log(r, notify.ChannelInApp, delivery.StatusDelivered, "", "")
		return
	}
	out, err := sc.bundle.Render(ctx, notify.ChannelInApp, templates.Recipient(sc.sendData, r.identifier, r.profile))
	if err != nil {
		w.log(r, notify.ChannelInApp, delivery.StatusFailed, "", "render: "+err.Error())
		return
	}
	w.inboxRow(r, out.Title, out.Body, out.Icon, out.URL)
	w.log(r, notify.ChannelInApp, delivery.StatusDelivered, "", "")
}

// preferences loads the page's explicit preferences for the send's category.
func (a *Delivery) preferences(ctx context.Context, sc *sendContext, ids []int64) (map[int64]map[string]bool, error) {
	rows, err := a.DB.DeliveryPreferences(ctx, dbsqlc.DeliveryPreferencesParams{AppID: sc.appID, UserIds: ids, CategoryID: sc.categoryID})
	if err != nil {
		return nil, db.MapError(err)
	}
	out := map[int64]map[string]bool{}
	for _, p := range rows {
		if out[p.UserID] == nil {
			out[p.UserID] = map[string]bool{}
		}
		out[p.UserID][p.Channel] = p.Enabled
	}
	return out, nil
}

// usersWith returns which users have a push subscription (webPush) or a device token
// (mobilePush), when the send may use that channel.
func (a *Delivery) usersWith(ctx context.Context, sc *sendContext, channel string, ids []int64) (map[int64]bool, error) {
	if !slices.Contains(sc.channels.Candidates, channel) {
		return nil, nil
	}
	var rows []int64
	var err error
	if channel == notify.ChannelWebPush {
		rows, err = a.DB.DeliveryUsersWithWebPush(ctx, dbsqlc.DeliveryUsersWithWebPushParams{AppID: sc.appID, UserIds: ids})
	} else {
		rows, err = a.DB.DeliveryUsersWithPushTokens(ctx, dbsqlc.DeliveryUsersWithPushTokensParams{AppID: sc.appID, UserIds: ids})
	}
	if err != nil {
		return nil, db.MapError(err)
	}
	out := make(map[int64]bool, len(rows))
	for _, id := range rows {
		out[id] = true
	}
	return out, nil
}

func decodeProfile(raw []byte) (map[string]any, bool) {
	v, err := render.DecodeJSON(raw)
	if err != nil {
		return nil, false
	}
	m, ok := v.(map[string]any)
	return m, ok
}
