// Package order reads and changes flash-sale orders: PENDING while only Redis
// holds them (accepted by internal/seckill, not yet persisted), then the
// tb_voucher_order row; payment (idempotent) and cancellation (stock back).
package order

import (
	"context"
	"errors"
	"time"

	"entgo.io/contrib/entgql"
	"github.com/go-sql-driver/mysql"

	"github.com/hmdp/hmdp/ent"
	"github.com/hmdp/hmdp/ent/order"
	"github.com/hmdp/hmdp/ent/seckillvoucher"
	"github.com/hmdp/hmdp/internal/apperr"
	"github.com/hmdp/hmdp/internal/idgen"
	"github.com/hmdp/hmdp/internal/seckill"
)

// StatusNotifier hears of every status change of an order (accepted as
// PENDING, persisted as UNPAID, PAID, CANCELLED): the orderUpdates
// subscription plugs in here.
type StatusNotifier interface {
	OrderChanged(ctx context.Context, o *Order)
}

// NopNotifier tells no one.
type NopNotifier struct{}

// OrderChanged does nothing.
func (NopNotifier) OrderChanged(context.Context, *Order) {}

// Service is the order service.
type Service struct {
	db       *ent.Client
	sk       *seckill.Service
	notifier StatusNotifier
	// Now is the clock.
	Now func() time.Time
}

// New returns the service; notifier may be nil. It registers itself with sk
// to announce orders as the consumers persist them.
func New(db *ent.Client, sk *seckill.Service, notifier StatusNotifier) *Service {
	if notifier == nil {
		notifier = NopNotifier{}
	}
	s := &Service{db: db, sk: sk, notifier: notifier, Now: time.Now}
	sk.OnPersisted(s.persisted)
	return s
}

func (s *Service) persisted(ctx context.Context, ps []seckill.Persisted) {
	for _, p := range ps {
		s.notifier.OrderChanged(ctx, &Order{ID: p.OrderID, VoucherID: p.VoucherID, UserID: p.UserID,
			Status: Unpaid, CreateTime: idgen.Time(p.OrderID)})
	}
}

// SeckillResult is an accepted flash-sale attempt (GraphQL SeckillResult).
type SeckillResult struct {
	OrderID int64
	Status  Status
}

// Seckill buys one unit of a flash-sale voucher for userID (see
// seckill.Service.Seckill); the order is PENDING until persisted.
func (s *Service) Seckill(ctx context.Context, userID, voucherID int64) (*SeckillResult, error) {
	id, err := s.sk.Seckill(ctx, userID, voucherID)
	if err != nil {
		return nil, err
	}
	s.notifier.OrderChanged(ctx, &Order{ID: id, VoucherID: voucherID, UserID: userID,
		Status: Pending, CreateTime: idgen.Time(id)})
	return &SeckillResult{OrderID: id, Status: Pending}, nil
}

// Get returns userID's order id: from MySQL, or PENDING when Redis has
// accepted it and it is not persisted yet; nil when absent or someone else's.
func (s *Service) Get(ctx context.Context, userID, id int64) (*Order, error) {
	o, err := s.db.Order.Query().Where(order.ID(id), order.UserID(userID)).Only(ctx)
	if err == nil {
		return fromEnt(o), nil
	}
	if !ent.IsNotFound(err) {
		return nil, err
	}
	pending, err := s.pending(ctx, userID)
	if err != nil {
		return nil, err
	}
	for _, p := range pending {
		if p.ID == id {
			return p, nil
		}
	}
	return nil, nil
}

// pending returns userID's orders that Redis holds and MySQL does not yet:
// Redis is asked about every sale that may still be persisting orders
// (ended less than a day ago), in one pipeline.
func (s *Service) pending(ctx context.Context, userID int64) ([]*Order, error) {
	sales, err := s.db.SeckillVoucher.Query().
		Where(seckillvoucher.EndTimeGT(s.Now().Add(-24 * time.Hour))).IDs(ctx)
	if err != nil || len(sales) == 0 {
		return nil, err
	}
	held, err := s.sk.HeldOrders(ctx, userID, sales)
	if err != nil || len(held) == 0 {
		return nil, err
	}
	ids := make([]int64, 0, len(held))
	for _, id := range held {
		ids = append(ids, id)
	}
	persisted, err := s.db.Order.Query().Where(order.IDIn(ids...)).IDs(ctx)
	if err != nil {
		return nil, err
	}
	var out []*Order
	for v, id := range held {
		if !containsID(persisted, id) {
			out = append(out, &Order{ID: id, VoucherID: v, UserID: userID, Status: Pending, CreateTime: idgen.Time(id)})
		}
	}
	return out, nil
}

func containsID(ids []int64, id int64) bool {
	for _, x := range ids {
		if x == id {
			return true
		}
	}
	return false
}

// Pay pays an unpaid order. Paying it again returns the paid order unchanged:
// the status moves from UNPAID to PAID in one conditional UPDATE, so only one
// call ever charges.
func (s *Service) Pay(ctx context.Context, userID, id int64, pt PayType) (*Order, error) {
	code := payTypeCode(pt)
	if code == 0 {
		return nil, apperr.BadInput("payType", "unknown pay type %q", pt)
	}
	n, err := s.db.Order.Update().Where(order.ID(id), order.UserID(userID), order.Status(1)).
		SetStatus(2).SetPayType(code).SetPayTime(s.Now()).Save(ctx)
	if err != nil {
		return nil, err
	}
	o, err := s.Get(ctx, userID, id)
	if err != nil {
		return nil, err
	}
	switch {
	case o == nil:
		return nil, apperr.New(apperr.NotFound, "no order %d", id)
	case n == 1:
		s.notifier.OrderChanged(ctx, o)
		return o, nil
	case o.Status == Paid:
		return o, nil
	case o.Status == Pending:
		return nil, apperr.New(apperr.Conflict, "the order is still being placed; pay it in a moment")
	}
	return nil, apperr.New(apperr.Conflict, "the order is %s: only unpaid orders can be paid", o.Status)
}

