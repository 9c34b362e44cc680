package seckill

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/hmdp/hmdp/ent/schema/enum"
	"github.com/hmdp/hmdp/internal/testenv"
)

// Without WaitReplicas, acknowledged admissions that Redis loses whole (as a
// failover to a replica that never got them does: buyer, stream entry and
// stock change together) are ended REJECTED (lost) and announced by the
// instance that acknowledged them; the ones Redis still holds are kept
// watched until persisted, then forgotten. Before the ledger such orders were
// simply gone: order(id) null, no event.
func TestLostAcknowledgedOrdersAreEnded(t *testing.T) {
	t.Parallel()
	testenv.ForEachBackend(t, func(t *testing.T, b testenv.Backends) {
		ctx := context.Background()
		var mu sync.Mutex
		var told []Rejected
		cfg := fast
		cfg.OnRejected = func(_ context.Context, rs []Rejected) {
			mu.Lock()
			told = append(told, rs...)
			mu.Unlock()
		}
		f := newService(t, b, cfg)
		f.s.acked.every = time.Hour // the test looks itself, at the times it says
		v := f.sale(t, 10, time.Now().Add(-time.Minute), time.Now().Add(time.Hour))
		k := KeysOf(b.Redis.Prefix, v)
		start := time.Now()
		orders := map[int64]int64{} // user -> order
		for u := int64(1); u <= 5; u++ {
			id, err := f.s.Seckill(ctx, u, v)
			if err != nil {
				t.Fatal(err)
			}
			orders[u] = id
		}
		if n := f.s.acked.watched(); n != 5 {
			t.Fatalf("%d admissions watched, want 5", n)
		}
		// Redis loses users 1 and 2's admissions whole (no consumer ran).
		entries, err := b.Redis.Client.XRange(ctx, k.Orders, "-", "+").Result()
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			if u := e.Values["user"]; u == "1" || u == "2" {
				b.Redis.Client.XDel(ctx, k.Orders, e.ID)
				b.Redis.Client.HDel(ctx, k.Buyers, u.(string))
				b.Redis.Client.HIncrBy(ctx, k.State, "stock", 1)
			}
		}
		// Too young to be looked at: nothing happens.
		f.s.acked.check(ctx, start)
		if len(told) != 0 || f.s.acked.watched() != 5 {
			t.Fatalf("young admissions judged: told %v, %d watched", told, f.s.acked.watched())
		}
		f.s.acked.check(ctx, time.Now().Add(2*ackCheckAfter))
		mu.Lock()
		got := slices.Clone(told)
		mu.Unlock()
		slices.SortFunc(got, func(a, b Rejected) int { return int(a.UserID - b.UserID) })
		want := []Rejected{{OrderID: orders[1], UserID: 1, VoucherID: v, Reason: ReasonLost}, {OrderID: orders[2], UserID: 2, VoucherID: v, Reason: ReasonLost}}
		if !slices.Equal(got, want) {
			t.Fatalf("told %+v, want %+v", got, want)
		}
		for u := int64(1); u <= 5; u++ {
			_, reason, err := f.s.RejectedOrder(ctx, u, orders[u], []int64{v})
			if err != nil {
				t.Fatal(err)
			}
			if wantReason := map[bool]string{true: ReasonLost}[u <= 2]; reason != wantReason {
				t.Errorf("user %d: rejected %q, want %q", u, reason, wantReason)
			}
		}
		// The three Redis holds stay watched; a second look ends nothing twice.
		f.s.acked.check(ctx, time.Now().Add(2*ackCheckAfter))
		if n := f.s.acked.watched(); n != 3 || len(told) != 2 {
			t.Fatalf("%d watched, told %d; want 3 and 2", n, len(told))
		}
		// Persisted, they are forgotten.
		f.s.Start()
		f.waitPersisted(t, v, 3)
		f.s.acked.check(ctx, time.Now().Add(2*ackCheckAfter))
		if n := f.s.acked.watched(); n != 0 {
			t.Fatalf("%d still watched after being persisted", n)
		}
		for u := int64(3); u <= 5; u++ {
			if _, err := b.DB.Client.Order.Get(ctx, orders[u]); err != nil {
				t.Errorf("order of user %d: %v", u, err)
			}
		}
		if s, err := b.Redis.Client.HGet(ctx, k.State, "stock").Int(); err != nil || s != 7 {
			t.Errorf("Redis stock %d (%v), want 7: the lost units are on sale again", s, err)
		}
	})
}

