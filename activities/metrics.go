package activities

import (
	"time"

	"github.com/heraldhq/herald/internal/delivery"
)

// Outcomes of a provider call, as metrics label them.
const (
	callSent   = delivery.StatusSent
	callFailed = delivery.StatusFailed
	callError  = "error"
)

// providerCall records a provider call when metrics are on.
func (a *Delivery) providerCall(channel, provider, status string, took time.Duration) {
	if a.Metrics != nil {
		a.Metrics.Delivered(channel, provider, status, took)
	}
}
