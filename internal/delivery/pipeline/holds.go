package pipeline

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/heraldhq/herald/db"
	sendwf "github.com/heraldhq/herald/workflows/send"
)

// Channel holds told to send runs (send.SharedHoldChange, issue 28): a run that knows its
// app's email provider is down holds its new emails on a durable timer at once, instead of
// sending a batch that comes back held. A channel is held when every enabled instance of
// the app's channel has an open circuit breaker (provider_breakers, shared by the worker
// processes) whose cool-down is not over: whatever route a message takes, it could go to
// none of them. Half-open breakers are not holds: the run's next batch may be the probe.

// channelHold is a held channel of an app: until the earliest cool-down of its instances
// ends, with the note its queued messages carry in the message log.
type channelHold struct {
	until time.Time
	note  string
}

// heldChannels returns the app's held channels, read once per call.
func (a *Service) heldChannels(ctx context.Context, call *batchCall, appID int64) (map[string]channelHold, error) {
	if h, ok := call.holds[appID]; ok {
		return h, nil
	}
	rows, err := a.DB.HeldChannels(ctx, appID)
	if err != nil {
		return nil, db.MapError(err)
	}
	holds := map[string]channelHold{}
	notes := map[string][]string{}
	for _, r := range rows {
		h := holds[r.Channel]
		if h.until.IsZero() || r.OpenUntil.Before(h.until) {
			h.until = r.OpenUntil
		}
		holds[r.Channel] = h
		notes[r.Channel] = append(notes[r.Channel], fmt.Sprintf("%s (%s): %s", r.Name, r.Provider, unavailableText(r.OpenUntil)))
	}
	for ch, h := range holds {
		h.note = strings.Join(notes[ch], "; ")
		holds[ch] = h
	}
	if call.holds == nil {
		call.holds = map[int64]map[string]channelHold{}
	}
	call.holds[appID] = holds
	return holds, nil
}

// runHolds are the holds to tell the run (send.DeliverResult.Holds): those of the call's
// app. A call of several apps' requests (runs packed before one app per run) tells none,
// since a run holds a channel for all of its messages.
func (call *batchCall) runHolds() map[string]int64 {
	if len(call.holds) != 1 {
		return nil
	}
	var out map[string]int64
	for _, holds := range call.holds {
		for ch, h := range holds {
			if out == nil {
				out = map[string]int64{}
			}
			// Rounded up: the run's timer must not fire before the cool-down ends.
			out[ch] = sendwf.CeilMillis(h.until.Add(call.wake))
		}
	}
	return out
}
