package app

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/Khan/genqlient/graphql"

	"github.com/hmdp/hmdp/ent/operatoraudit"
	"github.com/hmdp/hmdp/ent/schema/enum"
	"github.com/hmdp/hmdp/internal/apperr"
	"github.com/hmdp/hmdp/internal/audit"
	"github.com/hmdp/hmdp/internal/auth"
	"github.com/hmdp/hmdp/internal/gqlclient"
	"github.com/hmdp/hmdp/internal/order"
	"github.com/hmdp/hmdp/internal/seckill"
	"github.com/hmdp/hmdp/internal/shop"
	"github.com/hmdp/hmdp/internal/testenv"
	"github.com/hmdp/hmdp/internal/voucher"
)

// The operator console's API (graph/operator.graphqls and the admin fields of
// voucher.graphqls): every field refuses an anonymous caller and a
// non-admin, works for an admin, and every change leaves one audit row.

// errOf is the error of a typed-client call, its data dropped.
func errOf[T any](_ T, err error) error { return err }

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

// Every operator field refuses anonymous callers (UNAUTHENTICATED) and
// non-admins (FORBIDDEN) on the server, and a refused call writes no audit
// row; viewerIsAdmin tells the web app whom to show the console.
func TestConsoleRefusesNonAdmins(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, backend string) {
		ctx := t.Context()
		ts := startSaleServer(t, backend, testConfig(t, backend), fastSeckill)
		v := ts.createSale(3, time.Now().Add(time.Hour), time.Now().Add(2*time.Hour))
		vs := strconv.FormatInt(v, 10)
		user := ts.login("13800000091")
		before := ts.auditRows(enum.OperatorCreateShop, enum.OperatorUpdateShop, enum.OperatorCreateVoucher,
			enum.OperatorUpdateVoucher, enum.OperatorTakeOffSale, enum.OperatorPutOnSale, enum.OperatorRedeemOrder)
		calls := []struct {
			name string
			call func(c graphql.Client) error
		}{
			{"updateVoucher", func(c graphql.Client) error {
				return errOf(gqlclient.UpdateVoucher(ctx, c, vs, gqlclient.UpdateVoucherInput{Title: new("x")}))
			}},
			{"setVoucherOnSale", func(c graphql.Client) error { return errOf(gqlclient.SetVoucherOnSale(ctx, c, vs, false)) }},
			{"operatorVouchers", func(c graphql.Client) error { return errOf(gqlclient.OperatorVouchers(ctx, c, "1")) }},
			{"saleNumbers", func(c graphql.Client) error { return errOf(gqlclient.SaleNumbers(ctx, c, vs)) }},
			{"deadLetters", func(c graphql.Client) error { return errOf(gqlclient.DeadLetters(ctx, c, vs, nil, nil)) }},
			{"shopOrders", func(c graphql.Client) error { return errOf(gqlclient.ShopOrders(ctx, c, "1", nil, new(2), nil)) }},
			{"operatorAudit", func(c graphql.Client) error { return errOf(gqlclient.OperatorAudit(ctx, c, nil, nil, nil)) }},
			{"createShop", func(c graphql.Client) error {
				return errOf(gqlclient.CreateShop(ctx, c, gqlclient.CreateShopInput{Name: "n", TypeId: "1", Address: "a", X: 120.1, Y: 30.2}))
			}},
			{"updateShop", func(c graphql.Client) error {
				return errOf(gqlclient.UpdateShop(ctx, c, "1", gqlclient.UpdateShopInput{Name: new("n")}))
			}},
			{"createVoucher", func(c graphql.Client) error {
				return errOf(gqlclient.CreateVoucher(ctx, c, gqlclient.CreateVoucherInput{ShopId: "1", Title: "t", PayValue: 1, ActualValue: 2}))
			}},
			{"redeemOrder", func(c graphql.Client) error { return errOf(gqlclient.RedeemOrder(ctx, c, "1")) }},
		}
		anon, userC := ts.gql(""), ts.gql(user)
		for _, c := range calls {
			if err := c.call(anon); kindOf(err).Code != "UNAUTHENTICATED" {
				t.Fatalf("%s: want UNAUTHENTICATED, got %v", c.name, err)
			}
			if err := c.call(userC); kindOf(err).Code != "FORBIDDEN" {
				t.Fatalf("%s: want FORBIDDEN, got %v", c.name, err)
			}
		}
		after := ts.auditRows(enum.OperatorCreateShop, enum.OperatorUpdateShop, enum.OperatorCreateVoucher,
			enum.OperatorUpdateVoucher, enum.OperatorTakeOffSale, enum.OperatorPutOnSale, enum.OperatorRedeemOrder)
		if after != before {
			t.Fatalf("refused calls wrote %d audit rows", after-before)
		}
		for token, want := range map[string]bool{"": false, user: false, ts.admin(): true} {
			if got := must(gqlclient.ViewerIsAdmin(ctx, ts.gql(token)))(t).ViewerIsAdmin; got != want {
				t.Fatalf("viewerIsAdmin for %q: %v", token, got)
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
		adminC, anon := ts.gql(admin), ts.gql("")
		ctx := t.Context()
		// Whole seconds, as the times were sent before (RFC 3339 without fractions).
		now := time.Now().Truncate(time.Second)
		me := must(gqlclient.Me(ctx, adminC))(t).Me
		if me == nil {
			t.Fatal("the admin's me is null")
		}
		actor := "user:" + me.Id

		// A shop of the console, created and renamed: two audit rows.
		shop := must(gqlclient.CreateShop(ctx, adminC, gqlclient.CreateShopInput{Name: "Console Café", TypeId: "1",
			Address: "1 Test Road", X: 120.15, Y: 30.28, Images: []string{"/images/a.jpg"}}))(t).CreateShop
		must(gqlclient.UpdateShop(ctx, adminC, shop.Id, gqlclient.UpdateShopInput{Name: new("Console Café 2")}))(t)

		// Before the sale begins: stock, window and price may change.
		created := must(gqlclient.CreateVoucher(ctx, adminC, gqlclient.CreateVoucherInput{
			ShopId: shop.Id, Title: "flash", PayValue: 100, ActualValue: 1000,
			Seckill: &gqlclient.SeckillInput{Stock: 2, BeginTime: now.Add(time.Hour), EndTime: now.Add(2 * time.Hour)},
		}))(t).CreateVoucher
		vs := created.Id
		v, _ := strconv.ParseInt(vs, 10, 64)
		u := must(gqlclient.UpdateVoucher(ctx, adminC, vs, gqlclient.UpdateVoucherInput{Title: new("flash 2"), PayValue: new(90),
			Seckill: &gqlclient.UpdateSeckillInput{Stock: new(4), BeginTime: new(now.Add(-time.Minute))}}))(t).UpdateVoucher
		if u.Title != "flash 2" || u.PayValue != 90 || u.Seckill == nil || u.Seckill.Stock != 4 {
			t.Fatalf("updated voucher %+v", u)
		}

		// Now it has begun: the Redis state was rebuilt with the new stock.
		nums := func() gqlclient.SaleNumbersFields {
			return must(gqlclient.SaleNumbers(ctx, adminC, vs))(t).SaleNumbers
		}
		if n := nums(); n.RedisStock == nil || *n.RedisStock != 4 || n.MysqlStock != 4 || n.Persisted != 0 {
			t.Fatalf("numbers before any purchase %+v", n)
		}
		for field, in := range map[string]gqlclient.UpdateVoucherInput{
			"input.payValue":          {PayValue: new(80)},
			"input.actualValue":       {ActualValue: new(900)},
			"input.seckill.stock":     {Seckill: &gqlclient.UpdateSeckillInput{Stock: new(9)}},
			"input.seckill.beginTime": {Seckill: &gqlclient.UpdateSeckillInput{BeginTime: new(now)}},
			"input.seckill.endTime":   {Seckill: &gqlclient.UpdateSeckillInput{EndTime: new(now.Add(-time.Second))}},
			"input.seckill.addStock":  {Seckill: &gqlclient.UpdateSeckillInput{AddStock: new(0)}},
			"input.title":             {Title: new("")},
		} {
			_, err := gqlclient.UpdateVoucher(ctx, adminC, vs, in)
			wantField(t, err, field)
		}
		must(gqlclient.UpdateVoucher(ctx, adminC, vs, gqlclient.UpdateVoucherInput{Rules: new("one each"),
			Seckill: &gqlclient.UpdateSeckillInput{AddStock: new(3), EndTime: new(now.Add(3 * time.Hour))}}))(t)
		if n := nums(); n.RedisStock == nil || *n.RedisStock != 7 || n.MysqlStock != 7 {
			t.Fatalf("numbers after addStock 3: %+v", n)
		}

		// A buyer buys: admitted, then persisted (UNPAID).
		buyers := ts.users(2)
		oid := ts.seckill(buyers[0], v)
		ts.waitStatus(buyers[0], oid, "UNPAID")
		// The consumer removes the entry from the stream just after the
		// commit that made the order UNPAID: pending reads 1 until then.
		n := nums()
		testenv.Eventually(t, 10*time.Second, "the persisted order out of the stream", func() bool {
			n = nums()
			return n.Pending == 0
		})
		if n.RedisStock == nil || *n.RedisStock != 6 || n.MysqlStock != 6 || n.Admitted == nil || *n.Admitted != 1 || n.Persisted != 1 || n.Pending != 0 ||
			len(n.Orders) != 1 || n.Orders[0].Status != gqlclient.OrderStatusUnpaid || n.Orders[0].Count != 1 {
			t.Fatalf("numbers after one purchase %+v", n)
		}
		// The price has an unpaid order now: refused even on a normal voucher's terms.
		_, err := gqlclient.UpdateVoucher(ctx, adminC, vs, gqlclient.UpdateVoucherInput{PayValue: new(70)})
		wantCode(t, err, "BAD_USER_INPUT")

		// Off sale: not listed, not sold (SALE_ENDED); the operator still sees it.
		off := must(gqlclient.SetVoucherOnSale(ctx, adminC, vs, false))(t)
		if off.SetVoucherOnSale.Status != gqlclient.VoucherStatusOffSale {
			t.Fatalf("off sale: %+v", off)
		}
		_, err = gqlclient.SeckillVoucher(ctx, ts.gql(buyers[1]), vs)
		wantCode(t, err, "SALE_ENDED")
		// Redis loses the state: the rebuild from MySQL keeps it closed.
		if err := ts.redis().Del(ctx, seckill.KeysOf(ts.app.cfg.RedisPrefix, v).State).Err(); err != nil {
			t.Fatal(err)
		}
		_, err = gqlclient.SeckillVoucher(ctx, ts.gql(buyers[1]), vs)
		wantCode(t, err, "SALE_ENDED")
		if listed := must(gqlclient.Vouchers(ctx, anon, shop.Id))(t).Vouchers; len(listed) != 0 {
			t.Fatalf("an off-sale voucher is listed: %+v", listed)
		}
		all := must(gqlclient.OperatorVouchers(ctx, adminC, shop.Id))(t).OperatorVouchers
		if len(all) != 1 || all[0].Status != gqlclient.VoucherStatusOffSale {
			t.Fatalf("operatorVouchers %+v", all)
		}
		must(gqlclient.SetVoucherOnSale(ctx, adminC, vs, true))(t)
		oid2 := ts.seckill(buyers[1], v)
		ts.waitStatus(buyers[1], oid2, "UNPAID")

		// The shop's orders, newest first, paged; narrowed by status.
		so := must(gqlclient.ShopOrders(ctx, adminC, shop.Id, nil, new(2), nil))(t).ShopOrders
		if e := so.Edges; len(e) != 2 || e[0].Node.Id != oid2 || e[1].Node.Id != oid {
			t.Fatalf("shopOrders %+v, want %s then %s", so, oid2, oid)
		}
		must(gqlclient.PayOrder(ctx, ts.gql(buyers[0]), oid, gqlclient.PayTypeAlipay))(t)
		so = must(gqlclient.ShopOrders(ctx, adminC, shop.Id, new(gqlclient.OrderStatusPaid), new(2), nil))(t).ShopOrders
		if e := so.Edges; len(e) != 1 || e[0].Node.Id != oid || e[0].Node.Status != gqlclient.OrderStatusPaid {
			t.Fatalf("paid shopOrders %+v", so)
		}
		_, err = gqlclient.ShopOrders(ctx, adminC, "987654", nil, new(2), nil)
		wantCode(t, err, "NOT_FOUND")

		// The buyer's code redeemed: USED, audited with the order and buyer.
		if red := must(gqlclient.RedeemOrder(ctx, adminC, oid))(t).RedeemOrder; red.Status != gqlclient.OrderStatusUsed {
			t.Fatalf("redeem %+v", red)
		}

		// Dead letters of the sale, listed and paged by id.
		d1, d2 := ts.deadLetter(v, 7770001, 4141), ts.deadLetter(v, 7770002, 4242)
		dl := must(gqlclient.DeadLetters(ctx, adminC, vs, nil, nil))(t).DeadLetters
		if len(dl) != 2 || dl[0].Id != d1 || dl[1].OrderId != "7770002" {
			t.Fatalf("deadLetters %+v", dl)
		}
		dl = must(gqlclient.DeadLetters(ctx, adminC, vs, nil, &d1))(t).DeadLetters
		if len(dl) != 1 || dl[0].Id != d2 {
			t.Fatalf("deadLetters after %s: %+v", d1, dl)
		}
		if n := nums(); n.DeadLetters != 2 || n.Persisted != 2 {
			t.Fatalf("numbers with dead letters %+v", n)
		}

		// The audit: every change above, newest first, by the admin.
		want := []struct {
			action         gqlclient.OperatorAction
			detail         string
			voucher, order bool
		}{
			{gqlclient.OperatorActionRedeemOrder, "used", true, true},
			{gqlclient.OperatorActionPutOnSale, "on sale", true, false},
			{gqlclient.OperatorActionTakeOffSale, "off sale", true, false},
			{gqlclient.OperatorActionUpdateVoucher, "rules, stock +3, endTime", true, false},
			{gqlclient.OperatorActionUpdateVoucher, "title, payValue 100→90, stock 2→4, beginTime", true, false},
			{gqlclient.OperatorActionCreateVoucher, `"flash" payValue 100`, true, false},
			{gqlclient.OperatorActionUpdateShop, "name", false, false},
			{gqlclient.OperatorActionCreateShop, `"Console Café"`, false, false},
		}
		var got []gqlclient.OperatorAuditFields
		var after *string
		for {
			page := must(gqlclient.OperatorAudit(ctx, adminC, &shop.Id, nil, after))(t).OperatorAudit
			for _, e := range page.Edges {
				got = append(got, e.Node)
			}
			if !page.PageInfo.HasNextPage {
				break
			}
			if page.PageInfo.EndCursor == nil {
				t.Fatalf("operatorAudit: a next page without an end cursor: %+v", page.PageInfo)
			}
			after = page.PageInfo.EndCursor
		}
		if len(got) != len(want) {
			t.Fatalf("audit of the shop: %d rows %+v, want %d", len(got), got, len(want))
		}
		for i, w := range want {
			g := got[i]
			if g.Action != w.action || !strings.HasPrefix(g.Detail, w.detail) || g.Actor != actor || g.Outcome != audit.OutcomeDone ||
				g.ShopId != shop.Id || (g.VoucherId == vs) != w.voucher || (g.OrderId == oid) != w.order ||
				time.Since(g.At) > time.Minute {
				t.Fatalf("audit row %d: %+v, want %+v by %s", i, g, w, actor)
			}
		}
		if got[0].UserId == "0" {
			t.Fatalf("the redeem row names no buyer: %+v", got[0])
		}
		if n, err := ts.app.db.Client.OperatorAudit.Query().Where(operatoraudit.ShopID(mustID(t, shop.Id))).Count(ctx); err != nil || n != len(want) {
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
