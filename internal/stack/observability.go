package stack

import (
	"context"

	v1 "github.com/heraldhq/herald/api/v1"
	"github.com/heraldhq/herald/internal/delivery/pipeline"
	"github.com/heraldhq/herald/internal/ops/analytics"
)

// openObservability builds the message log and analytics service and registers the
// realtime connections gauge (read from the hub's counter at scrape time).
func (s *Stack) openObservability() {
	s.Analytics = analytics.NewService(s.DB)
	hub := s.Realtime.Hub
	s.Metrics.Gauge("herald_realtime_connections", "Open realtime connections (Socket.IO and SSE) of this process.", func(context.Context) (float64, error) {
		return float64(hub.Connections()), nil
	})
}

// observabilityHandlers are the /v1 handlers of the message log and analytics.
func (s *Stack) observabilityHandlers(console *v1.Console) *v1.Observability {
	return &v1.Observability{Console: console, Analytics: s.Analytics,
		TemporalUI: v1.TemporalUI{URL: s.Cfg.TemporalUIURL, Namespace: s.Cfg.TemporalNamespace}}
}

// deliveryMetrics is what the delivery activities record into: the metrics registry when
// metrics are on, nothing otherwise.
func (s *Stack) deliveryMetrics() pipeline.Metrics {
	if !s.Cfg.Ops.Metrics {
		return nil
	}
	return s.Metrics
}
