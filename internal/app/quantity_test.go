package app

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/hmdp/hmdp/internal/order"
	"github.com/hmdp/hmdp/internal/payment"
	"github.com/hmdp/hmdp/internal/testenv"
)

const limitedVoucherQuery = `query { vouchers(shopId: "1") { id perUserLimit maxQuantity } }`

// shopVoucherLimits are shop 1's on-sale vouchers' perUserLimit and
// maxQuantity by id, as the shop page reads them (through the shop's cache).
func (ts *testServer) shopVoucherLimits(token string) map[string][2]any {
	ts.t.Helper()
	var out struct {
		Vouchers []struct {
			ID           string
			PerUserLimit *int
			MaxQuantity  int
		}
	}
	ts.ok(token, limitedVoucherQuery, nil, &out)
	m := map[string][2]any{}
	for _, v := range out.Vouchers {
		var l any
		if v.PerUserLimit != nil {
			l = *v.PerUserLimit
		}
		m[v.ID] = [2]any{l, v.MaxQuantity}
	}
	return m
}

// A voucher's per-user limit over GraphQL: only admins set it (a non-admin
// is FORBIDDEN on createVoucher and updateVoucher), 1 to 100 (BAD_USER_INPUT
// naming input.perUserLimit), not on a flash sale; the shop's vouchers show
// it at once after a change (perUserLimit and maxQuantity; null and 10 when
// unset). A buyer's order of 3 units holds 3 and is paid 3 × payValue; a
// quantity above the limit is BAD_USER_INPUT naming quantity and saying the
// limit.
func TestVoucherQuantityAndLimitOverGraphQL(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, backend string) {
		ts, _ := startOrdersApp(t, backend, Options{Seckill: fastSeckill,
			Orders: order.Config{PollEvery: 20 * time.Millisecond, Payments: &payment.Instant{}}})
		create := func(token string, limit any) gqlResponse {
			return ts.do(token, `mutation($in: CreateVoucherInput!) { createVoucher(input: $in) { id perUserLimit maxQuantity } }`,
				map[string]any{"in": map[string]any{"shopId": "1", "title": "bulk", "payValue": 100, "actualValue": 150, "perUserLimit": limit}})
		}
		update := `mutation($id: ID!, $l: Int) { updateVoucher(id: $id, input: {perUserLimit: $l}) { id perUserLimit maxQuantity } }`
		buyer := ts.login("13800000071")
		if c := create(buyer, 5).code(); c != "FORBIDDEN" {
			t.Fatalf("non-admin createVoucher with perUserLimit: %s", c)
		}
		for _, bad := range []int{0, 101} {
			if r := create(ts.admin(), bad); r.code() != "BAD_USER_INPUT" || r.Errors[0].Extensions["field"] != "input.perUserLimit" {
				t.Fatalf("perUserLimit %d: %+v", bad, r.Errors)
			}
		}
		var made struct {
			CreateVoucher struct {
				ID           string
				PerUserLimit *int
				MaxQuantity  int
			}
		}
		r := create(ts.admin(), 5)
		if r.code() != "" {
			t.Fatalf("create: %+v", r.Errors)
		}
		if err := json.Unmarshal(r.Data, &made); err != nil {
			t.Fatal(err)
		}
		v := made.CreateVoucher.ID
		if made.CreateVoucher.PerUserLimit == nil || *made.CreateVoucher.PerUserLimit != 5 || made.CreateVoucher.MaxQuantity != 5 {
			t.Fatalf("created %+v", made.CreateVoucher)
		}
		plain := ts.createNormalVoucher()
		if got := ts.shopVoucherLimits(buyer); got[v] != [2]any{5, 5} || got[plain] != [2]any{nil, 10} {
			t.Fatalf("shop's vouchers: %v", got)
		}
		ts.fails(buyer, update, map[string]any{"id": v, "l": 9}, "FORBIDDEN")
		var changed struct{ UpdateVoucher struct{ PerUserLimit *int } }
		ts.ok(ts.admin(), update, map[string]any{"id": v, "l": 4}, &changed)
		if changed.UpdateVoucher.PerUserLimit == nil || *changed.UpdateVoucher.PerUserLimit != 4 {
			t.Fatalf("updated %+v", changed.UpdateVoucher)
		}
		if got := ts.shopVoucherLimits(buyer); got[v] != [2]any{4, 4} {
			t.Fatalf("shop's vouchers after the change: %v", got)
		}
		sale := ts.createSale(3, time.Now().Add(-time.Minute), time.Now().Add(time.Hour))
		if e := ts.fails(ts.admin(), update, map[string]any{"id": sale, "l": 2}, "BAD_USER_INPUT"); e.Extensions["field"] != "input.perUserLimit" {
			t.Fatalf("limit on a flash sale: %+v", e)
		}

		buy := `mutation($v: ID!, $q: Int!) { buyVoucher(voucherId: $v, quantity: $q) { id quantity status } }`
		e := ts.fails(buyer, buy, map[string]any{"v": v, "q": 5}, "BAD_USER_INPUT")
		if e.Extensions["field"] != "quantity" || !strings.Contains(e.Message, "is 4 per buyer") {
			t.Fatalf("over the limit: %+v", e)
		}
		var bought struct {
			BuyVoucher struct {
				ID       string
				Quantity int
			}
		}
		ts.ok(buyer, buy, map[string]any{"v": v, "q": 3}, &bought)
		if bought.BuyVoucher.Quantity != 3 {
			t.Fatalf("bought %+v", bought.BuyVoucher)
		}
		var paid struct {
			PayOrder struct {
				Status   string
				Quantity int
				Payment  struct{ Amount int }
			}
		}
		ts.ok(buyer, `mutation($id: ID!) { payOrder(orderId: $id, payType: ALIPAY) { status quantity payment { amount } } }`,
			map[string]any{"id": bought.BuyVoucher.ID}, &paid)
		if paid.PayOrder.Status != "PAID" || paid.PayOrder.Quantity != 3 || paid.PayOrder.Payment.Amount != 300 {
			t.Fatalf("paid %+v, want PAID, 3 units, 300 fen", paid.PayOrder)
		}
		var mine struct {
			MyOrders struct {
				Edges []struct {
					Node struct {
						ID       string
						Quantity int
					}
				}
			}
		}
		ts.ok(buyer, `{ myOrders(first: 5) { edges { node { id quantity } } } }`, nil, &mine)
		if len(mine.MyOrders.Edges) != 1 || mine.MyOrders.Edges[0].Node.Quantity != 3 {
			t.Fatalf("myOrders %+v", mine.MyOrders)
		}
	})
}

