package seckill

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/hmdp/hmdp/ent"
	entorder "github.com/hmdp/hmdp/ent/order"
	"github.com/hmdp/hmdp/ent/schema/enum"
	entseckillvoucher "github.com/hmdp/hmdp/ent/seckillvoucher"
	"github.com/hmdp/hmdp/internal/database"
)

// handle persists one batch read from the stream: one MySQL transaction,
// retried with backoff while MySQL fails (the batch is not acknowledged, so
// nothing is lost, and the next batch waits, so nothing is reordered); then
// XACK (and XDEL: the stream holds only what is not yet persisted). Entries
// MySQL refuses are ended (endEntry) and their buyers told. epoch is the
// sale's epoch before msgs were read (epoch.go).
func (c *consumers) handle(k Keys, voucherID int64, msgs []redis.XMessage, epoch string, log *slog.Logger) {
	if len(msgs) == 0 {
		return
	}
	entries := make([]entry, 0, len(msgs))
	for _, m := range msgs {
		e, err := parseEntry(m)
		if err != nil || e.voucher != voucherID {
			c.endEntry(k, voucherID, m, nil, ReasonMalformed, false, 0)
			continue
		}
		entries = append(entries, e)
	}
	kept := true
	if len(entries) > 0 {
		ctx, span := c.s.startBatch(c.hard, voucherID, entries)
		kept = c.persistBatch(ctx, k, voucherID, entries, log)
		span.End()
	}
	c.settleEpoch(k, epoch, kept, log)
	if h := c.s.hooks.settled; h != nil {
		h()
	}
}

// persistBatch persists entries, retrying while MySQL is down. A batch that
// fails MaxDeliveries times while MySQL answers otherwise is poisoned by
// some entry: its entries are then persisted one by one, and one that still
// fails MaxDeliveries times alone is ended as delivered_too_often. (Redis's
// delivery count cannot tell: re-claiming to keep the batch ours resets it.)
// It reports whether the stream kept every entry until it was acknowledged
// (finishBatch), which settleEpoch needs.
// ctx is c.hard with the batch's span.
func (c *consumers) persistBatch(ctx context.Context, k Keys, voucherID int64, entries []entry, log *slog.Logger) (kept bool) {
	if len(entries) == 0 {
		return true
	}
	out, ok := c.persistRetrying(ctx, k, voucherID, entries, log)
	if !ok {
		return false
	}
	return c.finishBatch(ctx, k, voucherID, entries, out, log)
}

// persistRetrying persists entries, retrying with backoff while MySQL fails.
// It reports false when it ends without an outcome: shutting down (the
// entries stay pending for a takeover) or the batch poisoned (see poisoned).
func (c *consumers) persistRetrying(ctx context.Context, k Keys, voucherID int64, entries []entry, log *slog.Logger) (outcome, bool) {
	backoff := newBackoff(c.cfg)
	failures := int64(0)
	for {
		out, err := c.s.persist(ctx, voucherID, entries)
		if err == nil {
			return out, true
		}
		if c.hard.Err() != nil {
			return outcome{}, false
		}
		c.s.metrics.retries.Inc()
		log.WarnContext(ctx, "persisting flash-sale orders failed; retrying", "orders", len(entries), "err", err)
		if c.s.mysqlAnswers(ctx, voucherID) {
			failures++
		}
		if failures >= c.cfg.MaxDeliveries {
			if c.poisoned(ctx, k, voucherID, entries, log) {
				return outcome{}, false
			}
			failures = 0 // Redis failed too: keep trying both
		}
		backoff.wait(ctx)
		c.keepClaimed(k, entries)
	}
}

// poisoned deals with a batch that failed MaxDeliveries times while MySQL
// answers: several entries are persisted one by one; a single one is ended
// as delivered_too_often and its buyer told. It reports false when ending the
// entry failed (Redis failed too), so the caller keeps trying.
func (c *consumers) poisoned(ctx context.Context, k Keys, voucherID int64, entries []entry, log *slog.Logger) bool {
	if len(entries) > 1 {
		log.WarnContext(ctx, "a batch keeps failing while MySQL answers; persisting its orders one by one", "orders", len(entries))
		for _, e := range entries {
			c.persistBatch(ctx, k, voucherID, []entry{e}, log)
		}
		return true
	}
	e := entries[0]
	if c.endEntry(k, voucherID, e.msg(), &e, ReasonDeliveredTooOften, true, 0) {
		c.announceRejected([]Rejected{{OrderID: e.order, UserID: e.user, VoucherID: voucherID, Reason: ReasonDeliveredTooOften}})
		return true
	}
	return false
}

