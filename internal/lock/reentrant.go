package lock

import (
	"context"
	"fmt"
	"strconv"
	"sync"
	"time"
)

// Reentrant is a lock with Redisson's semantics: a Redis hash owner -> hold
// count, so the owner that holds it can take it again (see WithOwner for what
// an owner is), released when the count returns to zero; a watchdog keeps it
// alive while held; waiters are woken by a Pub/Sub message on release; every
// first acquisition gets a fencing token.
type Reentrant struct {
	l *Locker
	k keys
}

// Reentrant returns the reentrant lock called name.
func (l *Locker) Reentrant(name string) *Reentrant { return &Reentrant{l: l, k: l.keys(name)} }

// TryLock takes the lock for the owner in ctx (a fresh owner when ctx has
// none), waiting up to wait for it (wait <= 0: one attempt). With lease <= 0
// the watchdog holds it with the Locker's watchdog lease (30 s) renewed every
// renewal interval (10 s) until Unlock; with lease > 0 it expires after lease
// and is not renewed. A re-entry can lengthen the key's TTL, never shorten it.
// When the lock stays busy it returns an error matching ErrNotAcquired; when
// ctx ends first, ctx's error.
func (r *Reentrant) TryLock(ctx context.Context, wait, lease time.Duration) (*Hold, error) {
	owner, ctx := ownerOf(ctx)
	ttl := lease
	if ttl <= 0 {
		ttl = r.l.lease
	}
	var token int64
	var start time.Time
	try := func(ctx context.Context) (bool, time.Duration, error) {
		start = time.Now() // before the request: the lease is counted from no later than this
		v, err := scriptReentrantAcquire.Run(ctx, r.l.client,
			[]string{r.k.lock, r.k.fence}, owner, ttl.Milliseconds(), fenceTTL.Milliseconds()).Slice()
		if err != nil {
			return false, 0, err
		}
		status, val, err := parseAcquire(v)
		if err != nil {
			return false, 0, err
		}
		if status == 0 {
			pttl, _ := strconv.ParseInt(val, 10, 64)
			return false, time.Duration(pttl) * time.Millisecond, nil
		}
		token, err = strconv.ParseInt(val, 10, 64)
		return err == nil, 0, err
	}
	if err := r.l.acquire(ctx, r.k, kindReentrant, wait, try); err != nil {
		return nil, err
	}
	r.l.metrics.acquisitions.WithLabelValues(kindReentrant).Inc()
	return r.l.attach(ctx, r.k, owner, token, lease, start), nil
}

// parseAcquire reads the acquire script's {status, value} reply.
func parseAcquire(v []any) (int64, string, error) {
	if len(v) != 2 {
		return 0, "", fmt.Errorf("lock: acquire script replied %v", v)
	}
	status, ok := v[0].(int64)
	if !ok {
		return 0, "", fmt.Errorf("lock: acquire script replied %v", v)
	}
	switch x := v[1].(type) {
	case int64:
		return status, strconv.FormatInt(x, 10), nil
	case string:
		return status, x, nil
	}
	return 0, "", fmt.Errorf("lock: acquire script replied %v", v)
}

// holdingKey names one tenure of a reentrant lock: the same owner taking the
// same lock again after releasing it gets a new token, so a new holding.
type holdingKey struct {
	lock, owner string
	token       int64
}

// holding is what this Locker knows of a reentrant lock one owner holds: how
// many holds are not yet unlocked here, and what keeps it alive.
type holding struct {
	key      holdingKey
	k        keys
	sig      *signal
	refs     int           // guarded by Locker.mu
	watched  bool          // guarded by Locker.mu: a watchdog renews it
	expires  time.Time     // guarded by Locker.mu: fixed-lease end when not watched
	timer    *time.Timer   // guarded by Locker.mu
	stop     chan struct{} // closed to end the watchdog
	stopOnce func()
}

// attach records a successful acquisition and returns its Hold.
func (l *Locker) attach(ctx context.Context, k keys, owner string, token int64, lease time.Duration, start time.Time) *Hold {
	hk := holdingKey{lock: k.lock, owner: owner, token: token}
	l.mu.Lock()
	h := l.holdings[hk]
	if h == nil {
		h = &holding{key: hk, k: k, sig: newSignal(l.lostHook(kindReentrant, k.name)), stop: make(chan struct{})}
		h.stopOnce = sync.OnceFunc(func() { close(h.stop) })
		l.holdings[hk] = h
	}
	h.refs++
	switch {
	case lease <= 0 && !h.watched:
		if h.timer != nil {
			h.timer.Stop()
		}
		h.watched = true
		go l.watchdog(h, owner, start) //nolint:contextcheck,gosec // the watchdog renews the lock until Unlock, past the acquiring call's context
	case lease > 0 && !h.watched && start.Add(lease).After(h.expires):
		// Fixed lease: the key expires at start+lease at the latest, so that
		// is when the holder must stop.
		h.expires = start.Add(lease)
		if h.timer != nil {
			h.timer.Stop()
		}
		h.timer = time.AfterFunc(time.Until(h.expires), func() { l.lose(h, "lease ran out") })
	}
	l.mu.Unlock()
	return newHold(ctx, k.name, token, h.sig, func(ctx context.Context) error { return l.release(ctx, h, owner) })
}

// release undoes one hold of h in Redis.
func (l *Locker) release(ctx context.Context, h *holding, owner string) error {
	left, err := scriptReentrantRelease.Run(ctx, l.client, []string{h.k.lock, h.k.channel}, owner).Int64()
	l.mu.Lock()
	h.refs--
	last := h.refs <= 0
	l.mu.Unlock()
	switch {
	case err != nil:
		if last {
			// Stop renewing even though the release may not have landed: the
			// key then expires within a lease instead of living forever.
			l.finish(h)
		}
		return err
	case left < 0:
		l.lose(h, "gone before unlock")
		return &NotHeldError{Name: h.k.name}
	case left == 0 || last:
		l.finish(h)
	}
	return nil
}

// finish ends a holding that was released.
func (l *Locker) finish(h *holding) {
	l.forget(h)
	h.sig.release()
}

// lose ends a holding whose lock went away, telling its holders.
func (l *Locker) lose(h *holding, why string) {
	l.forget(h)
	h.sig.lose(why)
}

func (l *Locker) forget(h *holding) {
	l.mu.Lock()
	if l.holdings[h.key] == h {
		delete(l.holdings, h.key)
	}
	if h.timer != nil {
		h.timer.Stop()
	}
	l.mu.Unlock()
	h.stopOnce()
}
