package order

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/hmdp/hmdp/ent"
	entorder "github.com/hmdp/hmdp/ent/order"
	entpayment "github.com/hmdp/hmdp/ent/payment"
	"github.com/hmdp/hmdp/ent/schema/enum"
	"github.com/hmdp/hmdp/internal/apperr"
	"github.com/hmdp/hmdp/internal/idgen"
	"github.com/hmdp/hmdp/internal/lock"
	"github.com/hmdp/hmdp/internal/ratelimit"
	"github.com/hmdp/hmdp/internal/seckill"
	"github.com/hmdp/hmdp/internal/testenv"
)

// lcEnv is a flash sale with order services ("instances") sharing the back
// ends; the consumers schedule deadlines through the first one.
type lcEnv struct {
	b    testenv.Backends
	sk   *seckill.Service
	svcs []*Service
	recs []*recorder
	pay  *FakePayments
}

func newLifecycle(t *testing.T, b testenv.Backends, instances int, tune func(i int, c *Config)) *lcEnv {
	t.Helper()
	locks := lock.New(b.Redis.Client, b.Redis.Prefix)
	t.Cleanup(func() { _ = locks.Close() })
	e := &lcEnv{b: b, pay: &FakePayments{}}
	e.sk = seckill.New(seckill.Config{
		DB: b.DB.Client, Redis: b.Redis.Client, Prefix: b.Redis.Prefix,
		IDs:   idgen.New(b.Redis.Client, b.Redis.Prefix, "order", 0),
		Locks: locks, Limiter: ratelimit.New(b.Redis.Client, b.Redis.Prefix, false),
		Log: slog.New(slog.NewJSONHandler(io.Discard, nil)), Registerer: prometheus.NewRegistry(),
		OnPersisted: func(ctx context.Context, ps []seckill.Persisted) {
			for _, p := range ps {
				e.svcs[0].Schedule(ctx, p.OrderID)
			}
		},
		Consumer: seckill.ConsumerConfig{Block: 10 * time.Millisecond, ClaimEvery: 50 * time.Millisecond, Refresh: 50 * time.Millisecond}})
	for i := range instances {
		rec := &recorder{}
		c := Config{DB: b.DB.Client, Sales: e.sk, Notifier: rec, Redis: b.Redis.Client, Prefix: b.Redis.Prefix,
			PayTimeout: time.Hour, PollEvery: 20 * time.Millisecond, Payments: e.pay,
			Log: slog.New(slog.NewJSONHandler(io.Discard, nil))}
		if tune != nil {
			tune(i, &c)
		}
		s := New(c)
		t.Cleanup(s.Stop)
		e.svcs, e.recs = append(e.svcs, s), append(e.recs, rec)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		e.sk.Stop(ctx)
	})
	e.sk.Start()
	return e
}

func (e *lcEnv) sale(t *testing.T, stock int) int64 {
	t.Helper()
	ctx := context.Background()
	sv := testenv.Sale{Voucher: testenv.Voucher{PayValue: 7, ActualValue: 10}, Stock: stock}.MustCreate(t, ctx, e.b.DB.Client)
	e.sk.Publish(ctx, sv)
	return sv.ID
}

// unpaid buys one unit of v for each user and waits until all are UNPAID in
// MySQL; it returns user -> order id.
func (e *lcEnv) unpaid(t *testing.T, v int64, users ...int64) map[int64]int64 {
	t.Helper()
	ctx := context.Background()
	out := map[int64]int64{}
	for _, u := range users {
		r, err := e.svcs[0].Seckill(ctx, u, v)
		if err != nil {
			t.Fatal(err)
		}
		out[u] = r.OrderID
	}
	testenv.Eventually(t, 15*time.Second, "orders persisted", func() bool {
		n, err := e.b.DB.Client.Order.Query().Where(entorder.VoucherID(v), entorder.Status(enum.OrderUnpaid)).Count(ctx)
		return err == nil && n == len(users)
	})
	// Each deadline is queued after its batch commits (OnPersisted): wait for
	// it too, so a test that then loses or claims the queue races nothing.
	testenv.Eventually(t, 10*time.Second, "deadlines queued", func() bool {
		for _, id := range out {
			if _, err := e.b.Redis.Client.ZScore(ctx, DeadlineKey(e.b.Redis.Prefix), itoa(id)).Result(); err != nil {
				return false
			}
		}
		return true
	})
	return out
}

