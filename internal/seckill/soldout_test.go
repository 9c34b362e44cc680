package seckill

import (
	"context"
	"testing"
	"time"

	"github.com/hmdp/hmdp/internal/apperr"
	"github.com/hmdp/hmdp/internal/testenv"
)

// An instance that saw a sale sold out answers so without asking Redis, and
// a unit given back on another instance is on sale on it again at once (the
// TTL here is an hour, so only the announcement can clear it).
func TestSoldOutKnownLocallyUntilReleased(t *testing.T) {
	testenv.ForEachBackend(t, func(t *testing.T, b testenv.Backends) {
		cfg := fast
		cfg.SoldOutTTL = time.Hour
		ctx := context.Background()
		f1, f2 := newService(t, b, cfg), newService(t, b, cfg)
		for _, f := range []*fixture{f1, f2} {
			if err := f.s.FollowReleases(ctx); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = f.s.StopFollowing() })
		}
		v := f1.sale(t, 1, time.Now().Add(-time.Minute), time.Now().Add(time.Hour))
		order1, err := f1.s.Seckill(ctx, 1, v)
		if err != nil {
			t.Fatal(err)
		}
		_, err = f2.s.Seckill(ctx, 2, v)
		wantCode(t, err, apperr.OutOfStock)

		// Units appear behind the instances' backs (no announcement): f2
		// does not ask Redis any more, f1, which never saw it sold out, does.
		k := KeysOf(b.Redis.Prefix, v)
		if err := b.Redis.Client.HSet(ctx, k.State, "stock", 1).Err(); err != nil {
			t.Fatal(err)
		}
		_, err = f2.s.Seckill(ctx, 3, v)
		wantCode(t, err, apperr.OutOfStock)
		if _, err := f1.s.Seckill(ctx, 4, v); err != nil {
			t.Fatalf("f1 asks Redis and finds the unit: %v", err)
		}
		_, err = f1.s.Seckill(ctx, 5, v)
		wantCode(t, err, apperr.OutOfStock)

		// Order 1 cancelled on f1: both instances sell its unit again.
		f1.s.Release(ctx, 1, v, order1)
		testenv.Eventually(t, time.Second, "the released unit is buyable on the other instance", func() bool {
			_, err := f2.s.Seckill(ctx, 6, v)
			return err == nil
		})
		_, err = f1.s.Seckill(ctx, 7, v)
		wantCode(t, err, apperr.OutOfStock)
	})
}

// Without following, the TTL alone bounds how long "sold out" is trusted.
func TestSoldOutForgottenAfterTTL(t *testing.T) {
	testenv.ForEachBackend(t, func(t *testing.T, b testenv.Backends) {
		cfg := fast
		cfg.SoldOutTTL = 200 * time.Millisecond
		ctx := context.Background()
		f := newService(t, b, cfg)
		v := f.sale(t, 0, time.Now().Add(-time.Minute), time.Now().Add(time.Hour))
		_, err := f.s.Seckill(ctx, 1, v)
		wantCode(t, err, apperr.OutOfStock)
		if err := b.Redis.Client.HSet(ctx, KeysOf(b.Redis.Prefix, v).State, "stock", 1).Err(); err != nil {
			t.Fatal(err)
		}
		_, err = f.s.Seckill(ctx, 2, v)
		wantCode(t, err, apperr.OutOfStock)
		time.Sleep(300 * time.Millisecond)
		if _, err := f.s.Seckill(ctx, 2, v); err != nil {
			t.Fatalf("after the TTL: %v", err)
		}
	})
}

// An attempt is one script call: the per-user limit is checked inside
// seckill_admit.lua, not by a call of its own.
func TestAttemptIsOneRedisCommand(t *testing.T) {
	testenv.ForEachBackend(t, func(t *testing.T, b testenv.Backends) {
		f := newService(t, b, fast)
		ctx := context.Background()
		v := f.sale(t, 10, time.Now().Add(-time.Minute), time.Now().Add(time.Hour))
		if _, err := f.s.Seckill(ctx, 1, v); err != nil { // loads the script and an id segment
			t.Fatal(err)
		}
		cmds := &testenv.Commands{}
		b.Redis.Client.AddHook(cmds)
		if _, err := f.s.Seckill(ctx, 2, v); err != nil {
			t.Fatal(err)
		}
		if got := cmds.N(); got != 1 {
			t.Fatalf("%d Redis commands for one attempt, want 1", got)
		}
	})
}
