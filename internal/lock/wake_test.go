package lock

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/hmdp/hmdp/internal/testenv"
)

// A release wakes a parked waiter through Pub/Sub. The holder's lease is 30 s
// and the waiter waits at most 5 s, so its fallback timer alone would end in
// ErrNotAcquired: only the release message can make it succeed.
func TestReleaseWakesWaiter(t *testing.T) {
	testenv.ForEachRedis(t, func(t *testing.T, b testenv.RedisBackend) {
		const lease, wait = 30 * time.Second, 5 * time.Second
		bg := context.Background()
		cases := []struct {
			name   string
			second bool // waiter on another client and Locker (another server)
			take   func(l *Locker, wait time.Duration) (*Hold, error)
		}{
			{"reentrant", false, func(l *Locker, wait time.Duration) (*Hold, error) {
				return l.Reentrant("wake-r").TryLock(bg, wait, lease)
			}},
			{"reentrant watchdog", false, func(l *Locker, wait time.Duration) (*Hold, error) {
				return l.Reentrant("wake-w").TryLock(bg, wait, 0) // 30 s watchdog lease
			}},
			{"reentrant across lockers", true, func(l *Locker, wait time.Duration) (*Hold, error) {
				return l.Reentrant("wake-x").TryLock(bg, wait, lease)
			}},
			{"simple", false, func(l *Locker, wait time.Duration) (*Hold, error) {
				return l.Simple("wake-s").TryLock(bg, wait, lease)
			}},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				holderL := newLocker(t, b.Client, b.Prefix)
				waiterL := holderL
				if tc.second {
					waiterL = newLocker(t, secondClient(t, b), b.Prefix)
				}
				h := must[*Hold](t)(tc.take(holderL, 0))
				got := make(chan error, 1)
				go func() {
					w, err := tc.take(waiterL, wait)
					if err == nil {
						err = w.Unlock(bg)
					}
					got <- err
				}()
				channel := holderL.keys(h.Name()).channel
				testenv.Eventually(t, 10*time.Second, "waiter parked", func() bool { return parked(waiterL, channel) > 0 })
				if err := h.Unlock(bg); err != nil {
					t.Fatal(err)
				}
				if err := within(t, 2*wait, "waiter", got); err != nil {
					t.Fatalf("waiter not woken by the release: %v", err)
				}
			})
		}
	})
}

// A waiter whose wait runs out gets ErrNotAcquired, and one whose context
// ends gets the context's error; neither leaves a subscription behind.
func TestWaitEnds(t *testing.T) {
	testenv.ForEachRedis(t, func(t *testing.T, b testenv.RedisBackend) {
		bg := context.Background()
		l := newLocker(t, b.Client, b.Prefix)
		r := l.Reentrant("busy")
		h := must[*Hold](t)(r.TryLock(bg, 0, time.Minute))
		defer func() { _ = h.Unlock(bg) }()

		_, err := r.TryLock(bg, 200*time.Millisecond, 0)
		mustNotAcquired(t, err)

		ctx, cancel := context.WithTimeout(bg, 200*time.Millisecond)
		defer cancel()
		_, err = r.TryLock(ctx, time.Minute, 0)
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("got %v, want the caller's context error", err)
		}
		l.sub.mu.Lock()
		n := len(l.sub.live)
		l.sub.mu.Unlock()
		if n != 0 {
			t.Fatalf("%d channels still subscribed", n)
		}
	})
}