func (e *lcEnv) paid(t *testing.T, v int64, users ...int64) map[int64]int64 {
	t.Helper()
	orders := e.unpaid(t, v, users...)
	for u, id := range orders {
		if _, err := e.svcs[0].Pay(context.Background(), u, id, enum.PayAlipay); err != nil {
			t.Fatal(err)
		}
	}
	return orders
}

func (e *lcEnv) status(t *testing.T, id int64) enum.OrderStatus {
	t.Helper()
	o, err := e.b.DB.Client.Order.Get(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return o.Status
}

func (e *lcEnv) stock(t *testing.T, v int64) int {
	t.Helper()
	sv, err := e.b.DB.Client.SeckillVoucher.Get(context.Background(), v)
	if err != nil {
		t.Fatal(err)
	}
	return sv.Stock
}

func count(events []string, status string) int {
	n := 0
	for _, s := range events {
		if s == status {
			n++
		}
	}
	return n
}

// users are the user ids 1 to n.
func users(n int64) []int64 {
	var out []int64
	for u := int64(1); u <= n; u++ {
		out = append(out, u)
	}
	return out
}

// An unpaid order is cancelled by the worker shortly after its deadline, for
// non-payment, with its unit back on sale in MySQL and in Redis (another
// buyer gets it) and a CANCELLED event.
func TestUnpaidOrderCancelledAtDeadline(t *testing.T) {
	testenv.ForEachBackend(t, func(t *testing.T, b testenv.Backends) {
		e := newLifecycle(t, b, 1, func(_ int, c *Config) { c.PayTimeout = 2 * time.Second })
		ctx := context.Background()
		v := e.sale(t, 1)
		id := e.unpaid(t, v, 1)[1] // waits for the deadline to be queued too
		if _, err := e.svcs[0].Seckill(ctx, 2, v); apperr.CodeOf(err) != apperr.OutOfStock {
			t.Fatalf("sold out sale: %v", err)
		}
		e.svcs[0].Start()
		// The event comes after both MySQL and Redis have the unit back.
		testenv.Eventually(t, 10*time.Second, "cancelled at the deadline", func() bool { return count(e.recs[0].list(), "CANCELLED") == 1 })
		late := time.Since(e.svcs[0].Deadline(id))
		if late > 3*time.Second {
			t.Fatalf("cancelled %v after the deadline", late)
		}
		t.Logf("cancelled %v after the deadline", late)
		o, err := e.svcs[0].Get(ctx, 1, id)
		if err != nil {
			t.Fatal(err)
		}
		if r, err := e.svcs[0].CancelReason(ctx, o); err != nil || r == nil || *r != enum.CancelPayTimeout {
			t.Fatalf("reason %v %v", r, err)
		}
		if e.stock(t, v) != 1 {
			t.Fatalf("MySQL stock %d, want 1", e.stock(t, v))
		}
		if _, err := e.svcs[0].Seckill(ctx, 2, v); err != nil {
			t.Fatalf("unit not back on sale in Redis: %v", err)
		}
		if got := e.recs[0].list(); count(got, "CANCELLED") != 1 {
			t.Fatalf("events %v", got)
		}
		testenv.Eventually(t, 10*time.Second, "the new order's deadline alone queued", func() bool {
			n, _ := b.Redis.Client.ZCard(ctx, DeadlineKey(b.Redis.Prefix)).Result()
			return n == 1
		})
	})
}

// With the queue lost (Redis flushed), nothing in Redis fires, and the sweep
// of MySQL cancels the overdue order.
func TestSweepCancelsOverdueOrdersTheQueueLost(t *testing.T) {
	testenv.ForEachBackend(t, func(t *testing.T, b testenv.Backends) {
		var at atomic.Int64 // the service's clock
		at.Store(time.Now().UnixMilli())
		e := newLifecycle(t, b, 1, func(_ int, c *Config) {
			c.PayTimeout = time.Second
			c.Now = func() time.Time { return time.UnixMilli(at.Load()) }
		})
		ctx := context.Background()
		v := e.sale(t, 3)
		id := e.unpaid(t, v, 1)[1]
		if err := b.Redis.Client.Del(ctx, DeadlineKey(b.Redis.Prefix)).Err(); err != nil {
			t.Fatal(err)
		}
		// Past the deadline and create_time + PayTimeout (MySQL keeps whole
		// seconds), on the service's clock rather than by waiting.
		at.Store(e.svcs[0].Deadline(id).Add(1500 * time.Millisecond).UnixMilli())
		if n, err := e.svcs[0].ExpireDue(ctx); err != nil || n != 0 {
			t.Fatalf("queue cancelled %d (%v)", n, err)
		}
		if e.status(t, id) != enum.OrderUnpaid {
			t.Fatal("cancelled without the sweep")
		}
		e.svcs[0].Sweep(ctx)
		if e.status(t, id) != enum.OrderCancelled || e.stock(t, v) != 3 {
			t.Fatalf("after sweep: %v, stock %d", e.status(t, id), e.stock(t, v))
		}
	})
}

// Three instances run the worker on the same queue: every order is cancelled
// once (one event, one unit back), none twice.
func TestDeadlineFiresOnceAcrossInstances(t *testing.T) {
	testenv.ForEachBackend(t, func(t *testing.T, b testenv.Backends) {
		e := newLifecycle(t, b, 3, func(_ int, c *Config) { c.PayTimeout = time.Second; c.PollEvery = 5 * time.Millisecond })
		v := e.sale(t, 20)
		orders := e.unpaid(t, v, users(20)...)
		for _, s := range e.svcs {
			s.Start()
		}
		testenv.Eventually(t, 15*time.Second, "all cancelled", func() bool {
			for _, id := range orders {
				if e.status(t, id) != enum.OrderCancelled {
					return false
				}
			}
			return true
		})
		time.Sleep(200 * time.Millisecond) // any duplicate would land now
		total := 0
		for _, r := range e.recs {
			total += count(r.list(), "CANCELLED")
		}
		if total != 20 || e.stock(t, v) != 20 {
			t.Fatalf("%d cancellations announced, MySQL stock %d; want 20 and 20", total, e.stock(t, v))
		}
		k := seckill.KeysOf(b.Redis.Prefix, v)
		if rs, err := b.Redis.Client.HGet(context.Background(), k.State, "stock").Int(); err != nil || rs != 20 {
			t.Fatalf("Redis stock %d (%v), want 20", rs, err)
		}
	})
}

// Paying at the deadline races the server's cancellation: for every order
// exactly one wins; the loser gets CONFLICT (pay) or false (cancel).
func TestPayRacingTheDeadlineExactlyOneWins(t *testing.T) {
	testenv.ForEachBackend(t, func(t *testing.T, b testenv.Backends) {
		var payAt, cancelAt atomic.Int64
		e := newLifecycle(t, b, 2, func(i int, c *Config) {
			at := &payAt
			if i == 1 {
				at = &cancelAt
			}
			c.Now = func() time.Time { return time.UnixMilli(at.Load()) }
		})
		payAt.Store(time.Now().UnixMilli())
		cancelAt.Store(time.Now().UnixMilli())
		const n = 30
		v := e.sale(t, n)
		orders := e.unpaid(t, v, users(n)...)
		var first, last time.Time
		for _, id := range orders {
			d := e.svcs[0].Deadline(id)
			if first.IsZero() || d.Before(first) {
				first = d
			}
			if d.After(last) {
				last = d
			}
		}
		payAt.Store(first.Add(-time.Millisecond).UnixMilli()) // the payer is just in time...
		cancelAt.Store(last.UnixMilli())                      // ...the canceller's clock says it is over
		ctx := context.Background()
		type result struct {
			payErr    error
			cancelled bool
		}
		results := make(map[int64]*result, n)
		var mu sync.Mutex
		var wg sync.WaitGroup
		for u, id := range orders {
			r := &result{}
			results[id] = r
			wg.Go(func() {
				_, err := e.svcs[0].Pay(ctx, u, id, enum.PayWechat)
				mu.Lock()
				r.payErr = err
				mu.Unlock()
			})
			wg.Go(func() {
				done, err := e.svcs[1].Expire(ctx, id)
				if err != nil {
					t.Error(err)
				}
				mu.Lock()
				r.cancelled = done
				mu.Unlock()
			})
		}
		wg.Wait()
		paid, cancelled := 0, 0
		for id, r := range results {
			st := e.status(t, id)
			switch {
			case r.payErr == nil && !r.cancelled && st == enum.OrderPaid:
				paid++
			case apperr.CodeOf(r.payErr) == apperr.Conflict && r.cancelled && st == enum.OrderCancelled:
				cancelled++
			default:
				t.Fatalf("order %d: pay %v, cancelled %v, status %v", id, r.payErr, r.cancelled, st)
			}
		}
		if e.stock(t, v) != cancelled {
			t.Fatalf("MySQL stock %d, %d cancelled", e.stock(t, v), cancelled)
		}
		ids := make([]int64, 0, n)
		for _, id := range orders {
			ids = append(ids, id)
		}
		ps := e.payments(t, ids...)
		for id := range results {
			if (e.status(t, id) == enum.OrderPaid) != (ps[id] != nil) {
				t.Fatalf("order %d is %v with payment %+v", id, e.status(t, id), ps[id])
			}
		}
		t.Logf("%d paid, %d cancelled", paid, cancelled)
	})
}

// Paying after the deadline is refused and cancels the order at once.
func TestPayAfterDeadlineIsRefused(t *testing.T) {
	testenv.ForEachBackend(t, func(t *testing.T, b testenv.Backends) {
		var at atomic.Int64
		at.Store(time.Now().UnixMilli())
		e := newLifecycle(t, b, 1, func(_ int, c *Config) { c.Now = func() time.Time { return time.UnixMilli(at.Load()) } })
		v := e.sale(t, 1)
		id := e.unpaid(t, v, 1)[1]
		at.Store(e.svcs[0].Deadline(id).UnixMilli())
		_, err := e.svcs[0].Pay(context.Background(), 1, id, enum.PayBalance)
		if apperr.CodeOf(err) != apperr.Conflict || e.status(t, id) != enum.OrderCancelled || e.stock(t, v) != 1 {
			t.Fatalf("pay after the deadline: %v, %v, stock %d", err, e.status(t, id), e.stock(t, v))
		}
	})
}

// Many cancellations of the same orders: each order is cancelled once (one
// unit back, one reason row, one event); every call answers CANCELLED.
func TestCancelRacingCancel(t *testing.T) {
	testenv.ForEachBackend(t, func(t *testing.T, b testenv.Backends) {
		e := newLifecycle(t, b, 1, nil)
		const n = 5
		v := e.sale(t, n)
		orders := e.unpaid(t, v, users(n)...)
		ctx := context.Background()
		var wg sync.WaitGroup
		for u, id := range orders {
			for range 10 {
				wg.Go(func() {
					o, err := e.svcs[0].Cancel(ctx, u, id)
					if err != nil || o.Status != enum.OrderCancelled {
						t.Errorf("cancel: %+v %v", o, err)
					}
				})
			}
		}
		wg.Wait()
		rows, err := b.DB.Client.OrderCancel.Query().Count(ctx)
		if err != nil || rows != n || e.stock(t, v) != n || count(e.recs[0].list(), "CANCELLED") != n {
			t.Fatalf("reasons %d (%v), stock %d, events %v", rows, err, e.stock(t, v), e.recs[0].list())
		}
	})
}

// Many refunds of the same paid orders: the provider pays back once per
// order, the unit returns once (the sale is open), REFUNDING and REFUNDED
// are announced once each.
func TestRefundRacingRefund(t *testing.T) {
	testenv.ForEachBackend(t, func(t *testing.T, b testenv.Backends) {
		e := newLifecycle(t, b, 1, nil)
		const n = 5
		v := e.sale(t, n)
		orders := e.paid(t, v, users(n)...)
		ctx := context.Background()
		var wg sync.WaitGroup
		for u, id := range orders {
			for range 10 {
				wg.Go(func() {
					o, err := e.svcs[0].Refund(ctx, u, id)
					if err != nil || o.Status != enum.OrderRefunded || o.RefundTime == nil {
						t.Errorf("refund: %+v %v", o, err)
					}
				})
			}
		}
		wg.Wait()
		ids := make([]int64, 0, n)
		for _, id := range orders {
			if amt, ok := e.pay.Refunded(id); !ok || amt != 7 {
				t.Fatalf("order %d refunded %d %v", id, amt, ok)
			}
			ids = append(ids, id)
		}
		for id, p := range e.payments(t, ids...) {
			if p.Status != entpayment.StatusREFUNDED || p.RefundAmount != p.Amount {
				t.Fatalf("order %d: payment %+v", id, p)
			}
		}
		ev := e.recs[0].list()
		if e.stock(t, v) != n || count(ev, "REFUNDING") != n || count(ev, "REFUNDED") != n {
			t.Fatalf("stock %d, events %v", e.stock(t, v), ev)
		}
		if _, err := e.svcs[0].Refund(ctx, 99, orders[1]); apperr.CodeOf(err) != apperr.NotFound {
			t.Fatalf("someone else's order: %v", err)
		}
	})
}

// A sale that has ended gets no unit back from a refund; a provider failure
// leaves the order REFUNDING with PAYMENT_FAILED, and calling again finishes.
func TestRefundAfterSaleEndedAndProviderFailure(t *testing.T) {
	testenv.ForEachBackend(t, func(t *testing.T, b testenv.Backends) {
		e := newLifecycle(t, b, 1, nil)
		ctx := context.Background()
		v := e.sale(t, 2)
		orders := e.paid(t, v, 1, 2)
		if err := b.DB.Client.SeckillVoucher.UpdateOneID(v).SetEndTime(time.Now().Add(-time.Second)).Exec(ctx); err != nil {
			t.Fatal(err)
		}
		e.pay.Fail = func(int64) error { return errors.New("provider down") }
		_, err := e.svcs[0].Refund(ctx, 1, orders[1])
		if apperr.CodeOf(err) != apperr.PaymentFailed || e.status(t, orders[1]) != enum.OrderRefunding {
			t.Fatalf("provider down: %v, %v", err, e.status(t, orders[1]))
		}
		e.pay.Fail = nil
		if o, err := e.svcs[0].Refund(ctx, 1, orders[1]); err != nil || o.Status != enum.OrderRefunded {
			t.Fatalf("resumed: %+v %v", o, err)
		}
		if e.stock(t, v) != 0 {
			t.Fatalf("ended sale got %d units back", e.stock(t, v))
		}
		if _, err := e.svcs[0].Cancel(ctx, 2, orders[2]); apperr.CodeOf(err) != apperr.Conflict {
			t.Fatalf("cancel paid: %v", err)
		}
	})
}

// Redeeming and refunding the same paid orders at once: exactly one wins per
// order; the other gets CONFLICT.
func TestRedeemRacingRefund(t *testing.T) {
	testenv.ForEachBackend(t, func(t *testing.T, b testenv.Backends) {
		e := newLifecycle(t, b, 1, nil)
		const n = 10
		v := e.sale(t, n)
		orders := e.paid(t, v, users(n)...)
		ctx := context.Background()
		var wg sync.WaitGroup
		errs := map[int64][2]error{}
		var mu sync.Mutex
		for u, id := range orders {
			wg.Go(func() {
				_, err := e.svcs[0].Redeem(asAdmin(ctx), id)
				mu.Lock()
				r := errs[id]
				r[0] = err
				errs[id] = r
				mu.Unlock()
			})
			wg.Go(func() {
				_, err := e.svcs[0].Refund(ctx, u, id)
				mu.Lock()
				r := errs[id]
				r[1] = err
				errs[id] = r
				mu.Unlock()
			})
		}
		wg.Wait()
		used := 0
		for id, r := range errs {
			st := e.status(t, id)
			switch {
			case r[0] == nil && apperr.CodeOf(r[1]) == apperr.Conflict && st == enum.OrderUsed:
				used++
				if _, ok := e.pay.Refunded(id); ok {
					t.Fatalf("used order %d refunded", id)
				}
			case r[1] == nil && apperr.CodeOf(r[0]) == apperr.Conflict && st == enum.OrderRefunded:
			default:
				t.Fatalf("order %d: redeem %v, refund %v, status %v", id, r[0], r[1], st)
			}
		}
		if e.stock(t, v) != n-used {
			t.Fatalf("stock %d, %d used", e.stock(t, v), used)
		}
		t.Logf("%d used, %d refunded", used, n-used)
		// Redeeming again answers the used order; an unpaid one is refused.
		for id := range errs {
			if e.status(t, id) == enum.OrderUsed {
				if o, err := e.svcs[0].Redeem(asAdmin(ctx), id); err != nil || o.UseTime == nil {
					t.Fatalf("redeem again: %+v %v", o, err)
				}
			}
		}
		v2 := e.sale(t, 1)
		id := e.unpaid(t, v2, 1)[1]
		if _, err := e.svcs[0].Redeem(asAdmin(ctx), id); apperr.CodeOf(err) != apperr.Conflict {
			t.Fatalf("redeem unpaid: %v", err)
		}
	})
}

func itoa(id int64) string { return strconv.FormatInt(id, 10) }

// A refund left REFUNDING (the provider failed, the buyer never retried) is
// finished by the sweep once it has sat there ResumeRefundsAfter; a recent
// one is left alone.
func TestSweepFinishesUnfinishedRefunds(t *testing.T) {
	testenv.ForEachBackend(t, func(t *testing.T, b testenv.Backends) {
		e := newLifecycle(t, b, 1, nil)
		ctx := context.Background()
		v := e.sale(t, 2)
		orders := e.paid(t, v, users(2)...)
		e.pay.Fail = func(int64) error { return errors.New("provider down") }
		for u, id := range orders {
			if _, err := e.svcs[0].Refund(ctx, u, id); apperr.CodeOf(err) != apperr.PaymentFailed {
				t.Fatal(err)
			}
		}
		e.pay.Fail = nil
		old := orders[1]
		if err := b.DB.Client.Order.UpdateOneID(old).SetUpdateTime(time.Now().Add(-2 * time.Minute)).Exec(ctx); err != nil {
			t.Fatal(err)
		}
		e.svcs[0].Sweep(ctx)
		if e.status(t, old) != enum.OrderRefunded || e.status(t, orders[2]) != enum.OrderRefunding {
			t.Fatalf("after sweep: %v and %v", e.status(t, old), e.status(t, orders[2]))
		}
		if _, ok := e.pay.Refunded(old); !ok {
			t.Fatal("provider not asked again")
		}
	})
}

// An instance that claims a due deadline and dies before handling it does
// not lose the order: after the lease another instance claims and cancels it.
func TestClaimedDeadlineComesBackAfterTheLease(t *testing.T) {
	testenv.ForEachBackend(t, func(t *testing.T, b testenv.Backends) {
		e := newLifecycle(t, b, 1, func(_ int, c *Config) { c.PayTimeout = time.Second; c.ClaimLease = 300 * time.Millisecond })
		ctx := context.Background()
		v := e.sale(t, 1)
		id := e.unpaid(t, v, 1)[1]
		key := DeadlineKey(b.Redis.Prefix)
		testenv.Eventually(t, 5*time.Second, "deadline due", func() bool { return time.Now().After(e.svcs[0].Deadline(id)) })
		time.Sleep(20 * time.Millisecond)
		// The "dead" instance: claims with a 300 ms lease and never handles it.
		got, err := claimDeadlines.Run(ctx, b.Redis.Client, []string{key}, 100, 300).StringSlice()
		if err != nil || len(got) != 1 {
			t.Fatalf("claim: %v %v", got, err)
		}
		if n, err := e.svcs[0].ExpireDue(ctx); err != nil || n != 0 {
			t.Fatalf("claimed twice within the lease: %d %v", n, err)
		}
		time.Sleep(400 * time.Millisecond)
		if n, err := e.svcs[0].ExpireDue(ctx); err != nil || n != 1 || e.status(t, id) != enum.OrderCancelled {
			t.Fatalf("after the lease: %d %v %v", n, err, e.status(t, id))
		}
	})
}

// payments returns the payment records of the given orders, by order id.
func (e *lcEnv) payments(t *testing.T, ids ...int64) map[int64]*ent.Payment {
	t.Helper()
	ps, err := e.b.DB.Client.Payment.Query().Where(entpayment.OrderIDIn(ids...)).All(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	out := map[int64]*ent.Payment{}
	for _, p := range ps {
		if out[p.OrderID] != nil {
			t.Fatalf("order %d has two payments", p.OrderID)
		}
		out[p.OrderID] = p
	}
	return out
}

// A refund goes only against a payment this server recorded, for its
// amount: paying records one payment (price from the voucher, paying again
// records none); an order marked PAID (or left REFUNDING) without one is
// refused with NO_PAYMENT and the provider is never asked; a price changed
// after payment does not change what is paid back; a second refund asks the
// provider nothing.
func TestRefundOnlyAgainstARecordedPayment(t *testing.T) {
	testenv.ForEachBackend(t, func(t *testing.T, b testenv.Backends) {
		e := newLifecycle(t, b, 1, nil)
		ctx := context.Background()
		v := e.sale(t, 4)
		orders := e.paid(t, v, 1, 2)
		if _, err := e.svcs[0].Pay(ctx, 1, orders[1], enum.PayWechat); err != nil {
			t.Fatal(err)
		}
		ps := e.payments(t, orders[1], orders[2])
		for u, id := range orders {
			p := ps[id]
			if p == nil || p.Amount != 7 || p.UserID != u || p.PayType != enum.PayAlipay || p.Status != entpayment.StatusPAID || p.RefundAmount != 0 {
				t.Fatalf("order %d: payment %+v", id, p)
			}
		}

		// Marked PAID without any payment (as payOrder did before payments
		// were recorded): refused, nothing asked of the provider.
		unpaid := e.unpaid(t, v, 3, 4)
		if err := b.DB.Client.Order.UpdateOneID(unpaid[3]).SetStatus(enum.OrderPaid).Exec(ctx); err != nil {
			t.Fatal(err)
		}
		if _, err := e.svcs[0].Refund(ctx, 3, unpaid[3]); apperr.CodeOf(err) != apperr.NoPayment {
			t.Fatalf("refund without a payment: %v", err)
		}
		if e.pay.Requests() != 0 || e.status(t, unpaid[3]) != enum.OrderPaid {
			t.Fatalf("provider asked %d times, order %v", e.pay.Requests(), e.status(t, unpaid[3]))
		}
		// Left REFUNDING without a payment: the sweep puts it back to PAID
		// rather than asking the provider for money never taken.
		if err := b.DB.Client.Order.UpdateOneID(unpaid[4]).SetStatus(enum.OrderRefunding).
			SetUpdateTime(time.Now().Add(-2 * time.Minute)).Exec(ctx); err != nil {
			t.Fatal(err)
		}
		e.svcs[0].Sweep(ctx)
		if _, err := e.svcs[0].Refund(ctx, 4, unpaid[4]); apperr.CodeOf(err) != apperr.NoPayment {
			t.Fatalf("refund of a REFUNDING order without a payment: %v", err)
		}
		if e.pay.Requests() != 0 || e.status(t, unpaid[4]) != enum.OrderPaid {
			t.Fatalf("provider asked %d times, order %v", e.pay.Requests(), e.status(t, unpaid[4]))
		}

		// The price changes after payment: the refund is what was paid.
		if err := b.DB.Client.Voucher.UpdateOneID(v).SetPayValue(100000).Exec(ctx); err != nil {
			t.Fatal(err)
		}
		for range 3 {
			if o, err := e.svcs[0].Refund(ctx, 1, orders[1]); err != nil || o.Status != enum.OrderRefunded {
				t.Fatalf("refund: %+v %v", o, err)
			}
		}
		if amt, ok := e.pay.Refunded(orders[1]); !ok || amt != 7 || e.pay.Requests() != 1 {
			t.Fatalf("provider refunded %d %v in %d requests, want 7 in 1", amt, ok, e.pay.Requests())
		}
		p := e.payments(t, orders[1])[orders[1]]
		if p.Status != entpayment.StatusREFUNDED || p.RefundAmount != 7 || p.RefundTime == nil {
			t.Fatalf("payment after the refund: %+v", p)
		}
		if p := e.payments(t, orders[2])[orders[2]]; p.Status != entpayment.StatusPAID {
			t.Fatalf("other payment: %+v", p)
		}
	})
}

// A refunded buyer keeps their place in the sale (one order per buyer per
// flash sale): the unit goes back on sale for others, and the same buyer is
// answered ALREADY_ORDERED at once, in Redis and after a rebuild from
// MySQL, with nothing dead-lettered or rejected.
func TestRefundedBuyerIsAlreadyOrdered(t *testing.T) {
	testenv.ForEachBackend(t, func(t *testing.T, b testenv.Backends) {
		e := newLifecycle(t, b, 1, nil)
		ctx := context.Background()
		v := e.sale(t, 1)
		id := e.paid(t, v, 1)[1]
		if o, err := e.svcs[0].Refund(ctx, 1, id); err != nil || o.Status != enum.OrderRefunded {
			t.Fatalf("refund: %+v %v", o, err)
		}
		k := seckill.KeysOf(b.Redis.Prefix, v)
		if rs, err := b.Redis.Client.HGet(ctx, k.State, "stock").Int(); err != nil || rs != 1 || e.stock(t, v) != 1 {
			t.Fatalf("unit not back: Redis %d (%v), MySQL %d", rs, err, e.stock(t, v))
		}
		if _, err := e.svcs[0].Seckill(ctx, 1, v); apperr.CodeOf(err) != apperr.AlreadyOrdered {
			t.Fatalf("refunded buyer again: %v", err)
		}
		// The same after the sale state is lost and rebuilt from MySQL.
		if err := b.Redis.Client.Del(ctx, k.State, k.Buyers).Err(); err != nil {
			t.Fatal(err)
		}
		if _, err := e.svcs[0].Seckill(ctx, 1, v); apperr.CodeOf(err) != apperr.AlreadyOrdered {
			t.Fatalf("refunded buyer after a rebuild: %v", err)
		}
		// Someone else gets the unit.
		other := e.unpaid(t, v, 2)[2]
		if o, err := e.svcs[0].Get(ctx, 1, id); err != nil || o == nil || o.Status != enum.OrderRefunded {
			t.Fatalf("refunded order: %+v %v", o, err)
		}
		if e.status(t, other) != enum.OrderUnpaid || e.stock(t, v) != 0 {
			t.Fatalf("other buyer: %v, stock %d", e.status(t, other), e.stock(t, v))
		}
		if n, err := b.Redis.Client.XLen(ctx, k.Dead).Result(); err != nil || n != 0 {
			t.Fatalf("dead letters %d (%v)", n, err)
		}
		if n, err := b.Redis.Client.HLen(ctx, k.Rejected).Result(); err != nil || n != 0 {
			t.Fatalf("rejected %d (%v)", n, err)
		}
	})
}
