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
	"github.com/hmdp/hmdp/internal/gqlclient"
	"github.com/hmdp/hmdp/internal/seckill"
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
		sale := strconv.FormatInt(v, 10)
		asAdmin, asUser := ts.gql(admin), ts.gql(user)

		wantCode(t, errOf(gqlclient.ReplayDeadLetter(ctx, ts.gql(""), sale, replayID)), "UNAUTHENTICATED")
		wantCode(t, errOf(gqlclient.ReplayDeadLetter(ctx, asUser, sale, replayID)), "FORBIDDEN")
		wantCode(t, errOf(gqlclient.DiscardDeadLetter(ctx, asUser, sale, discardID)), "FORBIDDEN")
		if n := ts.auditRows(enum.OperatorReplay, enum.OperatorDiscard); n != 0 {
			t.Fatalf("%d audit rows after refused calls", n)
		}

		r := must(gqlclient.ReplayDeadLetter(ctx, asAdmin, sale, replayID))(t).ReplayDeadLetter
		if r.Outcome != seckill.OutcomePersisted || r.DeadLetter.Id != replayID || r.DeadLetter.OrderId != "5550001" ||
			r.DeadLetter.UserId != "4242" || r.DeadLetter.Reason != seckill.ReasonOrderIDTaken {
			t.Fatalf("replay answered %+v", r)
		}
		newID, _ := strconv.ParseInt(r.NewOrderId, 10, 64)
		if o, err := ts.app.db.Client.Order.Get(ctx, newID); err != nil || o.UserID != 4242 || o.VoucherID != v {
			t.Fatalf("replayed order %+v %v", o, err)
		}
		again := must(gqlclient.ReplayDeadLetter(ctx, asAdmin, sale, replayID))(t).ReplayDeadLetter
		if again.Outcome != seckill.OutcomeAlreadyHandled {
			t.Fatalf("second replay: %+v", again)
		}
		if n, _ := ts.app.db.Client.Order.Query().Where(entorder.UserID(4242)).Count(ctx); n != 1 {
			t.Fatalf("%d orders of the buyer after two replays", n)
		}

		d := must(gqlclient.DiscardDeadLetter(ctx, asAdmin, sale, discardID))(t)
		if d.DiscardDeadLetter.Outcome != seckill.OutcomeDiscarded {
			t.Fatalf("discard: %+v", d)
		}
		wantCode(t, errOf(gqlclient.DiscardDeadLetter(ctx, asAdmin, sale, "x")), "BAD_USER_INPUT")

		rows, err := ts.app.db.Client.OperatorAudit.Query().Where(operatoraudit.ActionIn(enum.OperatorReplay, enum.OperatorDiscard)).
			Order(operatoraudit.ByID()).All(ctx)
		if err != nil || len(rows) != 3 {
			t.Fatalf("audit rows %v %v, want 3", rows, err)
		}
		me := must(gqlclient.Me(ctx, asAdmin))(t).Me
		if me == nil {
			t.Fatal("me is null for the admin")
		}
		for i, want := range []string{seckill.OutcomePersisted, seckill.OutcomeAlreadyHandled, seckill.OutcomeDiscarded} {
			if rows[i].Outcome != want || rows[i].Actor != "user:"+me.Id {
				t.Fatalf("audit row %d: %+v, want %s by user:%s", i, rows[i], want, me.Id)
			}
		}
	})
}
