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
		now := time.Now()
		l.Now = func() time.Time { return now }
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
		now = now.Add(20 * time.Second)
		if r, _ := l.Allow(ctx, "k", lim); !r.Allowed {
			t.Fatal("not allowed after one interval")
		}
		if r, _ := l.Allow(ctx, "k", lim); r.Allowed {
			t.Fatal("allowed twice after one interval")
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
