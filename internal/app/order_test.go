package app

import (
	"context"
	"encoding/json"
	"io"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hmdp/hmdp/internal/seckill"
	"github.com/hmdp/hmdp/internal/testenv"
)

const (
	vouchersQuery = `query($s: ID!) { vouchers(shopId: $s) { id title type status payValue seckill { stock } }
		shop(id: $s) { vouchers { id } } }`
	payMutation    = `mutation($id: ID!, $p: PayType!) { payOrder(orderId: $id, payType: $p) { id status payType payTime } }`
	cancelMutation = `mutation($id: ID!) { cancelOrder(orderId: $id) { id status } }`
	myOrdersQuery  = `query($f: Int, $a: String) { myOrders(first: $f, after: $a) { edges { cursor node { id status voucher { id } } } pageInfo { hasNextPage endCursor } } }`
)

type orderView struct {
	ID      string
	Status  string
	PayType *string
	PayTime *string
	Voucher struct{ ID string }
	User    struct{ ID string }
}

func (ts *testServer) order(token, id string) *orderView {
	ts.t.Helper()
	var out struct{ Order *orderView }
	ts.ok(token, orderQuery, map[string]any{"id": id}, &out)
	return out.Order
}

// waitStatus polls order(id) until it has status.
//
//nolint:unparam // status is spelled out at the call sites, which read as the expectation
func (ts *testServer) waitStatus(token, id, status string) *orderView {
	ts.t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		o := ts.order(token, id)
		if o != nil && o.Status == status {
			return o
		}
		if time.Now().After(deadline) {
			ts.t.Fatalf("order %s: %+v, want %s", id, o, status)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

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
		ts := startSaleServer(t, backend, testConfig(t, backend), fastSeckill)
		user := ts.login("13800000001")
		admin := ts.admin()
		now := time.Now()
		in := func(edit func(m, sk map[string]any)) map[string]any {
			sk := map[string]any{"stock": 5, "beginTime": now.Format(time.RFC3339), "endTime": now.Add(time.Hour).Format(time.RFC3339)}
			m := map[string]any{"shopId": "1", "title": "t", "payValue": 1, "actualValue": 2, "seckill": sk}
			edit(m, sk)
			return map[string]any{"in": m}
		}
		ts.fails(user, createVoucherMutation, in(func(m, sk map[string]any) {}), "FORBIDDEN")
		for field, edit := range map[string]func(m, sk map[string]any){
			"input.seckill.stock":   func(m, sk map[string]any) { sk["stock"] = 0 },
			"input.seckill.endTime": func(m, sk map[string]any) { sk["endTime"] = now.Add(-time.Hour).Format(time.RFC3339) },
			"input.payValue":        func(m, sk map[string]any) { m["payValue"] = -1 },
			"input.actualValue":     func(m, sk map[string]any) { m["actualValue"] = -1 },
			"input.title":           func(m, sk map[string]any) { m["title"] = "" },
			"input.shopId":          func(m, sk map[string]any) { m["shopId"] = "999" },
		} {
			e := ts.fails(admin, createVoucherMutation, in(edit), "BAD_USER_INPUT")
			if e.Extensions["field"] != field {
				t.Errorf("%s: field %v", field, e.Extensions["field"])
			}
		}
		var before struct{ Vouchers []struct{ ID string } }
		ts.ok("", vouchersQuery, map[string]any{"s": "1"}, &before)

		var normal createdVoucher
		ts.ok(admin, createVoucherMutation, in(func(m, sk map[string]any) { delete(m, "seckill") }), &normal)
		if normal.CreateVoucher.Type != "NORMAL" || normal.CreateVoucher.Seckill != nil || normal.CreateVoucher.Status != "ON_SALE" {
			t.Fatalf("%+v", normal)
		}
		flash := ts.createSale(5, now, now.Add(time.Hour))
		var after struct {
			Vouchers []struct {
				ID, Type, Status string
				Seckill          *struct{ Stock int }
			}
			Shop struct{ Vouchers []struct{ ID string } }
		}
		ts.ok("", vouchersQuery, map[string]any{"s": "1"}, &after)
		if len(after.Vouchers) != len(before.Vouchers)+2 || len(after.Shop.Vouchers) != len(after.Vouchers) {
			t.Fatalf("before %d, after %+v", len(before.Vouchers), after)
		}
		last := after.Vouchers[len(after.Vouchers)-1]
		if last.ID != strconv.FormatInt(flash, 10) || last.Type != "SECKILL" || last.Seckill == nil || last.Seckill.Stock != 5 {
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

		ts.app.seckill.Stop(ctx) // hold persistence: the order stays PENDING
		a1 := ts.seckill(alice, v)
		if o := ts.order(alice, a1); o == nil || o.Status != "PENDING" || o.Voucher.ID != strconv.FormatInt(v, 10) {
			t.Fatalf("%+v", o)
		}
		ts.fails(alice, payMutation, map[string]any{"id": a1, "p": "ALIPAY"}, "CONFLICT")
		var mine struct {
			MyOrders struct {
				Edges []struct{ Node orderView }
			}
		}
		ts.ok(alice, myOrdersQuery, nil, &mine)
		if len(mine.MyOrders.Edges) != 1 || mine.MyOrders.Edges[0].Node.Status != "PENDING" {
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
		ts.fails(bob, payMutation, map[string]any{"id": a1, "p": "ALIPAY"}, "NOT_FOUND")

		// Pay twice: the same paid order, paid once.
		var p1, p2 struct{ PayOrder orderView }
		ts.ok(alice, payMutation, map[string]any{"id": a1, "p": "ALIPAY"}, &p1)
		ts.ok(alice, payMutation, map[string]any{"id": a1, "p": "WECHAT"}, &p2)
		if p1.PayOrder.Status != "PAID" || *p1.PayOrder.PayType != "ALIPAY" || *p2.PayOrder.PayType != "ALIPAY" || *p1.PayOrder.PayTime != *p2.PayOrder.PayTime {
			t.Fatalf("%+v %+v", p1, p2)
		}
		ts.fails(alice, cancelMutation, map[string]any{"id": a1}, "CONFLICT")

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
		var c struct{ CancelOrder orderView }
		ts.ok(bob, cancelMutation, map[string]any{"id": b1}, &c)
		if c.CancelOrder.Status != "CANCELLED" {
			t.Fatalf("%+v", c)
		}
		ts.ok(bob, cancelMutation, map[string]any{"id": b1}, &c) // idempotent
		if m, r := stocks(); m != 2 || r != 2 {
			t.Fatalf("stocks after cancel %d %d, want 2 2", m, r)
		}
		ts.fails(bob, payMutation, map[string]any{"id": b1, "p": "BALANCE"}, "CONFLICT")
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
		for _, tok := range []string{alice} {
			var page struct {
				MyOrders struct {
					Edges    []struct{ Cursor string }
					PageInfo struct {
						HasNextPage bool
						EndCursor   *string
					}
				}
			}
			ts.ok(tok, myOrdersQuery, map[string]any{"f": 1}, &page)
			if len(page.MyOrders.Edges) != 1 || page.MyOrders.PageInfo.HasNextPage {
				t.Fatalf("%+v", page)
			}
			ts.ok(tok, myOrdersQuery, map[string]any{"f": 1, "a": *page.MyOrders.PageInfo.EndCursor}, &page)
			if len(page.MyOrders.Edges) != 0 {
				t.Fatalf("%+v", page)
			}
		}
		ts.fails(alice, myOrdersQuery, map[string]any{"f": 51}, "BAD_USER_INPUT")
		ts.fails("", orderQuery, map[string]any{"id": a1}, "UNAUTHENTICATED")

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

var _ = json.Marshal
