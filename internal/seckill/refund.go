package seckill

import (
	"context"

	"github.com/hmdp/hmdp/lua"
)

var returnUnit = lua.Script("seckill_return_unit")

// ReturnUnit gives a refunded order's unit back to the Redis sale and keeps
// its buyer: one order per buyer per flash sale (一人一单), so the buyer of
// a refunded order is answered ALREADY_ORDERED, as MySQL's unique key
// (user_id, voucher_id), which keeps the refunded row, would decide anyway
// (MySQL has already taken the unit back: see order.Refund). If Redis cannot
// be told, the state is dropped so the next attempt rebuilds it from MySQL,
// where the refunded order still makes its buyer a buyer.
func (s *Service) ReturnUnit(ctx context.Context, userID, voucherID, orderID int64) {
	k := KeysOf(s.prefix, voucherID)
	err := returnUnit.Run(ctx, s.rdb, []string{k.State, k.Buyers}, userID, orderID).Err()
	defer s.announceUnits(ctx, voucherID)
	if err == nil {
		return
	}
	s.log.WarnContext(ctx, "refunded unit not returned to Redis; dropping the sale state so it is rebuilt", "voucher", voucherID, "order", orderID, "err", err)
	if err := s.rdb.Del(ctx, k.State).Err(); err != nil {
		s.log.ErrorContext(ctx, "cannot drop the sale state either; Redis holds one unit less than MySQL until it is rebuilt", "voucher", voucherID, "err", err)
	}
}
