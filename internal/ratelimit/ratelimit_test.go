package ratelimit

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hmdp/hmdp/internal/testenv"
)

func TestBurstThenRefill(t *testing.T) {
	testenv.ForEachRedis(t, func(t *testing.T, b testenv.RedisBackend) {
		ctx := context.Background()
		l := New(b.Client, b.Prefix, true)
		// Let time pass: the embedded Redis's clock moves; a real Redis's
		// cannot, so there the test-only Now override stands in for it.
		now := time.Now()
		advance := func(d time.Duration) {
			now = now.Add(d)
			if b.Mini != nil {
				b.Mini.SetTime(now)
			}
		}
		if b.Mini != nil {
			b.Mini.SetTime(now)
		} else {
			l.Now = func() time.Time { return now }
		}
		lim := Limit{Events: 3, Per: time.Minute}
		for i := range 3 {
			r, err := l.Allow(ctx, "k", lim)
			if err != nil || !r.Allowed {
				t.Fatalf("event %d: %+v %v", i, r, err)
			}
		}
		r, err := l.Allow(ctx, "k", lim)
		if err != nil || r.Allowed {
			t.Fatalf("4th event allowed: %+v %v", r, err)
		}
		if r.RetryAfter != 20*time.Second {
			t.Fatalf("retry after %v, want 20s (one interval)", r.RetryAfter)
		}
		// another key is independent
		if r, _ := l.Allow(ctx, "other", lim); !r.Allowed {
			t.Fatal("independent key limited")
		}
		advance(20 * time.Second)
		if r, _ := l.Allow(ctx, "k", lim); !r.Allowed {
			t.Fatal("not allowed after one interval")
		}
		if r, _ := l.Allow(ctx, "k", lim); r.Allowed {
			t.Fatal("allowed twice after one interval")
		}
	})
}

// The script decides by Redis's clock, not the caller's: on the embedded
// Redis, set decades away from the test's own clock, the arrival time
// written and the refill follow Redis's time alone; on a real one, the
// arrival time written lies within the Redis TIME read around the call.
func TestDecidesByRedisClock(t *testing.T) {
	testenv.ForEachRedis(t, func(t *testing.T, b testenv.RedisBackend) {
		ctx := context.Background()
		redisNow := func() int64 { return b.Client.Time(ctx).Val().UnixMilli() }
		if b.Mini != nil {
			b.Mini.SetTime(time.Date(2001, 2, 3, 4, 5, 6, 0, time.UTC))
		}
		l := New(b.Client, b.Prefix, true)
		lim := Limit{Events: 1, Per: time.Hour}
		before := redisNow()
		if r, err := l.Allow(ctx, "k", lim); err != nil || !r.Allowed {
			t.Fatalf("first event: %+v %v", r, err)
		}
		after := redisNow()
		tat, err := b.Client.Get(ctx, b.Prefix+"rl:k").Int64()
		if err != nil {
			t.Fatal(err)
		}
		hour := time.Hour.Milliseconds()
		if tat < before+hour || tat > after+hour {
			t.Fatalf("arrival time %d written, want Redis time + 1h in [%d, %d]", tat, before+hour, after+hour)
		}
		if b.Mini == nil {
			return
		}
		// Two "instances" agree whatever their own clocks: neither has one.
		other := New(b.Client, b.Prefix, true)
		if r, _ := other.Allow(ctx, "k", lim); r.Allowed || r.RetryAfter != time.Hour {
			t.Fatalf("second event on another instance: %+v, want limited for 1h", r)
		}
		// An hour later by Redis's clock (the test's has barely moved).
		b.Mini.SetTime(time.Date(2001, 2, 3, 5, 5, 6, 0, time.UTC))
		if r, _ := other.Allow(ctx, "k", lim); !r.Allowed {
			t.Fatalf("not allowed an hour later by Redis's clock: %+v", r)
		}
	})
}

// Many goroutines racing for one key get exactly the burst: the check and the
// update are one script.
func TestConcurrentExactlyBurst(t *testing.T) {
	testenv.ForEachRedis(t, func(t *testing.T, b testenv.RedisBackend) {
		l := New(b.Client, b.Prefix, true)
		lim := Limit{Events: 30, Per: time.Hour}
		var ok atomic.Int64
		var wg sync.WaitGroup
		for range 200 {
			wg.Go(func() {
				r, err := l.Allow(context.Background(), "ip", lim)
				if err != nil {
					t.Error(err)
				}
				if r.Allowed {
					ok.Add(1)
				}
			})
		}
		wg.Wait()
		if ok.Load() != 30 {
			t.Fatalf("allowed %d, want 30", ok.Load())
		}
	})
}

func TestDisabled(t *testing.T) {
	b := testenv.NewEmbeddedRedis(t)
	l := New(b.Client, b.Prefix, false)
	for range 10 {
		if r, _ := l.Allow(context.Background(), "k", Limit{Events: 1, Per: time.Hour}); !r.Allowed {
			t.Fatal("disabled limiter limited")
		}
	}
}

// AllowAll counts an event against every limit or against none: once one
// key refuses, the others keep their allowance, however many refused
// attempts come; the refusal names the key that frees up last.
func TestAllowAllCountsNothingWhenRefused(t *testing.T) {
	testenv.ForEachRedis(t, func(t *testing.T, b testenv.RedisBackend) {
		ctx := context.Background()
		l := New(b.Client, b.Prefix, true)
		now := time.Now()
		if b.Mini != nil {
			b.Mini.SetTime(now)
		} else {
			l.Now = func() time.Time { return now }
		}
		addr := Check{Key: "{t}:addr", Limit: Limit{Events: 2, Per: time.Hour}}
		phone := func(p string) Check {
			return Check{Key: "{t}:phone:" + p, Limit: Limit{Events: 3, Per: 24 * time.Hour}}
		}
		for i := range 2 {
			if r, refused, err := l.AllowAll(ctx, phone("a"), addr); err != nil || !r.Allowed || refused != -1 {
				t.Fatalf("event %d: %+v %d %v", i, r, refused, err)
			}
		}
		// The address is spent: 50 more attempts against another phone
		// are refused by the address and count against nothing.
		for range 50 {
			r, refused, err := l.AllowAll(ctx, phone("victim"), addr)
			if err != nil || r.Allowed || refused != 1 || r.RetryAfter != 30*time.Minute {
				t.Fatalf("over the address's limit: %+v refused %d %v, want refused by index 1 for 30m", r, refused, err)
			}
		}
		if n, _ := b.Client.Exists(ctx, b.Prefix+"rl:{t}:phone:victim").Result(); n != 0 {
			t.Fatal("a refused event wrote the victim's key")
		}
		other := Check{Key: "{t}:addr2", Limit: Limit{Events: 10, Per: time.Hour}}
		for i := range 3 {
			if r, _, err := l.AllowAll(ctx, phone("victim"), other); err != nil || !r.Allowed {
				t.Fatalf("victim's event %d from another address: %+v %v", i, r, err)
			}
		}
		// Refused by both: the one that frees up last is named.
		r, refused, _ := l.AllowAll(ctx, phone("victim"), addr)
		if r.Allowed || refused != 0 || r.RetryAfter != 8*time.Hour {
			t.Fatalf("refused by both: %+v refused %d, want index 0 for 8h", r, refused)
		}
	})
}
