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
	"github.com/hmdp/hmdp/ent/order"
	"github.com/hmdp/hmdp/ent/seckillvoucher"
	"github.com/hmdp/hmdp/internal/store"
)

// handle persists one batch read from the stream: one MySQL transaction,
// retried with backoff while MySQL fails (the batch is not acknowledged, so
// nothing is lost, and the next batch waits, so nothing is reordered); then
// XACK (and XDEL: the stream holds only what is not yet persisted).
func (c *consumers) handle(k Keys, voucherID int64, msgs []redis.XMessage, log *slog.Logger) {
	if len(msgs) == 0 {
		return
	}
	entries := make([]entry, 0, len(msgs))
	for _, m := range msgs {
		e, err := parseEntry(m)
		if err != nil || e.voucher != voucherID {
			c.deadLetter(k, voucherID, m, "malformed")
			continue
		}
		entries = append(entries, e)
	}
	if len(entries) == 0 {
		return
	}
	backoff := newBackoff(c.cfg)
	var out outcome
	for {
		var err error
		out, err = c.s.persist(c.hard, voucherID, entries)
		if err == nil {
			break
		}
		if c.hard.Err() != nil {
			return // shutting down: the entries stay pending for a takeover
		}
		c.s.metrics.retries.Inc()
		log.Warn("persisting flash-sale orders failed; retrying", "orders", len(entries), "err", err)
		backoff.wait(c.hard)
		// Still alive: reset the entries' idle time (JUSTID does not count a
		// delivery) so other instances do not take over a batch we retry.
		ids := make([]string, len(entries))
		for i, e := range entries {
			ids[i] = e.streamID
		}
		_ = c.s.rdb.XClaimJustID(c.hard, &redis.XClaimArgs{Stream: k.Orders, Group: Group, Consumer: c.cfg.Name, Messages: ids}).Err()
	}
	for _, r := range out.rejected {
		c.deadLetter(k, voucherID, r.entry.msg(), r.reason)
		c.s.forget(c.hard, voucherID, r.entry)
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
	c.ack(k, done, log)
	if h := c.s.onPersisted; h != nil && len(out.created) > 0 {
		h(c.hard, out.created)
	}
}

// ack acknowledges and deletes persisted entries, retrying a few times: if it
// still fails they are delivered again later, and persisting them again is a no-op.
func (c *consumers) ack(k Keys, ids []string, log *slog.Logger) {
	if len(ids) == 0 {
		return
	}
	backoff := newBackoff(c.cfg)
	for attempt := 0; ; attempt++ {
		_, err := c.s.rdb.TxPipelined(c.hard, func(p redis.Pipeliner) error {
			p.XAck(c.hard, k.Orders, Group, ids...)
			p.XDel(c.hard, k.Orders, ids...)
			return nil
		})
		if err == nil || attempt == 4 || c.hard.Err() != nil {
			if err != nil {
				log.Warn("persisted orders not acknowledged; they will be redelivered and skipped", "count", len(ids), "err", err)
			}
			return
		}
		backoff.wait(c.hard)
	}
}

// deadLetter moves an entry that cannot be persisted to the voucher's
// dead-letter stream (with the reason), logs and counts it.
func (c *consumers) deadLetter(k Keys, voucherID int64, m redis.XMessage, reason string) {
	vals := map[string]any{"reason": reason, "id": m.ID, "consumer": c.cfg.Name}
	for f, v := range m.Values {
		vals["entry_"+f] = v
	}
	ctx := c.hard
	// Counted before the move, so the metric never lags the streams.
	c.s.metrics.deadLettered.WithLabelValues(reason).Inc()
	_, err := c.s.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.XAdd(ctx, &redis.XAddArgs{Stream: k.Dead, Values: vals})
		p.XAck(ctx, k.Orders, Group, m.ID)
		p.XDel(ctx, k.Orders, m.ID)
		return nil
	})
	c.s.log.Error("flash-sale order moved to the dead-letter stream", "voucher", voucherID, "entry", m.ID,
		"fields", m.Values, "reason", reason, "stream", k.Dead, "err", err)
}

