package app

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hmdp/hmdp/ent/operatoraudit"
	"github.com/hmdp/hmdp/ent/schema/enum"
	"github.com/hmdp/hmdp/internal/apperr"
	"github.com/hmdp/hmdp/internal/audit"
	"github.com/hmdp/hmdp/internal/auth"
	"github.com/hmdp/hmdp/internal/order"
	"github.com/hmdp/hmdp/internal/seckill"
	"github.com/hmdp/hmdp/internal/shop"
	"github.com/hmdp/hmdp/internal/testenv"
	"github.com/hmdp/hmdp/internal/voucher"
)

// The operator console's API (graph/operator.graphqls and the admin fields of
// voucher.graphqls): every field refuses an anonymous caller and a
// non-admin, works for an admin, and every change leaves one audit row.

const (
	updateVoucherMutation = `mutation($id: ID!, $in: UpdateVoucherInput!) { updateVoucher(id: $id, input: $in) {
		id title payValue status seckill { stock beginTime endTime } } }`
	setOnSaleMutation      = `mutation($id: ID!, $on: Boolean!) { setVoucherOnSale(id: $id, onSale: $on) { id status } }`
	operatorVouchersQuery  = `query($s: ID!) { operatorVouchers(shopId: $s) { id status } }`
	saleNumbersQuery       = `query($v: ID!) { saleNumbers(voucherId: $v) { voucherId redisStock mysqlStock admitted pending persisted orders { status count } rejectedTotal rejected { reason count } deadLetters } }`
	deadLettersQuery       = `query($s: ID!, $after: String) { deadLetters(sale: $s, after: $after) { id orderId userId reason } }`
	shopOrdersQuery        = `query($s: ID!, $st: OrderStatus, $after: String) { shopOrders(shopId: $s, status: $st, first: 2, after: $after) { edges { node { id status user { id } } } pageInfo { hasNextPage endCursor } } }`
	operatorAuditQuery     = `query($s: ID, $after: String) { operatorAudit(shopId: $s, after: $after) { edges { node { id actor action at shopId voucherId orderId userId outcome detail } } pageInfo { hasNextPage endCursor } } }`
	viewerIsAdminQuery     = `{ viewerIsAdmin }`
	consoleCreateShop      = `mutation($in: CreateShopInput!) { createShop(input: $in) { id name images x y } }`
	consoleUpdateShop      = `mutation($id: ID!, $in: UpdateShopInput!) { updateShop(id: $id, input: $in) { id name } }`
	consoleRedeemMutation  = `mutation($id: ID!) { redeemOrder(orderId: $id) { id status } }`
	consoleSeckillMutation = `mutation($v: ID!) { seckillVoucher(voucherId: $v) { orderId status } }`
)

type saleNumbersJSON struct {
	SaleNumbers struct {
		VoucherID                      string
		RedisStock, Admitted           *int
		MysqlStock, Pending, Persisted int
		RejectedTotal, DeadLetters     int
		Orders                         []struct {
			Status string
			Count  int
		}
		Rejected []struct {
			Reason string
			Count  int
		}
	}
}

type auditJSON struct {
	OperatorAudit struct {
		Edges []struct {
			Node struct {
				ID                                 int
				Actor, Action, At, Outcome, Detail string
				ShopID, VoucherID, OrderID, UserID string
			}
		}
		PageInfo struct {
			HasNextPage bool
			EndCursor   string
		}
	}
}

// auditRows counts the audit rows of the console's own actions (not the
// dead-letter ones).
func (ts *testServer) auditRows(actions ...enum.OperatorAction) int {
	ts.t.Helper()
	n, err := ts.app.db.Client.OperatorAudit.Query().Where(operatoraudit.ActionIn(actions...)).Count(context.Background())
	if err != nil {
		ts.t.Fatal(err)
	}
	return n
}

// fieldOf is the field an error names.
func fieldOf(e gqlError) string {
	f, _ := e.Extensions["field"].(string)
	return f
}

