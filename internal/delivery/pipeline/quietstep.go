package pipeline

import (
	"context"
	"encoding/json"
	"strings"
	"time"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/db/dbsqlc"
	"github.com/heraldhq/herald/internal/audience/quiethours"
	"github.com/heraldhq/herald/internal/delivery"
	"github.com/heraldhq/herald/workflows/flowrun"
)

// holdStep holds a flow's external channel step when the run asks (HoldQuietHours, not on
// Release) and the step is due outside its send window, or — unless the step is critical
// (its category or workflow) — inside the recipient's quiet hours: the log row becomes held
// with the reason, and the run sleeps until HeldUntil, when both allow it.
func (a *Service) holdStep(ctx context.Context, in flowrun.DeliverStepInput, lg dbsqlc.MessageLog, categoryCritical bool, user dbsqlc.DeliveryUsersRow) (bool, flowrun.DeliverStepResult, error) {
	if !in.HoldQuietHours || in.Release || lg.Channel == herald.ChannelInApp {
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
		cw, probs := w.Compile()
		if len(probs) > 0 {
			// Published steps compiled; a window that does not is not worth a retry.
			return false, flowrun.DeliverStepResult{}, herald.Invalid(probs...)
		}
		// Held outside the window: its complement is quiet.
		q := quiethours.QuietHours{Start: cw.End, End: cw.Start}
		if cw.Days != 0 {
			q.Days = ^cw.Days & 0x7f
		}
		rules = append(rules, rule{q, "outside the send window"})
	}
	if !categoryCritical {
		rows, err := a.DB.DeliveryQuietHours(ctx, dbsqlc.DeliveryQuietHoursParams{AppID: in.AppID, UserIds: []int64{user.ID}})
		if err != nil {
			return false, flowrun.DeliverStepResult{}, db.MapError(err)
		}
		if len(rows) > 0 {
			critical, err := a.FlowCritical(ctx, in.AppID, in.Flow.Identifier)
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
	a.Decided(lg.Channel, delivery.StatusHeld)
	return true, flowrun.DeliverStepResult{
		Status: flowrun.StatusHeld, Reason: reason, LogID: lg.ID,
		HeldUntil: (until.UnixNano() + int64(time.Millisecond) - 1) / int64(time.Millisecond),
	}, nil
}

// DropHeldStep records that a cancelled run's held step will never be sent.
func (a *Service) DropHeldStep(ctx context.Context, in flowrun.DropHeldStepInput) error {
	return db.MapError(a.DB.DropHeldMessageLogs(ctx, dbsqlc.DropHeldMessageLogsParams{Ids: []int64{in.LogID}, Reason: DroppedReason}))
}
