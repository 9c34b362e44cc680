package testenv_test

import (
	"context"
	"testing"
	"time"

	"github.com/hmdp/hmdp/internal/database"
	"github.com/hmdp/hmdp/internal/testenv"
)

// The builders store their documented defaults, and the values a test names.
func TestBuildersStoreDefaults(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, db *database.DB) {
		ctx, c := context.Background(), db.Client
		v := testenv.Voucher{}.MustCreate(t, ctx, c)
		if v.ShopID != 1 || v.Title != "t" || v.PayValue != 1 || v.ActualValue != 2 || v.Type != 0 || v.Status != 1 {
			t.Fatalf("default voucher %+v", v)
		}

		before := time.Now()
		sv := testenv.Sale{Voucher: testenv.Voucher{PayValue: 7, ActualValue: 10}, Stock: 3}.MustCreate(t, ctx, c)
		if sv.Stock != 3 || sv.BeginTime.Nanosecond() != 0 || sv.EndTime.Nanosecond() != 0 ||
			!sv.BeginTime.Before(before) || !sv.EndTime.After(before.Add(59*time.Minute)) {
			t.Fatalf("sale %+v", sv)
		}
		sv2 := c.SeckillVoucher.GetX(ctx, sv.ID)
		if !sv2.BeginTime.Equal(sv.BeginTime) || !sv2.EndTime.Equal(sv.EndTime) {
			t.Fatalf("stored %v..%v, returned %v..%v", sv2.BeginTime, sv2.EndTime, sv.BeginTime, sv.EndTime)
		}
		x := c.Voucher.GetX(ctx, sv.ID)
		if x.Type != 1 || x.PayValue != 7 || x.ActualValue != 10 || x.Title != "t" {
			t.Fatalf("sale's voucher %+v", x)
		}

		svs := testenv.Sale{Stock: 2}.MustCreateN(t, ctx, c, 300)
		if n := c.SeckillVoucher.Query().CountX(ctx); len(svs) != 300 || n != 301 {
			t.Fatalf("%d returned, %d stored; want 300, 301", len(svs), n)
		}
	})
}
