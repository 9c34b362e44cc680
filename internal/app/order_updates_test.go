package app

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/hmdp/hmdp/internal/gqlclient"
)

const orderUpdatesSubscription = `subscription { orderUpdates { id status voucher { id } user { id } } }`

type orderEvent struct {
	ID, Status string
	Voucher    struct{ ID string }
	User       struct{ ID string }
}

// nextOrderEvent reads the next orderUpdates event of operation id.
func (c *wsClient) nextOrderEvent(id string) orderEvent {
	c.t.Helper()
	r := c.result(id, 15*time.Second)
	if len(r.Errors) > 0 {
		c.t.Fatalf("orderUpdates error: %+v", r.Errors)
	}
	var e struct{ OrderUpdates orderEvent }
	if err := json.Unmarshal(r.Data, &e); err != nil {
		c.t.Fatal(err)
	}
	return e.OrderUpdates
}

// A buyer subscribed on two instances (one per websocket subprotocol) sees each
// status change of their order exactly once on each; another user sees none.
func TestOrderUpdatesAcrossInstances(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, backend string) {
		cfg := sharedConfig(t, backend)
		a := startSaleServer(t, backend, cfg, fastSeckill)
		b := startSaleServer(t, backend, cfg, fastSeckill)
		buyer, other := a.login("13800000071"), a.login("13800000072")
		me := must(gqlclient.Me(t.Context(), a.gql(buyer)))(t).Me
		if me == nil {
			t.Fatal("me is null for a logged-in buyer")
		}

		onB, err := dialWS(t, b.URL, "graphql-transport-ws", map[string]any{"authorization": "Bearer " + buyer}, nil)
		if err != nil {
			t.Fatal(err)
		}
		onA, err := dialWS(t, a.URL, "graphql-ws", map[string]any{"authorization": "Bearer " + buyer}, nil)
		if err != nil {
			t.Fatal(err)
		}
		bystander, err := dialWS(t, a.URL, "graphql-transport-ws", map[string]any{"authorization": "Bearer " + other}, nil)
		if err != nil {
			t.Fatal(err)
		}
		onB.subscribe("b", orderUpdatesSubscription, nil)
		onA.subscribe("a", orderUpdatesSubscription, nil)
		bystander.subscribe("x", orderUpdatesSubscription, nil)
		a.waitSubscriptions("orderUpdates", 2)
		b.waitSubscriptions("orderUpdates", 1)

		voucher := a.createSale(5, time.Now().Add(-time.Minute), time.Now().Add(time.Hour))
		orderID := a.seckill(buyer, voucher)

		for _, sub := range []struct {
			c  *wsClient
			id string
		}{{onB, "b"}, {onA, "a"}} {
			// PENDING (published on acceptance) and UNPAID (published by whichever
			// instance's consumer persisted it) come from different connections,
			// so their order is not fixed; each must come exactly once.
			seen := map[string]int{}
			for len(seen) < 2 {
				e := sub.c.nextOrderEvent(sub.id)
				if e.ID != orderID || e.User.ID != me.Id || e.Voucher.ID == "" {
					t.Fatalf("%s: event %+v, want order %s of user %s", sub.id, e, orderID, me.Id)
				}
				seen[e.Status]++
				if seen[e.Status] > 1 || (e.Status != "PENDING" && e.Status != "UNPAID") {
					t.Fatalf("%s: statuses %v", sub.id, seen)
				}
			}
		}
		must(gqlclient.PayOrder(t.Context(), a.gql(buyer), orderID, gqlclient.PayTypeWechat))(t)
		for _, sub := range []struct {
			c  *wsClient
			id string
		}{{onB, "b"}, {onA, "a"}} {
			if e := sub.c.nextOrderEvent(sub.id); e.ID != orderID || e.Status != "PAID" {
				t.Fatalf("%s: after payment %+v", sub.id, e)
			}
		}
		// The other user heard nothing: a read times out (that is how absence shows).
		if m, err := bystander.next(500 * time.Millisecond); err == nil && (m.Type == "next" || m.Type == "data") {
			t.Fatalf("another user got %s", m.Payload)
		}
	})
}

func TestOrderUpdatesNeedLogin(t *testing.T) {
	t.Parallel()
	ts := startServer(t, "embedded")
	c, err := dialWS(t, ts.URL, "graphql-transport-ws", nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	c.subscribe("1", orderUpdatesSubscription, nil)
	if r := c.result("1", 5*time.Second); r.code() != "UNAUTHENTICATED" {
		t.Fatalf("anonymous orderUpdates: %+v", r)
	}
}
