package shop

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/hmdp/hmdp/ent"
	"github.com/hmdp/hmdp/internal/testenv"
)

// 500 concurrent shop(id) reads of a cold key, on two instances sharing
// Redis and MySQL: exactly one MySQL load, and all 500 answers equal.
func TestColdShopStampedeLoadsOnceAcrossInstances(t *testing.T) {
	forEach(t, func(t *testing.T, e env) {
		a, b := e.instance(t, nil), e.instance(t, nil)
		ctx := context.Background()
		e.q.byID.Store(0)
		var wg sync.WaitGroup
		got := make([]*ent.Shop, 500)
		start := make(chan struct{})
		for i := range got {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				s := a
				if i%2 == 1 {
					s = b
				}
				sh, err := s.Get(ctx, 3)
				if err != nil {
					t.Error(err)
				}
				got[i] = sh
			}()
		}
		close(start)
		wg.Wait()
		if n := e.q.byID.Load(); n != 1 {
			t.Fatalf("MySQL loads of shop 3: %d, want exactly 1", n)
		}
		for i, sh := range got {
			if sh == nil || sh.ID != 3 || sh.Name != got[0].Name || sh.X != got[0].X || sh.Address != got[0].Address {
				t.Fatalf("answer %d differs: %+v vs %+v", i, sh, got[0])
			}
		}
		if got[0].Name != "新白鹿餐厅(运河上街店)" {
			t.Fatalf("shop 3: %q", got[0].Name)
		}
	})
}

// 1000 reads of an id that does not exist: none reach MySQL once the Bloom
// filter is filled; with the filter lost, at most one does (the null value
// answers the others while the filter refills).
func TestMissingShopReads(t *testing.T) {
	forEach(t, func(t *testing.T, e env) {
		s := e.instance(t, func(c *Config) { c.NearTTL = 0 })
		ctx := context.Background()
		e.q.byID.Store(0)
		readMany := func(id int64) {
			var wg sync.WaitGroup
			for range 10 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for range 100 {
						if sh, err := s.Get(ctx, id); err != nil || sh != nil {
							t.Errorf("shop %d: %v %v", id, sh, err)
							return
						}
					}
				}()
			}
			wg.Wait()
		}
		readMany(999_999)
		if n := e.q.byID.Load(); n != 0 {
			t.Fatalf("with the Bloom filter: %d MySQL loads, want 0", n)
		}
		e.redis.Client.Del(ctx, e.redis.Prefix+"bloom:{shop}", e.redis.Prefix+"bloom:{shop}:ready")
		readMany(888_888)
		if n := e.q.byID.Load(); n > 1 {
			t.Fatalf("without the Bloom filter: %d MySQL loads, want at most 1", n)
		}
		s.bloom.Wait()
		if sh, err := s.Get(ctx, 14); err != nil || sh == nil {
			t.Fatalf("existing shop after the refill: %v %v", sh, err)
		}
	})
}

// updateShop on one instance is seen on the other at once, although both
// hold the shop in near caches that live an hour: Pub/Sub invalidated them.
func TestUpdateVisibleOnBothInstances(t *testing.T) {
	forEach(t, func(t *testing.T, e env) {
		edit := func(c *Config) { c.NearTTL = time.Hour }
		a, b := e.instance(t, edit), e.instance(t, edit)
		ctx := context.Background()
		for _, s := range []*Service{a, b} {
			if sh, _ := s.Get(ctx, 1); sh.Name != "103茶餐厅" {
				t.Fatal(sh.Name)
			}
		}
		if _, err := a.Update(asAdmin(ctx), 1, UpdateInput{Name: ptr("103茶餐厅 new"), AvgPrice: ptr(int64(99))}); err != nil {
			t.Fatal(err)
		}
		if sh, _ := a.Get(ctx, 1); sh.Name != "103茶餐厅 new" || sh.AvgPrice != 99 {
			t.Fatalf("writer: %+v", sh)
		}
		testenv.Eventually(t, 2*time.Second, "the other instance sees the update", func() bool {
			sh, _ := b.Get(ctx, 1)
			return sh.Name == "103茶餐厅 new" && sh.AvgPrice == 99
		})
		if n, _ := a.Outbox().Pending(ctx); n != 0 {
			t.Fatalf("outbox rows left: %d", n)
		}
	})
}

