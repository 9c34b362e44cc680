package lock

import (
	"context"
	"errors"
	"time"
)

// attempt tries to take a lock once. When the lock is busy it reports the
// lock's remaining TTL (negative when unknown).
type attempt func(ctx context.Context) (acquired bool, ttl time.Duration, err error)

// acquire runs try, and while the lock is busy waits up to wait for it the
// way Redisson does: subscribe to the lock's release channel, try again once
// the subscription is active, then sleep until a release message arrives or
// the holder's remaining TTL runs out (the fallback for a holder that died
// without releasing), whichever is first. There is no polling loop.
func (l *Locker) acquire(ctx context.Context, k keys, kind string, wait time.Duration, try attempt) error {
	ok, ttl, err := try(ctx)
	if err != nil || ok {
		return err
	}
	if wait <= 0 {
		return notAcquired(k.name)
	}
	l.metrics.waits.WithLabelValues(kind).Inc()
	deadline := time.Now().Add(wait)
	ctx, cancel := context.WithDeadlineCause(ctx, deadline, errWaitOver)
	defer cancel()

	w := l.sub.join(k.channel) //nolint:contextcheck // the subscription is shared by every waiter, not bound to this one's context
	acquired := false
	defer func() { l.sub.leave(w, acquired) }() //nolint:contextcheck // as join: the shared subscription outlives ctx
	// Try again only once the subscription is active, so a release published
	// in between cannot slip past; should it never confirm, the holder's TTL
	// still bounds the wait.
	t := time.NewTimer(fallback(ttl, deadline))
	select {
	case <-w.ready():
	case <-t.C:
	case <-ctx.Done():
	}
	t.Stop()
	for {
		ok, ttl, err := try(ctx)
		switch {
		case ok:
			acquired = true
			return nil
		case ctx.Err() != nil:
			return waitEnded(ctx, k)
		case err != nil:
			return err
		}
		if err := l.sub.park(ctx, w, fallback(ttl, deadline)); err != nil {
			return waitEnded(ctx, k)
		}
	}
}

// fallback is how long to sleep when no release message comes: until the
// holder's TTL runs out (ttl < 0: unknown) but not past the deadline.
func fallback(ttl time.Duration, deadline time.Time) time.Duration {
	d := time.Until(deadline)
	if ttl >= 0 && ttl < d {
		return ttl
	}
	return d
}

// errWaitOver is the cause of the wait's own deadline.
var errWaitOver = errors.New("lock: wait over")

// waitEnded tells a wait that ran out (ErrNotAcquired) from a caller whose
// context ended first (its error).
func waitEnded(ctx context.Context, k keys) error {
	if errors.Is(context.Cause(ctx), errWaitOver) {
		return notAcquired(k.name)
	}
	return ctx.Err()
}
