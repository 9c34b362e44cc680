package rediscache

import (
	"context"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/hmdp/hmdp/internal/testenv"
)

// 500 concurrent reads of a cold key, split over two instances (each its own
// singleflight) sharing Redis: one load in total, every answer the same.
func TestMutexColdKeyStampedeLoadsOnce(t *testing.T) {
	testenv.ForEachRedis(t, func(t *testing.T, b testenv.RedisBackend) {
		src := newSource(10)
		src.delay = 50 * time.Millisecond
		reg := prometheus.NewRegistry()
		a := newCache(t, b, reg, src, nil)
		c := newCache(t, b, prometheus.NewRegistry(), src, nil)
		ctx := context.Background()
		var wg sync.WaitGroup
		got := make([]item, 500)
		errs := make([]error, 500)
		start := make(chan struct{})
		for i := range 500 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				inst := a
				if i%2 == 1 {
					inst = c
				}
				var found bool
				got[i], found, errs[i] = inst.Get(ctx, 7)
				if !found && errs[i] == nil {
					t.Errorf("reader %d: not found", i)
				}
			}()
		}
		close(start)
		wg.Wait()
		for i := range got {
			if errs[i] != nil {
				t.Fatalf("reader %d: %v", i, errs[i])
			}
			if got[i] != (item{ID: 7, Name: "item 7"}) {
				t.Fatalf("reader %d got %+v", i, got[i])
			}
		}
		if n := src.loads.Load(); n != 1 {
			t.Fatalf("loads = %d, want exactly 1", n)
		}
		if v, _, _ := a.Get(ctx, 7); v.Name != "item 7" {
			t.Fatal(v)
		}
		if h := requests(reg, ResultHit); h < 1 {
			t.Fatalf("hit counter %v after a warm read", h)
		}
		if ttl := b.Client.TTL(ctx, a.Key(7)).Val(); ttl < 27*time.Minute || ttl > 33*time.Minute {
			t.Fatalf("ttl %v, want 30 min ±10%%", ttl)
		}
	})
}

// 1000 reads of an id that does not exist: one load, then null markers.
func TestMissingIDCachedAsNull(t *testing.T) {
	testenv.ForEachRedis(t, func(t *testing.T, b testenv.RedisBackend) {
		src := newSource(10)
		reg := prometheus.NewRegistry()
		c := newCache(t, b, reg, src, nil)
		ctx := context.Background()
		var wg sync.WaitGroup
		for range 10 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for range 100 {
					if _, found, err := c.Get(ctx, 4242); err != nil || found {
						t.Errorf("found=%v err=%v", found, err)
						return
					}
				}
			}()
		}
		wg.Wait()
		if n := src.loads.Load(); n != 1 {
			t.Fatalf("loads = %d, want 1", n)
		}
		if nh := requests(reg, ResultNullHit); nh < 900 {
			t.Fatalf("null hits %v", nh)
		}
		if ttl := b.Client.TTL(ctx, c.Key(4242)).Val(); ttl < 108*time.Second || ttl > 132*time.Second {
			t.Fatalf("null marker ttl %v, want 2 min ±10%%", ttl)
		}
		// Once the row appears and the key is invalidated, it is read.
		src.set(item{ID: 4242, Name: "new"})
		if err := c.Invalidate(ctx, 4242); err != nil {
			t.Fatal(err)
		}
		if v, found, _ := c.Get(ctx, 4242); !found || v.Name != "new" {
			t.Fatalf("after invalidate: %+v %v", v, found)
		}
	})
}

// With the Bloom filter filled, reads of absent ids reach neither Redis's
// value keys nor the loader; present ids still load; a lost bitmap answers
// "maybe" and refills itself.
func TestBloomFilterRejectsUnknownIDs(t *testing.T) {
	testenv.ForEachRedis(t, func(t *testing.T, b testenv.RedisBackend) {
		src := newSource(100)
		bloom := NewBloom(b.Client, b.Prefix, "item", BloomConfig{Expected: 1000}, func(ctx context.Context, add func(...string) error) error {
			ids := make([]string, 0, 100)
			for i := 1; i <= 100; i++ {
				ids = append(ids, strconv.Itoa(i))
			}
			return add(ids...)
		})
		if bloom.Hashes() < 5 {
			t.Fatalf("hashes %d", bloom.Hashes())
		}
		reg := prometheus.NewRegistry()
		c := newCache(t, b, reg, src, func(cfg *Config) { cfg.Bloom = bloom })
		ctx := context.Background()
		if err := bloom.Fill(ctx); err != nil {
			t.Fatal(err)
		}
		rejected := 0
		for id := int64(1000); id < 2000; id++ {
			if _, found, err := c.Get(ctx, id); err != nil || found {
				t.Fatal(found, err)
			}
		}
		rejected = int(requests(reg, ResultRejected))
		// 1% false positives at 1000 ids; with 100 the rate is far lower.
		if rejected < 990 {
			t.Fatalf("rejected %d of 1000", rejected)
		}
		if n := src.loads.Load(); n != int64(1000-rejected) {
			t.Fatalf("loads %d, want %d (the false positives only)", n, 1000-rejected)
		}
		for id := int64(1); id <= 100; id++ {
			if _, found, err := c.Get(ctx, id); err != nil || !found {
				t.Fatalf("id %d: found=%v err=%v (a Bloom filter must not have false negatives)", id, found, err)
			}
		}
		// Redis loses the filter: reads still work, and it is rebuilt.
		b.Client.Del(ctx, b.Prefix+"bloom:{item}", b.Prefix+"bloom:{item}:ready")
		if _, found, _ := c.Get(ctx, 5); !found {
			t.Fatal("id 5 lost with the bitmap")
		}
		bloom.Wait()
		if ok, _ := bloom.MightContain(ctx, "1500"); ok {
			t.Fatal("refilled filter should reject 1500")
		}
		if ok, _ := bloom.MightContain(ctx, "50"); !ok {
			t.Fatal("refilled filter lost 50")
		}
		// A new id is added on create.
		if err := bloom.Add(ctx, "777"); err != nil {
			t.Fatal(err)
		}
		if ok, _ := bloom.MightContain(ctx, "777"); !ok {
			t.Fatal("added id rejected")
		}
	})
}

