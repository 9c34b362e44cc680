package lock

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/hmdp/hmdp/internal/testenv"
)

func TestWithLock(t *testing.T) {
	testenv.ForEachRedis(t, func(t *testing.T, b testenv.RedisBackend) {
		bg := context.Background()
		l := newLocker(t, b.Client, b.Prefix)
		key := b.Key("lock:{load}")
		boom := errors.New("boom")

		err := l.WithLock(bg, "load", time.Second, func(ctx context.Context) error {
			if b.Client.Exists(ctx, key).Val() != 1 {
				t.Error("fn ran without the lock")
			}
			// A nested WithLock with fn's context re-enters instead of deadlocking.
			return l.WithLock(ctx, "load", 0, func(context.Context) error { return boom })
		})
		if !errors.Is(err, boom) {
			t.Fatalf("got %v, want fn's error", err)
		}
		if b.Client.Exists(bg, key).Val() != 0 {
			t.Fatal("lock not released after fn")
		}

		h := must[*Hold](t)(l.Reentrant("load").TryLock(bg, 0, time.Minute))
		defer func() { _ = h.Unlock(bg) }()
		ran := false
		err = l.WithLock(bg, "load", 100*time.Millisecond, func(context.Context) error { ran = true; return nil })
		mustNotAcquired(t, err)
		if ran {
			t.Fatal("fn ran while another owner held the lock")
		}
	})
}
