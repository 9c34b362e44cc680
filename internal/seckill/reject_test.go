package seckill

import (
	"context"
	"errors"
	"strconv"
	"sync"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/redis/go-redis/v9"

	entorder "github.com/hmdp/hmdp/ent/order"
	entseckillvoucher "github.com/hmdp/hmdp/ent/seckillvoucher"
	"github.com/hmdp/hmdp/internal/testenv"
)

// events records what the consumers announce.
type events struct {
	mu        sync.Mutex
	rejected  map[int64]string // order -> reason
	persisted map[int64]bool
}

func withEvents(cfg Config) (Config, *events) {
	ev := &events{rejected: map[int64]string{}, persisted: map[int64]bool{}}
	cfg.OnRejected = func(_ context.Context, rs []Rejected) {
		ev.mu.Lock()
		defer ev.mu.Unlock()
		for _, r := range rs {
			if _, dup := ev.rejected[r.OrderID]; dup {
				panic("order " + strconv.FormatInt(r.OrderID, 10) + " rejected twice")
			}
			ev.rejected[r.OrderID] = r.Reason
		}
	}
	cfg.OnPersisted = func(_ context.Context, ps []Persisted) {
		ev.mu.Lock()
		defer ev.mu.Unlock()
		for _, p := range ps {
			ev.persisted[p.OrderID] = true
		}
	}
	return cfg, ev
}

func (ev *events) reason(order int64) string {
	ev.mu.Lock()
	defer ev.mu.Unlock()
	return ev.rejected[order]
}

func (ev *events) wasPersisted(order int64) bool {
	ev.mu.Lock()
	defer ev.mu.Unlock()
	return ev.persisted[order]
}

// wantRejected waits until order (of user, for v) is announced rejected for
// reason, then checks its final state: not in MySQL, out of the stream,
// readable as rejected, and the buyer's field in Redis as wantBuyer (0: absent).
func (f *fixture) wantRejected(t *testing.T, ev *events, v, user, order int64, reason string, wantBuyer int64) {
	t.Helper()
	ctx := context.Background()
	testenv.Eventually(t, 15*time.Second, "order "+strconv.FormatInt(order, 10)+" rejected as "+reason, func() bool {
		return ev.reason(order) == reason
	})
	if n, _ := f.b.DB.Client.Order.Query().Where(entorder.ID(order), entorder.UserID(user)).Exist(ctx); n {
		t.Fatalf("rejected order %d is in MySQL", order)
	}
	gotV, gotReason, err := f.s.RejectedOrder(ctx, user, order, []int64{v + 1000, v})
	if err != nil || gotV != v || gotReason != reason {
		t.Fatalf("RejectedOrder = %d %q %v", gotV, gotReason, err)
	}
	if gotV, _, _ := f.s.RejectedOrder(ctx, user+1, order, []int64{v}); gotV != 0 {
		t.Fatal("someone else's rejected order is visible")
	}
	k := KeysOf(f.b.Redis.Prefix, v)
	held, err := f.b.Redis.Client.HGet(ctx, k.Buyers, strconv.FormatInt(user, 10)).Int64()
	if errors.Is(err, redis.Nil) {
		held, err = 0, nil
	}
	if err != nil || held != wantBuyer {
		t.Fatalf("buyer %d holds %d in Redis (%v), want %d", user, held, err, wantBuyer)
	}
	dead, _ := f.b.Redis.Client.XRange(ctx, k.Dead, "-", "+").Result()
	found := false
	for _, d := range dead {
		found = found || (d.Values["entry_order"] == strconv.FormatInt(order, 10) && d.Values["reason"] == reason)
	}
	if !found {
		t.Fatalf("order %d not in the dead-letter stream: %v", order, dead)
	}
}

