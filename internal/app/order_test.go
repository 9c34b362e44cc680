package app

import (
	"context"
	"io"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/Khan/genqlient/graphql"

	"github.com/hmdp/hmdp/internal/gqlclient"
	"github.com/hmdp/hmdp/internal/seckill"
	"github.com/hmdp/hmdp/internal/testenv"
)

// Documents that tests elsewhere in the package send raw.
const (
	payMutation    = `mutation($id: ID!, $p: PayType!) { payOrder(orderId: $id, payType: $p) { id status payType payTime } }`
	cancelMutation = `mutation($id: ID!) { cancelOrder(orderId: $id) { id status } }`
	myOrdersQuery  = `query($f: Int, $a: String) { myOrders(first: $f, after: $a) { edges { cursor node { id status voucher { id } } } pageInfo { hasNextPage endCursor } } }`
)

// order reads order(id) as token's user (nil when it answers null).
func (ts *testServer) order(token, id string) *gqlclient.OrderFields {
	ts.t.Helper()
	return must(gqlclient.Order(ts.t.Context(), ts.gql(token), id))(ts.t).Order
}

// waitStatus polls order(id) until it has status.
//
//nolint:unparam // status is spelled out at the call sites, which read as the expectation
func (ts *testServer) waitStatus(token, id, status string) *gqlclient.OrderFields {
	ts.t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		o := ts.order(token, id)
		if o != nil && string(o.Status) == status {
			return o
		}
		if time.Now().After(deadline) {
			ts.t.Fatalf("order %s: %+v, want %s", id, o, status)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// seckill buys one unit of sale v as token's user and returns the order's id.
// It sends seckillMutation raw: an anonymous operation, whose span is
// "mutation", which TestTracingInProcess expects between POST /graphql and
// Mutation.seckillVoucher (the typed client's named operation would be
// "mutation SeckillVoucher").
func (ts *testServer) seckill(token string, v int64) string {
	ts.t.Helper()
	var out struct {
		SeckillVoucher struct{ OrderID, Status string }
	}
	ts.ok(token, seckillMutation, map[string]any{"v": strconv.FormatInt(v, 10)}, &out)
	if out.SeckillVoucher.Status != "PENDING" {
		ts.t.Fatalf("status %s", out.SeckillVoucher.Status)
	}
	return out.SeckillVoucher.OrderID
}

// createVoucher: admins only, every bad field named, nothing half written;
// vouchers(shopId) and Shop.vouchers list the on-sale ones with their sale.
func TestCreateVoucher(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, backend string) {
		ctx := t.Context()
		ts := startSaleServer(t, backend, testConfig(t, backend), fastSeckill)
		user := ts.gql(ts.login("13800000001"))
		admin, anon := ts.gql(ts.admin()), ts.gql("")
		now := time.Now()
		in := func(edit func(in *gqlclient.CreateVoucherInput)) gqlclient.CreateVoucherInput {
			begin := now.Truncate(time.Second) // whole seconds, as RFC 3339 without fractions
			in := gqlclient.CreateVoucherInput{ShopId: "1", Title: "t", PayValue: 1, ActualValue: 2,
				Seckill: &gqlclient.SeckillInput{Stock: 5, BeginTime: begin, EndTime: begin.Add(time.Hour)}}
			edit(&in)
			return in
		}
		_, err := gqlclient.CreateVoucher(ctx, user, in(func(*gqlclient.CreateVoucherInput) {}))
		wantCode(t, err, "FORBIDDEN")
		for field, edit := range map[string]func(in *gqlclient.CreateVoucherInput){
			"input.seckill.stock":   func(in *gqlclient.CreateVoucherInput) { in.Seckill.Stock = 0 },
			"input.seckill.endTime": func(in *gqlclient.CreateVoucherInput) { in.Seckill.EndTime = in.Seckill.BeginTime.Add(-time.Hour) },
			"input.payValue":        func(in *gqlclient.CreateVoucherInput) { in.PayValue = -1 },
			"input.actualValue":     func(in *gqlclient.CreateVoucherInput) { in.ActualValue = -1 },
			"input.title":           func(in *gqlclient.CreateVoucherInput) { in.Title = "" },
			"input.shopId":          func(in *gqlclient.CreateVoucherInput) { in.ShopId = "999" },
		} {
			_, err := gqlclient.CreateVoucher(ctx, admin, in(edit))
			wantCode(t, err, "BAD_USER_INPUT")
			if got := kindOf(err).Field; got != field {
				t.Errorf("%s: field %v", field, got)
			}
		}
		before := must(gqlclient.VouchersAndShopVouchers(ctx, anon, "1"))(t)

		normal := must(gqlclient.CreateVoucher(ctx, admin, in(func(in *gqlclient.CreateVoucherInput) { in.Seckill = nil })))(t).CreateVoucher
		if normal.Type != gqlclient.VoucherTypeNormal || normal.Seckill != nil || normal.Status != gqlclient.VoucherStatusOnSale {
			t.Fatalf("%+v", normal)
		}
		flash := ts.createSale(5, now, now.Add(time.Hour))
		after := must(gqlclient.VouchersAndShopVouchers(ctx, anon, "1"))(t)
		if len(after.Vouchers) != len(before.Vouchers)+2 || after.Shop == nil || len(after.Shop.Vouchers) != len(after.Vouchers) {
			t.Fatalf("before %d, after %+v", len(before.Vouchers), after)
		}
		last := after.Vouchers[len(after.Vouchers)-1]
		if last.Id != strconv.FormatInt(flash, 10) || last.Type != gqlclient.VoucherTypeSeckill || last.Seckill == nil || last.Seckill.Stock != 5 {
			t.Fatalf("%+v", last)
		}
		// The sale state is in Redis right after the commit.
		k := seckill.KeysOf(ts.app.cfg.RedisPrefix, flash)
		if n, err := ts.redis().HGet(context.Background(), k.State, "stock").Int(); err != nil || n != 5 {
			t.Fatalf("Redis stock %d, %v", n, err)
		}
		// The seeded flash sale (MySQL only) is rebuilt into Redis on first use.
		tok := ts.login("13800000002")
		id := ts.seckill(tok, 2)
		ts.waitStatus(tok, id, "UNPAID")
	})
}

