package order

import (
	"context"
	"errors"
	"strconv"
	"time"

	"entgo.io/ent/dialect"
	"entgo.io/ent/dialect/sql"

	"github.com/hmdp/hmdp/ent"
	entorder "github.com/hmdp/hmdp/ent/order"
	entquantity "github.com/hmdp/hmdp/ent/orderquantity"
	"github.com/hmdp/hmdp/ent/schema/enum"
	entvoucher "github.com/hmdp/hmdp/ent/voucher"
	"github.com/hmdp/hmdp/internal/apperr"
	"github.com/hmdp/hmdp/internal/database"
	"github.com/hmdp/hmdp/internal/ratelimit"
	"github.com/hmdp/hmdp/internal/voucher"
)

// MaxBuyQuantity bounds a quantity before anything is read: no voucher's
// per-user limit is larger. tb_voucher_order has no quantity column (and is
// never altered): an order's quantity is its hmdp_order_quantity row, and
// its unique key uk_user_voucher (user_id, voucher_id), the flash sales' "one
// order per buyer", keeps one order per buyer and voucher, so the voucher's
// per-user limit bounds that one order's quantity.
const MaxBuyQuantity = voucher.MaxPerUserLimit

// DefaultBuyPerUser is the default limit of BuyVoucher per user: a burst of
// 10, then one every 6 s (each attempt is a MySQL transaction).
var DefaultBuyPerUser = ratelimit.Limit{Events: 10, Per: time.Minute}

// errNoIDs: BuyVoucher needs order ids, which come from Redis (Config.Redis).
var errNoIDs = errors.New("order: no order id generator (Config.Redis is nil)")

// BuyVoucher buys quantity units of a normal (not flash-sale) voucher for
// userID: an UNPAID order in tb_voucher_order, exactly as a persisted
// flash-sale order is from then on (payment deadline and automatic
// cancellation, payOrder for the voucher's pay_value × quantity, refunds).
// Only while the voucher is on sale (SALE_ENDED otherwise); one order per
// buyer and voucher (ALREADY_ORDERED), except that a cancelled one is
// replaced by the new one, as flash sales do. quantity below 1 or above the
// voucher's per-user limit (voucher.MaxQuantity) is BAD_USER_INPUT naming
// it. Rate limited per user.
func (s *Service) BuyVoucher(ctx context.Context, userID, voucherID int64, quantity int) (*Order, error) {
	if quantity < 1 || quantity > MaxBuyQuantity {
		return nil, apperr.BadInput("quantity", "must be from 1 to the voucher's per-user limit (at most %d), got %d", MaxBuyQuantity, quantity)
	}
	if s.limitBuy != nil {
		if err := s.limitBuy(ctx, userID); err != nil {
			return nil, err
		}
	}
	if s.ids == nil {
		return nil, errNoIDs
	}
	id, err := s.ids.Next(ctx)
	if err != nil {
		return nil, err
	}
	at := s.now()
	for try := 0; ; try++ {
		err = database.WithTx(ctx, s.db, func(tx *ent.Tx) error { return place(ctx, tx, userID, voucherID, id, quantity, at) })
		if err != nil && retryable(err) && try < 5 {
			continue // a deadlock victim: nothing was written, try again
		}
		break
	}
	if err != nil {
		return nil, err
	}
	// ARCHITECTURE.md "Commit first, then tell Redis": the deadline queue
	// (the sweep of MySQL cancels the order if this is lost) and the buyer.
	s.Schedule(ctx, id)
	o := &Order{ID: id, VoucherID: voucherID, UserID: userID, Status: enum.OrderUnpaid, CreateTime: at, Quantity: quantity}
	s.notifier.OrderChanged(ctx, o)
	return o, nil
}

