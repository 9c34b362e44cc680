package voucher

import (
	"context"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/hmdp/hmdp/ent"
	entorder "github.com/hmdp/hmdp/ent/order"
	"github.com/hmdp/hmdp/ent/schema/enum"
	"github.com/hmdp/hmdp/ent/schema/maxlen"
	entseckillvoucher "github.com/hmdp/hmdp/ent/seckillvoucher"
	entshop "github.com/hmdp/hmdp/ent/shop"
	entvoucher "github.com/hmdp/hmdp/ent/voucher"
	entlimit "github.com/hmdp/hmdp/ent/voucherlimit"
	"github.com/hmdp/hmdp/internal/apperr"
	"github.com/hmdp/hmdp/internal/audit"
	"github.com/hmdp/hmdp/internal/database"
)

// The operator's side of vouchers (the console): every method checks the
// viewer is an admin (audit.Operator) and records its change in
// hmdp_operator_audit in the change's own transaction.

// MaxStock bounds a flash sale's stock.
const MaxStock = 1_000_000_000

// UpdateInput is updateVoucher's input (GraphQL UpdateVoucherInput): only
// the fields given change.
type UpdateInput struct {
	Title       *string
	SubTitle    *string
	Rules       *string
	PayValue    *int64
	ActualValue *int64
	// PerUserLimit sets a normal voucher's per-user limit (1 to
	// MaxPerUserLimit); orders already placed keep their quantity.
	PerUserLimit *int
	Seckill      *UpdateSeckillInput
}

// UpdateSeckillInput changes a flash sale (GraphQL UpdateSeckillInput).
type UpdateSeckillInput struct {
	Stock     *int
	AddStock  *int
	BeginTime *time.Time
	EndTime   *time.Time
}

// validate checks what needs no row.
func (in UpdateInput) validate() error {
	switch {
	case in.Title != nil && (*in.Title == "" || utf8.RuneCountInString(*in.Title) > maxlen.VoucherTitle):
		return apperr.BadInput("input.title", "must be 1 to %d characters", maxlen.VoucherTitle)
	case in.SubTitle != nil && utf8.RuneCountInString(*in.SubTitle) > maxlen.VoucherSub:
		return apperr.BadInput("input.subTitle", "must be at most %d characters", maxlen.VoucherSub)
	case in.Rules != nil && utf8.RuneCountInString(*in.Rules) > maxlen.VoucherRules:
		return apperr.BadInput("input.rules", "must be at most %d characters", maxlen.VoucherRules)
	case in.PayValue != nil && *in.PayValue < 0:
		return apperr.BadInput("input.payValue", "must be >= 0 (cents)")
	case in.ActualValue != nil && *in.ActualValue < 0:
		return apperr.BadInput("input.actualValue", "must be >= 0 (cents)")
	}
	if err := checkLimit(in.PerUserLimit, false); err != nil {
		return err
	}
	sk := in.Seckill
	if sk == nil {
		return nil
	}
	switch {
	case sk.Stock != nil && sk.AddStock != nil:
		return apperr.BadInput("input.seckill.addStock", "give stock or addStock, not both")
	case sk.Stock != nil && (*sk.Stock < 1 || *sk.Stock > MaxStock):
		return apperr.BadInput("input.seckill.stock", "must be 1 to %d", MaxStock)
	case sk.AddStock != nil && (*sk.AddStock < 1 || *sk.AddStock > MaxStock):
		return apperr.BadInput("input.seckill.addStock", "must be 1 to %d", MaxStock)
	case sk.BeginTime != nil && sk.BeginTime.Unix() < 0:
		return apperr.BadInput("input.seckill.beginTime", "must be after 1970")
	case sk.EndTime != nil && sk.EndTime.Year() > 2037:
		return apperr.BadInput("input.seckill.endTime", "must be before 2038 (a MySQL TIMESTAMP)")
	}
	return nil
}