// An order's life: PENDING while only Redis has it, UNPAID once persisted,
// payment idempotent, cancellation unpaid-only with the unit back in MySQL
// and Redis, and the buyer free to buy again.
func TestOrderLifecycle(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, backend string) {
		ts := startSaleServer(t, backend, testConfig(t, backend), fastSeckill)
		ctx := context.Background()
		v := ts.createSale(3, time.Now().Add(-time.Second), time.Now().Add(time.Hour))
		alice, bob := ts.login("13800000011"), ts.login("13800000012")
		aliceC, bobC := ts.gql(alice), ts.gql(bob)

		ts.app.seckill.Stop(ctx) // hold persistence: the order stays PENDING
		a1 := ts.seckill(alice, v)
		if o := ts.order(alice, a1); o == nil || o.Status != "PENDING" || o.Voucher.Id != strconv.FormatInt(v, 10) {
			t.Fatalf("%+v", o)
		}
		_, err := gqlclient.PayOrder(ctx, aliceC, a1, gqlclient.PayTypeAlipay)
		wantCode(t, err, "CONFLICT")
		mine := must(gqlclient.MyOrders(ctx, aliceC, nil, nil))(t)
		if len(mine.MyOrders.Edges) != 1 || mine.MyOrders.Edges[0].Node.Status != gqlclient.OrderStatusPending {
			t.Fatalf("%+v", mine)
		}
		ts.app.seckill.Start()
		o := ts.waitStatus(alice, a1, "UNPAID")
		if o.PayType != nil || o.PayTime != nil {
			t.Fatalf("unpaid order shows payment: %+v", o)
		}
		if ts.order(bob, a1) != nil {
			t.Fatal("bob sees alice's order")
		}
		_, err = gqlclient.PayOrder(ctx, bobC, a1, gqlclient.PayTypeAlipay)
		wantCode(t, err, "NOT_FOUND")

		// Pay twice: the same paid order, paid once.
		p1 := must(gqlclient.PayOrder(ctx, aliceC, a1, gqlclient.PayTypeAlipay))(t)
		p2 := must(gqlclient.PayOrder(ctx, aliceC, a1, gqlclient.PayTypeWechat))(t)
		if p1.PayOrder.Status != gqlclient.OrderStatusPaid || *p1.PayOrder.PayType != gqlclient.PayTypeAlipay || *p2.PayOrder.PayType != gqlclient.PayTypeAlipay || !p1.PayOrder.PayTime.Equal(*p2.PayOrder.PayTime) {
			t.Fatalf("%+v %+v", p1, p2)
		}
		_, err = gqlclient.CancelOrder(ctx, aliceC, a1)
		wantCode(t, err, "CONFLICT")

		// Bob buys, cancels: one unit back in MySQL and Redis, and he may buy again.
		b1 := ts.seckill(bob, v)
		ts.waitStatus(bob, b1, "UNPAID")
		stocks := func() (int, int) {
			var m int
			if err := ts.app.db.SQL.QueryRowContext(ctx, "SELECT stock FROM tb_seckill_voucher WHERE voucher_id = ?", v).Scan(&m); err != nil {
				t.Fatal(err)
			}
			r, err := ts.redis().HGet(ctx, seckill.KeysOf(ts.app.cfg.RedisPrefix, v).State, "stock").Int()
			if err != nil {
				t.Fatal(err)
			}
			return m, r
		}
		if m, r := stocks(); m != 1 || r != 1 {
			t.Fatalf("stocks %d %d, want 1 1", m, r)
		}
		c := must(gqlclient.CancelOrder(ctx, bobC, b1))(t)
		if c.CancelOrder.Status != gqlclient.OrderStatusCancelled {
			t.Fatalf("%+v", c)
		}
		must(gqlclient.CancelOrder(ctx, bobC, b1))(t) // idempotent
		if m, r := stocks(); m != 2 || r != 2 {
			t.Fatalf("stocks after cancel %d %d, want 2 2", m, r)
		}
		_, err = gqlclient.PayOrder(ctx, bobC, b1, gqlclient.PayTypeBalance)
		wantCode(t, err, "CONFLICT")
		b2 := ts.seckill(bob, v)
		ts.waitStatus(bob, b2, "UNPAID")
		if m, r := stocks(); m != 1 || r != 1 {
			t.Fatalf("stocks after buying again %d %d, want 1 1", m, r)
		}
		var rows int
		if err := ts.app.db.SQL.QueryRowContext(ctx, "SELECT COUNT(*) FROM tb_voucher_order WHERE voucher_id = ? AND user_id = (SELECT id FROM tb_user WHERE phone = '13800000012')", v).Scan(&rows); err != nil || rows != 1 {
			t.Fatalf("bob has %d rows (%v)", rows, err)
		}

		// myOrders pages.
		for _, c := range []graphql.Client{aliceC} {
			page := must(gqlclient.MyOrders(ctx, c, new(1), nil))(t)
			if len(page.MyOrders.Edges) != 1 || page.MyOrders.PageInfo.HasNextPage {
				t.Fatalf("%+v", page)
			}
			page = must(gqlclient.MyOrders(ctx, c, new(1), new(*page.MyOrders.PageInfo.EndCursor)))(t)
			if len(page.MyOrders.Edges) != 0 {
				t.Fatalf("%+v", page)
			}
		}
		_, err = gqlclient.MyOrders(ctx, aliceC, new(51), nil)
		wantCode(t, err, "BAD_USER_INPUT")
		_, err = gqlclient.Order(ctx, ts.gql(""), a1)
		wantCode(t, err, "UNAUTHENTICATED")

		// Metrics. The consumer counts a batch just after its commit, so a
		// row seen in MySQL may precede its count by a moment.
		wants := []string{`hmdp_seckill_requests_total{result="ok"} 3`, `hmdp_orders_persisted_total 3`, `hmdp_order_stream_pending{voucher="`, `"} 0`}
		var body []byte
		testenv.Eventually(t, 5*time.Second, "the order metrics", func() bool {
			res, err := httpGet(t.Context(), ts.URL+"/metrics")
			if err != nil {
				t.Fatal(err)
			}
			body, _ = io.ReadAll(res.Body)
			res.Body.Close()
			for _, want := range wants {
				if !strings.Contains(string(body), want) {
					t.Logf("metrics lack %q so far", want)
					return false
				}
			}
			return true
		})
	})
}
