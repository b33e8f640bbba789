package activities

import (
	"context"

	"go.temporal.io/sdk/activity"

	"github.com/heraldhq/herald/internal/webhooks"
	"github.com/heraldhq/herald/workflows/webhook"
)

// Webhooks backs the event webhook delivery workflow.
type Webhooks struct {
	Deliverer *webhooks.Deliverer
}

// DeliverWebhooks attempts one batch of the endpoint's due deliveries, heartbeating after
// each chunk so a killed worker's batch is retried within the heartbeat timeout.
func (a *Webhooks) DeliverWebhooks(ctx context.Context, in webhook.Input) (webhook.Result, error) {
	res, err := a.Deliverer.Deliver(ctx, in.EndpointID, func() { activity.RecordHeartbeat(ctx) })
	return webhook.Result(res), err
}
