package lock

import (
	"context"
	"time"
)

// WithLock runs fn while holding the reentrant lock name, kept alive by the
// watchdog, waiting up to wait for it: the "one loader across all instances"
// pattern. fn's context carries the lock owner (so a nested WithLock on the
// same name re-enters) and is canceled if the lock is lost, so long work can
// stop. It returns an error matching ErrNotAcquired when the lock stayed
// busy, else fn's error, else the unlock error (a NotHeldError means the lock
// was lost before fn returned).
func (l *Locker) WithLock(ctx context.Context, name string, wait time.Duration, fn func(ctx context.Context) error) error {
	h, err := l.Reentrant(name).TryLock(ctx, wait, 0)
	if err != nil {
		return err
	}
	ferr := fn(h.Context()) //nolint:contextcheck // h.Context() derives from ctx (and ends if the lock is lost)
	uerr := h.Unlock(ctx)
	if ferr != nil {
		return ferr
	}
	return uerr
}
