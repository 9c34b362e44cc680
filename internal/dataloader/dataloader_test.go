package dataloader_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/hmdp/hmdp/ent"
	"github.com/hmdp/hmdp/internal/database"
	"github.com/hmdp/hmdp/internal/dataloader"
	"github.com/hmdp/hmdp/internal/testenv"
	"github.com/hmdp/hmdp/internal/voucher"
)

// A shop's vouchers come back in the order of the keys asked for, a shop
// without any as an empty list, an ended sale left out; the sales read on
// the way are kept for Voucher.seckill, which then reads nothing more.
func TestShopVouchersKeepKeyOrderAndKeepSales(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, db *database.DB) {
		ctx, c := context.Background(), db.Client
		now := time.Now().UTC().Truncate(time.Second)
		c.ShopType.Create().SetID(1).SetName("t").SetIcon("i").SetSort(1).ExecX(ctx)
		shop := func(name string) int64 {
			return c.Shop.Create().SetName(name).SetTypeID(1).SetAddress("a").SetX(120).SetY(30).SaveX(ctx).ID
		}
		s1, s2, empty := shop("one"), shop("two"), shop("none")
		v := func(shopID int64, sale *[2]time.Time) int64 {
			x := testenv.Voucher{ShopID: shopID, Title: "v", Status: 1}
			if sale == nil {
				return x.MustCreate(t, ctx, c).ID
			}
			return testenv.Sale{Voucher: x, Stock: 5, Begin: sale[0], End: sale[1]}.MustCreate(t, ctx, c).ID
		}
		a := v(s1, nil)
		live := v(s1, &[2]time.Time{now.Add(-time.Hour), now.Add(time.Hour)})
		v(s2, &[2]time.Time{now.Add(-2 * time.Hour), now.Add(-time.Hour)}) // ended
		b := v(s2, nil)

		l := dataloader.Factory{DB: c, Vouchers: voucher.New(voucher.Config{DB: c})}.New(0)
		got, err := l.ShopVouchers.LoadAll(ctx, []int64{s2, empty, s1})
		if err != nil {
			t.Fatal(err)
		}
		ids := func(vs []*ent.Voucher) []int64 {
			out := []int64{}
			for _, x := range vs {
				out = append(out, x.ID)
			}
			return out
		}
		want := [][]int64{{b}, {}, {a, live}}
		for i := range want {
			if g := ids(got[i]); !slices.Equal(g, want[i]) {
				t.Fatalf("key %d: vouchers %v, want %v", i, g, want[i])
			}
			if got[i] == nil {
				t.Fatalf("key %d: nil list", i)
			}
		}
		// The sale was kept: gone from the database, it still loads.
		c.SeckillVoucher.DeleteOneID(live).ExecX(ctx)
		if sv, err := l.Sales.Load(ctx, live); err != nil || sv == nil || sv.Stock != 5 {
			t.Fatalf("kept sale %+v %v", sv, err)
		}
		// A missing id is nil through OrNil, not an error.
		if sv, err := dataloader.OrNil(l.Sales.Load(ctx, a)); sv != nil || err != nil {
			t.Fatalf("normal voucher's sale %+v %v", sv, err)
		}
	})
}
