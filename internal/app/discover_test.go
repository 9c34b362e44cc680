package app

import (
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/hmdp/hmdp/internal/config"
	"github.com/hmdp/hmdp/internal/gqlclient"
)

// A page of shops sorted and filtered, with each shop's best voucher, costs
// the same statements whatever its size: Shop.bestVoucher goes through the
// response's voucher loader (one batch for the page), in the page's order.
// The seeded shop 1's best voucher is its flash sale, 80代100.
func TestDiscoverPageWithVoucherTags(t *testing.T) {
	forEachBackend(t, func(t *testing.T, backend string) {
		var sqlCount atomic.Int64
		ts := startCountedWith(t, backend, &sqlCount, func(*config.Config) {})
		ctx, anon := t.Context(), ts.gql("")
		viewer := ts.login("13800000001")
		me := must(gqlclient.Me(ctx, ts.gql(viewer)))(t).Me
		if me == nil {
			t.Fatal("me is null for a logged-in viewer")
		}
		var viewerID int64
		_, _ = fmt.Sscan(me.Id, &viewerID)
		seedQueryCost(t, ts, viewerID) // shops of type 1 with a normal voucher and a flash sale each
		type tag = gqlclient.DiscoverShopsShopsShopConnectionEdgesShopEdgeNodeShopBestVoucherVoucherTag
		cost := map[int]int64{}
		for _, n := range []int{5, 40} {
			page := func() (*gqlclient.DiscoverShopsResponse, error) {
				return gqlclient.DiscoverShops(ctx, anon, "1", nil, &n, ptrTo(gqlclient.ShopSortPriceAsc),
					&gqlclient.ShopFilter{MaxPrice: ptrTo(100000)})
			}
			must(page())(t) // warm
			s0 := sqlCount.Load()
			out := must(page())(t).Shops
			cost[n] = sqlCount.Load() - s0
			if len(out.Edges) != n {
				t.Fatalf("%d shops, want %d", len(out.Edges), n)
			}
			tagged := 0
			for i, e := range out.Edges {
				if i > 0 && e.Node.AvgPrice < out.Edges[i-1].Node.AvgPrice {
					t.Fatalf("not cheapest first: %+v", out.Edges)
				}
				if e.Node.BestVoucher != nil {
					tagged++
				}
			}
			if tagged == 0 {
				t.Fatal("no shop of the page has a voucher tag")
			}
		}
		t.Logf("SQL statements for a page with voucher tags: %d of 5 shops, %d of 40", cost[5], cost[40])
		if cost[5] != cost[40] {
			t.Fatalf("statements: %d for a page of 5, %d for 40", cost[5], cost[40])
		}
		one := must(gqlclient.DiscoverShops(ctx, anon, "1", nil, ptrTo(1), nil, nil))(t).Shops
		if len(one.Edges) == 0 {
			t.Fatal("no shop of type 1")
		}
		want := tag{Label: "80代100", PayValue: 8000, ActualValue: 10000, FlashSale: true}
		got := one.Edges[0].Node
		if got.Id != "1" || got.BestVoucher == nil || got.BestVoucher.VoucherId == "" {
			t.Fatalf("shop 1: %+v", got)
		}
		got.BestVoucher.VoucherId = ""
		if *got.BestVoucher != want {
			t.Fatalf("shop 1's tag %+v, want %+v", *got.BestVoucher, want)
		}
		// Bad arguments name their field through the API too.
		_, err := gqlclient.DiscoverShops(ctx, anon, "1", nil, nil, ptrTo(gqlclient.ShopSortDistance), nil)
		wantField(t, err, "near") // sort DISTANCE without near
		_, err = gqlclient.SearchShops(ctx, anon, "a b c d e f", nil, nil)
		wantField(t, err, "name") // six words
		areas := must(gqlclient.ShopAreas(ctx, anon, "1"))(t).ShopAreas
		if len(areas) < 3 {
			t.Fatalf("areas of type 1: %v", areas)
		}
	})
}
