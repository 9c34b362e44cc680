package seckill

import (
	"context"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/hmdp/hmdp/internal/testenv"
)

// manySales creates n open flash sales in bulk and publishes each.
func (f *fixture) manySales(t *testing.T, n, stock int) []int64 {
	t.Helper()
	ctx := context.Background()
	ids := make([]int64, 0, n)
	for _, sv := range (testenv.Sale{Stock: stock}).MustCreateN(t, ctx, f.b.DB.Client, n) {
		f.s.Publish(ctx, sv)
		ids = append(ids, sv.ID)
	}
	return ids
}

func (f *fixture) watched(v int64) bool {
	c := f.s.consumers
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.sales[v] != nil
}

func (f *fixture) watchedCount() int {
	c := f.s.consumers
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.sales)
}

// 2 000 sales open at once are consumed with at most ConnBound(MaxHot)
// pooled connections (before: one blocked in XREADGROUP per sale, so the
// pool was full); purchases on several of them, more than MaxHot, are
// persisted; and the first purchase on a cold sale is persisted within Poll
// plus a second.
func TestManySalesBoundedConnections(t *testing.T) {
	testenv.ForEachBackend(t, func(t *testing.T, b testenv.Backends) {
		const sales, maxHot = 2000, 3
		cfg := fast
		cfg.Consumer.MaxHot = maxHot
		cfg.Consumer.Block = 2 * time.Second // as in production
		cfg.Consumer.Poll = time.Second
		cfg.Consumer.ClaimEvery = 2 * time.Second
		cfg.Consumer.Refresh = time.Second
		f := newService(t, b, cfg)
		ctx := context.Background()
		start := time.Now()
		ids := f.manySales(t, sales, 10)
		t.Logf("%d sales created in %v", sales, time.Since(start))
		f.s.Start()
		testenv.Eventually(t, 20*time.Second, "every sale watched", func() bool { return f.watchedCount() == sales })
		// Several poll and claim rounds over all of them, counting the
		// commands they cost.
		all := &testenv.Commands{}
		testenv.AddHook(b.Redis.Client, all)
		time.Sleep(4 * time.Second)
		perSale := float64(all.N()) / 4 / sales
		t.Logf("idle: %.2f Redis commands a second per sale", perSale)
		if perSale > 5 {
			t.Errorf("idle sales cost %.2f commands a second each, want at most 5", perSale)
		}

		// Purchases, one at a time (so the test itself needs one connection),
		// on more sales than there are hot places.
		bought := ids[:2*maxHot]
		for u := int64(1); u <= 3; u++ {
			for _, v := range bought {
				if _, err := f.s.Seckill(ctx, u, v); err != nil {
					t.Fatal(err)
				}
			}
		}
		for _, v := range bought {
			f.waitPersisted(t, v, 3)
		}

		// A cold sale's first purchase.
		cold := ids[sales/2]
		start = time.Now()
		if _, err := f.s.Seckill(ctx, 9, cold); err != nil {
			t.Fatal(err)
		}
		f.waitPersisted(t, cold, 1)
		d := time.Since(start)
		t.Logf("cold sale's first order persisted after %v", d)
		if d > cfg.Consumer.Poll+time.Second {
			t.Errorf("cold sale's first order persisted after %v, want at most Poll (%v) + 1 s", d, cfg.Consumer.Poll)
		}

		st := b.Redis.Client.PoolStats()
		t.Logf("pool: %d connections (%d idle), %d timeouts; bound %d", st.TotalConns, st.IdleConns, st.Timeouts, ConnBound(maxHot))
		const own = 2 // the test's own commands, and the order ids' batcher
		if got := int(st.TotalConns); got > ConnBound(maxHot)+own {
			t.Fatalf("%d pooled connections for %d sales, want at most %d + %d", got, sales, ConnBound(maxHot), own)
		}
		if st.Timeouts > 0 {
			t.Fatalf("%d waits for a pooled connection timed out", st.Timeouts)
		}
	})
}

