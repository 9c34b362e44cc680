package lock

import (
	"context"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/hmdp/hmdp/internal/testenv"
)

// Metrics land on the registry passed in, shared by several lockers, and
// count acquisitions, waits (contention) and losses per kind.
func TestMetricsOnGivenRegistry(t *testing.T) {
	testenv.ForEachRedis(t, func(t *testing.T, b testenv.RedisBackend) {
		realTime(t, b)
		bg := context.Background()
		reg := prometheus.NewRegistry()
		l1 := newLocker(t, b.Client, b.Prefix, WithRegisterer(reg))
		l2 := newLocker(t, b.Client, b.Prefix, WithRegisterer(reg)) // same registry: no conflict

		h := must[*Hold](t)(l1.Reentrant("m").TryLock(bg, 0, time.Minute))
		inner := must[*Hold](t)(l1.Reentrant("m").TryLock(h.Context(), 0, time.Minute))
		_ = inner.Unlock(bg)
		done := make(chan error, 1)
		go func() {
			w, err := l2.Reentrant("m").TryLock(bg, 5*time.Second, time.Minute)
			if err == nil {
				err = w.Unlock(bg)
			}
			done <- err
		}()
		testenv.Eventually(t, 10*time.Second, "waiter parked", func() bool { return parked(l2, l2.keys("m").channel) > 0 })
		_ = h.Unlock(bg)
		if err := within(t, 10*time.Second, "waiter", done); err != nil {
			t.Fatal(err)
		}

		s := must[*Hold](t)(l1.Simple("ms").TryLock(bg, 0, 200*time.Millisecond))
		within(t, 10*time.Second, "simple lock expiry", s.Lost())

		for _, c := range []struct {
			name, kind string
			want       float64
		}{
			{"hmdp_lock_acquisitions_total", kindReentrant, 3}, // first, re-entry, waiter
			{"hmdp_lock_waits_total", kindReentrant, 1},
			{"hmdp_lock_losses_total", kindReentrant, 0},
			{"hmdp_lock_acquisitions_total", kindSimple, 1},
			{"hmdp_lock_losses_total", kindSimple, 1},
		} {
			if got := counter(t, reg, c.name, c.kind); got != c.want {
				t.Errorf("%s{kind=%q} = %v, want %v", c.name, c.kind, got, c.want)
			}
		}
	})
}
