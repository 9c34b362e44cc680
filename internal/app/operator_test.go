package app

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/hmdp/hmdp/ent/operatoraudit"
	entorder "github.com/hmdp/hmdp/ent/order"
	"github.com/hmdp/hmdp/ent/schema/enum"
	"github.com/hmdp/hmdp/internal/seckill"
)

const (
	replayDeadLetterMutation  = `mutation($s: ID!, $id: String!) { replayDeadLetter(sale: $s, id: $id) { outcome detail newOrderId auditId deadLetter { id orderId userId reason } } }`
	discardDeadLetterMutation = `mutation($s: ID!, $id: String!) { discardDeadLetter(sale: $s, id: $id) { outcome newOrderId } }`
)

// deadLetter puts a dead letter on sale v for order of user, as a consumer's
// rejection leaves it (the buyer released, the unit back), and returns its id.
func (ts *testServer) deadLetter(v, order, user int64) string {
	ts.t.Helper()
	id, err := ts.redis().XAdd(context.Background(), &redis.XAddArgs{
		Stream: seckill.KeysOf(ts.app.cfg.RedisPrefix, v).Dead,
		Values: []any{"reason", seckill.ReasonOrderIDTaken, "id", "1-0", "consumer", "c-test",
			"entry_order", strconv.FormatInt(order, 10), "entry_user", strconv.FormatInt(user, 10), "entry_voucher", strconv.FormatInt(v, 10)},
	}).Result()
	if err != nil {
		ts.t.Fatal(err)
	}
	return id
}

// Admins replay and discard dead letters through GraphQL, each audited under
// their user id; replaying twice persists once; others are refused.
func TestOperatorDeadLetterMutations(t *testing.T) {
	forEachBackend(t, func(t *testing.T, backend string) {
		ts := startServer(t, backend)
		ctx := context.Background()
		v := ts.createSale(5, time.Now().Add(-time.Minute), time.Now().Add(time.Hour))
		admin, user := ts.admin(), ts.login("13800000077")
		replayID, discardID := ts.deadLetter(v, 5550001, 4242), ts.deadLetter(v, 5550002, 4343)
		vars := map[string]any{"s": strconv.FormatInt(v, 10), "id": replayID}

		ts.fails("", replayDeadLetterMutation, vars, "UNAUTHENTICATED")
		ts.fails(user, replayDeadLetterMutation, vars, "FORBIDDEN")
		ts.fails(user, discardDeadLetterMutation, map[string]any{"s": strconv.FormatInt(v, 10), "id": discardID}, "FORBIDDEN")
		if n := ts.auditRows(enum.OperatorReplay, enum.OperatorDiscard); n != 0 {
			t.Fatalf("%d audit rows after refused calls", n)
		}

		var out struct {
			ReplayDeadLetter struct {
				Outcome, Detail, NewOrderID string
				AuditID                     int
				DeadLetter                  struct{ ID, OrderID, UserID, Reason string }
			}
		}
		ts.ok(admin, replayDeadLetterMutation, vars, &out)
		r := out.ReplayDeadLetter
		if r.Outcome != seckill.OutcomePersisted || r.DeadLetter.ID != replayID || r.DeadLetter.OrderID != "5550001" ||
			r.DeadLetter.UserID != "4242" || r.DeadLetter.Reason != seckill.ReasonOrderIDTaken {
			t.Fatalf("replay answered %+v", r)
		}
		newID, _ := strconv.ParseInt(r.NewOrderID, 10, 64)
		if o, err := ts.app.db.Client.Order.Get(ctx, newID); err != nil || o.UserID != 4242 || o.VoucherID != v {
			t.Fatalf("replayed order %+v %v", o, err)
		}
		ts.ok(admin, replayDeadLetterMutation, vars, &out)
		if out.ReplayDeadLetter.Outcome != seckill.OutcomeAlreadyHandled {
			t.Fatalf("second replay: %+v", out.ReplayDeadLetter)
		}
		if n, _ := ts.app.db.Client.Order.Query().Where(entorder.UserID(4242)).Count(ctx); n != 1 {
			t.Fatalf("%d orders of the buyer after two replays", n)
		}

		var d struct{ DiscardDeadLetter struct{ Outcome string } }
		ts.ok(admin, discardDeadLetterMutation, map[string]any{"s": strconv.FormatInt(v, 10), "id": discardID}, &d)
		if d.DiscardDeadLetter.Outcome != seckill.OutcomeDiscarded {
			t.Fatalf("discard: %+v", d)
		}
		ts.fails(admin, discardDeadLetterMutation, map[string]any{"s": strconv.FormatInt(v, 10), "id": "x"}, "BAD_USER_INPUT")

		rows, err := ts.app.db.Client.OperatorAudit.Query().Where(operatoraudit.ActionIn(enum.OperatorReplay, enum.OperatorDiscard)).
			Order(operatoraudit.ByID()).All(ctx)
		if err != nil || len(rows) != 3 {
			t.Fatalf("audit rows %v %v, want 3", rows, err)
		}
		var me struct{ Me struct{ ID string } }
		ts.ok(admin, meQuery, nil, &me)
		for i, want := range []string{seckill.OutcomePersisted, seckill.OutcomeAlreadyHandled, seckill.OutcomeDiscarded} {
			if rows[i].Outcome != want || rows[i].Actor != "user:"+me.Me.ID {
				t.Fatalf("audit row %d: %+v, want %s by user:%s", i, rows[i], want, me.Me.ID)
			}
		}
	})
}
