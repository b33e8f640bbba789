package pipeline

import (
	"context"
	"slices"
	"time"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/db/dbsqlc"
	"github.com/heraldhq/herald/internal/audience/quiethours"
	"github.com/heraldhq/herald/internal/delivery"
	sendwf "github.com/heraldhq/herald/workflows/send"
)

// heldKey names a recipient × channel held for quiet hours in a page's writes.
type heldKey struct {
	userID  int64
	channel string
}

// userQuiet is a recipient's quiet hours and time zone, as delivery reads them.
type userQuiet struct {
	hours quiethours.QuietHours
	loc   *time.Location
}

// quietHours loads the quiet hours of a page's users when the run holds messages for them
// (sendwf.DeliverInput.HoldQuietHours) and the send is not critical; nil otherwise.
func (a *Service) quietHours(ctx context.Context, sc *sendContext, ids []int64) (map[int64]userQuiet, error) {
	if !sc.holdQuiet || sc.critical != "" || !hasExternal(sc.channels.Candidates) {
		return nil, nil
	}
	rows, err := a.DB.DeliveryQuietHours(ctx, dbsqlc.DeliveryQuietHoursParams{AppID: sc.appID, UserIds: ids})
	if err != nil {
		return nil, db.MapError(err)
	}
	out := make(map[int64]userQuiet, len(rows))
	for _, r := range rows {
		out[r.UserID] = userQuiet{
			hours: quiethours.QuietHours{Start: int(r.StartSecond), End: int(r.EndSecond), Days: uint8(r.Days)},
			loc:   quiethours.Location(r.Timezone),
		}
	}
	return out, nil
}

func hasExternal(channels []string) bool {
	return slices.ContainsFunc(channels, func(ch string) bool { return ch != herald.ChannelInApp })
}

// hold records a recipient's external message as held when it falls inside the user's
// quiet hours, and reports whether it did.
func (w *pageWrites) hold(r recipient, ch string, q userQuiet, ok bool, now time.Time) bool {
	if !ok {
		return false
	}
	until, held := q.hours.ReleaseAt(now, q.loc)
	if !held {
		return false
	}
	if w.held == nil {
		w.held = map[heldKey]int64{}
	}
	// Rounded up to the millisecond: the timer never releases before the window opens.
	w.held[heldKey{r.userID, ch}] = (until.UnixNano() + int64(time.Millisecond) - 1) / int64(time.Millisecond)
	w.log(r, ch, delivery.StatusHeld, quiethours.HeldReason(now, until, q.loc), "")
	return true
}

// heldGroups groups held rows by release time and channel, in first-seen order. A row the
// page did not hold this time (a retried call after the window ended) is released at once.
func heldGroups(held map[heldKey]int64, rows []heldRow, now time.Time) []sendwf.Held {
	type groupKey struct {
		until   int64
		channel string
	}
	var out []sendwf.Held
	idx := map[groupKey]int{}
	for _, r := range rows {
		until, ok := held[heldKey{r.userID, r.channel}]
		if !ok {
			until = now.UnixMilli()
		}
		k := groupKey{until, r.channel}
		i, seen := idx[k]
		if !seen {
			i = len(out)
			idx[k] = i
			out = append(out, sendwf.Held{Until: until, Channel: r.channel})
		}
		out[i].LogIDs = append(out[i].LogIDs, r.id)
	}
	return out
}

// heldRow is a message log row written as held.
type heldRow struct {
	id      int64
	userID  int64
	channel string
}

// DroppedReason is the message log reason of a held message whose run was cancelled.
const DroppedReason = "dropped: the run was cancelled while the message was held for quiet hours"

// DropHeldMessages records that a cancelled run's held messages will never be sent.
func (a *Service) DropHeldMessages(ctx context.Context, in sendwf.DropHeldInput) error {
	return db.MapError(a.DB.DropHeldMessageLogs(ctx, dbsqlc.DropHeldMessageLogsParams{Ids: in.LogIDs, Reason: DroppedReason}))
}
