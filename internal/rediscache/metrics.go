package rediscache

import (
	"github.com/prometheus/client_golang/prometheus"

	"github.com/hmdp/hmdp/internal/promreg"
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
	// invalidations counts near-cache announcements by direction: "sent"
	// by this instance, "received" by it (its own included). Every
	// instance should receive what all of them sent; fewer means lost
	// Pub/Sub messages, and near copies kept until their TTL.
	invalidations *prometheus.CounterVec
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
		invalidations: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "hmdp_nearcache_invalidations_total",
			Help: "Near-cache invalidations announced (sent) and heard (received) by this instance, by cache.",
		}, []string{"cache", "direction"}),
	}
	if reg == nil {
		return m
	}
	m.requests = promreg.Register(reg, m.requests)
	m.loads = promreg.Register(reg, m.loads)
	m.invalidations = promreg.Register(reg, m.invalidations)
	return m
}
