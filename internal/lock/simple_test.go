package lock

import (
	"context"
	"testing"
	"time"

	"github.com/hmdp/hmdp/internal/testenv"
)

func TestSimpleExcludesAndReleases(t *testing.T) {
	testenv.ForEachRedis(t, func(t *testing.T, b testenv.RedisBackend) {
		ctx := context.Background()
		s := newLocker(t, b.Client, b.Prefix).Simple("s")
		h := must[*Hold](t)(s.TryLock(ctx, 0, time.Minute))
		_, err := s.TryLock(ctx, 0, time.Minute)
		mustNotAcquired(t, err)
		if err := h.Unlock(ctx); err != nil {
			t.Fatal(err)
		}
		if n := b.Client.Exists(ctx, b.Key("lock:{s}")).Val(); n != 0 {
			t.Fatal("unlock left the key behind")
		}
		mustNotHeld(t, h.Unlock(ctx)) // a second unlock is refused, not silently accepted
		h2 := must[*Hold](t)(s.TryLock(ctx, 0, time.Minute))
		if err := h2.Unlock(ctx); err != nil {
			t.Fatal(err)
		}
	})
}

// A holder whose TTL ran out must not delete its successor's lock, and must
// hear about it: Unlock returns a NotHeldError and Lost was closed.
func TestSimpleExpiredHolderCannotUnlockSuccessor(t *testing.T) {
	testenv.ForEachRedis(t, func(t *testing.T, b testenv.RedisBackend) {
		realTime(t, b)
		ctx := context.Background()
		s := newLocker(t, b.Client, b.Prefix).Simple("expiring")
		stale := must[*Hold](t)(s.TryLock(ctx, 0, 300*time.Millisecond))
		within(t, 10*time.Second, "stale holder told", stale.Lost())
		// The successor waits for the key to expire (woken by its TTL fallback).
		next := must[*Hold](t)(s.TryLock(ctx, 10*time.Second, time.Minute))

		mustNotHeld(t, stale.Unlock(ctx))
		if n := b.Client.Exists(ctx, b.Key("lock:{expiring}")).Val(); n != 1 {
			t.Fatal("the stale holder's unlock deleted the successor's lock")
		}
		if next.Context().Err() != nil {
			t.Fatal("successor disturbed")
		}
		if err := next.Unlock(ctx); err != nil {
			t.Fatal(err)
		}
	})
}
