package seckill

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/hmdp/hmdp/ent/operatoraudit"
	entorder "github.com/hmdp/hmdp/ent/order"
	"github.com/hmdp/hmdp/ent/schema/enum"
	"github.com/hmdp/hmdp/internal/apperr"
	"github.com/hmdp/hmdp/internal/testenv"
)

// told records every event the service hands its listeners, repeats included.
type told struct {
	mu        sync.Mutex
	rejected  []Rejected
	persisted []Persisted
}

func withTold(cfg Config) (Config, *told) {
	tl := &told{}
	cfg.OnRejected = func(_ context.Context, rs []Rejected) {
		tl.mu.Lock()
		defer tl.mu.Unlock()
		tl.rejected = append(tl.rejected, rs...)
	}
	cfg.OnPersisted = func(_ context.Context, ps []Persisted) {
		tl.mu.Lock()
		defer tl.mu.Unlock()
		tl.persisted = append(tl.persisted, ps...)
	}
	return cfg, tl
}

func (tl *told) rejections(order int64) int {
	tl.mu.Lock()
	defer tl.mu.Unlock()
	n := 0
	for _, r := range tl.rejected {
		if r.OrderID == order {
			n++
		}
	}
	return n
}

func (tl *told) persistedOrders(user int64) []int64 {
	tl.mu.Lock()
	defer tl.mu.Unlock()
	var out []int64
	for _, p := range tl.persisted {
		if p.UserID == user {
			out = append(out, p.OrderID)
		}
	}
	return out
}

// deadLettered makes user's order on a new sale of stock units end as
// order_id_taken (its id is another's order already), waits for the dead
// letter and returns the sale, the rejected order and the dead letter.
func (f *fixture) deadLettered(t *testing.T, tl *told, stock int, user int64) (int64, int64, DeadLetter) {
	t.Helper()
	ctx := context.Background()
	v := f.sale(t, stock, time.Now().Add(-time.Minute), time.Now().Add(time.Hour))
	order, err := f.s.Seckill(ctx, user, v)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.b.DB.Client.Order.Create().SetID(order).SetUserID(user + 1000).SetVoucherID(v + 100000).Exec(ctx); err != nil {
		t.Fatal(err)
	}
	f.s.Start()
	testenv.Eventually(t, 15*time.Second, "order dead-lettered", func() bool { return tl.rejections(order) == 1 })
	ds, err := f.s.DeadLetters(ctx, v, "", 10)
	if err != nil || len(ds) != 1 {
		t.Fatalf("DeadLetters = %v, %v; want one", ds, err)
	}
	d := ds[0]
	if d.OrderID != order || d.UserID != user || d.Reason != ReasonOrderIDTaken || d.VoucherID != v {
		t.Fatalf("dead letter %+v, want order %d of user %d, %s", d, order, user, ReasonOrderIDTaken)
	}
	// The buyer was released and the unit given back when it was dead-lettered.
	if got := f.redisStock(t, v); got != stock {
		t.Fatalf("Redis stock %d after the rejection, want %d", got, stock)
	}
	return v, order, d
}

func (f *fixture) audits(t *testing.T, v int64) map[string]int {
	t.Helper()
	rows, err := f.b.DB.Client.OperatorAudit.Query().Where(operatoraudit.VoucherID(v)).All(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]int{}
	for _, r := range rows {
		out[r.Action.String()+":"+r.Outcome]++
		if r.Actor != "cli:test" || r.DeadID == "" {
			t.Fatalf("audit row %+v: actor or dead letter id missing", r)
		}
	}
	return out
}

// A replayed dead letter is persisted once however many replays race, as a
// new order of the buyer with its unit taken in MySQL and Redis; the buyer
// is told; every attempt is audited.
func TestDeadLetterReplayPersistsOnce(t *testing.T) {
	testenv.ForEachBackend(t, func(t *testing.T, b testenv.Backends) {
		cfg, tl := withTold(fast)
		f := newService(t, b, cfg)
		ctx := context.Background()
		const user = 7
		v, old, d := f.deadLettered(t, tl, 5, user)

		results := make([]*ActionResult, 8)
		var wg sync.WaitGroup
		for i := range results {
			wg.Go(func() {
				r, err := f.s.ReplayDeadLetter(ctx, "cli:test", v, d.ID)
				if err != nil {
					t.Error(err)
				}
				results[i] = r
			})
		}
		wg.Wait()
		persisted, handled := 0, 0
		var newID int64
		for _, r := range results {
			switch r.Outcome {
			case OutcomePersisted:
				persisted++
				newID = r.NewOrderID
			case OutcomeAlreadyHandled:
				handled++
			default:
				t.Fatalf("replay outcome %+v", r)
			}
		}
		if persisted != 1 || handled != 7 {
			t.Fatalf("%d replays persisted, %d found it handled; want 1 and 7", persisted, handled)
		}
		orders, err := b.DB.Client.Order.Query().Where(entorder.VoucherID(v)).All(ctx)
		if err != nil || len(orders) != 1 || orders[0].ID != newID || orders[0].UserID != user || orders[0].Status != enum.OrderUnpaid {
			t.Fatalf("orders of the sale: %v %v; want new order %d of user %d", orders, err, newID, user)
		}
		if newID == old {
			t.Fatal("the replay reused the rejected order's id (its payment window counts from it)")
		}
		if f.mysqlStock(t, v) != 4 || f.redisStock(t, v) != 4 {
			t.Fatalf("stock MySQL %d Redis %d, want 4 and 4", f.mysqlStock(t, v), f.redisStock(t, v))
		}
		held, err := f.s.PendingOrder(ctx, user, v)
		if err != nil || held != newID {
			t.Fatalf("buyer holds %d in Redis (%v), want %d", held, err, newID)
		}
		if got := tl.persistedOrders(user); len(got) != 1 || got[0] != newID {
			t.Fatalf("persisted events %v, want [%d]", got, newID)
		}
		if ds, _ := f.s.DeadLetters(ctx, v, "", 10); len(ds) != 0 {
			t.Fatalf("dead letters after the replay: %v", ds)
		}
		if got := f.audits(t, v); got["REPLAY:persisted"] != 1 || got["REPLAY:already_handled"] != 7 || len(got) != 2 {
			t.Fatalf("audit rows %v", got)
		}
		// Once more, later: still nothing new.
		if r, err := f.s.ReplayDeadLetter(ctx, "cli:test", v, d.ID); err != nil || r.Outcome != OutcomeAlreadyHandled {
			t.Fatalf("replay again: %+v %v", r, err)
		}
		if n, _ := b.DB.Client.Order.Query().Where(entorder.VoucherID(v)).Count(ctx); n != 1 {
			t.Fatalf("%d orders after replaying again", n)
		}
	})
}

