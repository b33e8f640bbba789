package activities

import (
	"context"
	"time"

	"go.temporal.io/sdk/activity"
)

// beatEvery is how often a running activity heartbeats. The send workflow's heartbeat
// timeouts are a few beats long, so Temporal retries the activity of a worker that died
// within seconds, instead of waiting for its start-to-close timeout.
const beatEvery = 2 * time.Second

// keepAlive heartbeats for the activity of ctx until the returned stop is called. Each beat
// first asks beat (when given) for the heartbeat's details and runs whatever else the
// activity does per beat (SendMessage renews its message lease; a batch reports its progress
// and renews the leases it holds). Outside an activity it does nothing.
func keepAlive(ctx context.Context, beat func(context.Context) []any) (stop func()) {
	if !activity.IsActivity(ctx) {
		return func() {}
	}
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		tick := time.NewTicker(beatEvery)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
				var details []any
				if beat != nil {
					details = beat(ctx)
				}
				activity.RecordHeartbeat(ctx, details...)
			}
		}
	}()
	return func() { cancel(); <-done }
}

// workerStopping reports whether the worker running the activity of ctx is shutting down:
// long activities then finish the step at hand and hand the rest back to the workflow.
func workerStopping(ctx context.Context) bool {
	if !activity.IsActivity(ctx) {
		return false
	}
	select {
	case <-activity.GetWorkerStopChannel(ctx):
		return true
	default:
		return false
	}
}