// Update changes a voucher (and its flash sale) for an admin, in one
// transaction with the voucher's row locked. What a running sale may not
// change is refused with an error naming the field (docs/API.md,
// updateVoucher): its prices and begin once it has begun (its buyers hold
// orders at those prices, some not in MySQL yet), its stock other than by
// addStock once it has begun, and anything but its texts once it has ended.
// A normal voucher's prices do not change while it has unpaid orders (they
// would pay the new price) or, for its face value, paid unused ones.
func (s *Service) Update(ctx context.Context, id int64, in UpdateInput) (*ent.Voucher, error) {
	actor, err := audit.Operator(ctx)
	if err != nil {
		return nil, err
	}
	if err := in.validate(); err != nil {
		return nil, err
	}
	var v *ent.Voucher
	var sv *ent.SeckillVoucher
	var changed *ent.Outbox
	err = database.WithTx(ctx, s.db, func(tx *ent.Tx) error {
		old, err := tx.Voucher.Query().Where(entvoucher.ID(id), database.ForUpdate).Only(ctx)
		if ent.IsNotFound(err) {
			return apperr.New(apperr.NotFound, "no voucher %d", id)
		}
		if err != nil {
			return err
		}
		if old.Type == typeSeckill {
			if sv, err = tx.SeckillVoucher.Query().Where(entseckillvoucher.ID(id), database.ForUpdate).Only(ctx); err != nil {
				return err
			}
		}
		detail, err := s.checkUpdate(ctx, tx, old, sv, in)
		if err != nil {
			return err
		}
		u := tx.Voucher.UpdateOneID(id).SetNillableTitle(in.Title).SetNillableSubTitle(in.SubTitle).
			SetNillableRules(in.Rules).SetNillablePayValue(in.PayValue).SetNillableActualValue(in.ActualValue)
		if v, err = u.Save(ctx); err != nil {
			return err
		}
		if in.PerUserLimit != nil {
			if err := setLimit(ctx, tx, id, *in.PerUserLimit); err != nil {
				return err
			}
		}
		if in.Seckill != nil {
			if sv, err = updateSale(ctx, tx, id, in.Seckill); err != nil {
				return err
			}
		}
		if changed, err = s.cache.recordChange(ctx, tx, old.ShopID); err != nil {
			return err
		}
		return audit.Record(ctx, tx, actor, audit.Entry{Action: enum.OperatorUpdateVoucher, ShopID: old.ShopID, VoucherID: id, Detail: detail})
	})
	if err != nil {
		return nil, err
	}
	s.cache.changed(ctx, v.ShopID, changed)
	if in.Seckill != nil && sv != nil && s.pub != nil {
		s.pub.Changed(ctx, sv) // after the commit: the sale's Redis state is rebuilt from MySQL
	}
	return v, nil
}

// setLimit sets voucher id's per-user limit (its row is locked by Update).
func setLimit(ctx context.Context, tx *ent.Tx, id int64, limit int) error {
	return tx.VoucherLimit.Create().SetID(id).SetPerUser(limit).
		OnConflictColumns(entlimit.FieldID).UpdatePerUser().UpdateUpdateTime().Exec(ctx)
}

// updateSale writes the sale's changes (checked by checkSale).
func updateSale(ctx context.Context, tx *ent.Tx, id int64, sk *UpdateSeckillInput) (*ent.SeckillVoucher, error) {
	su := tx.SeckillVoucher.UpdateOneID(id)
	if sk.Stock != nil {
		su.SetStock(*sk.Stock)
	}
	if sk.AddStock != nil {
		su.AddStock(*sk.AddStock)
	}
	if sk.BeginTime != nil {
		su.SetBeginTime(sk.BeginTime.UTC().Truncate(time.Second))
	}
	if sk.EndTime != nil {
		su.SetEndTime(sk.EndTime.UTC().Truncate(time.Second))
	}
	return su.Save(ctx)
}

