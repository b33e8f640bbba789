package pipeline

import (
	"time"

	"github.com/heraldhq/herald/db/dbsqlc"
	"github.com/heraldhq/herald/internal/delivery"
)

// Metrics receives delivery outcomes; telemetry.Metrics implements it.
type Metrics interface {
	// Delivered records one provider call: its outcome and latency.
	Delivered(channel, provider, status string, took time.Duration)
	// Deliveries counts n outcomes decided without a provider call.
	Deliveries(channel, provider, status string, n int)
}

// Decided counts one outcome taken without a provider (a skip, an in-app row, a failure
// before any provider was called).
func (a *Service) Decided(channel, status string) {
	if a.Metrics != nil {
		a.Metrics.Deliveries(channel, "", status, 1)
	}
}

// pageDecided counts the outcomes a page wrote (the rows it inserted; rows a retried page
// found in place were counted the first time): one counter update per channel and status,
// whatever the page size. Queued rows are counted when sent.
func (a *Service) pageDecided(logged []dbsqlc.InsertMessageLogsRow) {
	if a.Metrics == nil || len(logged) == 0 {
		return
	}
	type key struct{ channel, status string }
	counts := map[key]int{}
	for _, l := range logged {
		if l.Status != delivery.StatusQueued {
			counts[key{l.Channel, l.Status}]++
		}
	}
	for k, n := range counts {
		a.Metrics.Deliveries(k.channel, "", k.status, n)
	}
}

// Outcomes of a provider call, as metrics label them.
const (
	callSent   = delivery.StatusSent
	callFailed = delivery.StatusFailed
	callError  = "error"
)

// providerCall records a provider call when metrics are on.
func (a *Service) providerCall(channel, provider, status string, took time.Duration) {
	if a.Metrics != nil {
		a.Metrics.Delivered(channel, provider, status, took)
	}
}
