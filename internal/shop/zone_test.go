package shop

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/hmdp/hmdp/internal/testenv"
)

// uvToday counts the configured zone's day, whatever the clock's (or the
// process's) zone: a minute before and a minute after midnight in Shanghai
// (15:59 and 16:01 UTC, one UTC day) are two days, two keys.
func TestUVDayIsTheConfiguredZonesDay(t *testing.T) {
	forEach(t, func(t *testing.T, e env) {
		sh, err := time.LoadLocation("Asia/Shanghai")
		if err != nil {
			t.Fatal(err)
		}
		var mu sync.Mutex
		now := time.Date(2026, 6, 10, 15, 59, 0, 0, time.UTC) // 23:59 in Shanghai
		s := e.instance(t, func(c *Config) {
			c.Location = sh
			c.Now = func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
		})
		ctx := context.Background()
		if _, err := s.View(ctx, 5, Visitor{UserID: 1}); err != nil {
			t.Fatal(err)
		}
		if n, err := s.UVToday(ctx, 5); err != nil || n != 1 {
			t.Fatalf("23:59: %d %v", n, err)
		}
		mu.Lock()
		now = now.Add(2 * time.Minute) // 00:01 on the 11th in Shanghai, still the 10th in UTC
		mu.Unlock()
		if n, err := s.UVToday(ctx, 5); err != nil || n != 0 {
			t.Fatalf("a new day starts at zero: %d %v", n, err)
		}
		if _, err := s.View(ctx, 5, Visitor{UserID: 2}); err != nil {
			t.Fatal(err)
		}
		if n, err := s.UVToday(ctx, 5); err != nil || n != 1 {
			t.Fatalf("00:01: %d %v", n, err)
		}
		// In Redis once flushed (within the flush interval).
		for day, want := range map[string]int64{"20260610": 1, "20260611": 1} {
			k := e.redis.Prefix + "uv:shop:5:" + day
			testenv.Eventually(t, 3*time.Second, k, func() bool {
				n, err := e.redis.Client.PFCount(ctx, k).Result()
				return err == nil && n == want
			})
		}
	})
}

// A shop's count of visitors today is read from Redis at most once per
// flush interval however often it is asked for, and a visitor's own first
// visit shows at once; another instance's visitor shows within two intervals.
func TestUVCountReadFromRedisOncePerInterval(t *testing.T) {
	forEach(t, func(t *testing.T, e env) {
		const every = 2 * time.Second
		s := e.instance(t, func(c *Config) { c.UVFlush = every })
		type counted struct{}
		reads := &testenv.RoundTrips{Match: func(ctx context.Context) bool { return ctx.Value(counted{}) != nil }}
		e.redis.Client.AddHook(reads)
		ctx := context.WithValue(context.Background(), counted{}, true)
		view := func(v Visitor) {
			t.Helper()
			if _, err := s.View(context.Background(), 5, v); err != nil {
				t.Fatal(err)
			}
		}
		uv := func(want int) {
			t.Helper()
			if n, err := s.UVToday(ctx, 5); err != nil || n != want {
				t.Fatalf("uvToday %d %v, want %d", n, err, want)
			}
		}
		view(Visitor{UserID: 1})
		uv(1)
		start, before := time.Now(), reads.N()
		for range 50 {
			view(Visitor{UserID: 1})
			uv(1)
		}
		view(Visitor{UserID: 2})
		uv(2)
		view(Visitor{Address: "10.0.0.1"})
		uv(3)
		// A loaded machine may take longer than an interval: a read per
		// interval passed, each a flush and a count.
		if most := 2 * int64(time.Since(start)/every); reads.N()-before > most {
			t.Fatalf("%d Redis round trips for 52 counts in %v (%v), want at most %d", reads.N()-before, time.Since(start), reads.Since(before), most)
		}
		other := e.instance(t, func(c *Config) { c.UVFlush = every })
		if _, err := other.View(context.Background(), 5, Visitor{UserID: 9}); err != nil {
			t.Fatal(err)
		}
		testenv.Eventually(t, 3*every, "the other instance's visitor", func() bool {
			n, _ := s.UVToday(ctx, 5)
			return n == 4
		})
	})
}
