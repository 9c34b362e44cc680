package idgen

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/hmdp/hmdp/internal/testenv"
)

// Many generators (instances) with many goroutines each never repeat an id,
// and the layout is timestamp << 32 | sequence.
func TestUniqueAcrossInstancesConcurrently(t *testing.T) {
	testenv.ForEachRedis(t, func(t *testing.T, b testenv.RedisBackend) {
		const instances, workers, each = 4, 8, 500
		var mu sync.Mutex
		seen := make(map[int64]bool, instances*workers*each)
		var wg sync.WaitGroup
		for i := range instances {
			g := New(b.Client, b.Prefix, "order", int64(37+i)) // odd segment sizes: boundaries everywhere
			for range workers {
				wg.Go(func() {
					ids := make([]int64, 0, each)
					for range each {
						id, err := g.Next(context.Background())
						if err != nil {
							t.Error(err)
							return
						}
						ids = append(ids, id)
					}
					mu.Lock()
					defer mu.Unlock()
					for _, id := range ids {
						if seen[id] {
							t.Errorf("duplicate id %d", id)
						}
						seen[id] = true
					}
				})
			}
		}
		wg.Wait()
		if len(seen) != instances*workers*each {
			t.Fatalf("got %d ids", len(seen))
		}
		for id := range seen {
			if id <= 0 {
				t.Fatalf("id %d not positive", id)
			}
			if d := time.Since(Time(id)); d < -time.Second || d > time.Minute {
				t.Fatalf("id %d carries time %s", id, Time(id))
			}
		}
	})
}

// A restarted instance (a new Generator) continues after what earlier ones
// reserved: the sequence lives in Redis, not in the process.
func TestUniqueAcrossRestarts(t *testing.T) {
	testenv.ForEachRedis(t, func(t *testing.T, b testenv.RedisBackend) {
		fixed := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
		seen := map[int64]bool{}
		for range 3 {
			g := New(b.Client, b.Prefix, "order", 10)
			g.Now = func() time.Time { return fixed } // same second: only the sequence differs
			for range 15 {
				id, err := g.Next(context.Background())
				if err != nil {
					t.Fatal(err)
				}
				if seen[id] {
					t.Fatalf("duplicate id %d after restart", id)
				}
				seen[id] = true
				if id>>32 != fixed.Unix()-Epoch.Unix() {
					t.Fatalf("timestamp part %d", id>>32)
				}
			}
		}
		// 3 generators each reserved 2 segments of 10: the counter is at 60.
		n, err := b.Client.Get(context.Background(), New(b.Client, b.Prefix, "order", 10).Key("2026:11:22")).Int64()
		if err != nil || n != 60 {
			t.Fatalf("counter %d, %v", n, err)
		}
	})
}

// At midnight the rest of yesterday's segment is dropped and the new day's
// counter is used, so yesterday's numbers never pair with today's seconds.
func TestNewDayTakesNewSegment(t *testing.T) {
	testenv.ForEachRedis(t, func(t *testing.T, b testenv.RedisBackend) {
		now := time.Date(2026, 11, 22, 23, 59, 59, 0, time.UTC)
		g := New(b.Client, b.Prefix, "order", 100)
		g.Now = func() time.Time { return now }
		a, err := g.Next(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		now = now.Add(time.Second)
		c, err := g.Next(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if a&maxSeq != 1 || c&maxSeq != 1 {
			t.Fatalf("sequences %d and %d, want 1 and 1 (new day's counter)", a&maxSeq, c&maxSeq)
		}
		if c>>32 != a>>32+1 {
			t.Fatal("timestamp part did not advance")
		}
		if ttl := b.Client.TTL(context.Background(), g.Key("2026:11:23")).Val(); ttl <= 0 {
			t.Fatalf("counter has no expiry: %s", ttl)
		}
	})
}
