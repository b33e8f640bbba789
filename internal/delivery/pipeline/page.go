package pipeline

import (
	"context"
	"maps"
	"slices"
	"time"

	"github.com/google/uuid"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/db/dbsqlc"
	"github.com/heraldhq/herald/internal/delivery"
	"github.com/heraldhq/herald/internal/delivery/render"
	"github.com/heraldhq/herald/internal/delivery/templates"
	"github.com/heraldhq/herald/internal/inbox/events"
	"github.com/heraldhq/herald/internal/platform/safeurl"
	sendwf "github.com/heraldhq/herald/workflows/send"
)

// pageWrites are the rows one page writes, as the column arrays of the multi-row inserts.
type pageWrites struct {
	inbox dbsqlc.InsertInboxRowsParams
	logs  dbsqlc.InsertMessageLogsParams
	// held are the recipient × channel held for quiet hours, with their release time
	// (Unix ms).
	held map[heldKey]int64
	// rowBlocks are the blocks of each inbox row, parallel to inbox.UserIds: nil for the
	// send's own blocks (inbox.Blocks), or the blocks the template rendered for the user.
	rowBlocks [][]byte
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

func (w *pageWrites) inboxRow(r recipient, title, message, icon, url string, blocks []byte) {
	in := &w.inbox
	w.rowBlocks = append(w.rowBlocks, blocks)
	in.UserIds = append(in.UserIds, r.userID)
	in.Titles = append(in.Titles, title)
	in.Messages = append(in.Messages, message)
	in.Icons = append(in.Icons, icon)
	in.Urls = append(in.Urls, url)
}

// pageWork is one decided page waiting to be written with the others of its call.
type pageWork struct {
	sc   *sendContext
	w    *pageWrites
	done bool
}

// decidePage decides each recipient × channel of a page and returns its writes.
func (a *Service) decidePage(ctx context.Context, sc *sendContext, page []recipient, done bool) (*pageWork, error) {
	w := &pageWrites{}
	if len(page) > 0 {
		if err := a.decide(ctx, sc, page, w); err != nil {
			return nil, err
		}
	}
	req := sc.req
	w.inbox.AppID, w.inbox.RequestID, w.inbox.CategoryID = sc.appID, sc.requestID, sc.categoryID
	w.inbox.Data, w.inbox.Blocks = OrEmpty(req.Data, "{}"), OrEmpty(req.Notification.Blocks, "[]")
	w.logs.AppID, w.logs.RequestID, w.logs.WorkflowID = sc.appID, sc.requestID, sc.workflowID
	w.logs.TemplateIdentifier = req.Notification.TemplateIdentifier
	return &pageWork{sc: sc, w: w, done: done}, nil
}

// commitPages writes the inbox rows, message logs and progress of every page of a
// DeliverBatch call in few transactions of three statements — a pack of single-recipient
// sends costs one commit, not one each; a large call is split by user into up to
// writeParallelism transactions written at once (see writeChunks), or, while single sends
// are being delivered, into smaller ones written one at a time with rests between them
// (see pace.go) — then announces all new inbox rows in one publish and returns the inbox
// rows written and the queued external deliveries. A retried call writes nothing twice
// (rows are unique per request, user, channel and step) and hands out the same jobs.
func (a *Service) commitPages(ctx context.Context, works []*pageWork) (int, []sendwf.Job, []sendwf.Held, error) {
	if len(works) == 0 {
		return 0, nil, nil, nil
	}
	rows, largest, whole := callRows(works)
	// A call whose every request is small and whole is single sends (a pack of them,
	// however many): large calls yield to it. A call with a large request (a broadcast's
	// slice) yields, from the first of its chunks written after a single send (see
	// pace.go). A small slice of a larger send (a run's first, a local activity of
	// send.LocalSliceSize recipients) is neither: noted, it paced its own send's next
	// slices as if another app were sending.
	yields := largest >= minChunkRows && rows > pacedChunkRows && a.sharing()
	if largest < minChunkRows && whole {
		a.noteSmall(time.Now())
	}
	chunks, finish := chunkWrites(works, chunkCount(rows, yields))
	var (
		written []dbsqlc.InsertInboxRowsOfPagesRow
		logged  []dbsqlc.InsertMessageLogsOfPagesRow
		owed    time.Duration
		err     error
	)
	if yields {
		written, logged, owed, err = a.writeChunksYielding(ctx, chunks, finish)
	} else {
		written, logged, err = a.writeChunks(ctx, chunks, finish)
	}
	if err != nil {
		return 0, nil, nil, err
	}
	// The last chunk's rest comes after its rows are announced, before the next call.
	defer a.rest(ctx, owed)
	// Hand each page what it wrote (a request's rows go to its first page: the log and
	// the jobs are per request, the events per app).
	byReqInbox := map[uuid.UUID][]dbsqlc.InsertInboxRowsRow{}
	for _, r := range written {
		byReqInbox[r.RequestID] = append(byReqInbox[r.RequestID], dbsqlc.InsertInboxRowsRow{ID: r.ID, UserID: r.UserID})
	}
	byReqLogs := map[uuid.UUID][]dbsqlc.InsertMessageLogsRow{}
	for _, r := range logged {
		byReqLogs[r.RequestID] = append(byReqLogs[r.RequestID], dbsqlc.InsertMessageLogsRow{ID: r.ID, UserID: r.UserID, Channel: r.Channel, Status: r.Status})
	}
	var jobs []sendwf.Job
	var held []sendwf.Held
	evs := map[int64]*events.Event{}
	var apps []int64
	seen := map[uuid.UUID]bool{}
	for _, pw := range works {
		id := pw.sc.requestID
		if seen[id] {
			continue
		}
		seen[id] = true
		rs := requestWrites(works, id)
		a.pageDecided(byReqLogs[id])
		js, hs, err := a.jobs(ctx, pw.sc, rs, byReqLogs[id])
		if err != nil {
			return 0, nil, nil, err
		}
		jobs = append(jobs, js...)
		held = append(held, hs...)
		for _, r := range byReqInbox[id] {
			ev := evs[pw.sc.appID]
			if ev == nil {
				ev = &events.Event{Kind: events.NewNotification, AppID: pw.sc.appID}
				evs[pw.sc.appID] = ev
				apps = append(apps, pw.sc.appID)
			}
			ev.UserIDs = append(ev.UserIDs, r.UserID)
			ev.NotificationIDs = append(ev.NotificationIDs, r.ID)
		}
	}
	if len(apps) > 0 {
		out := make([]events.Event, len(apps))
		for i, app := range apps {
			out[i] = *evs[app]
		}
		a.Publisher.Publish(ctx, out...)
	}
	return len(written), jobs, held, nil
}

// requestWrites merges the log writes of a request's pages in the call (a topic send may
// have several): jobs compares them with what was inserted.
func requestWrites(works []*pageWork, id uuid.UUID) *pageWrites {
	var out *pageWrites
	for _, pw := range works {
		if pw.sc.requestID != id {
			continue
		}
		if out == nil {
			cp := *pw.w
			cp.logs.UserIds = slices.Clone(cp.logs.UserIds)
			cp.held = maps.Clone(cp.held)
			out = &cp
			continue
		}
		out.logs.UserIds = append(out.logs.UserIds, pw.w.logs.UserIds...)
		if len(pw.w.held) > 0 && out.held == nil {
			out.held = map[heldKey]int64{}
		}
		maps.Copy(out.held, pw.w.held)
	}
	return out
}

// jobs returns the queued external deliveries of a page, and the ones held for quiet hours
// grouped by release time. When some log rows existed already (a retried slice, a user
// reached twice), the queued and held ones are read back so a retry hands out the same jobs.
func (a *Service) jobs(ctx context.Context, sc *sendContext, w *pageWrites, logged []dbsqlc.InsertMessageLogsRow) ([]sendwf.Job, []sendwf.Held, error) {
	var jobs []sendwf.Job
	var held []heldRow
	if len(logged) == len(w.logs.UserIds) {
		for _, l := range logged {
			switch l.Status {
			case delivery.StatusQueued:
				jobs = append(jobs, sendwf.Job{LogID: l.ID, Channel: l.Channel})
			case delivery.StatusHeld:
				held = append(held, heldRow{l.ID, l.UserID, l.Channel})
			}
		}
		return jobs, heldGroups(w.held, held, sc.now), nil
	}
	queued, err := a.DB.QueuedMessageLogs(ctx, dbsqlc.QueuedMessageLogsParams{RequestID: sc.requestID, UserIds: slices.Compact(slices.Sorted(slices.Values(w.logs.UserIds)))})
	if err != nil {
		return nil, nil, db.MapError(err)
	}
	for _, l := range queued {
		if l.Status == delivery.StatusHeld {
			held = append(held, heldRow{l.ID, l.UserID, l.Channel})
			continue
		}
		jobs = append(jobs, sendwf.Job{LogID: l.ID, Channel: l.Channel})
	}
	return jobs, heldGroups(w.held, held, sc.now), nil
}

// decide fills the page's writes: skips with their reasons, in-app rows (rendered per
// recipient with a template), and queued external deliveries.
func (a *Service) decide(ctx context.Context, sc *sendContext, page []recipient, w *pageWrites) error {
	ids := make([]int64, len(page))
	for i, r := range page {
		ids[i] = r.userID
	}
	prefs, err := a.callPreferences(ctx, sc.users, sc, ids)
	if err != nil {
		return err
	}
	webPush, err := a.usersWith(ctx, sc, herald.ChannelWebPush, ids)
	if err != nil {
		return err
	}
	pushTokens, err := a.usersWith(ctx, sc, herald.ChannelMobilePush, ids)
	if err != nil {
		return err
	}
	channelsOff, err := a.channelsOff(ctx, sc.appID, ids)
	if err != nil {
		return err
	}
	quiet, err := a.quietHours(ctx, sc, ids)
	if err != nil {
		return err
	}
	for _, r := range page {
		profile := map[string]any{}
		if sc.needProfiles {
			if p, ok := DecodeProfile(r.profile); ok {
				profile = p
			}
		}
		reach := delivery.Reach{WebPush: webPush[r.userID], PushToken: pushTokens[r.userID]}
		rcpt := delivery.Recipient{
			TopicChannels: r.topicChannels,
			Preferences:   prefs[r.userID],
			Defaults:      sc.defaults,
			Category:      sc.category,
			ChannelsOff:   channelsOff[r.userID],
			Critical:      sc.critical,
			Missing:       func(ch string) string { return delivery.MissingAddress(ch, profile, reach) },
		}
		deliver, skips := delivery.ForRecipient(sc.channels, rcpt)
		for _, s := range skips {
			w.log(r, s.Channel, delivery.StatusSkipped, s.Reason, "")
		}
		for _, ch := range deliver {
			note := delivery.Bypass(rcpt, ch)
			switch {
			case sc.templateErr != "":
				w.log(r, ch, delivery.StatusFailed, note, sc.templateErr)
			case ch == herald.ChannelInApp:
				a.inApp(ctx, sc, r, w, note)
			default:
				// Only external messages wait for quiet hours; in-app rows are written now.
				q, ok := quiet[r.userID]
				if !w.hold(r, ch, q, ok, sc.now) {
					w.log(r, ch, delivery.StatusQueued, note, sc.holds[ch].note)
				}
			}
		}
	}
	return nil
}

// inApp adds a recipient's inbox row, rendered from the template's in-app content when the
// send has a template; a rendering error fails only this recipient's in-app delivery. note
// is the reason its log row carries (the opt-out a critical send ignored).
func (a *Service) inApp(ctx context.Context, sc *sendContext, r recipient, w *pageWrites, note string) {
	n := sc.req.Notification
	if sc.bundle == nil {
		// send.Parse refuses such a url; a request accepted before that check was not.
		if err := safeurl.Check(n.URL); err != nil {
			w.log(r, herald.ChannelInApp, delivery.StatusFailed, note, "render: inApp.url: the url "+err.Error())
			return
		}
		w.inboxRow(r, n.Title, n.Message, n.Icon, n.URL, nil)
		w.log(r, herald.ChannelInApp, delivery.StatusDelivered, note, "")
		return
	}
	out, err := sc.bundle.Render(ctx, herald.ChannelInApp, templates.Recipient(sc.sendData, r.identifier, r.profile))
	if err != nil {
		w.log(r, herald.ChannelInApp, delivery.StatusFailed, note, "render: "+err.Error())
		return
	}
	w.inboxRow(r, out.Title, out.Body, out.Icon, out.URL, out.Blocks)
	w.log(r, herald.ChannelInApp, delivery.StatusDelivered, note, "")
}

// usersWith returns which users have a push subscription (webPush) or a device token
// (mobilePush), when the send may use that channel.
func (a *Service) usersWith(ctx context.Context, sc *sendContext, channel string, ids []int64) (map[int64]bool, error) {
	if !slices.Contains(sc.channels.Candidates, channel) {
		return nil, nil
	}
	var rows []int64
	var err error
	if channel == herald.ChannelWebPush {
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

// DecodeProfile decodes a stored user profile (false: none, or not an object).
func DecodeProfile(raw []byte) (map[string]any, bool) {
	v, err := render.DecodeJSON(raw)
	if err != nil {
		return nil, false
	}
	m, ok := v.(map[string]any)
	return m, ok
}
