package seckill

import (
	"context"
	"errors"
	"strconv"
	"strings"

	"github.com/redis/go-redis/v9"

	"github.com/hmdp/hmdp/lua"
)

var rejectScript = lua.Script("seckill_reject")

// Rejection reasons: why an accepted order was ended without being persisted
// (the dead letter's reason, the metric's label and the order's rejectReason).
const (
	ReasonMalformed         = "malformed"
	ReasonDeliveredTooOften = "delivered_too_often"
	ReasonOrderIDTaken      = "order_id_taken"
	ReasonNoSuchSale        = "no_such_sale"
	ReasonNoStockInMySQL    = "no_stock_in_mysql"
	ReasonDuplicateBuyer    = "duplicate_buyer"
	// ReasonLost: Redis lost the accepted order before any consumer
	// persisted it (its stream entry gone, no row in MySQL: a failover or
	// restart, ARCHITECTURE.md 3.6), found and ended by the acknowledged-order
	// ledger or the reconciliation job, so its buyer sees it end.
	ReasonLost = "lost"
)

// Rejected is an accepted order ended without being persisted (see
// Config.OnRejected): its buyer was released in Redis.
type Rejected struct {
	OrderID, UserID, VoucherID int64
	Reason                     string
}

// endEntry ends one stream entry for good with seckill_reject.lua: dead
// letter, buyer released (or pointed at keep), unit back when unit, rejection
// recorded; all atomically with the entry's removal from the stream, so an
// entry two consumers see is ended once. e is nil for a malformed entry. It
// reports whether this call ended it (false: gone already, or Redis failed,
// in which case it stays pending and is delivered again).
func (c *consumers) endEntry(k Keys, voucherID int64, m redis.XMessage, e *entry, reason string, unit bool, keep int64) bool {
	ctx := c.hard
	user, order, keepArg, unitArg := "", "", "", "0"
	if e != nil {
		user, order = strconv.FormatInt(e.user, 10), strconv.FormatInt(e.order, 10)
	}
	if keep > 0 {
		keepArg = strconv.FormatInt(keep, 10)
	}
	if unit {
		unitArg = "1"
	}
	// Kept at least a day (and as long as the sale's state), as long as
	// order(id) looks for orders of a finished sale.
	args := []any{m.ID, Group, user, order, unitArg, keepArg, reason, c.cfg.Name, stateTTL.Milliseconds()}
	for f, v := range m.Values {
		args = append(args, f, v)
	}
	n, err := rejectScript.Run(ctx, c.s.rdb, []string{k.State, k.Buyers, k.Orders, k.Dead, k.Rejected}, args...).Int64()
	if err != nil {
		c.s.log.Error("flash-sale order not ended; it stays pending and is retried", "voucher", voucherID, "entry", m.ID,
			"reason", reason, "err", err)
		return false
	}
	if n == 0 {
		return false
	}
	c.s.metrics.deadLettered.WithLabelValues(reason).Inc()
	c.s.log.Error("flash-sale order rejected and moved to the dead-letter stream", "voucher", voucherID, "entry", m.ID,
		"fields", m.Values, "reason", reason, "stream", k.Dead)
	return true
}

// announceRejected tells the buyers of orders this consumer ended.
func (c *consumers) announceRejected(rs []Rejected) {
	if h := c.s.onRejected; h != nil && len(rs) > 0 {
		h(c.hard, rs)
	}
}

// RejectedOrder returns the reason order orderID of userID was rejected for,
// looking through the given sales ("" when it was not rejected there), with
// one pipelined round trip per Cluster node.
func (s *Service) RejectedOrder(ctx context.Context, userID, orderID int64, voucherIDs []int64) (voucherID int64, reason string, err error) {
	cmds := make([]*redis.StringCmd, len(voucherIDs))
	_, err = s.rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
		for i, v := range voucherIDs {
			cmds[i] = p.HGet(ctx, KeysOf(s.prefix, v).Rejected, strconv.FormatInt(orderID, 10))
		}
		return nil
	})
	if err != nil && !errors.Is(err, redis.Nil) {
		return 0, "", err
	}
	want := strconv.FormatInt(userID, 10) + ":"
	for i, c := range cmds {
		if v, err := c.Result(); err == nil && strings.HasPrefix(v, want) {
			return voucherIDs[i], strings.TrimPrefix(v, want), nil
		}
	}
	return 0, "", nil
}
