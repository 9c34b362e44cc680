package app

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/Khan/genqlient/graphql"

	"github.com/hmdp/hmdp/internal/gqlclient"
	"github.com/hmdp/hmdp/internal/order"
	"github.com/hmdp/hmdp/internal/payment"
	"github.com/hmdp/hmdp/internal/testenv"
)

// shopVoucherLimits are shop 1's on-sale vouchers' perUserLimit and
// maxQuantity by id, as the shop page reads them (through the shop's cache).
func (ts *testServer) shopVoucherLimits(token string) map[string][2]any {
	ts.t.Helper()
	out := must(gqlclient.VoucherLimits(ts.t.Context(), ts.gql(token), "1"))(ts.t)
	m := map[string][2]any{}
	for _, v := range out.Vouchers {
		var l any
		if v.PerUserLimit != nil {
			l = *v.PerUserLimit
		}
		m[v.Id] = [2]any{l, v.MaxQuantity}
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
		ctx := t.Context()
		ts, _ := startOrdersApp(t, backend, Options{Seckill: fastSeckill,
			Orders: order.Config{PollEvery: 20 * time.Millisecond, Payments: &payment.Instant{}}})
		create := func(c graphql.Client, limit int) (*gqlclient.CreateVoucherWithLimitResponse, error) {
			return gqlclient.CreateVoucherWithLimit(ctx, c, gqlclient.CreateVoucherInput{
				ShopId: "1", Title: "bulk", PayValue: 100, ActualValue: 150, PerUserLimit: &limit})
		}
		buyer := ts.login("13800000071")
		buyerC, admin := ts.gql(buyer), ts.gql(ts.admin())
		if _, err := create(buyerC, 5); kindOf(err).Code != "FORBIDDEN" {
			t.Fatalf("non-admin createVoucher with perUserLimit: %v", err)
		}
		for _, bad := range []int{0, 101} {
			if _, err := create(admin, bad); kindOf(err) != (errorKind{Code: "BAD_USER_INPUT", Field: "input.perUserLimit"}) {
				t.Fatalf("perUserLimit %d: %v", bad, err)
			}
		}
		made := must(create(admin, 5))(t).CreateVoucher
		v := made.Id
		if made.PerUserLimit == nil || *made.PerUserLimit != 5 || made.MaxQuantity != 5 {
			t.Fatalf("created %+v", made)
		}
		plain := ts.createNormalVoucher()
		if got := ts.shopVoucherLimits(buyer); got[v] != [2]any{5, 5} || got[plain] != [2]any{nil, 10} {
			t.Fatalf("shop's vouchers: %v", got)
		}
		_, err := gqlclient.UpdateVoucherLimit(ctx, buyerC, v, new(9))
		wantCode(t, err, "FORBIDDEN")
		changed := must(gqlclient.UpdateVoucherLimit(ctx, admin, v, new(4)))(t).UpdateVoucher
		if changed.PerUserLimit == nil || *changed.PerUserLimit != 4 {
			t.Fatalf("updated %+v", changed)
		}
		if got := ts.shopVoucherLimits(buyer); got[v] != [2]any{4, 4} {
			t.Fatalf("shop's vouchers after the change: %v", got)
		}
		sale := ts.createSale(3, time.Now().Add(-time.Minute), time.Now().Add(time.Hour))
		_, err = gqlclient.UpdateVoucherLimit(ctx, admin, strconv.FormatInt(sale, 10), new(2))
		wantField(t, err, "input.perUserLimit") // no limit on a flash sale

		_, err = gqlclient.BuyVoucherQuantity(ctx, buyerC, v, 5)
		wantField(t, err, "quantity")
		if e := gqlErrors(err)[0]; !strings.Contains(e.Message, "is 4 per buyer") {
			t.Fatalf("over the limit: %+v", e)
		}
		bought := must(gqlclient.BuyVoucherQuantity(ctx, buyerC, v, 3))(t).BuyVoucher
		if bought.Quantity != 3 {
			t.Fatalf("bought %+v", bought)
		}
		paid := must(gqlclient.PayOrderQuantity(ctx, buyerC, bought.Id, gqlclient.PayTypeAlipay))(t).PayOrder
		if paid.Status != gqlclient.OrderStatusPaid || paid.Quantity != 3 || paid.Payment == nil || paid.Payment.Amount != 300 {
			t.Fatalf("paid %+v, want PAID, 3 units, 300 fen", paid)
		}
		mine := must(gqlclient.MyOrderQuantities(ctx, buyerC, new(5), nil))(t).MyOrders
		if len(mine.Edges) != 1 || mine.Edges[0].Node.Quantity != 3 {
			t.Fatalf("myOrders %+v", mine)
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
		ctx := t.Context()
		ts, other := twoInstances(t, backend)
		a, b := ts.login("13800000072"), ts.login("13800000073")
		rating := func(token, shop string) *int {
			return must(gqlclient.ShopViewerRating(ctx, ts.gql(token), shop))(t).Shop.ViewerRating
		}
		rate := func(token, shop string, stars int) {
			must(gqlclient.RateShop(ctx, ts.gql(token), shop, stars))(t)
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
			return must(gqlclient.ShopViewerRating(ctx, other.gql(a), "1"))(t).Shop.ViewerRating
		}
		testenv.Eventually(t, 5*time.Second, "a's rating on the other instance", func() bool { return is(onOther(), 4) })
		rate(a, "1", 2)
		rate(b, "1", 5)
		if !is(rating(a, "1"), 2) || !is(rating(b, "1"), 5) {
			t.Fatalf("after the change: a %v b %v", rating(a, "1"), rating(b, "1"))
		}
		testenv.Eventually(t, 5*time.Second, "a's changed rating on the other instance", func() bool { return is(onOther(), 2) })
		list := must(gqlclient.ShopViewerRatings(ctx, ts.gql(a), "1", new(10)))(t).Shops
		seen := 0
		for _, e := range list.Edges {
			want := map[string]int{"1": 2, "2": 3}[e.Node.Id]
			if !is(e.Node.ViewerRating, want) {
				t.Fatalf("shop %s in the list: %v, want %d", e.Node.Id, e.Node.ViewerRating, want)
			}
			if want != 0 {
				seen++
			}
		}
		if seen != 2 {
			t.Fatalf("the list has %d of the 2 rated shops: %+v", seen, list.Edges)
		}
	})
}