// The cache delete after an update fails: the update still succeeds, the
// old value is served until the outbox's retry deletes the key, then the new one.
func TestFailedShopCacheDeleteIsRetried(t *testing.T) {
	forEach(t, func(t *testing.T, e env) {
		s := e.instance(t, func(c *Config) { c.NearTTL = 0 })
		ctx := context.Background()
		if sh, _ := s.Get(ctx, 2); sh == nil {
			t.Fatal("no shop 2")
		}
		hook := &testenv.Fail{Name: "del", Key: s.Cache().Key(2)}
		hook.Arm(1)
		e.redis.Client.AddHook(hook)
		if _, err := s.Update(asAdmin(ctx), 2, UpdateInput{Name: ptr("renamed")}); err != nil {
			t.Fatalf("the update must succeed although the cache delete failed: %v", err)
		}
		if hook.Remaining() > 0 {
			t.Fatal("the injected failure was not hit")
		}
		testenv.Eventually(t, 10*time.Second, "retried delete", func() bool {
			sh, _ := s.Get(ctx, 2)
			return sh != nil && sh.Name == "renamed"
		})
		testenv.Eventually(t, 5*time.Second, "outbox drained", func() bool { n, _ := s.Outbox().Pending(ctx); return n == 0 })
	})
}

// shopTypes is one cached list: after the first read, no query.
func TestShopTypesCachedAsOneList(t *testing.T) {
	forEach(t, func(t *testing.T, e env) {
		s := e.instance(t, func(c *Config) { c.NearTTL = 0 })
		ctx := context.Background()
		ts, err := s.Types(ctx)
		if err != nil || len(ts) != 10 {
			t.Fatalf("%d types, %v", len(ts), err)
		}
		for i := 1; i < len(ts); i++ {
			if ts[i-1].Sort > ts[i].Sort {
				t.Fatal("not ordered by sort")
			}
		}
		e.q.types.Store(0) // not all: the outbox polls its table meanwhile
		for range 50 {
			if t2, _ := s.Type(ctx, ts[3].ID); t2.Name != ts[3].Name {
				t.Fatal(t2)
			}
		}
		if n := e.q.types.Load(); n != 0 {
			t.Fatalf("%d queries for cached types", n)
		}
		if n := e.redis.Client.Exists(ctx, e.redis.Prefix+"cache:shop_type:all").Val(); n != 1 {
			t.Fatal("type list not cached in Redis")
		}
	})
}

// Jitter: the TTLs of 1000 cached shops are spread over ±10% of 30 min, not
// all equal, so shops cached together do not expire together.
func TestCachedShopTTLsAreSpread(t *testing.T) {
	forEach(t, func(t *testing.T, e env) {
		s := e.instance(t, func(c *Config) { c.NearTTL = 0 })
		ctx := context.Background()
		bulk := make([]*ent.ShopCreate, 1000)
		for i := range bulk {
			bulk[i] = e.db.Client.Shop.Create().SetName("bulk").SetTypeID(1).SetAddress("a").SetX(120).SetY(30)
		}
		made, err := e.db.Client.Shop.CreateBulk(bulk...).Save(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.bloom.Fill(ctx); err != nil { // as at start-up: rows were inserted behind the service's back
			t.Fatal(err)
		}
		cached := time.Now() // TTLs run down from here until they are read
		var wg sync.WaitGroup
		for w := range 20 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := w; i < len(made); i += 20 {
					if got, err := s.Get(ctx, made[i].ID); err != nil || got == nil {
						t.Errorf("shop %d: %v %v", made[i].ID, got, err)
						return
					}
				}
			}()
		}
		wg.Wait()
		pipe := e.redis.Client.Pipeline()
		cmds := make([]*redis.DurationCmd, len(made))
		for i, sh := range made {
			cmds[i] = pipe.PTTL(ctx, s.Cache().Key(sh.ID))
		}
		if _, err := pipe.Exec(ctx); err != nil {
			t.Fatal(err)
		}
		distinct := map[time.Duration]bool{}
		lo, hi := time.Hour, time.Duration(0)
		for _, c := range cmds {
			d := c.Val().Round(time.Second)
			distinct[d] = true
			lo, hi = min(lo, d), max(hi, d)
		}
		if elapsed := time.Since(cached); lo < 27*time.Minute-elapsed-time.Second || hi > 33*time.Minute {
			t.Fatalf("TTLs in [%v, %v], want 30 min ±10%%", lo, hi)
		}
		if len(distinct) < 100 || hi-lo < 4*time.Minute {
			t.Fatalf("TTLs not spread: %d distinct values in [%v, %v]", len(distinct), lo, hi)
		}
	})
}
