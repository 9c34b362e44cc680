package database_test

import (
	"context"
	"testing"
	"time"

	"github.com/hmdp/hmdp/internal/database"
	"github.com/hmdp/hmdp/internal/testenv"
)

func TestSeedLoadsDemoDataOnce(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, db *database.DB) {
		ctx := context.Background()
		did, err := db.Seed(ctx, time.Now())
		if err != nil || !did {
			t.Fatalf("seed: %v %v", did, err)
		}
		if n := db.Client.ShopType.Query().CountX(ctx); n != 10 {
			t.Fatalf("%d shop types, want 10", n)
		}
		if n := db.Client.Shop.Query().CountX(ctx); n != 14 {
			t.Fatalf("%d shops, want 14", n)
		}
		s := db.Client.Shop.GetX(ctx, 1)
		if s.Name != "103茶餐厅" || s.X != 120.149192 || s.Y != 30.316078 || s.Sold != 4215 {
			t.Fatalf("shop 1 = %+v", s)
		}
		sv := db.Client.SeckillVoucher.Query().OnlyX(ctx)
		if sv.Stock != database.SeedFlashSaleStock || !sv.EndTime.After(time.Now().Add(29*24*time.Hour)) {
			t.Fatalf("flash sale = %+v", sv)
		}
		if did, err := db.Seed(ctx, time.Now()); err != nil || did {
			t.Fatalf("second seed: %v %v", did, err)
		}
		// Migrating again is a no-op.
		if err := db.Migrate(ctx); err != nil {
			t.Fatal(err)
		}
	})
}