// With WaitReplicas nothing is watched: an acknowledgement is durable.
func TestNoLedgerWithWaitReplicas(t *testing.T) {
	t.Parallel()
	b, _ := replicated(t, 1)
	cfg := fast
	cfg.WaitReplicas = 1
	f := newService(t, b, cfg)
	if f.s.acked != nil {
		t.Fatal("a ledger with WaitReplicas")
	}
	v := f.sale(t, 10, time.Now().Add(-time.Minute), time.Now().Add(time.Hour))
	if _, err := f.s.Seckill(context.Background(), 1, v); err != nil {
		t.Fatal(err)
	}
}

// A sale Redis lost whole (state, buyers and stream: a master restarted
// empty) is rebuilt by the ledger itself, nobody buying any more, and its
// acknowledged orders are then ended as lost.
func TestLostWithTheWholeSale(t *testing.T) {
	t.Parallel()
	testenv.ForEachBackend(t, func(t *testing.T, b testenv.Backends) {
		ctx := context.Background()
		var mu sync.Mutex
		var told []Rejected
		cfg := fast
		cfg.OnRejected = func(_ context.Context, rs []Rejected) {
			mu.Lock()
			told = append(told, rs...)
			mu.Unlock()
		}
		f := newService(t, b, cfg)
		f.s.acked.every = time.Hour // the test looks itself
		v := f.sale(t, 10, time.Now().Add(-time.Minute), time.Now().Add(time.Hour))
		k := KeysOf(b.Redis.Prefix, v)
		var first int64
		for u := int64(1); u <= 3; u++ {
			id, err := f.s.Seckill(ctx, u, v)
			if err != nil {
				t.Fatal(err)
			}
			if u == 1 {
				first = id
			}
		}
		if err := b.Redis.Client.Del(ctx, k.State, k.Buyers, k.Orders).Err(); err != nil {
			t.Fatal(err)
		}
		// The order-id counter was lost too: user 1's id went to another
		// buyer, whose order MySQL has. It is not user 1's order.
		now := time.Now()
		if err := b.DB.Client.Order.Create().SetID(first).SetUserID(99).SetVoucherID(v).
			SetStatus(enum.OrderUnpaid).SetCreateTime(now).SetUpdateTime(now).Exec(ctx); err != nil {
			t.Fatal(err)
		}
		f.s.acked.check(ctx, time.Now().Add(2*ackCheckAfter))
		if n, err := b.Redis.Client.Exists(ctx, k.State, k.Buyers).Result(); err != nil || n != 2 {
			t.Fatalf("sale not rebuilt by the ledger: %d keys (%v)", n, err)
		}
		f.s.acked.check(ctx, time.Now().Add(2*ackCheckAfter))
		mu.Lock()
		defer mu.Unlock()
		if len(told) != 3 || f.s.acked.watched() != 0 {
			t.Fatalf("told %+v, %d still watched; want the 3 ended as lost", told, f.s.acked.watched())
		}
		for _, r := range told {
			if r.Reason != ReasonLost || r.VoucherID != v {
				t.Errorf("told %+v", r)
			}
		}
		if s, err := b.Redis.Client.HGet(ctx, k.State, "stock").Int(); err != nil || s != 10 {
			t.Errorf("Redis stock %d (%v), want 10 (MySQL's, which the test did not take the unit from)", s, err)
		}
	})
}
