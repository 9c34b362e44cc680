package app

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"
)

const saleUpdatesSubscription = `subscription($ids: [ID!]!) { saleUpdates(ids: $ids) { voucherId stock state } }`

type saleEvent struct {
	VoucherID string
	Stock     int
	State     string
}

// nextSaleEvent reads the next saleUpdates event of operation id.
func (c *wsClient) nextSaleEvent(id string) saleEvent {
	c.t.Helper()
	r := c.result(id, 15*time.Second)
	if len(r.Errors) > 0 {
		c.t.Fatalf("saleUpdates error: %+v", r.Errors)
	}
	var e struct{ SaleUpdates saleEvent }
	if err := json.Unmarshal(r.Data, &e); err != nil {
		c.t.Fatal(err)
	}
	return e.SaleUpdates
}

// An anonymous viewer of a sale on one instance sees, live, the purchase of
// the last unit made through another (SOLD_OUT) and the unit coming back
// when the buyer cancels (ON_SALE again), without reloading anything.
func TestSaleUpdatesFollowPurchasesOnOtherInstances(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, backend string) {
		cfg := sharedConfig(t, backend)
		a := startSaleServer(t, backend, cfg, fastSeckill)
		b := startSaleServer(t, backend, cfg, fastSeckill)
		buyer := a.login("13800000081")
		voucher := a.createSale(1, time.Now().Add(-time.Minute), time.Now().Add(time.Hour))
		id := fmt.Sprint(voucher)

		viewer, err := dialWS(t, b.URL, "graphql-transport-ws", nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		viewer.subscribe("s", saleUpdatesSubscription, map[string]any{"ids": []string{id}})
		if e := viewer.nextSaleEvent("s"); e != (saleEvent{id, 1, "ON_SALE"}) {
			t.Fatalf("first event %+v", e)
		}
		order := a.seckill(buyer, voucher)
		if e := viewer.nextSaleEvent("s"); e != (saleEvent{id, 0, "SOLD_OUT"}) {
			t.Fatalf("after the last unit was bought: %+v", e)
		}
		a.waitStatus(buyer, order, "UNPAID")
		var c struct{ CancelOrder struct{ Status string } }
		a.ok(buyer, cancelMutation, map[string]any{"id": order}, &c)
		if e := viewer.nextSaleEvent("s"); e != (saleEvent{id, 1, "ON_SALE"}) {
			t.Fatalf("after the buyer cancelled: %+v", e)
		}

		viewer.subscribe("bad", saleUpdatesSubscription, map[string]any{"ids": []string{}})
		if r := viewer.result("bad", 15*time.Second); len(r.Errors) == 0 || r.Errors[0].Extensions["field"] != "ids" {
			t.Fatalf("no ids: %+v", r.Errors)
		}
	})
}