// keepClaimed resets the entries' idle time (JUSTID does not count a
// delivery), so other instances do not take over a batch still retried.
func (c *consumers) keepClaimed(k Keys, entries []entry) {
	ids := make([]string, len(entries))
	for i, e := range entries {
		ids[i] = e.streamID
	}
	_ = c.s.rdb.XClaimJustID(c.hard, &redis.XClaimArgs{Stream: k.Orders, Group: Group, Consumer: c.cfg.Name, Messages: ids}).Err()
}

// finishBatch ends the entries MySQL refused, acknowledges the others, and
// tells the persisted orders' and the refused buyers' listeners. kept is
// whether every entry was still pending in the stream when acknowledged (none
// refused): then any rebuild since the batch was read saw each entry, in the
// stream or, once persisted, in MySQL (loadState reads the stream first).
func (c *consumers) finishBatch(ctx context.Context, k Keys, voucherID int64, entries []entry, out outcome, log *slog.Logger) (kept bool) {
	var ended []Rejected
	for _, r := range out.rejected {
		e := r.entry
		if c.endEntry(k, voucherID, e.msg(), &e, r.reason, r.unit, r.keep) {
			ended = append(ended, Rejected{OrderID: e.order, UserID: e.user, VoucherID: voucherID, Reason: r.reason})
		}
	}
	done := make([]string, 0, len(entries))
	for _, e := range entries {
		if !out.isRejected(e) {
			done = append(done, e.streamID)
		}
	}
	// Counted once committed and before the ack, so the metric never lags
	// what MySQL and the stream show.
	c.s.metrics.persisted.Add(float64(len(out.created)))
	acked := c.ack(ctx, k, done, log)
	if h := c.s.onPersisted; h != nil && len(out.created) > 0 {
		actx, span := c.s.announceSpan(ctx, out.created)
		h(actx, out.created)
		span.End()
	}
	c.announceRejected(ended)
	return len(out.rejected) == 0 && acked == len(done)
}

// mysqlAnswers reports whether MySQL answers a trivial query, telling a batch
// MySQL refuses from MySQL being unreachable (which is only waited out).
func (s *Service) mysqlAnswers(ctx context.Context, voucherID int64) bool {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	if h := s.hooks.probe; h != nil {
		if err := h(); err != nil {
			return false
		}
	}
	_, err := s.db.SeckillVoucher.Query().Where(entseckillvoucher.ID(voucherID)).Exist(ctx)
	return err == nil
}

// ack acknowledges and deletes persisted entries, retrying a few times: if it
// still fails they are delivered again later, and persisting them again is a
// no-op. It returns how many were still pending (XACK's count): fewer than
// ids when the stream lost some since they were read.
func (c *consumers) ack(ctx context.Context, k Keys, ids []string, log *slog.Logger) int {
	if len(ids) == 0 {
		return 0
	}
	backoff := newBackoff(c.cfg)
	for attempt := 0; ; attempt++ {
		var acked *redis.IntCmd
		_, err := c.s.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
			acked = p.XAck(ctx, k.Orders, Group, ids...)
			p.XDel(ctx, k.Orders, ids...)
			return nil
		})
		if err == nil {
			return int(acked.Val())
		}
		if attempt == 4 || c.hard.Err() != nil {
			log.WarnContext(ctx, "persisted orders not acknowledged; they will be redelivered and skipped", "count", len(ids), "err", err)
			return 0
		}
		backoff.wait(ctx)
	}
}

func (e entry) msg() redis.XMessage {
	return redis.XMessage{ID: e.streamID, Values: map[string]any{
		"order": strconv.FormatInt(e.order, 10), "user": strconv.FormatInt(e.user, 10), "voucher": strconv.FormatInt(e.voucher, 10),
	}}
}

// acceptedAt is when Redis accepted the entry (the stream id's milliseconds).
func (e entry) acceptedAt() time.Time {
	ms, err := strconv.ParseInt(strings.SplitN(e.streamID, "-", 2)[0], 10, 64)
	if err != nil {
		return time.Now()
	}
	return time.UnixMilli(ms)
}

// Persisted is an order a consumer wrote to MySQL (see Config.OnPersisted).
type Persisted struct{ OrderID, UserID, VoucherID int64 }

type outcome struct {
	created  []Persisted
	rejected []rejection
}

// rejection is an entry MySQL refuses for good, and why; unit: MySQL never
// took its unit, so Redis gets it back; keep: the order its buyer already has
// in MySQL (0: none).
type rejection struct {
	entry  entry
	reason string
	unit   bool
	keep   int64
}

func (o *outcome) reject(reason string, unit bool, es ...entry) {
	for _, e := range es {
		o.rejected = append(o.rejected, rejection{entry: e, reason: reason, unit: unit})
	}
}

func (o outcome) isRejected(e entry) bool {
	for _, r := range o.rejected {
		if r.entry.streamID == e.streamID {
			return true
		}
	}
	return false
}