// checkUpdate refuses what may not change now and says what does (the
// audit's detail).
func (s *Service) checkUpdate(ctx context.Context, tx *ent.Tx, v *ent.Voucher, sv *ent.SeckillVoucher, in UpdateInput) (string, error) {
	var what []string
	now := s.now()
	if in.Seckill != nil && sv == nil {
		return "", apperr.BadInput("input.seckill", "voucher %d is not a flash sale", v.ID)
	}
	begun, ended := false, false
	if sv != nil {
		begun, ended = !now.Before(sv.BeginTime), !now.Before(sv.EndTime)
	}
	for _, p := range []struct {
		field string
		v     *string
	}{{"title", in.Title}, {"subTitle", in.SubTitle}, {"rules", in.Rules}} {
		if p.v != nil {
			what = append(what, p.field)
		}
	}
	for _, p := range []struct {
		field  string
		v      *int64
		old    int64
		status []enum.OrderStatus
	}{
		{"payValue", in.PayValue, v.PayValue, []enum.OrderStatus{enum.OrderUnpaid}},
		{"actualValue", in.ActualValue, v.ActualValue, []enum.OrderStatus{enum.OrderUnpaid, enum.OrderPaid}},
	} {
		if p.v == nil || *p.v == p.old {
			continue
		}
		if begun {
			return "", apperr.BadInput("input."+p.field, "cannot change once the flash sale has begun: its buyers hold orders at the old price")
		}
		n, err := tx.Order.Query().Where(entorder.VoucherID(v.ID), entorder.StatusIn(p.status...)).Count(ctx)
		if err != nil {
			return "", err
		}
		if n > 0 {
			return "", apperr.BadInput("input."+p.field, "cannot change while the voucher has %d orders held at the old price (%s)", n, statusNames(p.status))
		}
		what = append(what, fmt.Sprintf("%s %d→%d", p.field, p.old, *p.v))
	}
	if in.PerUserLimit != nil {
		if err := checkLimit(in.PerUserLimit, sv != nil); err != nil {
			return "", err
		}
		old, err := LimitOf(ctx, tx.Client(), v.ID)
		if err != nil {
			return "", err
		}
		from := "default"
		if old != nil {
			from = fmt.Sprint(*old)
		}
		what = append(what, fmt.Sprintf("perUserLimit %s→%d", from, *in.PerUserLimit))
	}
	if in.Seckill != nil {
		more, err := checkSale(sv, in.Seckill, now, begun, ended)
		if err != nil {
			return "", err
		}
		what = append(what, more...)
	}
	return strings.Join(what, ", "), nil
}

// checkSale refuses the sale changes sk may not make now and says what it
// changes.
func checkSale(sv *ent.SeckillVoucher, sk *UpdateSeckillInput, now time.Time, begun, ended bool) ([]string, error) {
	var what []string
	if ended {
		return nil, apperr.BadInput("input.seckill", "the sale has ended: only title, subTitle and rules may change")
	}
	begin, end := sv.BeginTime, sv.EndTime
	if sk.Stock != nil {
		if begun {
			return nil, apperr.BadInput("input.seckill.stock", "cannot be set once the sale has begun (units are being sold): use addStock")
		}
		what = append(what, fmt.Sprintf("stock %d→%d", sv.Stock, *sk.Stock))
	}
	if sk.AddStock != nil {
		if sv.Stock+*sk.AddStock > MaxStock {
			return nil, apperr.BadInput("input.seckill.addStock", "the stock would exceed %d", MaxStock)
		}
		what = append(what, fmt.Sprintf("stock +%d", *sk.AddStock))
	}
	if sk.BeginTime != nil {
		if begun {
			return nil, apperr.BadInput("input.seckill.beginTime", "cannot change once the sale has begun")
		}
		begin = *sk.BeginTime
		what = append(what, "beginTime "+begin.UTC().Format(time.RFC3339))
	}
	if sk.EndTime != nil {
		if !sk.EndTime.After(now) {
			return nil, apperr.BadInput("input.seckill.endTime", "must be in the future (take the voucher off sale to stop the sale now)")
		}
		end = *sk.EndTime
		what = append(what, "endTime "+end.UTC().Format(time.RFC3339))
	}
	if !begin.Before(end) {
		field := "input.seckill.endTime"
		if sk.EndTime == nil {
			field = "input.seckill.beginTime"
		}
		return nil, apperr.BadInput(field, "beginTime must be before endTime")
	}
	return what, nil
}