// A replay the sale no longer allows (the buyer bought again meanwhile) ends
// the dead letter and tells the buyer; a discard ends it too; both audited,
// and bad input is refused naming the field.
func TestDeadLetterReplayRefusedAndDiscard(t *testing.T) {
	testenv.ForEachBackend(t, func(t *testing.T, b testenv.Backends) {
		cfg, tl := withTold(fast)
		f := newService(t, b, cfg)
		ctx := context.Background()
		v, old, d := f.deadLettered(t, tl, 5, 8)
		again, err := f.s.Seckill(ctx, 8, v)
		if err != nil {
			t.Fatal(err)
		}
		r, err := f.s.ReplayDeadLetter(ctx, "cli:test", v, d.ID)
		if err != nil || r.Outcome != OutcomeEnded || r.NewOrderID != 0 {
			t.Fatalf("replay while the buyer holds %d: %+v %v", again, r, err)
		}
		if n := tl.rejections(old); n != 2 {
			t.Fatalf("order %d announced rejected %d times, want 2 (the consumer, then the operator)", old, n)
		}
		f.waitPersisted(t, v, 1) // the buyer's second order
		if f.mysqlStock(t, v) != 4 || f.redisStock(t, v) != 4 {
			t.Fatalf("stock MySQL %d Redis %d, want 4 and 4", f.mysqlStock(t, v), f.redisStock(t, v))
		}

		v2, old2, d2 := f.deadLettered(t, tl, 3, 9)
		r, err = f.s.DiscardDeadLetter(ctx, "cli:test", v2, d2.ID)
		if err != nil || r.Outcome != OutcomeDiscarded {
			t.Fatalf("discard: %+v %v", r, err)
		}
		if r, err = f.s.DiscardDeadLetter(ctx, "cli:test", v2, d2.ID); err != nil || r.Outcome != OutcomeAlreadyHandled {
			t.Fatalf("discard again: %+v %v", r, err)
		}
		if n := tl.rejections(old2); n != 2 {
			t.Fatalf("order %d announced rejected %d times, want 2", old2, n)
		}
		if ds, _ := f.s.DeadLetters(ctx, v2, "", 10); len(ds) != 0 {
			t.Fatalf("dead letters after the discard: %v", ds)
		}
		if f.redisStock(t, v2) != 3 {
			t.Fatalf("Redis stock %d after the discard, want 3 (the unit was returned once)", f.redisStock(t, v2))
		}
		if got := f.audits(t, v); got["REPLAY:ended"] != 1 || len(got) != 1 {
			t.Fatalf("audit rows of the refused replay: %v", got)
		}
		if got := f.audits(t, v2); got["DISCARD:discarded"] != 1 || got["DISCARD:already_handled"] != 1 || len(got) != 2 {
			t.Fatalf("audit rows of the discard: %v", got)
		}

		for _, c := range []struct {
			sale      int64
			id, actor string
			field     string
		}{{v2, "nope", "cli:test", "id"}, {0, d2.ID, "cli:test", "sale"}, {v2, d2.ID, "", "actor"}} {
			_, err := f.s.DiscardDeadLetter(ctx, c.actor, c.sale, c.id)
			if e, ok := apperr.As(err); !ok || e.Code != apperr.BadUserInput || e.Field != c.field {
				t.Fatalf("discard(%d, %q, %q) = %v, want BAD_USER_INPUT on %s", c.sale, c.id, c.actor, err, c.field)
			}
		}
		if _, err := f.s.DeadLetters(ctx, v2, "", MaxDeadLetterPage+1); apperr.CodeOf(err) != apperr.BadUserInput {
			t.Fatalf("an oversized page: %v", err)
		}
	})
}