// Every operator field refuses anonymous callers (UNAUTHENTICATED) and
// non-admins (FORBIDDEN) on the server, and a refused call writes no audit
// row; viewerIsAdmin tells the web app whom to show the console.
func TestConsoleRefusesNonAdmins(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, backend string) {
		ts := startSaleServer(t, backend, testConfig(t, backend), fastSeckill)
		v := ts.createSale(3, time.Now().Add(time.Hour), time.Now().Add(2*time.Hour))
		vs := strconv.FormatInt(v, 10)
		user := ts.login("13800000091")
		before := ts.auditRows(enum.OperatorCreateShop, enum.OperatorUpdateShop, enum.OperatorCreateVoucher,
			enum.OperatorUpdateVoucher, enum.OperatorTakeOffSale, enum.OperatorPutOnSale, enum.OperatorRedeemOrder)
		calls := []struct {
			query string
			vars  map[string]any
		}{
			{updateVoucherMutation, map[string]any{"id": vs, "in": map[string]any{"title": "x"}}},
			{setOnSaleMutation, map[string]any{"id": vs, "on": false}},
			{operatorVouchersQuery, map[string]any{"s": "1"}},
			{saleNumbersQuery, map[string]any{"v": vs}},
			{deadLettersQuery, map[string]any{"s": vs}},
			{shopOrdersQuery, map[string]any{"s": "1"}},
			{operatorAuditQuery, nil},
			{consoleCreateShop, map[string]any{"in": map[string]any{"name": "n", "typeId": "1", "address": "a", "x": 120.1, "y": 30.2}}},
			{consoleUpdateShop, map[string]any{"id": "1", "in": map[string]any{"name": "n"}}},
			{createVoucherMutation, map[string]any{"in": map[string]any{"shopId": "1", "title": "t", "payValue": 1, "actualValue": 2}}},
			{consoleRedeemMutation, map[string]any{"id": "1"}},
		}
		for _, c := range calls {
			ts.fails("", c.query, c.vars, "UNAUTHENTICATED")
			ts.fails(user, c.query, c.vars, "FORBIDDEN")
		}
		after := ts.auditRows(enum.OperatorCreateShop, enum.OperatorUpdateShop, enum.OperatorCreateVoucher,
			enum.OperatorUpdateVoucher, enum.OperatorTakeOffSale, enum.OperatorPutOnSale, enum.OperatorRedeemOrder)
		if after != before {
			t.Fatalf("refused calls wrote %d audit rows", after-before)
		}
		for token, want := range map[string]bool{"": false, user: false, ts.admin(): true} {
			var out struct{ ViewerIsAdmin bool }
			ts.ok(token, viewerIsAdminQuery, nil, &out)
			if out.ViewerIsAdmin != want {
				t.Fatalf("viewerIsAdmin for %q: %v", token, out.ViewerIsAdmin)
			}
		}
	})
}