// Cancel cancels an unpaid order and puts its unit back on sale: first in
// MySQL (status and stock in one transaction), then in Redis (stock and
// buyer, only if Redis still holds this order). In that order the sale can
// never oversell: Redis never has a unit MySQL lacks. Cancelling a cancelled
// order returns it unchanged.
func (s *Service) Cancel(ctx context.Context, userID, id int64) (*Order, error) {
	for attempt := 0; ; attempt++ {
		o, err := s.Get(ctx, userID, id)
		switch {
		case err != nil:
			return nil, err
		case o == nil:
			return nil, apperr.New(apperr.NotFound, "no order %d", id)
		case o.Status == Cancelled:
			return o, nil
		case o.Status == Pending:
			return nil, apperr.New(apperr.Conflict, "the order is still being placed; cancel it in a moment")
		case o.Status != Unpaid:
			return nil, apperr.New(apperr.Conflict, "the order is %s: only unpaid orders can be cancelled", o.Status)
		}
		done, err := s.cancelUnpaid(ctx, userID, o)
		if err != nil && retryable(err) && attempt < 5 {
			continue // a deadlock victim: nothing was written, try again
		}
		if err != nil {
			return nil, err
		}
		if !done {
			continue // paid or cancelled meanwhile: report what it is now
		}
		s.sk.Release(ctx, userID, o.VoucherID, id)
		o.Status = Cancelled
		s.notifier.OrderChanged(ctx, o)
		return o, nil
	}
}

// cancelUnpaid returns the unit to MySQL and cancels the order in one
// transaction, locking the voucher's row before the order's, the order the
// stream consumers lock them in, so the two cannot deadlock each other. It
// reports false (and writes nothing) if the order was no longer unpaid.
func (s *Service) cancelUnpaid(ctx context.Context, userID int64, o *Order) (bool, error) {
	tx, err := s.db.Tx(ctx)
	if err != nil {
		return false, err
	}
	err = tx.SeckillVoucher.Update().Where(seckillvoucher.ID(o.VoucherID)).AddStock(1).Exec(ctx)
	if err != nil {
		return false, errors.Join(err, tx.Rollback())
	}
	n, err := tx.Order.Update().Where(order.ID(o.ID), order.UserID(userID), order.Status(seckill.StatusUnpaid)).
		SetStatus(seckill.StatusCancelled).Save(ctx)
	if err != nil || n == 0 {
		return false, errors.Join(err, tx.Rollback())
	}
	return true, tx.Commit()
}

// retryable reports a MySQL deadlock or lock wait timeout: the transaction
// was rolled back and may simply be run again.
func retryable(err error) bool {
	var me *mysql.MySQLError
	return errors.As(err, &me) && (me.Number == 1213 || me.Number == 1205)
}

// Connection is a page of orders (GraphQL VoucherOrderConnection).
type Connection struct {
	Edges    []*Edge
	PageInfo entgql.PageInfo[int64]
}

// Edge is one order of a page.
type Edge struct {
	Cursor entgql.Cursor[int64]
	Node   *Order
}

// Mine returns userID's orders, newest (highest id) first; the first page
// starts with the orders still PENDING.
func (s *Service) Mine(ctx context.Context, userID int64, first *int, afterCursor *string) (*Connection, error) {
	var after *entgql.Cursor[int64]
	if afterCursor != nil {
		after = &entgql.Cursor[int64]{}
		if err := after.UnmarshalGQL(*afterCursor); err != nil {
			return nil, apperr.BadInput("after", "not a cursor of this list")
		}
	}
	n := 10
	if first != nil {
		if *first < 0 || *first > 50 {
			return nil, apperr.BadInput("first", "must be 0 to 50")
		}
		n = *first
	}
	var nodes []*Order
	if after == nil {
		p, err := s.pending(ctx, userID)
		if err != nil {
			return nil, err
		}
		nodes = append(nodes, p...)
		sortDesc(nodes)
	}
	q := s.db.Order.Query().Where(order.UserID(userID))
	if after != nil {
		q = q.Where(order.IDLT(after.ID))
	}
	rows, err := q.Order(ent.Desc(order.FieldID)).Limit(n + 1).All(ctx)
	if err != nil {
		return nil, err
	}
	for _, r := range rows {
		nodes = append(nodes, fromEnt(r))
	}
	c := &Connection{Edges: []*Edge{}}
	c.PageInfo.HasNextPage = len(nodes) > n
	for _, o := range nodes[:min(n, len(nodes))] {
		c.Edges = append(c.Edges, &Edge{Cursor: entgql.Cursor[int64]{ID: o.ID}, Node: o})
	}
	if len(c.Edges) > 0 {
		c.PageInfo.StartCursor = &c.Edges[0].Cursor
		c.PageInfo.EndCursor = &c.Edges[len(c.Edges)-1].Cursor
	}
	c.PageInfo.HasPreviousPage = after != nil
	return c, nil
}

func sortDesc(os []*Order) {
	for i := 1; i < len(os); i++ {
		for j := i; j > 0 && os[j].ID > os[j-1].ID; j-- {
			os[j], os[j-1] = os[j-1], os[j]
		}
	}
}
