package seckill

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/hmdp/hmdp/internal/apperr"
	"github.com/hmdp/hmdp/internal/testenv"
)

// The double fault: Redis loses everything (stream included) while a
// consumer holds a batch it has not committed yet, and the state is rebuilt
// before the batch commits, so the rebuild sees neither the batch in MySQL
// nor in the stream. Once the batch is done the state must agree with MySQL
// again: its buyers cannot buy twice, and Redis stock is MySQL's minus the
// orders still in the stream.
func TestRebuildDuringBatchInFlight(t *testing.T) {
	testenv.ForEachBackend(t, func(t *testing.T, b testenv.Backends) {
		cfg, ev := withEvents(fast)
		f := newService(t, b, cfg)
		ctx := context.Background()
		v := f.sale(t, 10, time.Now().Add(-time.Minute), time.Now().Add(time.Hour))
		ids := map[int64]int64{}
		for u := int64(1); u <= 3; u++ {
			id, err := f.s.Seckill(ctx, u, v)
			if err != nil {
				t.Fatal(err)
			}
			ids[u] = id
		}
		restore := f.cutMySQL() // the consumer holds the batch in memory, retrying
		settled := make(chan struct{}, 16)
		f.s.hooks.settled = func() { settled <- struct{}{} }
		f.s.Start()
		testenv.Eventually(t, 10*time.Second, "the batch retried", func() bool { return value(f.s.metrics.retries) >= 1 })

		testenv.DeleteKeys(ctx, b.Redis.Client, b.Redis.Prefix)
		if b.Redis.Mini != nil {
			b.Redis.Mini.FlushAll()
		}
		// Rebuilt now: MySQL has none of the batch and the stream is gone.
		id4, err := f.s.Seckill(ctx, 4, v)
		if err != nil {
			t.Fatal(err)
		}
		ids[4] = id4
		restore()
		select {
		case <-settled:
		case <-time.After(10 * time.Second):
			t.Fatal("the batch was not settled")
		}

		for u := int64(1); u <= 3; u++ {
			_, err := f.s.Seckill(ctx, u, v)
			wantCode(t, err, apperr.AlreadyOrdered)
		}
		f.waitPersisted(t, v, 4)
		testenv.Eventually(t, 5*time.Second, "the four orders announced persisted", func() bool {
			for _, id := range ids {
				if !ev.wasPersisted(id) {
					return false
				}
			}
			return true
		})
		k := KeysOf(b.Redis.Prefix, v)
		// Read through an attempt so a dropped state is rebuilt first.
		if _, err := f.s.Seckill(ctx, 5, v); err != nil {
			t.Fatal(err)
		}
		f.waitPersisted(t, v, 5)
		for quiet := false; !quiet; { // every batch settled
			select {
			case <-settled:
			case <-time.After(500 * time.Millisecond):
				quiet = true
			}
		}
		if err := f.s.rebuild(ctx, v); err != nil { // if the last batch dropped it
			t.Fatal(err)
		}
		backlog, _ := b.Redis.Client.XLen(ctx, k.Orders).Result()
		if r, m := f.redisStock(t, v), f.mysqlStock(t, v); r != m-int(backlog) || m != 5 {
			t.Fatalf("Redis stock %d, MySQL %d, stream %d; want Redis = MySQL - stream = 5", r, m, backlog)
		}
		for _, id := range ids {
			if r := ev.reason(id); r != "" {
				t.Fatalf("order %d rejected: %s", id, r)
			}
		}
	})
}

// A backlog of a sale that ended more than a day ago (its buyers hash long
// gone) is persisted, and until then BacklogOrders shows its orders.
func TestOldBacklogIsShownUntilPersisted(t *testing.T) {
	testenv.ForEachBackend(t, func(t *testing.T, b testenv.Backends) {
		f := newService(t, b, fast)
		ctx := context.Background()
		v := f.sale(t, 10, time.Now().Add(-72*time.Hour), time.Now().Add(-48*time.Hour))
		k := KeysOf(b.Redis.Prefix, v)
		if err := b.Redis.Client.Del(ctx, k.State, k.Buyers).Err(); err != nil {
			t.Fatal(err)
		}
		order, err := f.s.ids.Next(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if err := b.Redis.Client.XAdd(ctx, &redis.XAddArgs{Stream: k.Orders, Values: map[string]any{
			"order": order, "user": 9, "voucher": v}}).Err(); err != nil {
			t.Fatal(err)
		}
		restore := f.cutMySQL()
		f.s.Start()
		testenv.Eventually(t, 10*time.Second, "the old backlog shown", func() bool {
			held, err := f.s.BacklogOrders(ctx, 9)
			return err == nil && held[v] == order
		})
		if held, _ := f.s.BacklogOrders(ctx, 8); len(held) != 0 {
			t.Fatalf("another user's backlog: %v", held)
		}
		restore()
		f.waitPersisted(t, v, 1)
		if held, err := f.s.BacklogOrders(ctx, 9); err != nil || len(held) != 0 {
			t.Fatalf("after persisting: %v %v", held, err)
		}
	})
}

// The sale state deleted once in the middle of a sale, with buyers coming
// all the time and consumers blocked in their reads: the state is rebuilt
// once (at most twice), not once per purchase after the loss. Before, a
// batch read across the rebuild dropped the state again, and so did every
// batch after it: 150 admissions after one loss cost ~150 rebuilds (here:
// 70 to 75 of the 75 after it).
func TestOneLossOneRebuild(t *testing.T) {
	testenv.ForEachBackend(t, func(t *testing.T, b testenv.Backends) {
		cfg := fast
		cfg.Consumer.Block = 2 * time.Second // as in production: reads span the rebuild
		f := newService(t, b, cfg)
		ctx := context.Background()
		const buyers = 100
		v := f.sale(t, buyers, time.Now().Add(-time.Minute), time.Now().Add(time.Hour))
		f.s.Start()
		next := make(chan int64, buyers)
		for u := int64(1); u <= buyers; u++ {
			next <- u
		}
		close(next)
		var admitted atomic.Int64
		buy := func() {
			for u := range next {
				if _, err := f.s.Seckill(ctx, u, v); err != nil {
					t.Errorf("user %d: %v", u, err)
					continue
				}
				if admitted.Add(1) == buyers/4 {
					k := KeysOf(b.Redis.Prefix, v)
					if err := b.Redis.Client.Del(ctx, k.State, k.Buyers).Err(); err != nil {
						t.Error(err)
					}
				}
				time.Sleep(20 * time.Millisecond) // a stream of purchases, each read on its own
			}
		}
		var wg sync.WaitGroup
		for range 2 {
			wg.Go(buy)
		}
		wg.Wait()
		f.waitPersisted(t, v, buyers)
		t.Logf("rebuilds %v", value(f.s.metrics.rebuilds))
		if got := value(f.s.metrics.rebuilds); got < 1 || got > 2 {
			t.Fatalf("%v rebuilds after one loss of the state, want 1 or 2", got)
		}
		if got := f.mysqlStock(t, v); got != 0 {
			t.Fatalf("MySQL stock %d, want 0", got)
		}
	})
}
