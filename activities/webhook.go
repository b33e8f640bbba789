package activities

import (
	"context"
	"time"

	"go.temporal.io/sdk/activity"

	"github.com/heraldhq/herald/internal/webhooks"
	"github.com/heraldhq/herald/workflows/webhook"
)

// Webhooks backs the event webhook delivery workflow.
type Webhooks struct {
	Deliverer *webhooks.Deliverer
}

// DeliverWebhooks attempts one batch of the endpoint's due deliveries, heartbeating every
// few seconds (and after each chunk) so a killed worker's batch is retried within the
// workflow's heartbeat timeout.
func (a *Webhooks) DeliverWebhooks(ctx context.Context, in webhook.Input) (webhook.Result, error) {
	done := make(chan struct{})
	defer close(done)
	go func() {
		t := time.NewTicker(heartbeatEvery)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				activity.RecordHeartbeat(ctx)
			}
		}
	}()
	res, err := a.Deliverer.Deliver(ctx, in.EndpointID, func() { activity.RecordHeartbeat(ctx) })
	return webhook.Result(res), err
}

// heartbeatEvery is how often a running delivery activity heartbeats (well within the
// workflow's HeartbeatTimeout).
const heartbeatEvery = 5 * time.Second
