package cache

import (
	"sync"
	"time"
)

// near is the in-process layer: a short-lived copy of the hottest reads.
// Invalidations bump epoch, and a value read from Redis is kept only if no
// invalidation arrived while it was being read, so a delete racing a read can
// never leave the old value here for a whole TTL.
type near[V any] struct {
	ttl time.Duration
	max int

	mu    sync.Mutex
	epoch uint64
	m     map[string]nearEntry[V]
}

type nearEntry[V any] struct {
	v     V
	found bool
	exp   time.Time
}

func newNear[V any](ttl time.Duration, max int) *near[V] {
	return &near[V]{ttl: ttl, max: max, m: make(map[string]nearEntry[V])}
}

func (n *near[V]) get(id string, now time.Time) (v V, found, ok bool) {
	n.mu.Lock()
	e, ok := n.m[id]
	n.mu.Unlock()
	if !ok || now.After(e.exp) {
		return v, false, false
	}
	return e.v, e.found, true
}

// currentEpoch is read before going to Redis and handed back to put.
func (n *near[V]) currentEpoch() uint64 {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.epoch
}

func (n *near[V]) put(id string, v V, found bool, epoch uint64, now time.Time) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if epoch != n.epoch {
		return
	}
	if len(n.m) >= n.max {
		for k, e := range n.m {
			if now.After(e.exp) {
				delete(n.m, k)
			}
		}
		if len(n.m) >= n.max {
			clear(n.m) // all fresh: start over rather than grow without bound
		}
	}
	n.m[id] = nearEntry[V]{v: v, found: found, exp: now.Add(n.ttl)}
}

func (n *near[V]) drop(id string) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.epoch++
	delete(n.m, id)
}

func (n *near[V]) dropAll() {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.epoch++
	clear(n.m)
}