// A finished sale's drained stream is deleted (with its group) and the sale
// no longer watched; one with entries (pending with another consumer), an
// open one and one that ended within the grace are kept, and the script
// keeps a stream with a pending entry. An entry that reaches
// the dropped stream later is still persisted: the consumers recreate the
// group.
func TestFinishedSaleStreamDropped(t *testing.T) {
	testenv.ForEachBackend(t, func(t *testing.T, b testenv.Backends) {
		cfg := fast
		cfg.Consumer.ClaimIdle = time.Hour // "other" below stays the owner of what it read
		f := newService(t, b, cfg)
		ctx := context.Background()
		rdb := b.Redis.Client
		now := time.Now()
		over := now.Add(-2 * dropGrace)
		drained := f.sale(t, 5, now.Add(-time.Hour), over)
		withEntries := f.sale(t, 5, now.Add(-time.Hour), over)
		pendingOnly := f.sale(t, 5, now.Add(-time.Hour), over)
		open := f.sale(t, 5, now.Add(-time.Hour), now.Add(time.Hour))
		justEnded := f.sale(t, 5, now.Add(-time.Hour), now.Add(-dropGrace/4))
		add := func(v, user int64) {
			t.Helper()
			id, err := f.s.ids.Next(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if err := rdb.XAdd(ctx, &redis.XAddArgs{Stream: KeysOf(b.Redis.Prefix, v).Orders,
				Values: map[string]any{"order": id, "user": user, "voucher": v}}).Err(); err != nil {
				t.Fatal(err)
			}
		}
		// Read by another consumer (pending with it, not acknowledged).
		readByOther := func(v int64) string {
			t.Helper()
			res, err := rdb.XReadGroup(ctx, &redis.XReadGroupArgs{Group: Group, Consumer: "other",
				Streams: []string{KeysOf(b.Redis.Prefix, v).Orders, ">"}, Count: 10, Block: -1}).Result()
			if err != nil || len(res) != 1 || len(res[0].Messages) != 1 {
				t.Fatal(res, err)
			}
			return res[0].Messages[0].ID
		}
		add(drained, 1)
		add(withEntries, 1)
		readByOther(withEntries)
		add(pendingOnly, 1)
		if err := rdb.XDel(ctx, KeysOf(b.Redis.Prefix, pendingOnly).Orders, readByOther(pendingOnly)).Err(); err != nil {
			t.Fatal(err)
		}
		// The script alone: only a finished sale's empty stream with nothing
		// pending goes. (An entry deleted but still pending, as pendingOnly's,
		// never happens in the consumers, which XACK with each XDEL, and
		// their XAUTOCLAIM clears it.)
		drop := func(v int64, end time.Time) int {
			t.Helper()
			k := KeysOf(b.Redis.Prefix, v)
			n, err := dropStream.Run(ctx, rdb, []string{k.Orders, k.State}, end.UnixMilli(), dropGrace.Milliseconds()).Int()
			if err != nil {
				t.Fatal(err)
			}
			return n
		}
		keep := map[string]int64{"undelivered entry": drained, "with entries": withEntries, "open": open, "just ended": justEnded}
		if b.Redis.Mini == nil { // the embedded Redis forgets pending entries once deleted
			keep["pending only"] = pendingOnly
		}
		for name, v := range keep {
			if drop(v, over) != 0 {
				t.Fatalf("%s: dropped by the script", name)
			}
		}
		f.s.Start()
		f.waitPersisted(t, drained, 1)
		exists := func(v int64) bool {
			n, err := rdb.Exists(ctx, KeysOf(b.Redis.Prefix, v).Orders).Result()
			if err != nil {
				t.Fatal(err)
			}
			return n == 1
		}
		testenv.Eventually(t, 10*time.Second, "drained stream deleted and unwatched", func() bool {
			return !exists(drained) && !f.watched(drained)
		})
		time.Sleep(10 * cfg.Consumer.Refresh) // claim rounds and refreshes: nothing else goes, nothing comes back
		if exists(drained) || f.watched(drained) {
			t.Fatal("the drained stream came back, or is watched again")
		}
		for name, v := range map[string]int64{"with entries": withEntries, "open": open, "just ended": justEnded} {
			if !exists(v) || !f.watched(v) {
				t.Errorf("%s: stream exists %v, watched %v; want both", name, exists(v), f.watched(v))
			}
		}
		if n, err := rdb.XLen(ctx, KeysOf(b.Redis.Prefix, withEntries).Orders).Result(); err != nil || n != 1 {
			t.Fatalf("with entries: %d entries, %v", n, err)
		}

		// A late entry in the dropped stream (no group now) is persisted.
		add(drained, 2)
		f.waitPersisted(t, drained, 2)
	})
}