// An admin edits a flash sale before it begins (stock, window, prices), and
// while it runs only what is safe (texts, more stock, a later end: a price or
// a new begin is refused naming the field); takes it off sale (buyers are
// told SALE_ENDED) and back; reads its live numbers as a buyer buys; lists
// the shop's orders and the sale's dead letters; redeems the buyer's order;
// every change is one audit row (who, when, what), listed newest first.
func TestConsoleVoucherLifecycle(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, backend string) {
		pay := &order.FakePayments{}
		ts := startApp(t, backend, testConfig(t, backend), Options{Seckill: fastSeckill,
			Orders: order.Config{PayTimeout: time.Hour, PollEvery: 20 * time.Millisecond, Payments: pay}})
		admin := ts.admin()
		ctx := context.Background()
		now := time.Now()
		var me struct{ Me struct{ ID string } }
		ts.ok(admin, meQuery, nil, &me)
		actor := "user:" + me.Me.ID

		// A shop of the console, created and renamed: two audit rows.
		var shop struct{ CreateShop struct{ ID, Name string } }
		ts.ok(admin, consoleCreateShop, map[string]any{"in": map[string]any{"name": "Console Café", "typeId": "1",
			"address": "1 Test Road", "x": 120.15, "y": 30.28, "images": []string{"/images/a.jpg"}}}, &shop)
		ts.ok(admin, consoleUpdateShop, map[string]any{"id": shop.CreateShop.ID, "in": map[string]any{"name": "Console Café 2"}}, nil)

		// Before the sale begins: stock, window and price may change.
		var created createdVoucher
		ts.ok(admin, createVoucherMutation, map[string]any{"in": map[string]any{
			"shopId": shop.CreateShop.ID, "title": "flash", "payValue": 100, "actualValue": 1000,
			"seckill": map[string]any{"stock": 2, "beginTime": now.Add(time.Hour).Format(time.RFC3339), "endTime": now.Add(2 * time.Hour).Format(time.RFC3339)},
		}}, &created)
		vs := created.CreateVoucher.ID
		v, _ := strconv.ParseInt(vs, 10, 64)
		var upd struct {
			UpdateVoucher struct {
				Title    string
				PayValue int
				Seckill  struct{ Stock int }
			}
		}
		ts.ok(admin, updateVoucherMutation, map[string]any{"id": vs, "in": map[string]any{"title": "flash 2", "payValue": 90,
			"seckill": map[string]any{"stock": 4, "beginTime": now.Add(-time.Minute).Format(time.RFC3339)}}}, &upd)
		if u := upd.UpdateVoucher; u.Title != "flash 2" || u.PayValue != 90 || u.Seckill.Stock != 4 {
			t.Fatalf("updated voucher %+v", u)
		}

		// Now it has begun: the Redis state was rebuilt with the new stock.
		nums := func() saleNumbersJSON {
			var n saleNumbersJSON
			ts.ok(admin, saleNumbersQuery, map[string]any{"v": vs}, &n)
			return n
		}
		if n := nums().SaleNumbers; n.RedisStock == nil || *n.RedisStock != 4 || n.MysqlStock != 4 || n.Persisted != 0 {
			t.Fatalf("numbers before any purchase %+v", n)
		}
		for field, in := range map[string]map[string]any{
			"input.payValue":          {"payValue": 80},
			"input.actualValue":       {"actualValue": 900},
			"input.seckill.stock":     {"seckill": map[string]any{"stock": 9}},
			"input.seckill.beginTime": {"seckill": map[string]any{"beginTime": now.Format(time.RFC3339)}},
			"input.seckill.endTime":   {"seckill": map[string]any{"endTime": now.Add(-time.Second).Format(time.RFC3339)}},
			"input.seckill.addStock":  {"seckill": map[string]any{"addStock": 0}},
			"input.title":             {"title": ""},
		} {
			if e := ts.fails(admin, updateVoucherMutation, map[string]any{"id": vs, "in": in}, "BAD_USER_INPUT"); fieldOf(e) != field {
				t.Fatalf("%v: error names %q (%s), want %s", in, fieldOf(e), e.Message, field)
			}
		}
		ts.ok(admin, updateVoucherMutation, map[string]any{"id": vs, "in": map[string]any{"rules": "one each",
			"seckill": map[string]any{"addStock": 3, "endTime": now.Add(3 * time.Hour).Format(time.RFC3339)}}}, nil)
		if n := nums().SaleNumbers; *n.RedisStock != 7 || n.MysqlStock != 7 {
			t.Fatalf("numbers after addStock 3: %+v", n)
		}

		// A buyer buys: admitted, then persisted (UNPAID).
		buyers := ts.users(2)
		oid := ts.seckill(buyers[0], v)
		ts.waitStatus(buyers[0], oid, "UNPAID")
		// The consumer removes the entry from the stream just after the
		// commit that made the order UNPAID: pending reads 1 until then.
		n := nums().SaleNumbers
		testenv.Eventually(t, 10*time.Second, "the persisted order out of the stream", func() bool {
			n = nums().SaleNumbers
			return n.Pending == 0
		})
		if *n.RedisStock != 6 || n.MysqlStock != 6 || *n.Admitted != 1 || n.Persisted != 1 || n.Pending != 0 ||
			len(n.Orders) != 1 || n.Orders[0].Status != "UNPAID" || n.Orders[0].Count != 1 {
			t.Fatalf("numbers after one purchase %+v", n)
		}
		// The price has an unpaid order now: refused even on a normal voucher's terms.
		ts.fails(admin, updateVoucherMutation, map[string]any{"id": vs, "in": map[string]any{"payValue": 70}}, "BAD_USER_INPUT")

		// Off sale: not listed, not sold (SALE_ENDED); the operator still sees it.
		var off struct{ SetVoucherOnSale struct{ Status string } }
		ts.ok(admin, setOnSaleMutation, map[string]any{"id": vs, "on": false}, &off)
		if off.SetVoucherOnSale.Status != "OFF_SALE" {
			t.Fatalf("off sale: %+v", off)
		}
		ts.fails(buyers[1], consoleSeckillMutation, map[string]any{"v": vs}, "SALE_ENDED")
		// Redis loses the state: the rebuild from MySQL keeps it closed.
		if err := ts.redis().Del(ctx, seckill.KeysOf(ts.app.cfg.RedisPrefix, v).State).Err(); err != nil {
			t.Fatal(err)
		}
		ts.fails(buyers[1], consoleSeckillMutation, map[string]any{"v": vs}, "SALE_ENDED")
		var listed struct{ Vouchers []struct{ ID string } }
		ts.ok("", `query($s: ID!) { vouchers(shopId: $s) { id } }`, map[string]any{"s": shop.CreateShop.ID}, &listed)
		if len(listed.Vouchers) != 0 {
			t.Fatalf("an off-sale voucher is listed: %+v", listed)
		}
		var all struct{ OperatorVouchers []struct{ ID, Status string } }
		ts.ok(admin, operatorVouchersQuery, map[string]any{"s": shop.CreateShop.ID}, &all)
		if len(all.OperatorVouchers) != 1 || all.OperatorVouchers[0].Status != "OFF_SALE" {
			t.Fatalf("operatorVouchers %+v", all)
		}
		ts.ok(admin, setOnSaleMutation, map[string]any{"id": vs, "on": true}, nil)
		oid2 := ts.seckill(buyers[1], v)
		ts.waitStatus(buyers[1], oid2, "UNPAID")

		// The shop's orders, newest first, paged; narrowed by status.
		var so struct {
			ShopOrders struct {
				Edges []struct {
					Node struct {
						ID, Status string
						User       struct{ ID string }
					}
				}
				PageInfo struct {
					HasNextPage bool
					EndCursor   string
				}
			}
		}
		ts.ok(admin, shopOrdersQuery, map[string]any{"s": shop.CreateShop.ID}, &so)
		if e := so.ShopOrders.Edges; len(e) != 2 || e[0].Node.ID != oid2 || e[1].Node.ID != oid {
			t.Fatalf("shopOrders %+v, want %s then %s", so, oid2, oid)
		}
		ts.ok(buyers[0], payMutation, map[string]any{"id": oid, "p": "ALIPAY"}, nil)
		ts.ok(admin, shopOrdersQuery, map[string]any{"s": shop.CreateShop.ID, "st": "PAID"}, &so)
		if e := so.ShopOrders.Edges; len(e) != 1 || e[0].Node.ID != oid || e[0].Node.Status != "PAID" {
			t.Fatalf("paid shopOrders %+v", so)
		}
		ts.fails(admin, shopOrdersQuery, map[string]any{"s": "987654"}, "NOT_FOUND")

		// The buyer's code redeemed: USED, audited with the order and buyer.
		var red struct{ RedeemOrder struct{ Status string } }
		ts.ok(admin, consoleRedeemMutation, map[string]any{"id": oid}, &red)
		if red.RedeemOrder.Status != "USED" {
			t.Fatalf("redeem %+v", red)
		}

		// Dead letters of the sale, listed and paged by id.
		d1, d2 := ts.deadLetter(v, 7770001, 4141), ts.deadLetter(v, 7770002, 4242)
		var dl struct {
			DeadLetters []struct{ ID, OrderID, UserID, Reason string }
		}
		ts.ok(admin, deadLettersQuery, map[string]any{"s": vs}, &dl)
		if len(dl.DeadLetters) != 2 || dl.DeadLetters[0].ID != d1 || dl.DeadLetters[1].OrderID != "7770002" {
			t.Fatalf("deadLetters %+v", dl)
		}
		ts.ok(admin, deadLettersQuery, map[string]any{"s": vs, "after": d1}, &dl)
		if len(dl.DeadLetters) != 1 || dl.DeadLetters[0].ID != d2 {
			t.Fatalf("deadLetters after %s: %+v", d1, dl)
		}
		if n := nums().SaleNumbers; n.DeadLetters != 2 || n.Persisted != 2 {
			t.Fatalf("numbers with dead letters %+v", n)
		}

		// The audit: every change above, newest first, by the admin.
		want := []struct {
			action, detail string
			voucher, order bool
		}{
			{"REDEEM_ORDER", "used", true, true},
			{"PUT_ON_SALE", "on sale", true, false},
			{"TAKE_OFF_SALE", "off sale", true, false},
			{"UPDATE_VOUCHER", "rules, stock +3, endTime", true, false},
			{"UPDATE_VOUCHER", "title, payValue 100→90, stock 2→4, beginTime", true, false},
			{"CREATE_VOUCHER", `"flash" payValue 100`, true, false},
			{"UPDATE_SHOP", "name", false, false},
			{"CREATE_SHOP", `"Console Café"`, false, false},
		}
		var got []struct {
			ID                                 int
			Actor, Action, At, Outcome, Detail string
			ShopID, VoucherID, OrderID, UserID string
		}
		var after any
		for {
			var page auditJSON
			ts.ok(admin, operatorAuditQuery, map[string]any{"s": shop.CreateShop.ID, "after": after}, &page)
			for _, e := range page.OperatorAudit.Edges {
				got = append(got, e.Node)
			}
			if !page.OperatorAudit.PageInfo.HasNextPage {
				break
			}
			after = page.OperatorAudit.PageInfo.EndCursor
		}
		if len(got) != len(want) {
			t.Fatalf("audit of the shop: %d rows %+v, want %d", len(got), got, len(want))
		}
		for i, w := range want {
			g := got[i]
			at, err := time.Parse(time.RFC3339, g.At)
			if g.Action != w.action || !strings.HasPrefix(g.Detail, w.detail) || g.Actor != actor || g.Outcome != audit.OutcomeDone ||
				g.ShopID != shop.CreateShop.ID || (g.VoucherID == vs) != w.voucher || (g.OrderID == oid) != w.order ||
				err != nil || time.Since(at) > time.Minute {
				t.Fatalf("audit row %d: %+v, want %+v by %s", i, g, w, actor)
			}
		}
		if got[0].UserID == "0" {
			t.Fatalf("the redeem row names no buyer: %+v", got[0])
		}
		if n, err := ts.app.db.Client.OperatorAudit.Query().Where(operatoraudit.ShopID(mustID(t, shop.CreateShop.ID))).Count(ctx); err != nil || n != len(want) {
			t.Fatalf("%d audit rows in MySQL (%v), want %d", n, err, len(want))
		}
	})
}