// forget removes a rejected order's buyer from Redis (the unit was never
// available in MySQL, so no stock goes back).
func (s *Service) forget(ctx context.Context, voucherID int64, e entry) {
	k := KeysOf(s.prefix, voucherID)
	if err := release.Run(ctx, s.rdb, []string{k.State, k.Buyers}, e.user, e.order, 0).Err(); err != nil {
		s.log.Warn("rejected buyer not removed from Redis", "voucher", voucherID, "order", e.order, "err", err)
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

// Persisted is an order a consumer wrote to MySQL.
type Persisted struct{ OrderID, UserID, VoucherID int64 }

// OnPersisted sets a hook called after each batch with the orders it created
// (the order service announces their status change with it).
func (s *Service) OnPersisted(h func(context.Context, []Persisted)) { s.onPersisted = h }

type outcome struct {
	created  []Persisted
	rejected []rejection
}

// rejection is an entry MySQL refuses for good, and why.
type rejection struct {
	entry  entry
	reason string
}

func (o *outcome) reject(reason string, es ...entry) {
	for _, e := range es {
		o.rejected = append(o.rejected, rejection{e, reason})
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

var errStockRace = errors.New("stock changed during the batch")

// persist writes a batch of one voucher's orders in one transaction: orders
// already in MySQL (a replay) are skipped, a cancelled order of the same user
// is replaced by the new one (a buyer may buy again after cancelling), and
// stock is taken with UPDATE ... SET stock = stock - n WHERE stock >= n, so
// MySQL can never oversell whatever Redis accepted; entries beyond MySQL's
// stock are returned as rejected.
func (s *Service) persist(ctx context.Context, voucherID int64, entries []entry) (out outcome, err error) {
	err = store.WithTx(ctx, s.db, func(tx *ent.Tx) error {
		out = outcome{}
		users := make([]int64, len(entries))
		for i, e := range entries {
			users[i] = e.user
		}
		existing, err := tx.Order.Query().Where(order.VoucherID(voucherID), order.UserIDIn(users...)).
			Select(order.FieldID, order.FieldUserID, order.FieldStatus).All(ctx)
		if err != nil {
			return err
		}
		byUser := make(map[int64]*ent.Order, len(existing))
		for _, o := range existing {
			byUser[o.UserID] = o
		}
		// An order id already used by another order (ids are unique unless
		// Redis lost the id counter) would fail the insert forever: refuse it.
		ids := make([]int64, len(entries))
		for i, e := range entries {
			ids[i] = e.order
		}
		taken, err := tx.Order.Query().Where(order.IDIn(ids...)).Select(order.FieldID, order.FieldUserID, order.FieldVoucherID).All(ctx)
		if err != nil {
			return err
		}
		clash := map[int64]bool{}
		for _, o := range taken {
			clash[o.ID] = o.UserID != userOf(entries, o.ID) || o.VoucherID != voucherID
		}
		var fresh, revive []entry
		for _, e := range entries {
			if clash[e.order] {
				out.reject("order_id_taken", e)
				continue
			}
			o, ok := byUser[e.user]
			switch {
			case !ok:
				fresh = append(fresh, e)
				byUser[e.user] = &ent.Order{ID: e.order, UserID: e.user, Status: StatusUnpaid}
			case o.ID == e.order:
				// replayed: already done
			case o.Status == StatusCancelled:
				revive = append(revive, e)
				byUser[e.user] = &ent.Order{ID: e.order, UserID: e.user, Status: StatusUnpaid}
			default:
				s.log.Warn("second flash-sale order of a buyer dropped (the unique key decides)", "voucher", voucherID, "user", e.user, "order", e.order, "kept", o.ID)
			}
		}
		n := len(fresh) + len(revive)
		if n == 0 {
			return nil
		}
		sv, err := tx.SeckillVoucher.Get(ctx, voucherID)
		if ent.IsNotFound(err) {
			out.reject("no_such_sale", append(fresh, revive...)...)
			return nil
		}
		if err != nil {
			return err
		}
		take := min(n, max(sv.Stock, 0))
		if take < n {
			all := append(append([]entry{}, fresh...), revive...)
			out.reject("no_stock_in_mysql", all[take:]...)
			if take <= len(fresh) {
				fresh, revive = fresh[:take], nil
			} else {
				revive = revive[:take-len(fresh)]
			}
		}
		if take == 0 {
			return nil
		}
		updated, err := tx.SeckillVoucher.Update().
			Where(seckillvoucher.ID(voucherID), seckillvoucher.StockGTE(take)).
			AddStock(-take).Save(ctx)
		if err != nil {
			return err
		}
		if updated != 1 {
			return errStockRace
		}
		if len(fresh) > 0 {
			creates := make([]*ent.OrderCreate, len(fresh))
			for i, e := range fresh {
				at := e.acceptedAt()
				creates[i] = tx.Order.Create().SetID(e.order).SetUserID(e.user).SetVoucherID(voucherID).
					SetStatus(StatusUnpaid).SetCreateTime(at).SetUpdateTime(at)
			}
			if err := tx.Order.CreateBulk(creates...).Exec(ctx); err != nil {
				return fmt.Errorf("insert orders: %w", err)
			}
		}
		for _, e := range revive {
			at := e.acceptedAt()
			if _, err := tx.ExecContext(ctx, `UPDATE tb_voucher_order SET id = ?, status = ?, pay_type = 1,
				pay_time = NULL, use_time = NULL, refund_time = NULL, create_time = ?, update_time = ?
				WHERE user_id = ? AND voucher_id = ? AND status = ?`,
				e.order, StatusUnpaid, at, at, e.user, voucherID, StatusCancelled); err != nil {
				return fmt.Errorf("replace cancelled order: %w", err)
			}
		}
		for _, e := range append(fresh, revive...) {
			out.created = append(out.created, Persisted{OrderID: e.order, UserID: e.user, VoucherID: voucherID})
		}
		return nil
	})
	return out, err
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
	ids := make([]int64, 0, len(c.running))
	for id := range c.running {
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