var (
	errStockRace    = errors.New("stock changed during the batch")
	errReviveMissed = errors.New("the cancelled order to replace changed during the batch")
)

// persist writes a batch of one voucher's orders in one transaction: orders
// already in MySQL (a replay) are skipped, a cancelled order of the same user
// is replaced by the new one (a buyer may buy again after cancelling), and
// stock is taken with UPDATE ... SET stock = stock - n WHERE stock >= n, so
// MySQL can never oversell whatever Redis accepted; entries beyond MySQL's
// stock are returned as rejected.
func (s *Service) persist(ctx context.Context, voucherID int64, entries []entry) (out outcome, err error) {
	err = database.WithTx(ctx, s.db, func(tx *ent.Tx) error {
		out = outcome{}
		fresh, revive, err := s.classify(ctx, tx, voucherID, entries, &out)
		if err != nil || len(fresh)+len(revive) == 0 {
			return err
		}
		fresh, revive, err = takeStock(ctx, tx, voucherID, fresh, revive, &out)
		if err != nil || len(fresh)+len(revive) == 0 {
			return err
		}
		if h := s.hooks.insert; h != nil {
			if err := h(append(fresh, revive...)); err != nil {
				return err
			}
		}
		if err := insertOrders(ctx, tx, voucherID, fresh); err != nil {
			return err
		}
		if err := reviveOrders(ctx, tx, voucherID, revive); err != nil {
			return err
		}
		for _, e := range append(fresh, revive...) {
			out.created = append(out.created, Persisted{OrderID: e.order, UserID: e.user, VoucherID: voucherID})
		}
		return nil
	})
	return out, err
}

// classify sorts a batch's entries into fresh orders (the buyer has none in
// MySQL) and revivals (the buyer's order there is cancelled); replays are
// skipped, an entry whose order id another order holds is rejected, and a
// second order of a buyer is dropped.
func (s *Service) classify(ctx context.Context, tx *ent.Tx, voucherID int64, entries []entry, out *outcome) (fresh, revive []entry, err error) {
	byUser, err := ordersByUser(ctx, tx, voucherID, entries)
	if err != nil {
		return nil, nil, err
	}
	clash, err := takenIDs(ctx, tx, voucherID, entries)
	if err != nil {
		return nil, nil, err
	}
	for _, e := range entries {
		if clash[e.order] {
			out.reject(ReasonOrderIDTaken, true, e)
			continue
		}
		o, ok := byUser[e.user]
		switch {
		case !ok:
			fresh = append(fresh, e)
			byUser[e.user] = &ent.Order{ID: e.order, UserID: e.user, Status: enum.OrderUnpaid}
		case o.ID == e.order:
			// replayed: already done
		case o.Status == enum.OrderCancelled:
			revive = append(revive, e)
			byUser[e.user] = &ent.Order{ID: e.order, UserID: e.user, Status: enum.OrderUnpaid}
		default:
			// Redis admitted a second order of a buyer who has one (its
			// state was rebuilt without the first): the first stands, and
			// Redis is told so.
			out.rejected = append(out.rejected, rejection{entry: e, reason: ReasonDuplicateBuyer, unit: true, keep: o.ID})
		}
	}
	return fresh, revive, nil
}

// ordersByUser returns the orders the entries' buyers already have for the voucher.
func ordersByUser(ctx context.Context, tx *ent.Tx, voucherID int64, entries []entry) (map[int64]*ent.Order, error) {
	users := make([]int64, len(entries))
	for i, e := range entries {
		users[i] = e.user
	}
	existing, err := tx.Order.Query().Where(entorder.VoucherID(voucherID), entorder.UserIDIn(users...)).
		Select(entorder.FieldID, entorder.FieldUserID, entorder.FieldStatus).All(ctx)
	if err != nil {
		return nil, err
	}
	byUser := make(map[int64]*ent.Order, len(existing))
	for _, o := range existing {
		byUser[o.UserID] = o
	}
	return byUser, nil
}

// takenIDs reports the entries' order ids already used by another order (ids
// are unique unless Redis lost the id counter): such an entry would fail the
// insert forever, so it is refused.
func takenIDs(ctx context.Context, tx *ent.Tx, voucherID int64, entries []entry) (map[int64]bool, error) {
	ids := make([]int64, len(entries))
	for i, e := range entries {
		ids[i] = e.order
	}
	taken, err := tx.Order.Query().Where(entorder.IDIn(ids...)).Select(entorder.FieldID, entorder.FieldUserID, entorder.FieldVoucherID).All(ctx)
	if err != nil {
		return nil, err
	}
	clash := map[int64]bool{}
	for _, o := range taken {
		clash[o.ID] = o.UserID != userOf(entries, o.ID) || o.VoucherID != voucherID
	}
	return clash, nil
}

