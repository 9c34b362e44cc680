package lock

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/hmdp/hmdp/internal/testenv"
)

// Held for three leases, the lock survives only because the watchdog renews it.
func TestWatchdogKeepsLockPastItsLease(t *testing.T) {
	testenv.ForEachRedis(t, func(t *testing.T, b testenv.RedisBackend) {
		realTime(t, b)
		bg := context.Background()
		r := newLocker(t, b.Client, b.Prefix, fastWatchdog).Reentrant("long")
		h := must[*Hold](t)(r.TryLock(bg, 0, 0))
		time.Sleep(3 * 600 * time.Millisecond)

		if h.Context().Err() != nil {
			t.Fatalf("hold ended: %v", context.Cause(h.Context()))
		}
		_, err := r.TryLock(bg, 0, 0)
		mustNotAcquired(t, err)
		if err := h.Unlock(bg); err != nil {
			t.Fatalf("unlock after three leases: %v", err)
		}
	})
}

// When the key vanishes under a holder (flushed, evicted, failed over), the
// next renewal notices and the holder's context is canceled.
func TestWatchdogTellsHolderWhenKeyVanishes(t *testing.T) {
	testenv.ForEachRedis(t, func(t *testing.T, b testenv.RedisBackend) {
		bg := context.Background()
		reg := prometheus.NewRegistry()
		l := newLocker(t, b.Client, b.Prefix, fastWatchdog, WithRegisterer(reg))
		h := must[*Hold](t)(l.Reentrant("vanish").TryLock(bg, 0, 0))
		b.Client.Del(bg, b.Key("lock:{vanish}"))

		within(t, 10*time.Second, "holder told", h.Lost())
		// Contexts are canceled before Lost closes.
		if !errors.Is(context.Cause(h.Context()), ErrLockLost) {
			t.Fatalf("cause %v, want ErrLockLost", context.Cause(h.Context()))
		}
		if got := counter(t, reg, "hmdp_lock_losses_total", kindReentrant); got != 1 {
			t.Fatalf("losses = %v, want 1", got)
		}
		mustNotHeld(t, h.Unlock(bg))
	})
}

// With an explicit lease there is no renewal: the key expires on time and
// the holder is told.
func TestFixedLeaseIsNotRenewed(t *testing.T) {
	testenv.ForEachRedis(t, func(t *testing.T, b testenv.RedisBackend) {
		realTime(t, b)
		bg := context.Background()
		r := newLocker(t, b.Client, b.Prefix, fastWatchdog).Reentrant("fixed")
		h := must[*Hold](t)(r.TryLock(bg, 0, 400*time.Millisecond))
		within(t, 10*time.Second, "holder told", h.Lost())
		testenv.Eventually(t, 10*time.Second, "key expiry", func() bool { return b.Client.Exists(bg, b.Key("lock:{fixed}")).Val() == 0 })
		other := must[*Hold](t)(r.TryLock(bg, 0, 0))
		mustNotHeld(t, h.Unlock(bg))
		if err := other.Unlock(bg); err != nil {
			t.Fatal(err)
		}
	})
}

// Unlock stops the watchdog: the key is gone and stays gone.
func TestUnlockStopsWatchdog(t *testing.T) {
	testenv.ForEachRedis(t, func(t *testing.T, b testenv.RedisBackend) {
		bg := context.Background()
		l := newLocker(t, b.Client, b.Prefix, fastWatchdog)
		h := must[*Hold](t)(l.Reentrant("stop").TryLock(bg, 0, 0))
		if err := h.Unlock(bg); err != nil {
			t.Fatal(err)
		}
		l.mu.Lock()
		n := len(l.holdings)
		l.mu.Unlock()
		if n != 0 {
			t.Fatalf("%d holdings left after unlock", n)
		}
		// goleak in TestMain checks the watchdog goroutine itself is gone.
	})
}
