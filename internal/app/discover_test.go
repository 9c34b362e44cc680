package app

import (
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/hmdp/hmdp/internal/config"
)

// A page of shops sorted and filtered, with each shop's best voucher, costs
// the same statements whatever its size: Shop.bestVoucher goes through the
// response's voucher loader (one batch for the page), in the page's order.
// The seeded shop 1's best voucher is its flash sale, 80代100.
func TestDiscoverPageWithVoucherTags(t *testing.T) {
	forEachBackend(t, func(t *testing.T, backend string) {
		var sqlCount atomic.Int64
		ts := startCountedWith(t, backend, &sqlCount, func(*config.Config) {})
		viewer := ts.login("13800000001")
		var me struct{ Me struct{ ID string } }
		ts.ok(viewer, meQuery, nil, &me)
		var viewerID int64
		_, _ = fmt.Sscan(me.Me.ID, &viewerID)
		seedQueryCost(t, ts, viewerID) // shops of type 1 with a normal voucher and a flash sale each
		const q = `query($n: Int, $sort: ShopSort, $filter: ShopFilter) {
			shops(typeId: "1", first: $n, sort: $sort, filter: $filter) {
				edges { node { id avgPrice bestVoucher { voucherId label payValue actualValue flashSale } } }
			}
		}`
		type tag struct {
			VoucherID, Label      string
			PayValue, ActualValue int
			FlashSale             bool
		}
		type page struct {
			Shops struct {
				Edges []struct {
					Node struct {
						ID          string
						AvgPrice    int
						BestVoucher *tag
					}
				}
			}
		}
		cost := map[int]int64{}
		for _, n := range []int{5, 40} {
			vars := map[string]any{"n": n, "sort": "PRICE_ASC", "filter": map[string]any{"maxPrice": 100000}}
			ts.ok("", q, vars, nil) // warm
			s0 := sqlCount.Load()
			var out page
			ts.ok("", q, vars, &out)
			cost[n] = sqlCount.Load() - s0
			if len(out.Shops.Edges) != n {
				t.Fatalf("%d shops, want %d", len(out.Shops.Edges), n)
			}
			tagged := 0
			for i, e := range out.Shops.Edges {
				if i > 0 && e.Node.AvgPrice < out.Shops.Edges[i-1].Node.AvgPrice {
					t.Fatalf("not cheapest first: %+v", out.Shops.Edges)
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
		var one page
		ts.ok("", q, map[string]any{"n": 1}, &one)
		want := tag{Label: "80代100", PayValue: 8000, ActualValue: 10000, FlashSale: true}
		got := one.Shops.Edges[0].Node
		if got.ID != "1" || got.BestVoucher == nil || got.BestVoucher.VoucherID == "" {
			t.Fatalf("shop 1: %+v", got)
		}
		got.BestVoucher.VoucherID = ""
		if *got.BestVoucher != want {
			t.Fatalf("shop 1's tag %+v, want %+v", *got.BestVoucher, want)
		}
		// Bad arguments name their field through the API too.
		e := ts.fails("", `{ shops(typeId: "1", sort: DISTANCE) { edges { node { id } } } }`, nil, "BAD_USER_INPUT")
		if e.Extensions["field"] != "near" {
			t.Fatalf("sort DISTANCE without near: %+v", e)
		}
		e = ts.fails("", `{ searchShops(name: "a b c d e f") { edges { node { id } } } }`, nil, "BAD_USER_INPUT")
		if e.Extensions["field"] != "name" {
			t.Fatalf("six words: %+v", e)
		}
		var areas struct{ ShopAreas []string }
		ts.ok("", `{ shopAreas(typeId: "1") }`, nil, &areas)
		if len(areas.ShopAreas) < 3 {
			t.Fatalf("areas of type 1: %v", areas.ShopAreas)
		}
	})
}
