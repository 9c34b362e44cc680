package cache

import (
	"errors"

	"github.com/prometheus/client_golang/prometheus"
)

// Results of a look-up, the result label of hmdp_cache_requests_total.
const (
	ResultHit      = "hit"      // a value from the near cache or Redis
	ResultMiss     = "miss"     // nothing cached: loaded (or waited for a loader)
	ResultNullHit  = "null_hit" // a cached "absent" marker
	ResultStale    = "stale"    // a logically expired value served while it is rebuilt
	ResultRejected = "rejected" // the Bloom filter knows the id cannot exist
)

type metrics struct {
	requests *prometheus.CounterVec
	loads    *prometheus.CounterVec
}

// newMetrics registers the counters on reg, sharing them with other caches
// already registered there (the cache label tells them apart).
func newMetrics(reg prometheus.Registerer) *metrics {
	m := &metrics{
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "hmdp_cache_requests_total",
			Help: "Cache look-ups by cache and result (hit, miss, null_hit, stale, rejected).",
		}, []string{"cache", "result"}),
		loads: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "hmdp_cache_loads_total",
			Help: "Loads from the database to fill a cache.",
		}, []string{"cache"}),
	}
	if reg == nil {
		return m
	}
	m.requests = register(reg, m.requests)
	m.loads = register(reg, m.loads)
	return m
}

func register(reg prometheus.Registerer, c *prometheus.CounterVec) *prometheus.CounterVec {
	if err := reg.Register(c); err != nil {
		var are prometheus.AlreadyRegisteredError
		if errors.As(err, &are) {
			if existing, ok := are.ExistingCollector.(*prometheus.CounterVec); ok {
				return existing
			}
		}
		panic(err)
	}
	return c
}
