package app

import (
	"net/http"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// opsMetrics are the instance's own health signals for alerting
// (deploy/prometheus, docs/OPERATIONS.md): what every HTTP request answered,
// what /readyz last found, and whether the Redis breaker is open.
type opsMetrics struct {
	responses *prometheus.CounterVec
	ready     *prometheus.GaugeVec
}

// newOpsMetrics registers the ops metrics on a's registry; a.redis is open.
func (a *App) newOpsMetrics() *opsMetrics {
	m := &opsMetrics{
		responses: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "hmdp_http_responses_total", Help: "HTTP requests answered, by status code (a websocket counts when it closes).",
		}, []string{"code"}),
		ready: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "hmdp_ready", Help: "What the last /readyz found, by back end: 1 usable, 0 not (redis: takes writes; database: answers).",
		}, []string{"backend"}),
	}
	// Read from the breaker's flag at scrape time: no Redis I/O, so it says
	// "unreachable" within a call's timeout even if nothing probes /readyz.
	// The embedded Redis has no breaker (it cannot be unreachable).
	breaker := a.redis.Breaker
	open := prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "hmdp_redis_breaker_open", Help: "1 while the Redis circuit breaker is open (Redis unreachable: calls fail fast), else 0.",
	}, func() float64 {
		if breaker != nil && breaker.Open() {
			return 1
		}
		return 0
	})
	opened := prometheus.NewCounterFunc(prometheus.CounterOpts{
		Name: "hmdp_redis_breaker_opened_total", Help: "Times the Redis circuit breaker opened (Redis found unreachable).",
	}, func() float64 {
		if breaker == nil {
			return 0
		}
		return float64(breaker.Opened())
	})
	a.registry.MustRegister(m.responses, m.ready, open, opened)
	return m
}

// count wraps h, counting each response by its status code.
func (m *opsMetrics) count(h http.Handler) http.Handler {
	return promhttp.InstrumentHandlerCounter(m.responses, h)
}

// observe records what a readiness check found.
func (m *opsMetrics) observe(r readiness) {
	up := func(state string) float64 {
		if state == "ok" {
			return 1
		}
		return 0
	}
	m.ready.WithLabelValues("redis").Set(up(r.Redis))
	m.ready.WithLabelValues("database").Set(up(r.Database))
}

// Registry is the instance's metrics registry, what /metrics serves
// (deploy/prometheus's test checks the rules' metric names against it).
func (a *App) Registry() *prometheus.Registry { return a.registry }
