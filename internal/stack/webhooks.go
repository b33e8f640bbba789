package stack

import (
	"context"

	"github.com/heraldhq/herald/activities"
	v1 "github.com/heraldhq/herald/api/v1"
	"github.com/heraldhq/herald/internal/platform/netguard"
	"github.com/heraldhq/herald/internal/webhooks"
	"github.com/heraldhq/herald/workflows/taskqueue"
)

// WebhookServices are the services of event webhooks (internal/webhooks).
type WebhookServices struct {
	// Webhooks manages the endpoints and their delivery log.
	Webhooks *webhooks.Service
	// WebhookRelay starts one delivery workflow per endpoint with events due.
	WebhookRelay *webhooks.Relay
	webhookGuard *netguard.Guard
}

// openWebhooks builds the endpoint service and the relay. Endpoint URLs are tenant
// destinations: the same outbound guard as providers checks them at save and on every
// connection (HERALD_PRIVATE_HOSTS lists the internal hosts allowed all the same).
func (s *Stack) openWebhooks() {
	w := s.Cfg.Webhooks
	s.webhookGuard = netguard.New(netguard.PrivateHostsSetting, s.Cfg.PrivateHosts)
	s.Webhooks = webhooks.NewService(s.DB, s.Box, s.webhookGuard, w.SecretGrace)
	s.WebhookRelay = &webhooks.Relay{DB: s.DB, Log: s.Log.With("component", "webhook-relay"), Interval: w.PollInterval,
		Starter: webhooks.TemporalStarter{Client: s.Temporal, TaskQueue: s.Cfg.TaskQueue,
			ActivityQueue: taskqueue.Name(s.Cfg.TaskQueue, taskqueue.Webhook)}}
}

// webhookActivities are the worker's activities of event webhooks.
func (s *Stack) webhookActivities() *activities.Webhooks {
	w := s.Cfg.Webhooks
	return &activities.Webhooks{Deliverer: webhooks.NewDeliverer(s.DB, s.Webhooks, s.webhookGuard, s.Audit,
		s.Log.With("component", "webhooks"), webhooks.Policy{
			RetryBase: w.RetryBase, RetryMaxWait: w.RetryMaxWait, RetryPeriod: w.RetryPeriod,
			DisableAfter: w.DisableAfter, DisableAfterPeriod: w.DisableAfterPeriod, Timeout: w.Timeout,
			BatchSize: w.BatchSize,
		})}
}

// webhookHandlers are the /v1 handlers of event webhook endpoints.
func (s *Stack) webhookHandlers(console *v1.Console) *v1.Webhooks {
	return &v1.Webhooks{Console: console, Webhooks: s.Webhooks}
}

// runWebhookRelay runs the webhook relay until ctx ends.
func (s *Stack) runWebhookRelay(ctx context.Context) {
	_ = s.WebhookRelay.Run(ctx)
}
