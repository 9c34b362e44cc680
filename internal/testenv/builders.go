package testenv

import (
	"cmp"
	"context"
	"testing"
	"time"

	"github.com/hmdp/hmdp/ent"
)

// Voucher builds a normal (type 0) voucher row for tests. A zero field takes
// its default, so a test names only the values it depends on.
type Voucher struct {
	ShopID      int64  // default 1 (the row need not exist)
	Title       string // default "t"
	PayValue    int64  // default 1
	ActualValue int64  // default 2
	Status      int    // default the schema's (1, on sale)
}

// MustCreate inserts the voucher, failing the test on error.
func (v Voucher) MustCreate(t testing.TB, ctx context.Context, c *ent.Client) *ent.Voucher {
	t.Helper()
	x, err := v.create(c, 0).Save(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return x
}

func (v Voucher) create(c *ent.Client, typ int) *ent.VoucherCreate {
	vc := c.Voucher.Create().SetShopID(cmp.Or(v.ShopID, 1)).SetTitle(cmp.Or(v.Title, "t")).
		SetPayValue(cmp.Or(v.PayValue, 1)).SetActualValue(cmp.Or(v.ActualValue, 2)).SetType(typ)
	if v.Status != 0 {
		vc.SetStatus(v.Status)
	}
	return vc
}

// Sale builds a flash sale: a type 1 voucher and its tb_seckill_voucher row.
// Stock is taken as is (0 is a sold-out sale). A zero Begin is a minute ago
// and a zero End an hour ahead, both truncated to the second: MySQL's
// timestamp columns would round the fractions, and the returned row (what a
// test publishes to Redis) must match what is stored. Times given are stored
// as given.
type Sale struct {
	Voucher
	Stock      int
	Begin, End time.Time
}

// MustCreate inserts the sale, failing the test on error; its ID is the
// voucher's. It writes nothing to Redis: the caller publishes the sale.
func (s Sale) MustCreate(t testing.TB, ctx context.Context, c *ent.Client) *ent.SeckillVoucher {
	t.Helper()
	v, err := s.create(c, 1).Save(ctx)
	if err != nil {
		t.Fatal(err)
	}
	begin, end := s.times()
	sv, err := s.seckill(c, v.ID, begin, end).Save(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return sv
}

// MustCreateN inserts n such sales in bulk statements (one row at a time
// is slow for the thousands some tests need), all with the same times.
func (s Sale) MustCreateN(t testing.TB, ctx context.Context, c *ent.Client, n int) []*ent.SeckillVoucher {
	t.Helper()
	begin, end := s.times()
	out := make([]*ent.SeckillVoucher, 0, n)
	for len(out) < n {
		m := min(n-len(out), 250) // keeps each statement's size bounded
		vs := make([]*ent.VoucherCreate, m)
		for i := range vs {
			vs[i] = s.create(c, 1)
		}
		created, err := c.Voucher.CreateBulk(vs...).Save(ctx)
		if err != nil {
			t.Fatal(err)
		}
		svs := make([]*ent.SeckillVoucherCreate, m)
		for i, v := range created {
			svs[i] = s.seckill(c, v.ID, begin, end)
		}
		saved, err := c.SeckillVoucher.CreateBulk(svs...).Save(ctx)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, saved...)
	}
	return out
}

func (s Sale) times() (begin, end time.Time) {
	begin, end = s.Begin, s.End
	now := time.Now()
	if begin.IsZero() {
		begin = now.Add(-time.Minute).Truncate(time.Second)
	}
	if end.IsZero() {
		end = now.Add(time.Hour).Truncate(time.Second)
	}
	return begin, end
}

func (s Sale) seckill(c *ent.Client, id int64, begin, end time.Time) *ent.SeckillVoucherCreate {
	return c.SeckillVoucher.Create().SetID(id).SetStock(s.Stock).SetBeginTime(begin).SetEndTime(end)
}