// takeStock takes the units of fresh and revive from the voucher's MySQL
// stock, as many as it holds, and returns the entries that got one; the
// others are rejected. errStockRace if the stock moved under the batch.
func takeStock(ctx context.Context, tx *ent.Tx, voucherID int64, fresh, revive []entry, out *outcome) ([]entry, []entry, error) {
	n := len(fresh) + len(revive)
	sv, err := tx.SeckillVoucher.Get(ctx, voucherID)
	if ent.IsNotFound(err) {
		out.reject(ReasonNoSuchSale, false, append(fresh, revive...)...)
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	take := min(n, max(sv.Stock, 0))
	if take < n {
		all := append(append([]entry{}, fresh...), revive...)
		// Redis sold more than MySQL holds: giving these units back to
		// Redis would sell them again, so they are not.
		out.reject(ReasonNoStockInMySQL, false, all[take:]...)
		if take <= len(fresh) {
			fresh, revive = fresh[:take], nil
		} else {
			revive = revive[:take-len(fresh)]
		}
	}
	if take == 0 {
		return nil, nil, nil
	}
	updated, err := tx.SeckillVoucher.Update().
		Where(entseckillvoucher.ID(voucherID), entseckillvoucher.StockGTE(take)).
		AddStock(-take).Save(ctx)
	if err != nil {
		return nil, nil, err
	}
	if updated != 1 {
		return nil, nil, errStockRace
	}
	return fresh, revive, nil
}

// insertOrders creates the fresh orders, UNPAID, created when Redis accepted them.
func insertOrders(ctx context.Context, tx *ent.Tx, voucherID int64, fresh []entry) error {
	if len(fresh) == 0 {
		return nil
	}
	creates := make([]*ent.OrderCreate, len(fresh))
	for i, e := range fresh {
		at := e.acceptedAt()
		creates[i] = tx.Order.Create().SetID(e.order).SetUserID(e.user).SetVoucherID(voucherID).
			SetStatus(enum.OrderUnpaid).SetCreateTime(at).SetUpdateTime(at)
	}
	if err := tx.Order.CreateBulk(creates...).Exec(ctx); err != nil {
		return fmt.Errorf("insert orders: %w", err)
	}
	return nil
}

// reviveOrders turns each buyer's cancelled order into the new one, UNPAID
// (the unique key allows one order per buyer and voucher).
func reviveOrders(ctx context.Context, tx *ent.Tx, voucherID int64, revive []entry) error {
	for _, e := range revive {
		at := e.acceptedAt()
		res, err := tx.ExecContext(ctx, `UPDATE tb_voucher_order SET id = ?, status = ?, pay_type = ?,
			pay_time = NULL, use_time = NULL, refund_time = NULL, create_time = ?, update_time = ?
			WHERE user_id = ? AND voucher_id = ? AND status = ?`,
			e.order, enum.OrderUnpaid, enum.PayBalance, at, at, e.user, voucherID, enum.OrderCancelled)
		if err != nil {
			return fmt.Errorf("replace cancelled order: %w", err)
		}
		// The row classify saw cancelled may have changed since (the
		// transaction does not lock it): then nothing was written, and
		// reporting the order created would announce an order that is not.
		if n, err := res.RowsAffected(); err != nil || n != 1 {
			return errors.Join(errReviveMissed, err)
		}
	}
	return nil
}

func userOf(es []entry, orderID int64) int64 {
	for _, e := range es {
		if e.order == orderID {
			return e.user
		}
	}
	return 0
}

// backoff doubles a wait from MinBackoff up to MaxBackoff.
type backoff struct {
	min, max, next time.Duration
}

func newBackoff(c ConsumerConfig) *backoff {
	return &backoff{min: c.MinBackoff, max: c.MaxBackoff, next: c.MinBackoff}
}

func (b *backoff) reset() { b.next = b.min }

func (b *backoff) wait(ctx context.Context) {
	t := time.NewTimer(b.next)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
	b.next = min(b.next*2, b.max)
}

// Backlog counts the accepted orders not yet persisted: entries left in the
// order streams of the sales this instance consumes.
func (s *Service) Backlog(ctx context.Context) (int64, error) {
	c := s.consumers
	c.mu.Lock()
	ids := make([]int64, 0, len(c.sales))
	for id := range c.sales {
		ids = append(ids, id)
	}
	c.mu.Unlock()
	cmds := make([]*redis.IntCmd, len(ids))
	_, err := s.rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
		for i, id := range ids {
			cmds[i] = p.XLen(ctx, KeysOf(s.prefix, id).Orders)
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	var n int64
	for _, c := range cmds {
		n += c.Val()
	}
	return n, nil
}
