package webhooks

import (
	"context"
	"log/slog"
	"time"

	"github.com/heraldhq/herald/db"
)

// Starter starts the delivery workflow of an endpoint, or finds it running.
type Starter interface {
	StartDeliveries(ctx context.Context, endpointID, appID int64) error
}

// Relay starts one delivery workflow per endpoint with deliveries due: however many events
// arrive, Temporal sees one run per busy endpoint, each draining batches (workflows/webhook).
// Due rows stay in webhook_deliveries until delivered, so a failed start or a dead worker
// delays delivery and loses nothing.
type Relay struct {
	DB       *db.DB
	Starter  Starter
	Log      *slog.Logger
	Interval time.Duration
}

// Run looks for due endpoints every Interval until ctx ends.
func (r *Relay) Run(ctx context.Context) error {
	t := time.NewTicker(r.Interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
			r.Tick(ctx)
		}
	}
}

// Tick starts (or finds running) the workflow of every endpoint with deliveries due now.
func (r *Relay) Tick(ctx context.Context) {
	due, err := r.DB.DueWebhookEndpoints(ctx, 1000)
	if err != nil {
		if ctx.Err() == nil {
			r.Log.Warn("webhooks: cannot look for due deliveries; will retry", "error", err)
		}
		return
	}
	for _, d := range due {
		if err := r.Starter.StartDeliveries(ctx, d.EndpointID, d.AppID); err != nil && ctx.Err() == nil {
			r.Log.Warn("webhooks: cannot start the delivery workflow; will retry", "endpoint", d.EndpointID, "error", err)
		}
	}
}
