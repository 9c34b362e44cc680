package seckill

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"
	"github.com/redis/go-redis/v9"

	entorder "github.com/hmdp/hmdp/ent/order"
	"github.com/hmdp/hmdp/ent/predicate"
	"github.com/hmdp/hmdp/internal/apperr"
	"github.com/hmdp/hmdp/internal/ratelimit"
	"github.com/hmdp/hmdp/internal/testenv"
)

func orderVoucher(v int64) predicate.Order { return entorder.VoucherID(v) }

func wantCode(t *testing.T, err error, code apperr.Code) {
	t.Helper()
	if apperr.CodeOf(err) != code {
		t.Fatalf("want %s, got %v", code, err)
	}
}

// The script's decisions: window, one per user, stock.
func TestAdmissionRules(t *testing.T) {
	testenv.ForEachBackend(t, func(t *testing.T, b testenv.Backends) {
		f := newService(t, b, fast)
		ctx := context.Background()
		now := time.Now()
		later := f.sale(t, 5, now.Add(time.Hour), now.Add(2*time.Hour))
		_, err := f.s.Seckill(ctx, 1, later)
		wantCode(t, err, apperr.SaleNotStarted)
		over := f.sale(t, 5, now.Add(-2*time.Hour), now.Add(-time.Hour))
		_, err = f.s.Seckill(ctx, 1, over)
		wantCode(t, err, apperr.SaleEnded)
		// Ended days ago: the state is rebuilt on demand and says so too.
		old := f.sale(t, 5, now.Add(-72*time.Hour), now.Add(-48*time.Hour))
		k := KeysOf(b.Redis.Prefix, old)
		if err := b.Redis.Client.Del(ctx, k.State, k.Buyers).Err(); err != nil {
			t.Fatal(err)
		}
		for range 2 {
			_, err = f.s.Seckill(ctx, 1, old)
			wantCode(t, err, apperr.SaleEnded)
		}

		v := f.sale(t, 2, now.Add(-time.Minute), now.Add(time.Hour))
		id, err := f.s.Seckill(ctx, 1, v)
		if err != nil || id <= 0 {
			t.Fatal(id, err)
		}
		_, err = f.s.Seckill(ctx, 1, v)
		wantCode(t, err, apperr.AlreadyOrdered)
		if _, err := f.s.Seckill(ctx, 2, v); err != nil {
			t.Fatal(err)
		}
		_, err = f.s.Seckill(ctx, 3, v)
		wantCode(t, err, apperr.OutOfStock)
		if held, _ := f.s.PendingOrder(ctx, 1, v); held != id {
			t.Fatalf("buyer 1 holds %d, want %d", held, id)
		}
		_, err = f.s.Seckill(ctx, 1, 999999)
		wantCode(t, err, apperr.NotFound)
		if got := value(f.s.metrics.requests.WithLabelValues("ok")); got != 2 {
			t.Fatalf("ok counter %v", got)
		}

		f.s.Start()
		f.waitPersisted(t, v, 2)
		if s := f.mysqlStock(t, v); s != 0 {
			t.Fatalf("MySQL stock %d", s)
		}
		if got := value(f.s.metrics.persisted); got != 2 {
			t.Fatalf("persisted counter %v", got)
		}
	})
}

