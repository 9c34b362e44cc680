package shop

import (
	"context"
	"sync"
	"testing"
	"time"
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
		for day, want := range map[string]int64{"20260610": 1, "20260611": 1} {
			k := e.redis.Prefix + "uv:shop:5:" + day
			if n, err := e.redis.Client.PFCount(ctx, k).Result(); err != nil || n != want {
				t.Fatalf("%s: %d %v, want %d", k, n, err, want)
			}
		}
	})
}
