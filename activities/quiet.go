package activities

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"time"

	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/db/dbsqlc"
	"github.com/heraldhq/herald/internal/audience/quiethours"
	"github.com/heraldhq/herald/internal/delivery"
	"github.com/heraldhq/herald/internal/send/notify"
	"github.com/heraldhq/herald/workflows/flowrun"
	"github.com/heraldhq/herald/workflows/send"
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
// (send.DeliverInput.HoldQuietHours) and the send is not critical; nil otherwise.
func (a *Delivery) quietHours(ctx context.Context, sc *sendContext, ids []int64) (map[int64]userQuiet, error) {
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
	return slices.ContainsFunc(channels, func(ch string) bool { return ch != notify.ChannelInApp })
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
func heldGroups(held map[heldKey]int64, rows []heldRow, now time.Time) []send.Held {
	type groupKey struct {
		until   int64
		channel string
	}
	var out []send.Held
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
			out = append(out, send.Held{Until: until, Channel: r.channel})
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
func (a *Delivery) DropHeldMessages(ctx context.Context, in send.DropHeldInput) error {
	return db.MapError(a.DB.DropHeldMessageLogs(ctx, dbsqlc.DropHeldMessageLogsParams{Ids: in.LogIDs, Reason: DroppedReason}))
}

// holdStep holds a flow's external channel step when the run asks (HoldQuietHours, not on
// Release) and the step is due outside its send window, or — unless the step is critical
// (its category or workflow) — inside the recipient's quiet hours: the log row becomes held
// with the reason, and the run sleeps until HeldUntil, when both allow it.
func (a *Delivery) holdStep(ctx context.Context, in flowrun.DeliverStepInput, lg dbsqlc.MessageLog, categoryCritical bool, user dbsqlc.DeliveryUsersRow) (bool, flowrun.DeliverStepResult, error) {
	if !in.HoldQuietHours || in.Release || lg.Channel == notify.ChannelInApp {
		return false, flowrun.DeliverStepResult{}, nil
	}
	type rule struct {
		hours quiethours.QuietHours
		why   string
	}
	var rules []rule
	var profile struct {
		Timezone string `json:"timezone"`
	}
	_ = json.Unmarshal(user.Profile, &profile)
	loc := quiethours.Location(profile.Timezone)
	if w := in.Step.SendWindow; w != nil {
		start, end, days := w.Seconds()
		// Held outside the window: its complement is quiet.
		q := quiethours.QuietHours{Start: end, End: start}
		if days != 0 {
			q.Days = ^days & 0x7f
		}
		rules = append(rules, rule{q, "outside the send window"})
	}
	if !categoryCritical {
		rows, err := a.DB.DeliveryQuietHours(ctx, dbsqlc.DeliveryQuietHoursParams{AppID: in.AppID, UserIds: []int64{user.ID}})
		if err != nil {
			return false, flowrun.DeliverStepResult{}, db.MapError(err)
		}
		if len(rows) > 0 {
			critical, err := a.flowCritical(ctx, in.AppID, in.Workflow.Identifier)
			if err != nil {
				return false, flowrun.DeliverStepResult{}, err
			}
			if !critical {
				r := rows[0]
				rules = append(rules, rule{quiethours.QuietHours{Start: int(r.StartSecond), End: int(r.EndSecond), Days: uint8(r.Days)}, "quiet hours"})
				loc = quiethours.Location(r.Timezone)
			}
		}
	}
	now := time.Now()
	until, why := now, ""
	// The window and the quiet hours chain: wait until neither holds the message.
	for range 16 {
		moved := false
		for _, r := range rules {
			if t, held := r.hours.ReleaseAt(until, loc); held {
				until, why, moved = t, r.why, true
			}
		}
		if !moved {
			break
		}
	}
	if why == "" {
		return false, flowrun.DeliverStepResult{}, nil
	}
	reason := strings.Replace(quiethours.HeldReason(now, until, loc), "quiet hours", why, 1)
	if err := a.DB.HoldStepLog(ctx, dbsqlc.HoldStepLogParams{ID: lg.ID, Reason: reason}); err != nil {
		return false, flowrun.DeliverStepResult{}, db.MapError(err)
	}
	a.decided(lg.Channel, delivery.StatusHeld)
	return true, flowrun.DeliverStepResult{
		Status: flowrun.StatusHeld, Reason: reason, LogID: lg.ID,
		HeldUntil: (until.UnixNano() + int64(time.Millisecond) - 1) / int64(time.Millisecond),
	}, nil
}

// DropHeldStep records that a cancelled run's held step will never be sent.
func (a *Delivery) DropHeldStep(ctx context.Context, in flowrun.DropHeldStepInput) error {
	return db.MapError(a.DB.DropHeldMessageLogs(ctx, dbsqlc.DropHeldMessageLogsParams{Ids: []int64{in.LogID}, Reason: DroppedReason}))
}