// The sale window is judged by Redis's clock, not the calling instance's.
// Redis's clock is made 90 minutes ahead of the service's clock: on the
// embedded Redis by moving its clock, on a real one (whose clock a test
// cannot move) by setting Now 90 minutes behind Redis's TIME.
func TestSaleWindowFollowsRedisClock(t *testing.T) {
	testenv.ForEachBackend(t, func(t *testing.T, b testenv.Backends) {
		f := newService(t, b, fast)
		ctx := context.Background()
		var redisNow time.Time
		if m := b.Redis.Mini; m != nil {
			redisNow = time.Now().Add(90 * time.Minute)
			m.SetTime(redisNow)
		} else {
			redisNow = b.Redis.Client.Time(ctx).Val()
		}
		goNow := redisNow.Add(-90 * time.Minute)
		f.s.now = func() time.Time { return goNow }

		// Opened half an hour ago by Redis's clock; an hour from now by ours.
		open := f.sale(t, 5, redisNow.Add(-30*time.Minute), redisNow.Add(30*time.Minute))
		if id, err := f.s.Seckill(ctx, 1, open); err != nil || id <= 0 {
			t.Fatalf("sale open by Redis's clock refused: %d %v", id, err)
		}
		// Ended half an hour ago by Redis's clock; still open by ours.
		over := f.sale(t, 5, redisNow.Add(-2*time.Hour), redisNow.Add(-30*time.Minute))
		_, err := f.s.Seckill(ctx, 1, over)
		wantCode(t, err, apperr.SaleEnded)
	})
}

// A message delivered twice (a consumer died after committing, before XACK)
// creates one order and takes one unit.
func TestDuplicateDeliveryCreatesOneOrder(t *testing.T) {
	testenv.ForEachBackend(t, func(t *testing.T, b testenv.Backends) {
		f := newService(t, b, fast)
		ctx := context.Background()
		v := f.sale(t, 10, time.Now().Add(-time.Minute), time.Now().Add(time.Hour))
		id, err := f.s.Seckill(ctx, 7, v)
		if err != nil {
			t.Fatal(err)
		}
		k := KeysOf(b.Redis.Prefix, v)
		// The same order a second time in the stream: a replay.
		if err := b.Redis.Client.XAdd(ctx, &redis.XAddArgs{Stream: k.Orders, Values: map[string]any{
			"order": id, "user": 7, "voucher": v}}).Err(); err != nil {
			t.Fatal(err)
		}
		// And the same batch persisted twice directly.
		msgs, _ := b.Redis.Client.XRange(ctx, k.Orders, "-", "+").Result()
		e, _ := parseEntry(msgs[0])
		for range 2 {
			if _, err := f.s.persist(ctx, v, []entry{e}); err != nil {
				t.Fatal(err)
			}
		}
		f.s.Start()
		f.waitPersisted(t, v, 1)
		if s := f.mysqlStock(t, v); s != 9 {
			t.Fatalf("MySQL stock %d, want 9", s)
		}
	})
}

// Redis loses the sale's keys while orders are still unpersisted in the
// stream: the state rebuilt from MySQL subtracts them, keeps every buyer, and
// the sale ends with exactly the stock sold.
func TestRebuildAfterRedisLoss(t *testing.T) {
	testenv.ForEachBackend(t, func(t *testing.T, b testenv.Backends) {
		f := newService(t, b, fast)
		ctx := context.Background()
		v := f.sale(t, 10, time.Now().Add(-time.Minute), time.Now().Add(time.Hour))
		for u := int64(1); u <= 4; u++ {
			if _, err := f.s.Seckill(ctx, u, v); err != nil {
				t.Fatal(err)
			}
		}
		f.s.Start()
		f.waitPersisted(t, v, 4)
		f.s.Stop(ctx)
		// Two more accepted, not persisted (consumers stopped).
		for u := int64(5); u <= 6; u++ {
			if _, err := f.s.Seckill(ctx, u, v); err != nil {
				t.Fatal(err)
			}
		}
		k := KeysOf(b.Redis.Prefix, v)
		if err := b.Redis.Client.Del(ctx, k.State, k.Buyers).Err(); err != nil {
			t.Fatal(err)
		}
		// Concurrent attempts after the loss: one rebuild, old buyers refused.
		var wg sync.WaitGroup
		errs := make([]error, 12)
		for i := range errs {
			wg.Go(func() { _, errs[i] = f.s.Seckill(ctx, int64(i+1), v) })
		}
		wg.Wait()
		ok := 0
		for i, err := range errs {
			switch {
			case err == nil:
				ok++
				if i+1 <= 6 {
					t.Errorf("user %d bought twice", i+1)
				}
			case i+1 <= 6:
				wantCode(t, err, apperr.AlreadyOrdered)
			default:
				wantCode(t, err, apperr.OutOfStock)
			}
		}
		if ok != 4 {
			t.Fatalf("%d accepted after the rebuild, want 4 (10 - 6)", ok)
		}
		if got := value(f.s.metrics.rebuilds); got != 1 {
			t.Fatalf("%v rebuilds", got)
		}
		// Everything lost, including the stream: the rebuild trusts MySQL.
		f2 := newService(t, b, fast)
		f2.s.Start()
		f2.waitPersisted(t, v, 10)
		testenv.DeleteKeys(ctx, b.Redis.Client, b.Redis.Prefix)
		if b.Redis.Mini != nil {
			b.Redis.Mini.FlushAll()
		}
		_, err := f2.s.Seckill(ctx, 3, v)
		wantCode(t, err, apperr.AlreadyOrdered)
		_, err = f2.s.Seckill(ctx, 50, v)
		wantCode(t, err, apperr.OutOfStock)
		if s := f2.mysqlStock(t, v); s != 0 {
			t.Fatalf("MySQL stock %d", s)
		}
	})
}