func (f *fixture) redisStock(t *testing.T, v int64) int {
	t.Helper()
	n, err := f.b.Redis.Client.HGet(context.Background(), KeysOf(f.b.Redis.Prefix, v).State, "stock").Int()
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// Every rejection a consumer decides ends the order visibly: released buyer,
// unit back in Redis when MySQL never took it, a REJECTED event with the
// reason, and the rejection readable.
func TestRejectionsReleaseAndAnnounce(t *testing.T) {
	testenv.ForEachBackend(t, func(t *testing.T, b testenv.Backends) {
		cfg, ev := withEvents(fast)
		f := newService(t, b, cfg)
		ctx := context.Background()
		open := func(stock int) int64 {
			return f.sale(t, stock, time.Now().Add(-time.Minute), time.Now().Add(time.Hour))
		}
		buy := func(user, v int64) int64 {
			id, err := f.s.Seckill(ctx, user, v)
			if err != nil {
				t.Fatal(err)
			}
			return id
		}

		// A second order of a buyer MySQL already has one for (Redis forgot
		// the first): the first stands and Redis points at it again.
		dup := open(10)
		if err := b.DB.Client.Order.Create().SetID(777001).SetUserID(1).SetVoucherID(dup).Exec(ctx); err != nil {
			t.Fatal(err)
		}
		if err := b.DB.Client.SeckillVoucher.UpdateOneID(dup).SetStock(9).Exec(ctx); err != nil {
			t.Fatal(err)
		}
		second := buy(1, dup)

		// MySQL has no unit left for an order Redis accepted.
		empty := open(10)
		noStock := buy(2, empty)
		if err := b.DB.Client.SeckillVoucher.Update().Where(entseckillvoucher.ID(empty)).SetStock(0).Exec(ctx); err != nil {
			t.Fatal(err)
		}

		// The order id is another user's order already.
		taken := open(10)
		takenID := buy(3, taken)
		if err := b.DB.Client.Order.Create().SetID(takenID).SetUserID(99).SetVoucherID(taken).Exec(ctx); err != nil {
			t.Fatal(err)
		}

		f.s.Start()
		f.wantRejected(t, ev, dup, 1, second, ReasonDuplicateBuyer, 777001)
		f.wantRejected(t, ev, empty, 2, noStock, ReasonNoStockInMySQL, 0)
		f.wantRejected(t, ev, taken, 3, takenID, ReasonOrderIDTaken, 0)
		testenv.Eventually(t, 5*time.Second, "streams emptied", func() bool {
			n := int64(0)
			for _, v := range []int64{dup, empty, taken} {
				l, _ := b.Redis.Client.XLen(ctx, KeysOf(b.Redis.Prefix, v).Orders).Result()
				n += l
			}
			return n == 0
		})
		// Units MySQL never took are back in Redis (as before the attempt).
		if got := f.redisStock(t, dup); got != 10 || f.mysqlStock(t, dup) != 9 {
			t.Fatalf("duplicate: Redis stock %d, MySQL %d, want 10 and 9", got, f.mysqlStock(t, dup))
		}
		if got := f.redisStock(t, taken); got != 10 || f.mysqlStock(t, taken) != 10 {
			t.Fatalf("order id taken: Redis stock %d, MySQL %d, want 10", got, f.mysqlStock(t, taken))
		}
		// Redis oversold relative to MySQL: the unit is not offered again.
		if got := f.redisStock(t, empty); got != 9 {
			t.Fatalf("no stock: Redis stock %d, want 9", got)
		}
		// The released buyer may buy again.
		if _, err := f.s.Seckill(ctx, 3, taken); err != nil {
			t.Fatal(err)
		}
	})
}

// A batch that keeps failing while MySQL answers is split, and the order that
// fails alone is ended as delivered_too_often (released, announced) while the
// rest of its batch is persisted; a batch failing because MySQL is
// unreachable is only retried, however long.
func TestPoisonedBatchEndsOnlyTheBadOrder(t *testing.T) {
	testenv.ForEachBackend(t, func(t *testing.T, b testenv.Backends) {
		cfg, ev := withEvents(fast)
		cfg.Consumer.MaxDeliveries = 3
		cfg.Consumer.MaxBackoff = 20 * time.Millisecond
		f := newService(t, b, cfg)
		ctx := context.Background()
		v := f.sale(t, 10, time.Now().Add(-time.Minute), time.Now().Add(time.Hour))
		var mu sync.Mutex
		down, poison := true, int64(0)
		f.s.hooks.insert = func(es []entry) error {
			mu.Lock()
			defer mu.Unlock()
			if down {
				return errors.New("injected: MySQL unreachable")
			}
			for _, e := range es {
				if e.user == poison {
					return errors.New("injected: this order always fails")
				}
			}
			return nil
		}
		f.s.hooks.probe = func() error {
			mu.Lock()
			defer mu.Unlock()
			if down {
				return errors.New("injected: MySQL unreachable")
			}
			return nil
		}
		ids := map[int64]int64{}
		for u := int64(1); u <= 4; u++ {
			id, err := f.s.Seckill(ctx, u, v)
			if err != nil {
				t.Fatal(err)
			}
			ids[u] = id
		}
		f.s.Start()
		// Unreachable: many failed attempts, nothing ended.
		testenv.Eventually(t, 10*time.Second, "retries while down", func() bool { return value(f.s.metrics.retries) >= 10 })
		if n, _ := b.Redis.Client.XLen(ctx, KeysOf(b.Redis.Prefix, v).Dead).Result(); n != 0 {
			t.Fatalf("%d orders dead-lettered while MySQL was unreachable", n)
		}
		mu.Lock()
		down, poison = false, 3
		mu.Unlock()
		f.wantRejected(t, ev, v, 3, ids[3], ReasonDeliveredTooOften, 0)
		f.waitPersisted(t, v, 3)
		testenv.Eventually(t, 5*time.Second, "the others announced persisted", func() bool {
			return ev.wasPersisted(ids[1]) && ev.wasPersisted(ids[2]) && ev.wasPersisted(ids[4])
		})
		if r, m := f.redisStock(t, v), f.mysqlStock(t, v); r != 7 || m != 7 {
			t.Fatalf("Redis stock %d, MySQL %d, want 7", r, m)
		}
	})
}

// An entry a dead consumer received too often is ended on takeover like any
// rejection: buyer released, unit back, announced.
func TestTakenOverTooOftenIsReleased(t *testing.T) {
	testenv.ForEachBackend(t, func(t *testing.T, b testenv.Backends) {
		cfg, ev := withEvents(fast)
		f := newService(t, b, cfg)
		ctx := context.Background()
		v := f.sale(t, 10, time.Now().Add(-time.Minute), time.Now().Add(time.Hour))
		id, err := f.s.Seckill(ctx, 5, v)
		if err != nil {
			t.Fatal(err)
		}
		k := KeysOf(b.Redis.Prefix, v)
		rdb := b.Redis.Client
		if err := rdb.XReadGroup(ctx, &redis.XReadGroupArgs{Group: Group, Consumer: "ghost", Streams: []string{k.Orders, ">"}, Count: 10}).Err(); err != nil {
			t.Fatal(err)
		}
		msgs, _ := rdb.XRange(ctx, k.Orders, "-", "+").Result()
		for range 5 {
			if err := rdb.XClaim(ctx, &redis.XClaimArgs{Stream: k.Orders, Group: Group, Consumer: "ghost", Messages: []string{msgs[0].ID}}).Err(); err != nil {
				t.Fatal(err)
			}
		}
		f.s.Start()
		f.wantRejected(t, ev, v, 5, id, ReasonDeliveredTooOften, 0)
		if r := f.redisStock(t, v); r != 10 {
			t.Fatalf("Redis stock %d, want 10", r)
		}
	})
}

// An idle sale is read about once per Poll (not ten times a second); its
// first order is persisted within Poll, and once it has orders it is hot:
// read by a blocking read, so the next order is persisted at once.
func TestIdleConsumerBlocks(t *testing.T) {
	// It times one consumer's reads against its poll, which a cluster does
	// not change; the cluster run shares its machine with the browser and
	// fuzz stages, where a read took 4 s (make test runs it on both back ends).
	if testenv.RealRedisIsCluster() {
		t.Skip("timing of one consumer's reads: run by make test, not on the cluster")
	}
	testenv.ForEachBackend(t, func(t *testing.T, b testenv.Backends) {
		cfg := fast
		cfg.Consumer.Block = 2 * time.Second
		cfg.Consumer.Poll = time.Second
		cfg.Consumer.ClaimEvery = time.Hour
		f := newService(t, b, cfg)
		ctx := context.Background()
		v := f.sale(t, 10, time.Now().Add(-time.Minute), time.Now().Add(time.Hour))
		reads := &testenv.Commands{Match: testenv.Named("xreadgroup")}
		testenv.AddHook(b.Redis.Client, reads)
		f.s.Start()
		time.Sleep(1500 * time.Millisecond)
		if n := reads.N(); n > 2 {
			t.Fatalf("%d reads in 1.5 s of an idle sale", n)
		}
		start := time.Now()
		if _, err := f.s.Seckill(ctx, 1, v); err != nil {
			t.Fatal(err)
		}
		f.waitPersisted(t, v, 1)
		if d := time.Since(start); d > cfg.Consumer.Poll+500*time.Millisecond {
			t.Fatalf("first order persisted after %v", d)
		}
		time.Sleep(500 * time.Millisecond) // the hot reader is blocked in its read
		start = time.Now()
		if _, err := f.s.Seckill(ctx, 2, v); err != nil {
			t.Fatal(err)
		}
		f.waitPersisted(t, v, 2)
		// Read at once by the blocked reader, not at the next poll (at 300 ms
		// a loaded CI machine missed by 17 ms).
		if d := time.Since(start); d > cfg.Consumer.Poll/2 {
			t.Fatalf("second order persisted after %v, want well within a poll (%v)", d, cfg.Consumer.Poll)
		}
	})
}

// Replacing a cancelled order that is no longer there writes nothing and
// must fail the batch, not report the order created.
func TestReviveChecksRowsAffected(t *testing.T) {
	testenv.ForEachBackend(t, func(t *testing.T, b testenv.Backends) {
		ctx := context.Background()
		tx, err := b.DB.Client.Tx(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer func() { _ = tx.Rollback() }()
		err = reviveOrders(ctx, tx, 5, []entry{{streamID: "1-0", order: 88, user: 9, voucher: 5}})
		if !errors.Is(err, errReviveMissed) {
			t.Fatalf("revive of a missing row: %v", err)
		}
	})
}

// A scrape does no Redis I/O; the backlog gauge, refreshed by the consumer,
// is labelled by sale.
func TestMetricsScrapeWithoutIO(t *testing.T) {
	testenv.ForEachBackend(t, func(t *testing.T, b testenv.Backends) {
		f := newService(t, b, fast)
		ctx := context.Background()
		v := f.sale(t, 10, time.Now().Add(-time.Minute), time.Now().Add(time.Hour))
		if _, err := f.s.Seckill(ctx, 1, v); err != nil {
			t.Fatal(err)
		}
		f.s.Start()
		f.waitPersisted(t, v, 1)
		label := strconv.FormatInt(v, 10)
		testenv.Eventually(t, 5*time.Second, "gauge refreshed", func() bool {
			g := f.s.metrics.pending.WithLabelValues(label)
			var m dto.Metric
			_ = g.Write(&m)
			return m.GetGauge() != nil && m.GetGauge().GetValue() == 0
		})
		f.s.Stop(ctx)
		all := &testenv.Commands{}
		testenv.AddHook(b.Redis.Client, all)
		fams, err := f.reg.Gather()
		if err != nil {
			t.Fatal(err)
		}
		if n := all.N(); n != 0 {
			t.Fatalf("a scrape sent %d Redis commands", n)
		}
		found := false
		for _, fam := range fams {
			if fam.GetName() == "hmdp_order_stream_pending" {
				for _, m := range fam.GetMetric() {
					found = found || (len(m.GetLabel()) == 1 && m.GetLabel()[0].GetValue() == label)
				}
			}
		}
		if !found {
			t.Fatal("no hmdp_order_stream_pending for the sale")
		}
	})
}

// The backlog of a sale that ended more than a day ago is still persisted.
func TestOldSaleBacklogIsConsumed(t *testing.T) {
	testenv.ForEachBackend(t, func(t *testing.T, b testenv.Backends) {
		f := newService(t, b, fast)
		ctx := context.Background()
		v := f.sale(t, 10, time.Now().Add(-72*time.Hour), time.Now().Add(-48*time.Hour))
		k := KeysOf(b.Redis.Prefix, v)
		id, err := f.s.ids.Next(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if err := b.Redis.Client.XAdd(ctx, &redis.XAddArgs{Stream: k.Orders, Values: map[string]any{"order": id, "user": 3, "voucher": v}}).Err(); err != nil {
			t.Fatal(err)
		}
		f.s.Start()
		f.waitPersisted(t, v, 1)
	})
}