// Logical expiry: after expiry, 200 concurrent readers on two instances get
// the stale value at once (while the rebuild is still blocked), and exactly
// one rebuild happens.
func TestLogicalExpiryServesStaleAndRebuildsOnce(t *testing.T) {
	testenv.ForEachRedis(t, func(t *testing.T, b testenv.RedisBackend) {
		src := newSource(3)
		clk := &clock{now: time.Now()}
		reg := prometheus.NewRegistry()
		edit := func(cfg *Config) {
			cfg.Strategy = LogicalExpiry
			cfg.TTL = time.Minute
			cfg.Now = clk.Now
		}
		a := newCache(t, b, reg, src, edit)
		c := newCache(t, b, prometheus.NewRegistry(), src, edit)
		ctx := context.Background()
		if err := a.Preload(ctx, 1); err != nil {
			t.Fatal(err)
		}
		src.loads.Store(0)
		// Fresh: hits, no load.
		if v, _, _ := c.Get(ctx, 1); v.Name != "item 1" {
			t.Fatal(v)
		}
		src.set(item{ID: 1, Name: "renamed"})
		clk.Add(2 * time.Minute)
		src.gate = make(chan struct{})
		var wg sync.WaitGroup
		for i := range 200 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				inst := a
				if i%2 == 1 {
					inst = c
				}
				v, found, err := inst.Get(ctx, 1)
				if err != nil || !found || v.Name != "item 1" {
					t.Errorf("reader %d: %+v %v %v (want the stale value)", i, v, found, err)
				}
			}()
		}
		wg.Wait() // returned although every load is blocked on the gate
		if s := requests(reg, ResultStale); s < 1 {
			t.Fatalf("stale counter %v", s)
		}
		close(src.gate)
		testenv.Eventually(t, 5*time.Second, "rebuilt value", func() bool {
			v, _, _ := a.Get(ctx, 1)
			return v.Name == "renamed"
		})
		_ = a.Close()
		_ = c.Close()
		if n := src.loads.Load(); n != 1 {
			t.Fatalf("rebuilds = %d, want exactly 1", n)
		}
		if ttl := b.Client.TTL(ctx, a.Key(1)).Val(); ttl <= time.Hour {
			t.Fatalf("key ttl %v: the value must outlive its logical expiry", ttl)
		}
	})
}

// Jitter: TTLs of 1000 cached rows are spread over ±10%, not all equal.
func TestTTLJitterSpreadsExpiry(t *testing.T) {
	testenv.ForEachRedis(t, func(t *testing.T, b testenv.RedisBackend) {
		src := newSource(1000)
		c := newCache(t, b, prometheus.NewRegistry(), src, func(cfg *Config) { cfg.TTL = 1000 * time.Second })
		ctx := context.Background()
		ids := make([]int64, 1000)
		for i := range ids {
			ids[i] = int64(i + 1)
		}
		if err := c.Preload(ctx, ids...); err != nil {
			t.Fatal(err)
		}
		pipe := b.Client.Pipeline()
		cmds := make([]interface{ Val() time.Duration }, len(ids))
		for i, id := range ids {
			cmds[i] = pipe.PTTL(ctx, c.Key(id))
		}
		if _, err := pipe.Exec(ctx); err != nil {
			t.Fatal(err)
		}
		lo, hi := time.Hour, time.Duration(0)
		distinct := map[time.Duration]bool{}
		below, above := 0, 0
		for _, cmd := range cmds {
			d := cmd.Val().Round(time.Second)
			lo, hi = min(lo, d), max(hi, d)
			distinct[d] = true
			if d < 1000*time.Second {
				below++
			} else if d > 1000*time.Second {
				above++
			}
		}
		if lo < 900*time.Second || hi > 1100*time.Second {
			t.Fatalf("ttls in [%v, %v], want within 1000s ±10%%", lo, hi)
		}
		if len(distinct) < 50 || hi-lo < 150*time.Second || below < 300 || above < 300 {
			t.Fatalf("ttls not spread: %d distinct in [%v, %v], %d below and %d above", len(distinct), lo, hi, below, above)
		}
	})
}
