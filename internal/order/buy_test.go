package order

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hmdp/hmdp/ent"
	entorder "github.com/hmdp/hmdp/ent/order"
	"github.com/hmdp/hmdp/ent/schema/enum"
	"github.com/hmdp/hmdp/internal/apperr"
	"github.com/hmdp/hmdp/internal/ratelimit"
	"github.com/hmdp/hmdp/internal/testenv"
	"github.com/hmdp/hmdp/internal/voucher"
)

// normal creates a normal (not flash-sale) voucher priced 7 fen with the
// given tb_voucher.status (1 on sale, 2 off sale, 3 expired).
func (e *lcEnv) normal(t *testing.T, status int) int64 {
	t.Helper()
	v := testenv.Voucher{Title: "n", PayValue: 7, ActualValue: 10, Status: status}.MustCreate(t, context.Background(), e.b.DB.Client)
	return v.ID
}

// ordersOf returns the buyer's (user 1's, every buying test's) rows of voucher v.
func (e *lcEnv) ordersOf(t *testing.T, v int64) int {
	t.Helper()
	n, err := e.b.DB.Client.Order.Query().Where(entorder.UserID(1), entorder.VoucherID(v)).Count(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// A normal voucher bought is an UNPAID order at once (announced, its
// deadline queued), paid through the sandbox provider's signed notify for the
// voucher's price, then refunded: the money records balance at each step,
// and the buyer, who keeps the order, cannot buy the voucher again.
func TestBuyVoucherPaidAndRefundedMoneyBalances(t *testing.T) {
	testenv.ForEachBackend(t, func(t *testing.T, b testenv.Backends) {
		e := newSandboxEnv(t, b, 2, nil)
		ctx := context.Background()
		v := e.normal(t, 1)
		o, err := e.svcs[0].BuyVoucher(ctx, 1, v, 1)
		if err != nil || o.Status != enum.OrderUnpaid || o.VoucherID != v || o.UserID != 1 {
			t.Fatalf("buy: %+v %v", o, err)
		}
		if got := e.recs[0].list(); len(got) != 1 || got[0] != "UNPAID" {
			t.Fatalf("events %v", got)
		}
		if _, err := b.Redis.Client.ZScore(ctx, DeadlineKey(b.Redis.Prefix), itoa(o.ID)).Result(); err != nil {
			t.Fatalf("deadline not queued: %v", err)
		}
		if got, err := e.svcs[1].Get(ctx, 1, o.ID); err != nil || got == nil || got.Status != enum.OrderUnpaid {
			t.Fatalf("get: %+v %v", got, err)
		}
		p, err := e.svcs[1].Pay(ctx, 1, o.ID, enum.PayAlipay)
		if err != nil || p.Payment == nil || p.Payment.Amount != 7 || p.Payment.PayURL == nil {
			t.Fatalf("pay: %+v %v", p, err)
		}
		if err := e.sb.Pay(tradeOf(t, o, e.lcEnv), nil); err != nil {
			t.Fatal(err)
		}
		testenv.Eventually(t, 10*time.Second, "order paid", func() bool { return e.status(t, o.ID) == enum.OrderPaid })
		if in, out, kept := e.checkMoney(t, o.ID); in != 7 || out != 0 || kept != 7 {
			t.Fatalf("paid: in %d out %d kept %d", in, out, kept)
		}
		if _, err := e.svcs[0].BuyVoucher(ctx, 1, v, 1); apperr.CodeOf(err) != apperr.AlreadyOrdered {
			t.Fatalf("second buy of a paid order's voucher: %v", err)
		}
		if _, err := e.svcs[0].Refund(ctx, 1, o.ID); err != nil {
			t.Fatal(err)
		}
		testenv.Eventually(t, 10*time.Second, "order refunded", func() bool { return e.status(t, o.ID) == enum.OrderRefunded })
		if in, out, kept := e.checkMoney(t, o.ID); in != 7 || out != 7 || kept != 0 {
			t.Fatalf("refunded: in %d out %d kept %d", in, out, kept)
		}
		if _, err := e.svcs[0].BuyVoucher(ctx, 1, v, 1); apperr.CodeOf(err) != apperr.AlreadyOrdered {
			t.Fatalf("second buy of a refunded order's voucher: %v", err)
		}
	})
}

// One buyer's 20 buys at once, on two instances, make exactly one order;
// once it is cancelled, 20 more at once replace it by exactly one.
func TestBuyVoucherOnePerBuyerUnderConcurrency(t *testing.T) {
	testenv.ForEachBackend(t, func(t *testing.T, b testenv.Backends) {
		e := newLifecycle(t, b, 2, nil)
		ctx := context.Background()
		v := e.normal(t, 1)
		burst := func() []int64 {
			var mu sync.Mutex
			var won []int64
			var wg sync.WaitGroup
			for i := range 20 {
				wg.Go(func() {
					o, err := e.svcs[i%2].BuyVoucher(ctx, 1, v, 1)
					switch {
					case err == nil:
						mu.Lock()
						won = append(won, o.ID)
						mu.Unlock()
					case apperr.CodeOf(err) != apperr.AlreadyOrdered:
						t.Errorf("buy: %v", err)
					}
				})
			}
			wg.Wait()
			return won
		}
		one := func(won []int64) int64 {
			if len(won) != 1 || e.ordersOf(t, v) != 1 || e.status(t, won[0]) != enum.OrderUnpaid {
				t.Fatalf("winners %v, rows %d", won, e.ordersOf(t, v))
			}
			return won[0]
		}
		first := one(burst())
		if _, err := e.svcs[0].Cancel(ctx, 1, first); err != nil {
			t.Fatal(err)
		}
		second := one(burst())
		if second == first {
			t.Fatal("the cancelled order was not replaced")
		}
		if o, err := e.svcs[0].Get(ctx, 1, first); err != nil || o != nil {
			t.Fatalf("the replaced order is still there: %+v %v", o, err)
		}
		// Another buyer is not limited by the first.
		if _, err := e.svcs[0].BuyVoucher(ctx, 2, v, 1); err != nil {
			t.Fatal(err)
		}
	})
}

// Refusals, each before anything is written: a quantity out of bounds names
// the field, a voucher off sale or expired is SALE_ENDED, a flash-sale
// voucher must be bought in its sale, an unknown one is NOT_FOUND, and a
// buyer past the rate limit is RATE_LIMITED.
func TestBuyVoucherRefusals(t *testing.T) {
	testenv.ForEachBackend(t, func(t *testing.T, b testenv.Backends) {
		e := newLifecycle(t, b, 1, func(_ int, c *Config) {
			c.Limiter = ratelimit.New(b.Redis.Client, b.Redis.Prefix, true)
			c.BuyPerUser = ratelimit.Limit{Events: 8, Per: time.Hour}
		})
		ctx := context.Background()
		on, off, expired, sale := e.normal(t, 1), e.normal(t, 2), e.normal(t, 3), e.sale(t, 5)
		for _, q := range []int{0, -1, MaxBuyQuantity + 1} {
			var ae *apperr.Error
			if _, err := e.svcs[0].BuyVoucher(ctx, 1, on, q); !errors.As(err, &ae) || ae.Code != apperr.BadUserInput || ae.Field != "quantity" {
				t.Fatalf("quantity %d: %v", q, err)
			}
		}
		for _, v := range []int64{off, expired} {
			if _, err := e.svcs[0].BuyVoucher(ctx, 1, v, 1); apperr.CodeOf(err) != apperr.SaleEnded {
				t.Fatalf("voucher %d not on sale: %v", v, err)
			}
		}
		var ae *apperr.Error
		if _, err := e.svcs[0].BuyVoucher(ctx, 1, sale, 1); !errors.As(err, &ae) || ae.Field != "voucherId" {
			t.Fatalf("flash-sale voucher: %v", err)
		}
		if _, err := e.svcs[0].BuyVoucher(ctx, 1, 1<<40, 1); apperr.CodeOf(err) != apperr.NotFound {
			t.Fatalf("unknown voucher: %v", err)
		}
		n, err := b.DB.Client.Order.Query().Where(entorder.UserID(1)).Count(ctx)
		if err != nil || n != 0 {
			t.Fatalf("refused buys wrote %d orders (%v)", n, err)
		}
		// 3 quantity refusals spent nothing; 4 voucher refusals and this buy spent 5 of 8.
		if _, err := e.svcs[0].BuyVoucher(ctx, 1, on, voucher.DefaultPerUserLimit); err != nil {
			t.Fatal(err)
		}
		for range 3 {
			if _, err := e.svcs[0].BuyVoucher(ctx, 1, on, 1); apperr.CodeOf(err) != apperr.AlreadyOrdered {
				t.Fatalf("within the limit: %v", err)
			}
		}
		if _, err := e.svcs[0].BuyVoucher(ctx, 1, on, 1); apperr.CodeOf(err) != apperr.RateLimited {
			t.Fatalf("past the limit: %v", err)
		}
		if _, err := e.svcs[0].BuyVoucher(ctx, 2, on, 1); err != nil {
			t.Fatalf("another buyer: %v", err)
		}
	})
}

// An unpaid bought order is cancelled by the worker at its payment deadline,
// for non-payment, announced; the buyer may then buy the voucher again.
func TestBoughtOrderCancelledAtDeadline(t *testing.T) {
	testenv.ForEachBackend(t, func(t *testing.T, b testenv.Backends) {
		e := newLifecycle(t, b, 1, func(_ int, c *Config) { c.PayTimeout = 2 * time.Second })
		ctx := context.Background()
		v := e.normal(t, 1)
		o, err := e.svcs[0].BuyVoucher(ctx, 1, v, 1)
		if err != nil {
			t.Fatal(err)
		}
		e.svcs[0].Start()
		testenv.Eventually(t, 10*time.Second, "cancelled at the deadline", func() bool { return count(e.recs[0].list(), "CANCELLED") == 1 })
		if late := time.Since(e.svcs[0].Deadline(o.ID)); late > 3*time.Second {
			t.Fatalf("cancelled %v after the deadline", late)
		}
		got, err := e.svcs[0].Get(ctx, 1, o.ID)
		if err != nil || got.Status != enum.OrderCancelled {
			t.Fatalf("order %+v %v", got, err)
		}
		if r, err := e.svcs[0].CancelReason(ctx, got); err != nil || r == nil || *r != enum.CancelPayTimeout {
			t.Fatalf("reason %v %v", r, err)
		}
		if _, err := e.svcs[0].Pay(ctx, 1, o.ID, enum.PayAlipay); apperr.CodeOf(err) != apperr.Conflict {
			t.Fatalf("pay a cancelled order: %v", err)
		}
		if _, err := e.svcs[0].BuyVoucher(ctx, 1, v, 1); err != nil {
			t.Fatalf("buy again after the cancellation: %v", err)
		}
	})
}

// limited sets normal voucher v's per-user limit.
func (e *lcEnv) limited(t *testing.T, v int64, limit int) {
	t.Helper()
	if err := e.b.DB.Client.VoucherLimit.Create().SetID(v).SetPerUser(limit).Exec(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// quantityRows returns the hmdp_order_quantity row of order id (0: none).
func (e *lcEnv) quantityRow(t *testing.T, id int64) int {
	t.Helper()
	q, err := e.b.DB.Client.OrderQuantity.Get(context.Background(), id)
	if ent.IsNotFound(err) {
		return 0
	}
	if err != nil {
		t.Fatal(err)
	}
	return q.Quantity
}

// Three units of a voucher priced 7 fen: the order holds 3 (read back on
// another instance, alone and in the buyer's list), the provider is asked
// for and charged 21 through the sandbox's signed notify, the refund pays
// back all 21, and the money records balance with the provider's ledger at
// each step.
func TestBuyVoucherQuantityPaidAndRefunded(t *testing.T) {
	testenv.ForEachBackend(t, func(t *testing.T, b testenv.Backends) {
		e := newSandboxEnv(t, b, 2, nil)
		ctx := context.Background()
		v := e.normal(t, 1)
		o, err := e.svcs[0].BuyVoucher(ctx, 1, v, 3)
		if err != nil || o.Quantity != 3 {
			t.Fatalf("buy: %+v %v", o, err)
		}
		got, err := e.svcs[1].Get(ctx, 1, o.ID)
		if err != nil || got == nil {
			t.Fatalf("get: %+v %v", got, err)
		}
		if q, err := e.svcs[1].Quantity(ctx, got); err != nil || q != 3 {
			t.Fatalf("quantity %d %v", q, err)
		}
		mine, err := e.svcs[1].Mine(ctx, 1, nil, nil, nil)
		if err != nil || len(mine.Edges) != 1 || mine.Edges[0].Node.Quantity != 3 {
			t.Fatalf("mine: %+v %v", mine, err)
		}
		p, err := e.svcs[1].Pay(ctx, 1, o.ID, enum.PayAlipay)
		if err != nil || p.Payment == nil || p.Payment.Amount != 21 {
			t.Fatalf("pay: %+v %v", p, err)
		}
		if err := e.sb.Pay(tradeOf(t, o, e.lcEnv), nil); err != nil {
			t.Fatal(err)
		}
		testenv.Eventually(t, 10*time.Second, "order paid", func() bool { return e.status(t, o.ID) == enum.OrderPaid })
		if in, out, kept := e.checkMoney(t, o.ID); in != 21 || out != 0 || kept != 21 {
			t.Fatalf("paid: in %d out %d kept %d", in, out, kept)
		}
		if _, err := e.svcs[0].Refund(ctx, 1, o.ID); err != nil {
			t.Fatal(err)
		}
		testenv.Eventually(t, 10*time.Second, "order refunded", func() bool { return e.status(t, o.ID) == enum.OrderRefunded })
		if in, out, kept := e.checkMoney(t, o.ID); in != 21 || out != 21 || kept != 0 {
			t.Fatalf("refunded: in %d out %d kept %d", in, out, kept)
		}
		// An order without a quantity row (a flash sale's, or one placed
		// before quantities were stored) holds one unit.
		if err := b.DB.Client.OrderQuantity.DeleteOneID(o.ID).Exec(ctx); err != nil {
			t.Fatal(err)
		}
		if q, err := e.svcs[0].Quantity(ctx, &Order{ID: o.ID, Status: enum.OrderRefunded}); err != nil || q != 1 {
			t.Fatalf("without a row: %d %v", q, err)
		}
	})
}

// A quantity above the voucher's per-user limit, or the default limit when
// it sets none, or below 1, is BAD_USER_INPUT naming quantity and saying the
// limit; nothing is written. The limit itself is accepted.
func TestBuyVoucherPerUserLimit(t *testing.T) {
	testenv.ForEachBackend(t, func(t *testing.T, b testenv.Backends) {
		e := newLifecycle(t, b, 1, nil)
		ctx := context.Background()
		four, plain := e.normal(t, 1), e.normal(t, 1)
		e.limited(t, four, 4)
		for _, c := range []struct {
			v    int64
			q    int
			says string
		}{{four, 5, "is 4 per buyer"}, {plain, voucher.DefaultPerUserLimit + 1, "is 10 per buyer"}, {four, 0, "got 0"}, {plain, -3, "got -3"}} {
			var ae *apperr.Error
			_, err := e.svcs[0].BuyVoucher(ctx, 1, c.v, c.q)
			if !errors.As(err, &ae) || ae.Code != apperr.BadUserInput || ae.Field != "quantity" || !strings.Contains(ae.Message, c.says) {
				t.Fatalf("voucher %d quantity %d: %v", c.v, c.q, err)
			}
		}
		if e.ordersOf(t, four)+e.ordersOf(t, plain) != 0 {
			t.Fatal("a refused buy wrote an order")
		}
		o, err := e.svcs[0].BuyVoucher(ctx, 1, four, 4)
		if err != nil || e.quantityRow(t, o.ID) != 4 {
			t.Fatalf("buy at the limit: %+v %v", o, err)
		}
		if o, err := e.svcs[0].BuyVoucher(ctx, 1, plain, voucher.DefaultPerUserLimit); err != nil || e.quantityRow(t, o.ID) != voucher.DefaultPerUserLimit {
			t.Fatalf("buy at the default limit: %+v %v", o, err)
		}
	})
}

// One buyer's 20 buys at once of one voucher, each of another quantity, on
// two instances: one order, holding the winner's quantity; once it is
// cancelled, a buy of another quantity replaces it, and the replaced
// order's quantity goes with it.
func TestBuyVoucherQuantitiesUnderConcurrency(t *testing.T) {
	testenv.ForEachBackend(t, func(t *testing.T, b testenv.Backends) {
		e := newLifecycle(t, b, 2, nil)
		ctx := context.Background()
		v := e.normal(t, 1)
		e.limited(t, v, 20)
		var mu sync.Mutex
		var won []*Order
		var wg sync.WaitGroup
		for i := range 20 {
			wg.Go(func() {
				o, err := e.svcs[i%2].BuyVoucher(ctx, 1, v, i+1)
				switch {
				case err == nil:
					mu.Lock()
					won = append(won, o)
					mu.Unlock()
				case apperr.CodeOf(err) != apperr.AlreadyOrdered:
					t.Errorf("buy: %v", err)
				}
			})
		}
		wg.Wait()
		if len(won) != 1 || e.ordersOf(t, v) != 1 {
			t.Fatalf("winners %d, rows %d", len(won), e.ordersOf(t, v))
		}
		first := won[0]
		if e.quantityRow(t, first.ID) != first.Quantity {
			t.Fatalf("order holds %d, the winner bought %d", e.quantityRow(t, first.ID), first.Quantity)
		}
		n, err := b.DB.Client.OrderQuantity.Query().Count(ctx)
		if err != nil || n != 1 {
			t.Fatalf("%d quantity rows (%v), want the winner's", n, err)
		}
		if _, err := e.svcs[0].Cancel(ctx, 1, first.ID); err != nil {
			t.Fatal(err)
		}
		q := first.Quantity%20 + 1
		second, err := e.svcs[1].BuyVoucher(ctx, 1, v, q)
		if err != nil {
			t.Fatal(err)
		}
		if e.quantityRow(t, second.ID) != q || e.quantityRow(t, first.ID) != 0 {
			t.Fatalf("replaced: new order holds %d (want %d), the old one's row %d", e.quantityRow(t, second.ID), q, e.quantityRow(t, first.ID))
		}
	})
}
