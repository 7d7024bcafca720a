// Package metrics is Ghostlight's /metrics: Prometheus text format, fed
// through narrow hooks by the server's wiring (a call's audit record, an
// audit write's duration, gauges read when scraped). It knows neither MCP
// nor the browser: the wiring hands it plain values.
package metrics

import (
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

// Gauges is what a scrape reads of the executor's state.
type Gauges struct {
	Workspaces, Contexts, Tabs int
	// Starts counts the browser's starts (the first included): restarts
	// are Starts-1.
	Starts int
}

// Metrics is one server's registry.
type Metrics struct {
	reg      *prometheus.Registry
	calls    *prometheus.CounterVec
	latency  *prometheus.HistogramVec
	refusals *prometheus.CounterVec
	audit    prometheus.Histogram
	drain    prometheus.Gauge
}

// boundary are the reasons a governed boundary refuses with (the
// authority's and the host boundary's).
var boundary = map[surface.Reason]bool{
	surface.ReasonHostDenied:       true,
	surface.ReasonCapabilityDenied: true,
	surface.ReasonConstraintDenied: true,
}

// New registers Ghostlight's metrics; gauges is read at each scrape.
func New(gauges func() Gauges) *Metrics {
	m := &Metrics{reg: prometheus.NewRegistry()}
	m.calls = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "ghostlight_calls_total",
		Help: "Tool calls answered, by tool and envelope status (composite steps included)."}, []string{"tool", "status"})
	m.latency = prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "ghostlight_call_seconds",
		Help:    "Tool call latency, from decode to the envelope, by tool.",
		Buckets: prometheus.ExponentialBuckets(float64(surface.MetricsFirstBucketMsMax)/1000, 2, surface.MetricsBucketsMax)}, []string{"tool"})
	m.refusals = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "ghostlight_boundary_refusals_total",
		Help: "Calls refused at a governed boundary (host_denied, capability_denied, constraint_denied), by reason."}, []string{"reason"})
	m.audit = prometheus.NewHistogram(prometheus.HistogramOpts{Name: "ghostlight_audit_write_seconds",
		Help:    "Durable audit writes (append and fsync) before a call answers.",
		Buckets: prometheus.ExponentialBuckets(0.0001, 2, surface.MetricsAuditBucketsMax)})
	m.drain = prometheus.NewGauge(prometheus.GaugeOpts{Name: "ghostlight_draining",
		Help: "1 once a SIGTERM started the drain: new workspaces are refused."})
	gauge := func(name, help string, read func(Gauges) int) prometheus.Collector {
		return prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: name, Help: help}, func() float64 { return float64(read(gauges())) })
	}
	m.reg.MustRegister(m.calls, m.latency, m.refusals, m.audit, m.drain,
		gauge("ghostlight_workspaces", "Workspaces open (one per MCP session or stateless principal).", func(g Gauges) int { return g.Workspaces }),
		gauge("ghostlight_browser_contexts", "Browser contexts of open workspaces.", func(g Gauges) int { return g.Contexts }),
		gauge("ghostlight_tabs", "Tabs the open workspaces control.", func(g Gauges) int { return g.Tabs }),
		prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "ghostlight_browser_restarts_total",
			Help: "Browser starts after the first (a relaunch or reconnect after the browser went)."},
			func() float64 { return float64(max(gauges().Starts-1, 0)) }),
	)
	return m
}

// Call records one answered call.
func (m *Metrics) Call(tool string, status surface.Status, reason surface.Reason, d time.Duration) {
	m.calls.WithLabelValues(tool, string(status)).Inc()
	m.latency.WithLabelValues(tool).Observe(d.Seconds())
	if boundary[reason] {
		m.refusals.WithLabelValues(string(reason)).Inc()
	}
}

// AuditWrite records one durable audit write.
func (m *Metrics) AuditWrite(d time.Duration) { m.audit.Observe(d.Seconds()) }

// Draining records that the drain began.
func (m *Metrics) Draining() { m.drain.Set(1) }

// Handler serves the registry in the Prometheus text format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{})
}
