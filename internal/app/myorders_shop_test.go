package app

import (
	"context"
	"sort"
	"strconv"
	"testing"
	"time"

	"github.com/hmdp/hmdp/internal/gqlclient"
)

// The shop page asks for the viewer's orders of that shop only
// (myOrders(shopId:), the app's own MyOrders operation): orders of the
// shop's vouchers, persisted or still PENDING, none of another shop's; no
// such shop gives none. Before, the page read the viewer's 50 newest orders
// of every shop and filtered them itself.
func TestMyOrdersOfOneShop(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, backend string) {
		ts := startSaleServer(t, backend, testConfig(t, backend), fastSeckill)
		op := webAppOp(t, "MyOrders")
		begin, end := time.Now().Add(-time.Second), time.Now().Add(time.Hour)
		inShop1, other := ts.createSale(5, begin, end), ts.createSale(5, begin, end)
		// Whole seconds: the sale's times go out without a fraction.
		created := must(gqlclient.CreateVoucher(t.Context(), ts.gql(ts.admin()), gqlclient.CreateVoucherInput{
			ShopId: "2", Title: "flash of shop 2", PayValue: 100, ActualValue: 1000,
			Seckill: &gqlclient.SeckillInput{Stock: 5, BeginTime: begin.Truncate(time.Second), EndTime: end.Truncate(time.Second)},
		}))(t).CreateVoucher
		inShop2, err := strconv.ParseInt(created.Id, 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		alice := ts.login("13800000021")
		persisted := ts.seckill(alice, inShop1)
		ts.waitStatus(alice, persisted, "UNPAID")
		ts.app.seckill.Stop(context.Background()) // the next two stay PENDING
		pending := ts.seckill(alice, other)
		elsewhere := ts.seckill(alice, inShop2)

		// Raw: the document is the web app's own MyOrders operation (its
		// shopId argument is what the shop page sends), which this test
		// checks against the server; the typed client's MyOrders is another.
		mine := func(vars map[string]any) []string {
			t.Helper()
			var p struct {
				MyOrders struct {
					Edges []struct{ Node struct{ ID, Status string } }
				}
			}
			ts.ok(alice, op, vars, &p)
			var ids []string
			for _, e := range p.MyOrders.Edges {
				ids = append(ids, e.Node.ID+" "+e.Node.Status)
			}
			sort.Strings(ids)
			return ids
		}
		want := func(got []string, want ...string) {
			t.Helper()
			sort.Strings(want)
			if len(got) != len(want) {
				t.Fatalf("orders %v, want %v", got, want)
			}
			for i := range got {
				if got[i] != want[i] {
					t.Fatalf("orders %v, want %v", got, want)
				}
			}
		}
		want(mine(map[string]any{"first": 20, "shopId": "1"}), persisted+" UNPAID", pending+" PENDING")
		want(mine(map[string]any{"first": 20, "shopId": "2"}), elsewhere+" PENDING")
		want(mine(map[string]any{"first": 20, "shopId": "424242"}))
		want(mine(map[string]any{"first": 20}), persisted+" UNPAID", pending+" PENDING", elsewhere+" PENDING")
		ts.app.seckill.Start()
		ts.waitStatus(alice, elsewhere, "UNPAID")
		ts.waitStatus(alice, pending, "UNPAID")
		want(mine(map[string]any{"first": 20, "shopId": "2"}), elsewhere+" UNPAID")
		want(mine(map[string]any{"first": 1, "shopId": "1"}), pending+" UNPAID")
	})
}
