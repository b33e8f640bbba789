package config

import "time"

// WebhooksConfig tunes the delivery of event webhooks (internal/webhooks, docs/webhooks.md).
type WebhooksConfig struct {
	// RetryBase is the wait before the second attempt; each later wait doubles, up to
	// RetryMaxWait, for RetryPeriod after the event.
	RetryBase    time.Duration `env:"HERALD_WEBHOOK_RETRY_BASE" envDefault:"5s" min:"1ms" example:"30s" desc:"wait before retrying a failed event webhook delivery; each later wait doubles (with up to 10% jitter) up to HERALD_WEBHOOK_RETRY_MAX_WAIT; a Retry-After answer (seconds or a date) is honoured when longer"`
	RetryMaxWait time.Duration `env:"HERALD_WEBHOOK_RETRY_MAX_WAIT" envDefault:"6h" min:"1ms" example:"1h" desc:"longest wait between two attempts of one event webhook delivery"`
	RetryPeriod  time.Duration `env:"HERALD_WEBHOOK_RETRY_PERIOD" envDefault:"72h" min:"1ms" example:"24h" desc:"how long after the event its delivery is retried before it is marked failed (it can still be resent or replayed)"`
	// DisableAfter and DisableAfterPeriod: an endpoint whose last DisableAfter attempts all
	// failed, the first of them at least DisableAfterPeriod ago, is disabled.
	DisableAfter       int           `env:"HERALD_WEBHOOK_DISABLE_AFTER" envDefault:"20" min:"1" example:"50" desc:"an event webhook endpoint is disabled automatically (audit entry webhook.auto_disabled, notice in the console) after this many failed attempts in a row, once it has been failing for HERALD_WEBHOOK_DISABLE_AFTER_PERIOD"`
	DisableAfterPeriod time.Duration `env:"HERALD_WEBHOOK_DISABLE_AFTER_PERIOD" envDefault:"24h" min:"0s" example:"12h" desc:"how long an endpoint must have been failing (every attempt since then failed) before it is disabled automatically"`
	Timeout            time.Duration `env:"HERALD_WEBHOOK_TIMEOUT" envDefault:"15s" min:"100ms" example:"5s" desc:"time an endpoint has to answer one event webhook request; longer counts as a failed attempt"`
	SecretGrace        time.Duration `env:"HERALD_WEBHOOK_SECRET_GRACE" envDefault:"24h" min:"0s" example:"1h" desc:"after a signing secret is rotated, how long the old secret keeps signing next to the new one (two signatures in webhook-signature)"`
	PollInterval       time.Duration `env:"HERALD_WEBHOOK_POLL_INTERVAL" envDefault:"1s" min:"1ms" example:"250ms" desc:"how often the webhook relay looks for endpoints with events due and starts (or finds running) their delivery workflow"`
	BatchSize          int           `env:"HERALD_WEBHOOK_BATCH" envDefault:"100" min:"1" example:"500" desc:"most events one delivery activity takes for one endpoint (sent 8 at a time; one at a time to ordered endpoints)"`
}
