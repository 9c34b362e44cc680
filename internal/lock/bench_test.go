package lock

import (
	"context"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hmdp/hmdp/internal/testenv"
)

// BenchmarkLock measures uncontended lock+unlock pairs per second for the
// simple and reentrant locks against the bare commands they build on (SET NX
// PX + DEL), in one run at one concurrency, on real Redis when
// HMDP_TEST_REDIS_ADDR is set, else on the embedded one. Each goroutine
// locks its own name, so this is the per-pair overhead, not contention.
func BenchmarkLock(b *testing.B) {
	be := benchRedis(b)
	l := New(be.Client, be.Prefix)
	defer l.Close()
	ctx := context.Background()
	var seq atomic.Int64
	name := func() string { return "bench" + strconv.FormatInt(seq.Add(1), 10) }
	const ttl = 10 * time.Second

	run := func(b *testing.B, pair func(name string) error) {
		b.Helper()
		b.SetParallelism(4) // 4 × GOMAXPROCS goroutines, the same for every case
		b.ResetTimer()
		b.RunParallel(func(pb *testing.PB) {
			n := name()
			for pb.Next() {
				if err := pair(n); err != nil {
					b.Error(err)
					return
				}
			}
		})
		b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "pairs/s")
	}
	b.Run("bare_setnx_del", func(b *testing.B) {
		run(b, func(n string) error {
			k := l.keys(n).lock
			if _, err := setNX(ctx, l.client, k, "v", ttl); err != nil {
				return err
			}
			return l.client.Del(ctx, k).Err()
		})
	})
	b.Run("simple", func(b *testing.B) {
		run(b, func(n string) error {
			h, err := l.Simple(n).TryLock(ctx, 0, ttl)
			if err != nil {
				return err
			}
			return h.Unlock(ctx)
		})
	})
	b.Run("reentrant_lease", func(b *testing.B) {
		run(b, func(n string) error {
			h, err := l.Reentrant(n).TryLock(ctx, 0, ttl)
			if err != nil {
				return err
			}
			return h.Unlock(ctx)
		})
	})
	b.Run("reentrant_watchdog", func(b *testing.B) {
		run(b, func(n string) error {
			h, err := l.Reentrant(n).TryLock(ctx, 0, 0)
			if err != nil {
				return err
			}
			return h.Unlock(ctx)
		})
	})
}

func benchRedis(b *testing.B) testenv.RedisBackend {
	b.Helper()
	if testenv.RealRedisAddr() != "" {
		return testenv.NewRealRedis(b)
	}
	return testenv.NewEmbeddedRedis(b)
}