// Entries that cannot be persisted go to the dead-letter stream: malformed
// ones at once, and ones delivered more than 5 times when taken over.
func TestDeadLetter(t *testing.T) {
	testenv.ForEachBackend(t, func(t *testing.T, b testenv.Backends) {
		f := newService(t, b, fast)
		ctx := context.Background()
		v := f.sale(t, 10, time.Now().Add(-time.Minute), time.Now().Add(time.Hour))
		k := KeysOf(b.Redis.Prefix, v)
		rdb := b.Redis.Client
		if err := rdb.XAdd(ctx, &redis.XAddArgs{Stream: k.Orders, Values: map[string]any{"order": "x", "user": 1, "voucher": v}}).Err(); err != nil {
			t.Fatal(err)
		}
		// A valid entry some dead consumer received 6 times.
		id, err := f.s.ids.Next(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if err := rdb.XAdd(ctx, &redis.XAddArgs{Stream: k.Orders, Values: map[string]any{"order": id, "user": 2, "voucher": v}}).Err(); err != nil {
			t.Fatal(err)
		}
		if err := rdb.XReadGroup(ctx, &redis.XReadGroupArgs{Group: Group, Consumer: "ghost", Streams: []string{k.Orders, ">"}, Count: 10}).Err(); err != nil {
			t.Fatal(err)
		}
		msgs, _ := rdb.XRange(ctx, k.Orders, "-", "+").Result()
		for range 5 {
			if err := rdb.XClaim(ctx, &redis.XClaimArgs{Stream: k.Orders, Group: Group, Consumer: "ghost", Messages: []string{msgs[1].ID}}).Err(); err != nil {
				t.Fatal(err)
			}
		}
		f.s.Start()
		// The consumer moves an entry, then counts it: wait for both.
		counted := func(r string) float64 { return value(f.s.metrics.deadLettered.WithLabelValues(r)) }
		deadline := time.Now().Add(10 * time.Second)
		for {
			n, _ := rdb.XLen(ctx, k.Dead).Result()
			left, _ := rdb.XLen(ctx, k.Orders).Result()
			if n == 2 && left == 0 && counted("malformed") == 1 && counted("delivered_too_often") == 1 {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("%d dead letters, %d left, counted malformed %v, delivered_too_often %v",
					n, left, counted("malformed"), counted("delivered_too_often"))
			}
			time.Sleep(20 * time.Millisecond)
		}
		if n, _ := b.DB.Client.Order.Query().Where(orderVoucher(v)).Count(ctx); n != 0 {
			t.Fatalf("%d orders", n)
		}
	})
}

// Stop lets a consumer finish; entries a stopped instance held are taken over.
func TestTakeOverFromStoppedConsumer(t *testing.T) {
	testenv.ForEachBackend(t, func(t *testing.T, b testenv.Backends) {
		f := newService(t, b, fast)
		ctx := context.Background()
		v := f.sale(t, 10, time.Now().Add(-time.Minute), time.Now().Add(time.Hour))
		for u := int64(1); u <= 3; u++ {
			if _, err := f.s.Seckill(ctx, u, v); err != nil {
				t.Fatal(err)
			}
		}
		k := KeysOf(b.Redis.Prefix, v)
		// A consumer that read them and died.
		if err := b.Redis.Client.XReadGroup(ctx, &redis.XReadGroupArgs{Group: Group, Consumer: "dead", Streams: []string{k.Orders, ">"}, Count: 10}).Err(); err != nil {
			t.Fatal(err)
		}
		f.s.Start()
		f.waitPersisted(t, v, 3)
	})
}

var _ = errors.Is

// value reads a counter.
func value(c prometheus.Counter) float64 {
	var m dto.Metric
	_ = c.Write(&m)
	return m.GetCounter().GetValue()
}

// An order id already taken by another order (the id counter was lost) is
// refused for good instead of failing its batch forever; the rest persist.
func TestTakenOrderIDIsDeadLettered(t *testing.T) {
	testenv.ForEachBackend(t, func(t *testing.T, b testenv.Backends) {
		f := newService(t, b, fast)
		ctx := context.Background()
		v := f.sale(t, 10, time.Now().Add(-time.Minute), time.Now().Add(time.Hour))
		if err := b.DB.Client.Order.Create().SetID(4242).SetUserID(99).SetVoucherID(v).Exec(ctx); err != nil {
			t.Fatal(err)
		}
		k := KeysOf(b.Redis.Prefix, v)
		for _, o := range []map[string]any{{"order": 4242, "user": 1, "voucher": v}, {"order": 4343, "user": 2, "voucher": v}} {
			if err := b.Redis.Client.XAdd(ctx, &redis.XAddArgs{Stream: k.Orders, Values: o}).Err(); err != nil {
				t.Fatal(err)
			}
		}
		f.s.Start()
		f.waitPersisted(t, v, 2) // the pre-existing 4242 and the new 4343
		if got := value(f.s.metrics.deadLettered.WithLabelValues("order_id_taken")); got != 1 {
			t.Fatalf("dead-lettered %v", got)
		}
		if s := f.mysqlStock(t, v); s != 9 {
			t.Fatalf("MySQL stock %d, want 9", s)
		}
	})
}

// Each user's attempts are rate limited (RATE_LIMITED, counted), whatever the
// outcome of the ones allowed.
func TestPerUserRateLimit(t *testing.T) {
	testenv.ForEachBackend(t, func(t *testing.T, b testenv.Backends) {
		cfg := fast
		cfg.PerUser = ratelimit.Limit{Events: 2, Per: time.Minute}
		f := newService(t, b, cfg)
		ctx := context.Background()
		v := f.sale(t, 10, time.Now().Add(-time.Minute), time.Now().Add(time.Hour))
		if _, err := f.s.Seckill(ctx, 1, v); err != nil {
			t.Fatal(err)
		}
		_, err := f.s.Seckill(ctx, 1, v)
		wantCode(t, err, apperr.AlreadyOrdered)
		_, err = f.s.Seckill(ctx, 1, v)
		wantCode(t, err, apperr.RateLimited)
		if e, _ := apperr.As(err); e.RetryAfterMs <= 0 {
			t.Fatalf("no retry-after: %+v", e)
		}
		if _, err := f.s.Seckill(ctx, 2, v); err != nil {
			t.Fatalf("another user is limited too: %v", err)
		}
		if got := value(f.s.metrics.requests.WithLabelValues("rate_limited")); got != 1 {
			t.Fatalf("rate_limited counter %v", got)
		}
	})
}
