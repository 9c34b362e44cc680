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
	ok, _, err := try(ctx)
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

	w := l.sub.join(k.channel)
	acquired := false
	defer func() { l.sub.leave(w, acquired) }()
	select {
	case <-w.ready():
	case <-ctx.Done():
		return waitEnded(ctx, k)
	}
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
		sleep := time.Until(deadline)
		if ttl >= 0 && ttl < sleep {
			sleep = ttl
		}
		if err := l.sub.park(ctx, w, sleep); err != nil {
			return waitEnded(ctx, k)
		}
	}
}

// errWaitOver is the cause of the wait's own deadline.
var errWaitOver = errors.New("lock: wait over")

// waitEnded tells a wait that ran out (ErrNotAcquired) from a caller whose
// context ended first (its error).
func waitEnded(ctx context.Context, k keys) error {
	if context.Cause(ctx) == errWaitOver {
		return notAcquired(k.name)
	}
	return ctx.Err()
}
