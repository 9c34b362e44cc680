package stockwatch

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hmdp/hmdp/ent/schema/enum"
	"github.com/hmdp/hmdp/internal/apperr"
	"github.com/hmdp/hmdp/internal/seckill"
	"github.com/hmdp/hmdp/internal/testenv"
)

// A clock tests move by hand.
type clock struct{ off atomic.Int64 }

func (c *clock) now() time.Time          { return time.Now().Add(time.Duration(c.off.Load())) }
func (c *clock) advance(d time.Duration) { c.off.Add(int64(d)) }

// sale makes a flash-sale voucher and writes its Redis state as the flash
// sale does.
func sale(t *testing.T, b testenv.Backends, stock int, begin, end time.Time) int64 {
	t.Helper()
	ctx := context.Background()
	sv := testenv.Sale{Stock: stock, Begin: begin, End: end}.MustCreate(t, ctx, b.DB.Client)
	setState(t, b, sv.ID, stock, begin, end)
	return sv.ID
}

func setState(t *testing.T, b testenv.Backends, id int64, stock int, begin, end time.Time) {
	t.Helper()
	err := b.Redis.Client.HSet(context.Background(), seckill.KeysOf(b.Redis.Prefix, id).State,
		"stock", stock, "begin", begin.UnixMilli(), "end", end.UnixMilli()).Err()
	if err != nil {
		t.Fatal(err)
	}
}

// next is the next update on ch within 5 s.
func next(t *testing.T, ch <-chan *Sale) Sale {
	t.Helper()
	select {
	case s, ok := <-ch:
		if !ok {
			t.Fatal("the subscription ended")
		}
		return *s
	case <-time.After(5 * time.Second):
		t.Fatal("no update within 5 s")
	}
	return Sale{}
}

// A subscriber sees each sale's values at once, then every change of stock
// (a purchase, a unit given back) and of state (sold out, the sale opening
// by the clock) within a poll, while another subscriber that reads nothing
// delays nobody; leaving stops the poller.
func TestSubscribersFollowStockAndState(t *testing.T) {
	testenv.ForEachBackend(t, func(t *testing.T, b testenv.Backends) {
		var c clock
		w := New(Config{DB: b.DB.Client, Redis: b.Redis.Client, Prefix: b.Redis.Prefix, Every: 20 * time.Millisecond, Now: c.now})
		t.Cleanup(w.Close)
		now := time.Now().Truncate(time.Millisecond)
		open := sale(t, b, 2, now.Add(-time.Minute), now.Add(time.Hour))
		soon := sale(t, b, 7, now.Add(time.Minute), now.Add(time.Hour))

		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		ch, err := w.Subscribe(ctx, []int64{open, soon, open})
		if err != nil {
			t.Fatal(err)
		}
		idle, err := w.Subscribe(ctx, []int64{open}) // never read
		if err != nil {
			t.Fatal(err)
		}
		first := map[int64]Sale{}
		for range 2 {
			s := next(t, ch)
			first[s.VoucherID] = s
		}
		if first[open] != (Sale{open, 2, enum.SaleOnSale}) || first[soon] != (Sale{soon, 7, enum.SaleUpcoming}) {
			t.Fatalf("first values: %+v", first)
		}
		for _, want := range []Sale{{open, 1, enum.SaleOnSale}, {open, 0, enum.SaleSoldOut}, {open, 1, enum.SaleOnSale}} {
			setState(t, b, open, want.Stock, now.Add(-time.Minute), now.Add(time.Hour))
			if got := next(t, ch); got != want {
				t.Fatalf("after stock %d: %+v, want %+v", want.Stock, got, want)
			}
		}
		c.advance(time.Minute) // the upcoming sale opens by the clock alone
		if got := next(t, ch); got != (Sale{soon, 7, enum.SaleOnSale}) {
			t.Fatalf("after its begin: %+v", got)
		}
		if len(idle) == 0 {
			t.Fatal("the idle subscription got nothing")
		}
		cancel()
		testenv.Eventually(t, 5*time.Second, "the poller stops when nobody follows", func() bool {
			w.mu.Lock()
			defer w.mu.Unlock()
			return !w.polling && len(w.sales) == 0
		})
	})
}

// Bad ids are refused naming ids, before anything is followed.
func TestSubscribeRefusesBadIDs(t *testing.T) {
	testenv.ForEachBackend(t, func(t *testing.T, b testenv.Backends) {
		w := New(Config{DB: b.DB.Client, Redis: b.Redis.Client, Prefix: b.Redis.Prefix})
		t.Cleanup(w.Close)
		ctx := context.Background()
		now := time.Now()
		id := sale(t, b, 1, now, now.Add(time.Hour))
		many := make([]int64, MaxVouchers+1)
		for i := range many {
			many[i] = int64(i + 1)
		}
		for _, c := range []struct {
			ids  []int64
			code apperr.Code
		}{{nil, apperr.BadUserInput}, {many, apperr.BadUserInput}, {[]int64{id, 999_999}, apperr.NotFound}} {
			_, err := w.Subscribe(ctx, c.ids)
			if e, ok := apperr.As(err); !ok || e.Code != c.code || e.Field != "ids" {
				t.Errorf("%d ids: %v, want %s on ids", len(c.ids), err, c.code)
			}
		}
		if len(w.sales) != 0 {
			t.Errorf("refused subscriptions left %d sales followed", len(w.sales))
		}
	})
}