// place is BuyVoucher's transaction. The voucher's row is read with a shared
// lock, so it cannot go off sale between the check and the order; the order
// is then one write, decided by MySQL: a conditional UPDATE replacing the
// buyer's cancelled order (of racing buys one matches), or an INSERT the
// unique key (user_id, voucher_id) refuses to all but one. Its quantity row
// goes with it (the replaced order's row goes).
func place(ctx context.Context, tx *ent.Tx, userID, voucherID, id int64, quantity int, at time.Time) error {
	v, err := tx.Voucher.Query().Where(entvoucher.ID(voucherID)).Where(forShare).Only(ctx)
	switch {
	case ent.IsNotFound(err):
		return apperr.New(apperr.NotFound, "no voucher %d", voucherID)
	case err != nil:
		return err
	case voucher.IsSeckill(v):
		return apperr.BadInput("voucherId", "voucher %d is sold in a flash sale: buy it with seckillVoucher", voucherID)
	case !voucher.OnSale(v):
		return apperr.New(apperr.SaleEnded, "voucher %d is not on sale", voucherID)
	}
	limit, err := voucher.LimitOf(ctx, tx.Client(), voucherID)
	if err != nil {
		return err
	}
	if most := voucher.MaxQuantity(v, limit); quantity > most {
		return apperr.BadInput("quantity", "the limit of voucher %d is %d per buyer, got %d", voucherID, most, quantity)
	}
	written := tx.OrderQuantity.Create().SetID(id).SetQuantity(quantity)
	held, err := tx.Order.Query().Where(entorder.UserID(userID), entorder.VoucherID(voucherID)).
		Select(entorder.FieldID, entorder.FieldStatus).Only(ctx)
	switch {
	case ent.IsNotFound(err):
		err = tx.Order.Create().SetID(id).SetUserID(userID).SetVoucherID(voucherID).
			SetStatus(enum.OrderUnpaid).SetCreateTime(at).SetUpdateTime(at).Exec(ctx)
		if ent.IsConstraintError(err) {
			return alreadyOrdered(voucherID) // a racing buy inserted first
		}
		if err != nil {
			return err
		}
		return written.Exec(ctx)
	case err != nil:
		return err
	case held.Status != enum.OrderCancelled:
		return alreadyOrdered(voucherID)
	}
	res, err := tx.ExecContext(ctx, `UPDATE tb_voucher_order SET id = ?, status = ?, pay_type = ?,
		pay_time = NULL, use_time = NULL, refund_time = NULL, create_time = ?, update_time = ?
		WHERE user_id = ? AND voucher_id = ? AND status = ?`,
		id, enum.OrderUnpaid, enum.PayBalance, at, at, userID, voucherID, enum.OrderCancelled)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil {
		return err
	} else if n != 1 {
		return alreadyOrdered(voucherID) // a racing buy replaced it first
	}
	if _, err := tx.OrderQuantity.Delete().Where(entquantity.ID(held.ID)).Exec(ctx); err != nil {
		return err
	}
	return written.Exec(ctx)
}

func alreadyOrdered(voucherID int64) error {
	return apperr.New(apperr.AlreadyOrdered, "you already have an order of voucher %d: one per buyer (a cancelled one may be bought again)", voucherID)
}

// forShare makes a query a shared locking read on MySQL, in the spelling
// MariaDB and MySQL both take (SQLite serializes its transactions and needs
// none).
func forShare(sel *sql.Selector) {
	if sel.Dialect() == dialect.MySQL {
		sel.ForShare(sql.WithLockClause("LOCK IN SHARE MODE"))
	}
}

// newBuyLimit returns the per-user limit of BuyVoucher (nil: none).
func newBuyLimit(l *ratelimit.Limiter, lim ratelimit.Limit) func(context.Context, int64) error {
	if l == nil {
		return nil
	}
	if lim.Events <= 0 || lim.Per <= 0 {
		lim = DefaultBuyPerUser
	}
	return func(ctx context.Context, user int64) error {
		res, err := l.Allow(ctx, "buy:user:"+strconv.FormatInt(user, 10), lim)
		if err == nil && !res.Allowed {
			err = apperr.RateLimit("voucher purchases", res.RetryAfter.Milliseconds())
		}
		return err
	}
}