func statusNames(st []enum.OrderStatus) string {
	names := make([]string, len(st))
	for i, x := range st {
		names[i] = x.String()
	}
	return strings.Join(names, " or ")
}

// SetOnSale takes a voucher off sale (tb_voucher.status 2) or puts it back
// (1), for an admin. A flash sale off sale admits no one (its Redis state is
// rebuilt closed, see seckill.Service.Changed); orders it admitted before are
// persisted as usual. An expired voucher (status 3) is not put back.
func (s *Service) SetOnSale(ctx context.Context, id int64, onSale bool) (*ent.Voucher, error) {
	actor, err := audit.Operator(ctx)
	if err != nil {
		return nil, err
	}
	var v *ent.Voucher
	var sv *ent.SeckillVoucher
	var changed *ent.Outbox
	err = database.WithTx(ctx, s.db, func(tx *ent.Tx) error {
		old, err := tx.Voucher.Query().Where(entvoucher.ID(id), database.ForUpdate).Only(ctx)
		if ent.IsNotFound(err) {
			return apperr.New(apperr.NotFound, "no voucher %d", id)
		}
		if err != nil {
			return err
		}
		status, action, detail := statusOff, enum.OperatorTakeOffSale, "off sale"
		if onSale {
			status, action, detail = statusOn, enum.OperatorPutOnSale, "on sale"
			if old.Status == statusEnded {
				return apperr.BadInput("onSale", "voucher %d has expired: it cannot go back on sale", id)
			}
		}
		if old.Status == status {
			detail += " (already)"
		}
		if v, err = tx.Voucher.UpdateOneID(id).SetStatus(status).Save(ctx); err != nil {
			return err
		}
		if old.Type == typeSeckill {
			if sv, err = tx.SeckillVoucher.Get(ctx, id); err != nil {
				return err
			}
		}
		if changed, err = s.cache.recordChange(ctx, tx, old.ShopID); err != nil {
			return err
		}
		return audit.Record(ctx, tx, actor, audit.Entry{Action: action, ShopID: old.ShopID, VoucherID: id, Detail: detail})
	})
	if err != nil {
		return nil, err
	}
	s.cache.changed(ctx, v.ShopID, changed)
	if sv != nil && s.pub != nil {
		s.pub.Changed(ctx, sv)
	}
	return v, nil
}

// MaxPerShop bounds AllOfShop (as a page: its cost is 50 times what each voucher selects).
const MaxPerShop = 50

// AllOfShop returns a shop's vouchers whatever their status, newest first
// (at most MaxPerShop), for an admin.
func (s *Service) AllOfShop(ctx context.Context, shopID int64) ([]*ent.Voucher, error) {
	if _, err := audit.Operator(ctx); err != nil {
		return nil, err
	}
	if ok, err := s.db.Shop.Query().Where(entshop.ID(shopID)).Exist(ctx); err != nil {
		return nil, err
	} else if !ok {
		return nil, apperr.New(apperr.NotFound, "no shop %d", shopID)
	}
	vs, err := s.db.Voucher.Query().Where(entvoucher.ShopID(shopID)).Order(ent.Desc(entvoucher.FieldID)).Limit(MaxPerShop).All(ctx)
	if err != nil {
		return nil, err
	}
	return vs, s.readLimits(ctx, vs)
}
