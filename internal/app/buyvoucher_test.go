package app

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/hmdp/hmdp/internal/gqlclient"
	"github.com/hmdp/hmdp/internal/order"
	"github.com/hmdp/hmdp/internal/payment"
)

// createNormalVoucher creates a normal (not flash-sale) voucher on shop 1
// through GraphQL, priced 100 fen.
func (ts *testServer) createNormalVoucher() string {
	ts.t.Helper()
	var out createdVoucher
	ts.ok(ts.admin(), createVoucherMutation, map[string]any{"in": map[string]any{
		"shopId": "1", "title": "normal", "payValue": 100, "actualValue": 1000}}, &out)
	return out.CreateVoucher.ID
}

// buyVoucher over GraphQL: refused to a client not logged in, a quantity
// outside the cap names the field, a flash-sale voucher names voucherId; a
// buyer gets an UNPAID order at once, announced by orderUpdates, payable
// through the provider to PAID; a second buy is ALREADY_ORDERED.
func TestBuyVoucherOverGraphQL(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, backend string) {
		ts, _ := startOrdersApp(t, backend, Options{Seckill: fastSeckill,
			Orders: order.Config{PollEvery: 20 * time.Millisecond, Payments: &payment.Instant{}}})
		ctx := context.Background()
		v := ts.createNormalVoucher()
		_, err := gqlclient.BuyVoucher(ctx, ts.gql(""), v, 1)
		wantCode(t, err, "UNAUTHENTICATED")

		buyer := ts.login("13800000091")
		_, err = gqlclient.BuyVoucher(ctx, ts.gql(buyer), v, order.MaxBuyQuantity+1)
		wantField(t, err, "quantity")
		sale := ts.createSale(3, time.Now().Add(-time.Minute), time.Now().Add(time.Hour))
		_, err = gqlclient.BuyVoucher(ctx, ts.gql(buyer), strconv.FormatInt(sale, 10), 1)
		wantField(t, err, "voucherId")

		ws, err := dialWS(t, ts.URL, "graphql-transport-ws", map[string]any{"authorization": "Bearer " + buyer}, nil)
		if err != nil {
			t.Fatal(err)
		}
		ws.subscribe("o", orderUpdatesSubscription, nil)
		ts.waitSubscriptions("orderUpdates", 1)

		o := must(gqlclient.BuyVoucher(ctx, ts.gql(buyer), v, 1))(t).BuyVoucher
		if o.Status != gqlclient.OrderStatusUnpaid || o.Voucher.Id != v {
			t.Fatalf("bought %+v", o)
		}
		if e := ws.nextOrderEvent("o"); e.ID != o.Id || e.Status != "UNPAID" || e.Voucher.ID != v {
			t.Fatalf("event %+v, want order %s UNPAID", e, o.Id)
		}
		_, err = gqlclient.BuyVoucher(ctx, ts.gql(buyer), v, 1)
		wantCode(t, err, "ALREADY_ORDERED")

		paid := must(gqlclient.PayOrder(ctx, ts.gql(buyer), o.Id, gqlclient.PayTypeAlipay))(t).PayOrder
		if paid.Status != gqlclient.OrderStatusPaid {
			t.Fatalf("paid %+v", paid)
		}
		if e := ws.nextOrderEvent("o"); e.ID != o.Id || e.Status != "PAID" {
			t.Fatalf("event %+v, want order %s PAID", e, o.Id)
		}
	})
}
