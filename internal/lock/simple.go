package lock

import (
	"context"
	"errors"
	"time"

	"github.com/redis/go-redis/v9"
)

// Simple is the plain Redis lock: SET key value NX PX ttl, where value is a
// random id of this acquisition, and a Lua compare-and-delete to release it,
// so a holder whose lease ran out can never delete its successor's lock. It is
// not reentrant and not renewed. Use it when the work is short and bounded.
type Simple struct {
	l *Locker
	k keys
}

// Simple returns the simple lock called name. Use one kind per name: the
// simple lock's key is a string and the reentrant lock's a hash, so mixing
// them on a name fails with WRONGTYPE instead of excluding each other.
func (l *Locker) Simple(name string) *Simple { return &Simple{l: l, k: l.keys(name)} }

// TryLock takes the lock for ttl (ttl <= 0: the Locker's watchdog lease),
// waiting up to wait for it (wait <= 0: one attempt); waiting is woken by the
// release message like the reentrant lock's. The Hold's context is canceled
// with ErrLockLost when ttl runs out before Unlock.
func (s *Simple) TryLock(ctx context.Context, wait, ttl time.Duration) (*Hold, error) {
	if ttl <= 0 {
		ttl = s.l.lease
	}
	value := randomHex(16)
	var start time.Time
	try := func(ctx context.Context) (bool, time.Duration, error) {
		start = time.Now()
		ok, err := setNX(ctx, s.l.client, s.k.lock, value, ttl)
		if ok || err != nil {
			return ok, 0, err
		}
		// Busy: the holder's remaining TTL bounds how long to wait for its release.
		pttl, err := s.l.client.PTTL(ctx, s.k.lock).Result()
		if pttl == -2 { // gone since the SET: try again at once
			pttl = 0
		}
		return false, pttl, err
	}
	if err := s.l.acquire(ctx, s.k, kindSimple, wait, try); err != nil {
		return nil, err
	}
	s.l.metrics.acquisitions.WithLabelValues(kindSimple).Inc()
	sig := newSignal(s.l.lostHook(kindSimple, s.k.name))
	expiry := time.AfterFunc(time.Until(start.Add(ttl)), func() { sig.lose("lease ran out") })
	return newHold(ctx, s.k.name, 0, sig, func(ctx context.Context) error {
		expiry.Stop()
		err := releaseSimple(ctx, s.l.client, s.k, value)
		if errors.Is(err, ErrNotHeld) {
			sig.lose("gone before unlock")
		}
		sig.release()
		return err
	}), nil
}

// setNX is SET key value PX ttl NX (go-redis's SetNX would round whole seconds to EX).
func setNX(ctx context.Context, c redis.UniversalClient, key, value string, ttl time.Duration) (bool, error) {
	err := c.Do(ctx, "SET", key, value, "PX", max(ttl.Milliseconds(), 1), "NX").Err()
	if errors.Is(err, redis.Nil) {
		return false, nil
	}
	return err == nil, err
}

// releaseSimple deletes the lock only if it still holds value, and tells waiters.
func releaseSimple(ctx context.Context, c redis.UniversalClient, k keys, value string) error {
	n, err := scriptSimpleRelease.Run(ctx, c, []string{k.lock, k.channel}, value).Int64()
	if err != nil {
		return err
	}
	if n == 0 {
		return &NotHeldError{Name: k.name}
	}
	return nil
}
