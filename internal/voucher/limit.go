package voucher

import (
	"context"

	"github.com/hmdp/hmdp/ent"
	entlimit "github.com/hmdp/hmdp/ent/voucherlimit"
	"github.com/hmdp/hmdp/internal/apperr"
)

// A normal voucher is bought in quantities (buyVoucher), one order per buyer
// and voucher: its per-user limit (hmdp_voucher_limit) bounds that order's
// quantity. A flash sale sells one unit per buyer and has none.
const (
	// DefaultPerUserLimit bounds a quantity when the voucher sets no limit,
	// so that one is always bounded.
	DefaultPerUserLimit = 10
	// MaxPerUserLimit bounds the limits admins may set.
	MaxPerUserLimit = 100
)

// checkLimit checks a per-user limit given to createVoucher / updateVoucher.
func checkLimit(limit *int, seckill bool) error {
	switch {
	case limit == nil:
		return nil
	case seckill:
		return apperr.BadInput("input.perUserLimit", "a flash sale sells one unit per buyer: it has no per-user limit")
	case *limit < 1 || *limit > MaxPerUserLimit:
		return apperr.BadInput("input.perUserLimit", "must be 1 to %d, got %d", MaxPerUserLimit, *limit)
	}
	return nil
}

// MaxQuantity is how many units one order of v may hold: its per-user limit,
// DefaultPerUserLimit when it sets none, 1 for a flash sale. limit is v's
// limit (nil: none set).
func MaxQuantity(v *ent.Voucher, limit *int) int {
	switch {
	case IsSeckill(v):
		return 1
	case limit != nil:
		return *limit
	}
	return DefaultPerUserLimit
}

// LimitOf reads voucher id's per-user limit with db (a transaction's client
// in BuyVoucher); nil when none is set.
func LimitOf(ctx context.Context, db *ent.Client, id int64) (*int, error) {
	l, err := db.VoucherLimit.Query().Where(entlimit.ID(id)).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return &l.PerUser, nil
}

// readLimits sets the per-user limits of the normal vouchers among vs
// (ent.Voucher.PerUserLimit), in one statement.
func (s *Service) readLimits(ctx context.Context, vs []*ent.Voucher) error {
	var ids []int64
	for _, v := range vs {
		if !IsSeckill(v) && !v.LimitRead {
			ids = append(ids, v.ID)
		}
	}
	if len(ids) == 0 {
		return nil
	}
	ls, err := s.db.VoucherLimit.Query().Where(entlimit.IDIn(ids...)).All(ctx)
	if err != nil {
		return err
	}
	byID := make(map[int64]int, len(ls))
	for _, l := range ls {
		byID[l.ID] = l.PerUser
	}
	for _, v := range vs {
		if IsSeckill(v) || v.LimitRead {
			continue
		}
		if n, ok := byID[v.ID]; ok {
			v.PerUserLimit = &n
		}
		v.LimitRead = true
	}
	return nil
}

// Limits are the per-user limits of vs (nil where none is set, or for a
// flash sale), as the vouchers carry them when read with their shop, else
// from MySQL in one statement for all.
func (s *Service) Limits(ctx context.Context, vs []*ent.Voucher) ([]*int, error) {
	var unread []*ent.Voucher
	for _, v := range vs {
		if !v.LimitRead && !IsSeckill(v) {
			// A copy: the row may be shared (a loader's, a cache's).
			c := *v
			unread = append(unread, &c)
		}
	}
	if err := s.readLimits(ctx, unread); err != nil {
		return nil, err
	}
	read := make(map[int64]*int, len(unread))
	for _, v := range unread {
		read[v.ID] = v.PerUserLimit
	}
	out := make([]*int, len(vs))
	for i, v := range vs {
		switch {
		case v.LimitRead:
			out[i] = v.PerUserLimit
		case !IsSeckill(v):
			out[i] = read[v.ID]
		}
	}
	return out, nil
}