// Shop.viewerRating over GraphQL: null when anonymous or not rated; the
// viewer's stars once rated, changed when the rating changes (at once on the
// instance that rated, and on another one that had the old value in its near
// cache once told); each user sees their own; a list of shops carries each
// shop's.
func TestViewerRatingOverGraphQL(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, backend string) {
		ts, other := twoInstances(t, backend)
		a, b := ts.login("13800000072"), ts.login("13800000073")
		rating := func(token, shop string) *int {
			var out struct{ Shop struct{ ViewerRating *int } }
			ts.ok(token, `query($id: ID!) { shop(id: $id) { id viewerRating } }`, map[string]any{"id": shop}, &out)
			return out.Shop.ViewerRating
		}
		rate := func(token, shop string, stars int) {
			ts.ok(token, `mutation($id: ID!, $s: Int!) { rateShop(shopId: $id, stars: $s) { id } }`, map[string]any{"id": shop, "s": stars}, nil)
		}
		is := func(got *int, want int) bool { return (got == nil && want == 0) || (got != nil && *got == want) }
		if !is(rating(a, "1"), 0) || !is(rating("", "1"), 0) {
			t.Fatal("a rating before any")
		}
		rate(a, "1", 4)
		rate(a, "2", 3)
		if !is(rating(a, "1"), 4) || !is(rating(b, "1"), 0) || !is(rating("", "1"), 0) {
			t.Fatalf("after a's rating: a %v b %v anonymous %v", rating(a, "1"), rating(b, "1"), rating("", "1"))
		}
		onOther := func() *int {
			var out struct{ Shop struct{ ViewerRating *int } }
			other.ok(a, `{ shop(id: "1") { viewerRating } }`, nil, &out)
			return out.Shop.ViewerRating
		}
		testenv.Eventually(t, 5*time.Second, "a's rating on the other instance", func() bool { return is(onOther(), 4) })
		rate(a, "1", 2)
		rate(b, "1", 5)
		if !is(rating(a, "1"), 2) || !is(rating(b, "1"), 5) {
			t.Fatalf("after the change: a %v b %v", rating(a, "1"), rating(b, "1"))
		}
		testenv.Eventually(t, 5*time.Second, "a's changed rating on the other instance", func() bool { return is(onOther(), 2) })
		var list struct {
			Shops struct {
				Edges []struct {
					Node struct {
						ID           string
						ViewerRating *int
					}
				}
			}
		}
		ts.ok(a, `{ shops(typeId: "1", first: 10) { edges { node { id viewerRating } } } }`, nil, &list)
		seen := 0
		for _, e := range list.Shops.Edges {
			want := map[string]int{"1": 2, "2": 3}[e.Node.ID]
			if !is(e.Node.ViewerRating, want) {
				t.Fatalf("shop %s in the list: %v, want %d", e.Node.ID, e.Node.ViewerRating, want)
			}
			if want != 0 {
				seen++
			}
		}
		if seen != 2 {
			t.Fatalf("the list has %d of the 2 rated shops: %+v", seen, list.Shops.Edges)
		}
	})
}
