package lock

import (
	"github.com/prometheus/client_golang/prometheus"

	"github.com/hmdp/hmdp/internal/promreg"
)

// Lock kinds, the value of the metrics' kind label.
const (
	kindSimple    = "simple"
	kindReentrant = "reentrant"
	kindMulti     = "multi"
	kindRedlock   = "redlock"
)

type metrics struct {
	acquisitions *prometheus.CounterVec // successful acquisitions (re-entries included)
	waits        *prometheus.CounterVec // acquisitions that found the lock busy and waited
	losses       *prometheus.CounterVec // holds that lost their lock before Unlock
}

func newMetrics(reg prometheus.Registerer) *metrics {
	vec := func(name, help string) *prometheus.CounterVec {
		c := prometheus.NewCounterVec(prometheus.CounterOpts{Name: name, Help: help}, []string{"kind"})
		if reg == nil {
			return c // counted but exposed nowhere
		}
		// Several lockers (one per Redis node, say) share one registry.
		return promreg.Register(reg, c)
	}
	return &metrics{
		acquisitions: vec("hmdp_lock_acquisitions_total", "Distributed lock acquisitions, re-entries included."),
		waits:        vec("hmdp_lock_waits_total", "Lock acquisitions that found the lock held and waited for it."),
		losses:       vec("hmdp_lock_losses_total", "Locks lost while held: renewal failed, key vanished or lease ran out."),
	}
}
