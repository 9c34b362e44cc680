// Package order reads and changes voucher orders: flash-sale orders PENDING
// while only Redis holds them (accepted by internal/seckill, not yet
// persisted), then the tb_voucher_order row; orders of normal vouchers
// (BuyVoucher), written UNPAID at once; payment (idempotent) and
// cancellation (a flash sale's stock back).
package order

import (
	"context"
	"errors"
	"log/slog"
	"maps"
	"sync"
	"time"

	"entgo.io/ent/dialect/sql"
	"github.com/go-sql-driver/mysql"
	"github.com/redis/go-redis/v9"

	"github.com/hmdp/hmdp/ent"
	entorder "github.com/hmdp/hmdp/ent/order"
	"github.com/hmdp/hmdp/ent/schema/enum"
	entseckillvoucher "github.com/hmdp/hmdp/ent/seckillvoucher"
	entvoucher "github.com/hmdp/hmdp/ent/voucher"
	"github.com/hmdp/hmdp/internal/apperr"
	"github.com/hmdp/hmdp/internal/idgen"
	"github.com/hmdp/hmdp/internal/page"
	"github.com/hmdp/hmdp/internal/payment"
	"github.com/hmdp/hmdp/internal/ratelimit"
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

// Sales is the part of the flash-sale service (seckill.Service) orders use.
type Sales interface {
	SeckillWithToken(ctx context.Context, userID, voucherID int64, token string) (int64, error)
	IssueToken(ctx context.Context, userID, voucherID int64) (seckill.Token, error)
	HeldOrders(ctx context.Context, userID int64, voucherIDs []int64) (map[int64]int64, error)
	BacklogOrders(ctx context.Context, userID int64) (map[int64]int64, error)
	Release(ctx context.Context, userID, voucherID, orderID int64)
	// ReturnUnit gives a refunded order's unit back and keeps its buyer.
	ReturnUnit(ctx context.Context, userID, voucherID, orderID int64)
	// RejectedOrder finds orderID among the given sales' rejected orders of userID.
	RejectedOrder(ctx context.Context, userID, orderID int64, voucherIDs []int64) (voucherID int64, reason string, err error)
}

// Config holds the service's dependencies; zero values take the defaults.
type Config struct {
	DB *ent.Client
	// Sales admits flash-sale orders and holds them until persisted.
	Sales Sales
	// Notifier hears of every status change (default NopNotifier). The
	// changes the stream consumers make reach it through AnnouncePersisted,
	// which the wiring gives the flash-sale service.
	Notifier StatusNotifier
	// Now is the clock (default time.Now).
	Now func() time.Time

	// Redis and Prefix hold the payment-deadline queue; with no Redis,
	// Start runs nothing (unpaid orders then wait for their buyer).
	Redis  redis.UniversalClient
	Prefix string
	// PayTimeout is how long an order may stay unpaid (default 15m).
	PayTimeout time.Duration
	// PollEvery is how often the deadline queue is read (default 1s), so a
	// cancellation is late by about that much; SweepEvery how often MySQL is
	// swept for overdue orders the queue lost (default 1m); ClaimLease how
	// long a claimed deadline waits before another instance may claim it
	// again (default 30s).
	PollEvery, SweepEvery, ClaimLease time.Duration
	// ResumeRefundsAfter is how long a refund may sit REFUNDING (its
	// provider call failed, or the instance died) before the sweep finishes
	// it (default 1m).
	ResumeRefundsAfter time.Duration
	// Payments is the payment provider (default a FakePayments, which
	// charges at once: tests and a server configured with no provider).
	Payments payment.Provider
	Log      *slog.Logger // default slog.Default()

	// IDs hands out the ids of BuyVoucher's orders (default: the flash
	// sales' counter, idgen "order" on Redis, so the two never share an id).
	IDs *idgen.Generator
	// Limiter, when set, allows each user BuyPerUser calls of BuyVoucher
	// (default DefaultBuyPerUser; RATE_LIMITED past it).
	Limiter    *ratelimit.Limiter
	BuyPerUser ratelimit.Limit
}

// Service is the order service.
type Service struct {
	db       *ent.Client
	sk       Sales
	notifier StatusNotifier
	now      func() time.Time

	cfg        Config
	rdb        redis.UniversalClient
	prefix     string
	payTimeout time.Duration
	payments   payment.Provider
	log        *slog.Logger
	ids        *idgen.Generator
	limitBuy   func(ctx context.Context, userID int64) error
	stop       context.CancelFunc
	wg         sync.WaitGroup
}

// New returns the service.
func New(cfg Config) *Service {
	if cfg.Notifier == nil {
		cfg.Notifier = NopNotifier{}
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.PayTimeout <= 0 {
		cfg.PayTimeout = 15 * time.Minute
	}
	if cfg.PollEvery <= 0 {
		cfg.PollEvery = time.Second
	}
	if cfg.SweepEvery <= 0 {
		cfg.SweepEvery = time.Minute
	}
	if cfg.ClaimLease <= 0 {
		cfg.ClaimLease = 30 * time.Second
	}
	if cfg.ResumeRefundsAfter <= 0 {
		cfg.ResumeRefundsAfter = time.Minute
	}
	if cfg.Payments == nil {
		cfg.Payments = &FakePayments{}
	}
	if cfg.Log == nil {
		cfg.Log = slog.Default()
	}
	if cfg.IDs == nil && cfg.Redis != nil {
		cfg.IDs = idgen.New(cfg.Redis, cfg.Prefix, "order", 0)
	}
	return &Service{db: cfg.DB, sk: cfg.Sales, notifier: cfg.Notifier, now: cfg.Now, cfg: cfg,
		rdb: cfg.Redis, prefix: cfg.Prefix, payTimeout: cfg.PayTimeout, payments: cfg.Payments, log: cfg.Log,
		ids: cfg.IDs, limitBuy: newBuyLimit(cfg.Limiter, cfg.BuyPerUser)}
}

// AnnouncePersisted returns the seckill.Config.OnPersisted callback that
// tells n of the orders the stream consumers persisted (now UNPAID).
func AnnouncePersisted(n StatusNotifier) func(context.Context, []seckill.Persisted) {
	return func(ctx context.Context, ps []seckill.Persisted) {
		for _, p := range ps {
			n.OrderChanged(ctx, &Order{ID: p.OrderID, VoucherID: p.VoucherID, UserID: p.UserID,
				Status: enum.OrderUnpaid, CreateTime: idgen.Time(p.OrderID)})
		}
	}
}

// SeckillResult is an accepted flash-sale attempt (GraphQL SeckillResult).
type SeckillResult struct {
	OrderID int64
	Status  enum.OrderStatus
}

// Seckill buys one unit of a flash-sale voucher for userID (see
// seckill.Service.Seckill); the order is PENDING until persisted.
func (s *Service) Seckill(ctx context.Context, userID, voucherID int64) (*SeckillResult, error) {
	return s.SeckillWithToken(ctx, userID, voucherID, "")
}

// SeckillWithToken is Seckill with an anti-bot token from SeckillToken
// (seckill.Service.SeckillWithToken).
func (s *Service) SeckillWithToken(ctx context.Context, userID, voucherID int64, token string) (*SeckillResult, error) {
	id, err := s.sk.SeckillWithToken(ctx, userID, voucherID, token)
	if err != nil {
		return nil, err
	}
	s.notifier.OrderChanged(ctx, &Order{ID: id, VoucherID: voucherID, UserID: userID,
		Status: enum.OrderPending, CreateTime: idgen.Time(id)})
	return &SeckillResult{OrderID: id, Status: enum.OrderPending}, nil
}

// SeckillToken hands userID a single-use anti-bot token for voucherID's
// sale (seckill.Service.IssueToken).
func (s *Service) SeckillToken(ctx context.Context, userID, voucherID int64) (*seckill.Token, error) {
	t, err := s.sk.IssueToken(ctx, userID, voucherID)
	if err != nil {
		return nil, err
	}
	return &t, nil
}

// Get returns userID's order id: from MySQL, or PENDING when Redis has
// accepted it and it is not persisted yet, or REJECTED when the flash sale
// ended it unpersisted; nil when absent or someone else's.
func (s *Service) Get(ctx context.Context, userID, id int64) (*Order, error) {
	o, err := s.db.Order.Query().Where(entorder.ID(id), entorder.UserID(userID)).Only(ctx)
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
	// Persisted between the first read and the look at Redis (pending leaves
	// out what MySQL has by then): it is in MySQL now. Without this second
	// read an order being written answered null.
	o, err = s.db.Order.Query().Where(entorder.ID(id), entorder.UserID(userID)).Only(ctx)
	if err == nil {
		return fromEnt(o), nil
	}
	if !ent.IsNotFound(err) {
		return nil, err
	}
	return s.rejected(ctx, userID, id)
}

// rejected returns userID's order id if the flash sale rejected it (looked
// for in the sales that ended less than a day ago, as pending does).
func (s *Service) rejected(ctx context.Context, userID, id int64) (*Order, error) {
	sales, err := s.db.SeckillVoucher.Query().
		Where(entseckillvoucher.EndTimeGT(s.now().Add(-24 * time.Hour))).IDs(ctx)
	if err != nil || len(sales) == 0 {
		return nil, err
	}
	v, reason, err := s.sk.RejectedOrder(ctx, userID, id, sales)
	if err != nil || v == 0 {
		return nil, err
	}
	return rejectedOrder(id, v, userID, reason), nil
}

// pending returns userID's orders that Redis holds and MySQL does not yet:
// Redis is asked about every sale that may still be persisting orders
// (ended less than a day ago), in one pipeline.
func (s *Service) pending(ctx context.Context, userID int64) ([]*Order, error) {
	sales, err := s.db.SeckillVoucher.Query().
		Where(entseckillvoucher.EndTimeGT(s.now().Add(-24 * time.Hour))).IDs(ctx)
	if err != nil {
		return nil, err
	}
	held := map[int64]int64{}
	if len(sales) > 0 {
		if held, err = s.sk.HeldOrders(ctx, userID, sales); err != nil {
			return nil, err
		}
	}
	// Older sales keep no buyers in Redis; an outage's backlog of theirs,
	// persisted late, still shows as PENDING until it is.
	old, err := s.sk.BacklogOrders(ctx, userID)
	if err != nil {
		return nil, err
	}
	maps.Copy(held, old)
	if len(held) == 0 {
		return nil, nil
	}
	ids := make([]int64, 0, len(held))
	for _, id := range held {
		ids = append(ids, id)
	}
	persisted, err := s.db.Order.Query().Where(entorder.IDIn(ids...)).IDs(ctx)
	if err != nil {
		return nil, err
	}
	var out []*Order
	for v, id := range held {
		if !containsID(persisted, id) {
			out = append(out, &Order{ID: id, VoucherID: v, UserID: userID, Status: enum.OrderPending, CreateTime: idgen.Time(id)})
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
		case o.Status == enum.OrderCancelled:
			return o, nil
		case o.Status == enum.OrderPending:
			return nil, apperr.New(apperr.Conflict, "the order is still being placed; cancel it in a moment")
		case o.Status != enum.OrderUnpaid:
			return nil, apperr.New(apperr.Conflict, "the order is %s: only unpaid orders can be cancelled", o.Status)
		}
		done, err := s.cancelUnpaid(ctx, userID, o, enum.CancelByBuyer)
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
		o.Status, o.Reason = enum.OrderCancelled, reasonPtr(enum.CancelByBuyer)
		s.notifier.OrderChanged(ctx, o)
		return o, nil
	}
}

// cancelUnpaid returns the unit to MySQL and cancels the order in one
// transaction, locking the voucher's row before the order's, the order the
// stream consumers lock them in, so the two cannot deadlock each other. It
// reports false (and writes nothing) if the order was no longer unpaid. The
// reason is recorded in the same transaction.
func (s *Service) cancelUnpaid(ctx context.Context, userID int64, o *Order, reason enum.CancelReason) (bool, error) {
	tx, err := s.db.Tx(ctx)
	if err != nil {
		return false, err
	}
	err = tx.SeckillVoucher.Update().Where(entseckillvoucher.ID(o.VoucherID)).AddStock(1).Exec(ctx)
	if err != nil {
		return false, errors.Join(err, tx.Rollback())
	}
	n, err := tx.Order.Update().Where(entorder.ID(o.ID), entorder.UserID(userID), entorder.Status(enum.OrderUnpaid)).
		SetStatus(enum.OrderCancelled).Save(ctx)
	if err != nil || n == 0 {
		return false, errors.Join(err, tx.Rollback())
	}
	if err := tx.OrderCancel.Create().SetID(o.ID).SetReason(reason).Exec(ctx); err != nil {
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

// Page is a page of orders (GraphQL VoucherOrderConnection).
type Page struct {
	Edges []Edge
	Info  page.Info
}

// Edge is one order of a page.
type Edge struct {
	Cursor page.Cursor
	Node   *Order
}

// Mine returns userID's orders, newest (highest id) first, the orders still
// PENDING among them (usually first: they are the newest); with shopID, only
// those of the shop's vouchers. Unlike page.After, an empty after is
// refused, and a page read with after says hasPreviousPage (docs/API.md).
func (s *Service) Mine(ctx context.Context, userID int64, first *int, afterCursor *string, shopID *int64) (*Page, error) {
	var after *page.Cursor
	if afterCursor != nil {
		c, err := page.Decode(*afterCursor)
		if err != nil {
			return nil, apperr.BadInput("after", "not a cursor of this list")
		}
		after = &c
	}
	n, err := page.First(first)
	if err != nil {
		return nil, err
	}
	// Pending orders (Redis only) and persisted ones (MySQL) are one list in
	// id order: both sides take the cursor on every page, so a page boundary
	// falling among the pending orders skips none of them.
	p, err := s.pending(ctx, userID)
	if err != nil {
		return nil, err
	}
	var ofShop map[int64]bool // the shop's vouchers, read only for pending orders
	if shopID != nil && len(p) > 0 {
		ids, err := s.db.Voucher.Query().Where(entvoucher.ShopID(*shopID)).IDs(ctx)
		if err != nil {
			return nil, err
		}
		ofShop = make(map[int64]bool, len(ids))
		for _, id := range ids {
			ofShop[id] = true
		}
	}
	var nodes []*Order
	for _, o := range p {
		if (after == nil || o.ID < after.ID) && (shopID == nil || ofShop[o.VoucherID]) {
			nodes = append(nodes, o)
		}
	}
	q := s.db.Order.Query().Where(entorder.UserID(userID))
	if after != nil {
		q = q.Where(entorder.IDLT(after.ID))
	}
	if shopID != nil {
		// One statement: uk_user_voucher (user_id, voucher_id) finds them.
		q = q.Where(func(sel *sql.Selector) {
			v := sql.Table(entvoucher.Table)
			sel.Where(sql.In(sel.C(entorder.FieldVoucherID),
				sql.Select(v.C(entvoucher.FieldID)).From(v).Where(sql.EQ(v.C(entvoucher.FieldShopID), *shopID))))
		})
	}
	rows, err := q.Order(ent.Desc(entorder.FieldID)).Limit(n + 1).All(ctx)
	if err != nil {
		return nil, err
	}
	for _, r := range rows {
		nodes = dropID(nodes, r.ID) // persisted between the two reads: MySQL's copy wins
		nodes = append(nodes, fromEnt(r))
	}
	sortDesc(nodes)
	if err := s.fillQuantities(ctx, nodes[:min(n, len(nodes))]); err != nil {
		return nil, err
	}
	c := &Page{Edges: []Edge{}, Info: page.Make(len(nodes), n, func(i int) page.Cursor { return page.Cursor{ID: nodes[i].ID} })}
	for _, o := range nodes[:min(n, len(nodes))] {
		c.Edges = append(c.Edges, Edge{Cursor: page.Cursor{ID: o.ID}, Node: o})
	}
	c.Info.HasPreviousPage = after != nil
	return c, nil
}

func dropID(os []*Order, id int64) []*Order {
	for i, o := range os {
		if o.ID == id {
			return append(os[:i], os[i+1:]...)
		}
	}
	return os
}

func sortDesc(os []*Order) {
	for i := 1; i < len(os); i++ {
		for j := i; j > 0 && os[j].ID > os[j-1].ID; j-- {
			os[j], os[j-1] = os[j-1], os[j]
		}
	}
}

// FakePayments is the in-process provider of tests: it charges when a
// payment is opened and refunds at once (payment.Instant).
type FakePayments = payment.Instant