func mustID(t *testing.T, s string) int64 {
	t.Helper()
	id, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// The services check the viewer themselves (audit.Operator), not only the
// schema's @admin directive: called without a viewer or by a non-admin, each
// operator action refuses before doing anything.
func TestConsoleServicesCheckTheViewer(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, backend string) {
		ts := startSaleServer(t, backend, testConfig(t, backend), fastSeckill)
		v := ts.createSale(3, time.Now().Add(time.Hour), time.Now().Add(2*time.Hour))
		a := ts.app
		audits := audit.New(a.db.Client)
		calls := map[string]func(ctx context.Context) error{
			"updateVoucher": func(ctx context.Context) error {
				_, err := a.vouchers.Update(ctx, v, voucher.UpdateInput{Title: ptrTo("x")})
				return err
			},
			"setVoucherOnSale": func(ctx context.Context) error { _, err := a.vouchers.SetOnSale(ctx, v, false); return err },
			"createVoucher": func(ctx context.Context) error {
				_, err := a.vouchers.Create(ctx, voucher.CreateInput{ShopID: 1, Title: "t", PayValue: 1, ActualValue: 2})
				return err
			},
			"operatorVouchers": func(ctx context.Context) error { _, err := a.vouchers.AllOfShop(ctx, 1); return err },
			"createShop": func(ctx context.Context) error {
				_, err := a.shops.Create(ctx, shop.CreateInput{Name: "n", TypeID: 1, Address: "a", X: 120, Y: 30})
				return err
			},
			"updateShop": func(ctx context.Context) error {
				_, err := a.shops.Update(ctx, 1, shop.UpdateInput{Name: ptrTo("n")})
				return err
			},
			"redeemOrder":   func(ctx context.Context) error { _, err := a.orders.Redeem(ctx, 1); return err },
			"shopOrders":    func(ctx context.Context) error { _, err := a.orders.ShopOrders(ctx, 1, nil, nil, nil); return err },
			"saleNumbers":   func(ctx context.Context) error { _, err := a.seckill.Numbers(ctx, v); return err },
			"deadLetters":   func(ctx context.Context) error { _, err := a.seckill.AdminDeadLetters(ctx, v, nil, nil); return err },
			"operatorAudit": func(ctx context.Context) error { _, err := audits.List(ctx, nil, nil, nil); return err },
		}
		anon := context.Background()
		user := auth.WithViewer(anon, &auth.Viewer{UserID: 5})
		admin := auth.WithViewer(anon, &auth.Viewer{UserID: 6, Admin: true})
		before := ts.auditRows(enum.OperatorUpdateVoucher, enum.OperatorTakeOffSale, enum.OperatorCreateVoucher,
			enum.OperatorCreateShop, enum.OperatorUpdateShop, enum.OperatorRedeemOrder)
		for name, call := range calls {
			if err := call(anon); apperr.CodeOf(err) != apperr.Unauthenticated {
				t.Errorf("%s without a viewer: %v", name, err)
			}
			if err := call(user); apperr.CodeOf(err) != apperr.Forbidden {
				t.Errorf("%s by a non-admin: %v", name, err)
			}
		}
		if after := ts.auditRows(enum.OperatorUpdateVoucher, enum.OperatorTakeOffSale, enum.OperatorCreateVoucher,
			enum.OperatorCreateShop, enum.OperatorUpdateShop, enum.OperatorRedeemOrder); after != before {
			t.Fatalf("refused calls wrote %d audit rows", after-before)
		}
		// The same calls by an admin pass the check (redeeming order 1, which
		// does not exist, is NOT_FOUND past it).
		if err := calls["updateVoucher"](admin); err != nil {
			t.Fatal(err)
		}
		if err := calls["redeemOrder"](admin); apperr.CodeOf(err) != apperr.NotFound {
			t.Fatalf("redeem of no order by an admin: %v", err)
		}
	})
}

func ptrTo[T any](v T) *T { return &v }
