// Package telemetry holds Herald's Prometheus metrics, the OpenTelemetry tracing setup, and
// the Fiber middleware that measures and traces HTTP requests.
package telemetry

import (
	"context"
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Metrics are one process's Prometheus metrics, in a registry of their own.
type Metrics struct {
	Registry *prometheus.Registry

	http       *prometheus.HistogramVec
	accepted   prometheus.Counter
	refused    *prometheus.CounterVec
	deliveries *prometheus.CounterVec
	providers  *prometheus.HistogramVec
}

// NewMetrics registers Herald's metrics and the Go runtime and process collectors.
func NewMetrics() *Metrics {
	r := prometheus.NewRegistry()
	m := &Metrics{
		Registry: r,
		http: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "herald_http_request_duration_seconds",
			Help: "HTTP requests by method, route pattern and status, with their latency (the _count is the request count).",
			// From 1 ms: the accept path answers in a few milliseconds.
			Buckets: []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10},
		}, []string{"method", "route", "status"}),
		accepted: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "herald_sends_accepted_total", Help: "Send requests accepted into the outbox.",
		}),
		refused: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "herald_sends_refused_total", Help: "Send requests refused after validation, by reason (quota).",
		}, []string{"reason"}),
		deliveries: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "herald_deliveries_total", Help: "Delivery outcomes by channel, provider and status: each provider call (sent, failed permanently, error to be retried) and each decision taken without one (provider \"\": in-app delivered, skipped, failed).",
		}, []string{"channel", "provider", "status"}),
		providers: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "herald_provider_call_duration_seconds", Help: "Latency of calls to delivery providers.",
			Buckets: []float64{.01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30},
		}, []string{"channel", "provider"}),
	}
	r.MustRegister(m.http, m.accepted, m.refused, m.deliveries, m.providers,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// Accepted counts one accepted send.
func (m *Metrics) Accepted() { m.accepted.Inc() }

// Refused counts a send refused for a reason.
func (m *Metrics) Refused(reason string) { m.refused.WithLabelValues(reason).Inc() }

// Delivered records one delivery attempt's outcome and the provider call's latency (0 when
// no provider was called, e.g. skipped). The delivery pipeline calls it.
func (m *Metrics) Delivered(channel, provider, status string, took time.Duration) {
	m.deliveries.WithLabelValues(channel, provider, status).Inc()
	if took > 0 {
		m.providers.WithLabelValues(channel, provider).Observe(took.Seconds())
	}
}

// Deliveries counts n outcomes at once, without a provider call (a page of in-app
// deliveries and skips counts once per channel and status, not once per recipient).
func (m *Metrics) Deliveries(channel, provider, status string, n int) {
	m.deliveries.WithLabelValues(channel, provider, status).Add(float64(n))
}

// Gauge registers a gauge read at scrape time, e.g. realtime connections. read gets a
// context bounded to 2 seconds; an error leaves the gauge out of that scrape.
func (m *Metrics) Gauge(name, help string, read func(ctx context.Context) (float64, error)) {
	m.Registry.MustRegister(&gauge{desc: prometheus.NewDesc(name, help, nil, nil), read: read})
}

type gauge struct {
	desc *prometheus.Desc
	read func(ctx context.Context) (float64, error)
}

// Describe implements prometheus.Collector.
func (g *gauge) Describe(ch chan<- *prometheus.Desc) { ch <- g.desc }

// Collect implements prometheus.Collector: it reads the value at scrape time.
func (g *gauge) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	v, err := g.read(ctx)
	if err != nil {
		ch <- prometheus.NewInvalidMetric(g.desc, err)
		return
	}
	ch <- prometheus.MustNewConstMetric(g.desc, prometheus.GaugeValue, v)
}

// Handler serves the metrics in the Prometheus text format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.Registry, promhttp.HandlerOpts{ErrorHandling: promhttp.ContinueOnError})
}
