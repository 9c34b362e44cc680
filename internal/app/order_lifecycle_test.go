package app

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/hmdp/hmdp/internal/gqlclient"
	"github.com/hmdp/hmdp/internal/order"
	"github.com/hmdp/hmdp/internal/testenv"
)

// The order lifecycle through GraphQL: an unpaid order is cancelled by the
// server at its deadline (cancelReason PAY_TIMEOUT, unit back on sale); a
// paid one is refunded by its buyer (once, refundTime set) or redeemed by a
// shop admin (others FORBIDDEN); a used order cannot be refunded.
func TestOrderLifecycleThroughGraphQL(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, backend string) {
		start := func(payTimeout time.Duration) (*testServer, *order.FakePayments) {
			pay := &order.FakePayments{}
			return startApp(t, backend, testConfig(t, backend), Options{Seckill: fastSeckill,
				Orders: order.Config{PayTimeout: payTimeout, PollEvery: 20 * time.Millisecond, Payments: pay}}), pay
		}
		// Orders left unpaid on one server (3 s to pay), paid ones on another
		// (an hour), so a loaded machine cannot let those expire before they are paid.
		ts, _ := start(3 * time.Second)
		ctx := context.Background()
		now := time.Now()
		v := ts.createSale(1, now.Add(-time.Minute), now.Add(time.Hour))
		tokens := ts.users(1)

		// 1: left unpaid, cancelled by the server.
		expired := ts.seckill(tokens[0], v)
		ts.waitStatus(tokens[0], expired, "UNPAID")
		lc := must(gqlclient.OrderLifecycle(ctx, ts.gql(tokens[0]), expired))(t).Order
		if time.Until(lc.PayDeadline) > 3*time.Second || lc.CancelReason != nil {
			t.Fatalf("unpaid order: %+v", lc)
		}
		testenv.Eventually(t, 10*time.Second, "cancelled at the deadline", func() bool {
			o := must(gqlclient.OrderLifecycle(ctx, ts.gql(tokens[0]), expired))(t).Order
			return o.Status == gqlclient.OrderStatusCancelled && o.CancelReason != nil && *o.CancelReason == gqlclient.CancelReasonPayTimeout
		})

		// 2 and 3: paid; one refunded (twice: the same refund), one redeemed.
		ps, pay := start(time.Hour)
		pv := ps.createSale(2, now.Add(-time.Minute), now.Add(time.Hour))
		buyers := ps.users(2)
		refunded, redeemed := ps.seckill(buyers[0], pv), ps.seckill(buyers[1], pv)
		for i, id := range []string{refunded, redeemed} {
			ps.waitStatus(buyers[i], id, "UNPAID")
			ps.ok(buyers[i], payMutation, map[string]any{"id": id, "p": "ALIPAY"}, nil)
		}
		for range 2 {
			r := must(gqlclient.RefundOrder(ctx, ps.gql(buyers[0]), refunded))(t).RefundOrder
			if r.Status != gqlclient.OrderStatusRefunded || r.RefundTime == nil {
				t.Fatalf("refund: %+v", r)
			}
		}
		id, _ := strconv.ParseInt(refunded, 10, 64)
		if amount, ok := pay.Refunded(id); !ok || amount != 100 {
			t.Fatalf("provider refunded %d %v", amount, ok)
		}
		if _, err := gqlclient.RefundOrder(ctx, ps.gql(buyers[1]), refunded); kindOf(err).Code != "NOT_FOUND" {
			t.Fatalf("someone else's refund: %v", err)
		}
		if _, err := gqlclient.RedeemOrder(ctx, ps.gql(buyers[1]), redeemed); kindOf(err).Code != "FORBIDDEN" {
			t.Fatalf("redeem by the buyer: %v", err)
		}
		r := must(gqlclient.RedeemOrder(ctx, ps.gql(ps.admin()), redeemed))(t).RedeemOrder
		if r.Status != gqlclient.OrderStatusUsed || r.UseTime == nil {
			t.Fatalf("redeem: %+v", r)
		}
		if _, err := gqlclient.RefundOrder(ctx, ps.gql(buyers[1]), redeemed); kindOf(err).Code != "CONFLICT" {
			t.Fatalf("refund of a used order: %v", err)
		}
		if _, err := gqlclient.RedeemOrder(ctx, ts.gql(ts.admin()), expired); kindOf(err).Code != "CONFLICT" {
			t.Fatalf("redeem of a cancelled order: %v", err)
		}
	})
}
