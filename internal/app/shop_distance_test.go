package app

import (
	"testing"
)

// Shop.distance belongs to the nearby search that found the shop: the shops
// of its page carry it; the same shops reached through a field of theirs (a
// voucher's shop) or any other way (shop(id), search) answer null.
func TestShopDistanceOnlyOnNearbyPages(t *testing.T) {
	forEachBackend(t, func(t *testing.T, backend string) {
		ts := startServer(t, backend)
		type nested struct {
			ID       string
			Distance *float64
		}
		var out struct {
			Shops struct {
				Edges []struct {
					Node struct {
						ID       string
						Distance *float64
						Vouchers []struct{ Shop nested }
					}
				}
			}
			Shop   nested
			Search struct{ Edges []struct{ Node nested } }
		}
		ts.ok("", `{
			shops(typeId: "1", near: {x: 120.149993, y: 30.334229}, first: 50) {
				edges { node { id distance vouchers { shop { id distance } } } }
			}
			shop(id: "1") { id distance }
			search: searchShops(name: "茶餐厅") { edges { node { id distance } } }
		}`, nil, &out)
		vouchers := 0
		for _, e := range out.Shops.Edges {
			if e.Node.Distance == nil {
				t.Fatalf("shop %s of a nearby page without its distance", e.Node.ID)
			}
			for _, v := range e.Node.Vouchers {
				vouchers++
				if v.Shop.ID != e.Node.ID || v.Shop.Distance != nil {
					t.Fatalf("voucher's shop %+v under shop %s", v.Shop, e.Node.ID)
				}
			}
		}
		if len(out.Shops.Edges) == 0 || vouchers == 0 {
			t.Fatalf("%d shops nearby, %d vouchers: the demo data should have both", len(out.Shops.Edges), vouchers)
		}
		if out.Shop.ID != "1" || out.Shop.Distance != nil {
			t.Fatalf("shop(id): %+v", out.Shop)
		}
		if len(out.Search.Edges) == 0 {
			t.Fatal("searchShops found nothing")
		}
		for _, e := range out.Search.Edges {
			if e.Node.Distance != nil {
				t.Fatalf("searchShops: %+v", e.Node)
			}
		}
	})
}
