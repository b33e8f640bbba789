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

// keepAlive heartbeats for the activity of ctx until the returned stop is called; each
// beat also runs renew when given (SendMessage renews its message lease). Outside an
// activity it does nothing.
func keepAlive(ctx context.Context, renew func(context.Context)) (stop func()) {
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
				activity.RecordHeartbeat(ctx)
				if renew != nil {
					renew(ctx)
				}
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
