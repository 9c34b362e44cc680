package lock

import (
	"context"
	"errors"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/hmdp/hmdp/internal/testenv"
)

// lockFunc takes a lock for goroutine g.
type lockFunc func(ctx context.Context, g int) (*Hold, error)

// hammer has 50 goroutines add 1 twenty times each to a Redis counter by a
// plain GET then SET, which loses updates unless the lock serialises them.
// The counter ends at exactly 1000 only if no two holders ever overlapped.
func hammer(t *testing.T, c redis.UniversalClient, counter string, lock lockFunc) {
	t.Helper()
	const goroutines, rounds = 50, 20
	ctx := context.Background()
	var wg sync.WaitGroup
	errs := make(chan error, goroutines)
	for g := range goroutines {
		wg.Go(func() {
			for range rounds {
				h, err := lock(ctx, g)
				if err != nil {
					errs <- err
					return
				}
				n, err := c.Get(ctx, counter).Int()
				if err != nil && !errors.Is(err, redis.Nil) {
					errs <- err
					return
				}
				runtime.Gosched() // widen the read-modify-write window
				if err := c.Set(ctx, counter, n+1, 0).Err(); err != nil {
					errs <- err
					return
				}
				if err := h.Unlock(ctx); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	if got := must[int](t)(c.Get(ctx, counter).Int()); got != goroutines*rounds {
		t.Fatalf("counter = %d, want %d: two holders overlapped", got, goroutines*rounds)
	}
}

func TestMutualExclusion(t *testing.T) {
	testenv.ForEachRedis(t, func(t *testing.T, b testenv.RedisBackend) {
		const wait = 30 * time.Second // a safety net; contention resolves far sooner
		t.Run("simple", func(t *testing.T) {
			s := newLocker(t, b.Client, b.Prefix).Simple("counter-simple")
			hammer(t, b.Client, b.Key("n-simple"), func(ctx context.Context, _ int) (*Hold, error) {
				return s.TryLock(ctx, wait, 10*time.Second)
			})
		})
		t.Run("reentrant", func(t *testing.T) {
			r := newLocker(t, b.Client, b.Prefix).Reentrant("counter-reentrant")
			hammer(t, b.Client, b.Key("n-reentrant"), func(ctx context.Context, _ int) (*Hold, error) {
				return r.TryLock(ctx, wait, 0)
			})
		})
		t.Run("two lockers", func(t *testing.T) {
			// Two clients and two Lockers, each with its own Pub/Sub listener:
			// two API servers sharing one Redis.
			rs := []*Reentrant{
				newLocker(t, b.Client, b.Prefix).Reentrant("counter-two"),
				newLocker(t, secondClient(t, b), b.Prefix).Reentrant("counter-two"),
			}
			hammer(t, b.Client, b.Key("n-two"), func(ctx context.Context, g int) (*Hold, error) {
				return rs[g%2].TryLock(ctx, wait, 0)
			})
		})
	})
}
