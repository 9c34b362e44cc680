// Package nearcache is the in-process layer in front of Redis: each instance
// keeps a short-lived copy of its hottest reads, and every instance drops its
// copy when a change is announced on a Redis Pub/Sub channel (Follow). The
// TTL bounds staleness when an announcement is lost.
package nearcache

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
)

// Cache holds values of V by id. Invalidations bump an epoch, and a value
// read from Redis is kept only if no invalidation arrived while it was being
// read (Epoch before the read, Put after), so a delete racing a read can never
// leave the old value here for a whole TTL.
type Cache[V any] struct {
	ttl time.Duration
	max int

	mu    sync.Mutex
	epoch uint64
	m     map[string]entry[V]

	sub *redis.PubSub
	wg  sync.WaitGroup
}

type entry[V any] struct {
	v     V
	found bool
	exp   time.Time
}

// New returns a cache keeping each value for ttl and at most max values.
func New[V any](ttl time.Duration, max int) *Cache[V] {
	return &Cache[V]{ttl: ttl, max: max, m: make(map[string]entry[V])}
}

// Get returns id's value; ok is false when there is no fresh copy.
func (n *Cache[V]) Get(id string, now time.Time) (v V, found, ok bool) {
	n.mu.Lock()
	e, ok := n.m[id]
	n.mu.Unlock()
	if !ok || now.After(e.exp) {
		return v, false, false
	}
	return e.v, e.found, true
}

// Epoch is read before going to Redis and handed back to Put.
func (n *Cache[V]) Epoch() uint64 {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.epoch
}

// Put keeps v (found=false records a known absence) unless an invalidation
// came after epoch was read.
func (n *Cache[V]) Put(id string, v V, found bool, epoch uint64, now time.Time) {
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
	n.m[id] = entry[V]{v: v, found: found, exp: now.Add(n.ttl)}
}

// Drop forgets id here.
func (n *Cache[V]) Drop(id string) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.epoch++
	delete(n.m, id)
}

// DropAll forgets everything here.
func (n *Cache[V]) DropAll() {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.epoch++
	clear(n.m)
}

// Announce tells every instance following channel to drop id.
func Announce(ctx context.Context, client redis.UniversalClient, channel, id string) error {
	return client.Publish(ctx, channel, id).Err()
}

// Follow subscribes to channel and drops every id announced on it until
// Close; it returns once the subscription is active. go-redis resubscribes
// after a dropped connection; announcements sent meanwhile are lost, which
// the TTL bounds.
func (n *Cache[V]) Follow(ctx context.Context, client redis.UniversalClient, channel string) error {
	return n.FollowCounted(ctx, client, channel, nil)
}

// FollowCounted is Follow, calling received (when not nil) for every
// announcement heard: compared with the announcements sent, it shows the
// ones lost (docs/OPERATIONS.md).
func (n *Cache[V]) FollowCounted(ctx context.Context, client redis.UniversalClient, channel string, received func()) error {
	sub := client.Subscribe(ctx, channel)
	if _, err := sub.Receive(ctx); err != nil {
		_ = sub.Close()
		return fmt.Errorf("near cache: subscribe %s: %w", channel, err)
	}
	n.sub = sub
	ch := sub.Channel()
	n.wg.Go(func() {
		for msg := range ch {
			n.Drop(msg.Payload)
			if received != nil {
				received()
			}
		}
		n.DropAll()
	})
	return nil
}

// Close ends Follow.
func (n *Cache[V]) Close() error {
	if n.sub == nil {
		return nil
	}
	err := n.sub.Close()
	n.wg.Wait()
	return err
}
