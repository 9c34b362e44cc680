// Package voucher creates and lists vouchers: normal ones, and flash-sale ones
// whose sale state internal/seckill keeps in Redis.
package voucher

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/hmdp/hmdp/ent"
	"github.com/hmdp/hmdp/ent/seckillvoucher"
	"github.com/hmdp/hmdp/ent/shop"
	"github.com/hmdp/hmdp/ent/voucher"
	"github.com/hmdp/hmdp/internal/apperr"
)

// tb_voucher.type and .status values.
const (
	typeNormal  = 0
	typeSeckill = 1
	statusOn    = 1
	statusOff   = 2
	statusEnded = 3
)

// Publisher writes a committed flash-sale voucher's sale state (internal/seckill).
type Publisher interface {
	Publish(ctx context.Context, sv *ent.SeckillVoucher)
}

// Service is the voucher service.
type Service struct {
	db  *ent.Client
	pub Publisher
	// Now is the clock (a sale whose end passed shows as EXPIRED).
	Now func() time.Time
}

// New returns the service.
func New(db *ent.Client, pub Publisher) *Service { return &Service{db: db, pub: pub, Now: time.Now} }

// CreateInput is createVoucher's input (GraphQL CreateVoucherInput).
type CreateInput struct {
	ShopID      int64
	Title       string
	SubTitle    *string
	Rules       *string
	PayValue    int64
	ActualValue int64
	Seckill     *SeckillInput
}

// SeckillInput makes a voucher a flash-sale one.
type SeckillInput struct {
	Stock     int
	BeginTime time.Time
	EndTime   time.Time
}

func (in CreateInput) validate() error {
	switch {
	case in.ShopID <= 0:
		return apperr.BadInput("input.shopId", "must be a shop id")
	case in.Title == "" || utf8.RuneCountInString(in.Title) > 255:
		return apperr.BadInput("input.title", "must be 1 to 255 characters")
	case in.SubTitle != nil && utf8.RuneCountInString(*in.SubTitle) > 255:
		return apperr.BadInput("input.subTitle", "must be at most 255 characters")
	case in.Rules != nil && utf8.RuneCountInString(*in.Rules) > 1024:
		return apperr.BadInput("input.rules", "must be at most 1024 characters")
	case in.PayValue < 0:
		return apperr.BadInput("input.payValue", "must be >= 0 (cents)")
	case in.ActualValue < 0:
		return apperr.BadInput("input.actualValue", "must be >= 0 (cents)")
	}
	if sk := in.Seckill; sk != nil {
		switch {
		case sk.Stock < 1:
			return apperr.BadInput("input.seckill.stock", "must be >= 1")
		case sk.Stock > 1_000_000_000:
			return apperr.BadInput("input.seckill.stock", "must be at most 1000000000")
		case sk.BeginTime.Unix() < 0:
			return apperr.BadInput("input.seckill.beginTime", "must be after 1970")
		case !sk.BeginTime.Before(sk.EndTime):
			return apperr.BadInput("input.seckill.endTime", "must be after beginTime")
		case sk.EndTime.Year() > 2037:
			return apperr.BadInput("input.seckill.endTime", "must be before 2038 (a MySQL TIMESTAMP)")
		}
	}
	return nil
}

// Create adds a voucher; with Seckill, tb_voucher and tb_seckill_voucher are
// written in one transaction and the Redis sale state after it commits.
func (s *Service) Create(ctx context.Context, in CreateInput) (*ent.Voucher, error) {
	if err := in.validate(); err != nil {
		return nil, err
	}
	if ok, err := s.db.Shop.Query().Where(shop.ID(in.ShopID)).Exist(ctx); err != nil {
		return nil, err
	} else if !ok {
		return nil, apperr.BadInput("input.shopId", "no shop %d", in.ShopID)
	}
	tx, err := s.db.Tx(ctx)
	if err != nil {
		return nil, err
	}
	v, sv, err := create(ctx, tx, in)
	if err != nil {
		return nil, errors.Join(err, tx.Rollback())
	}
	if err := tx.Commit(); err != nil {
		return nil, err
	}
	if sv != nil {
		s.pub.Publish(ctx, sv.Unwrap())
	}
	return v.Unwrap(), nil
}

func create(ctx context.Context, tx *ent.Tx, in CreateInput) (*ent.Voucher, *ent.SeckillVoucher, error) {
	typ := typeNormal
	if in.Seckill != nil {
		typ = typeSeckill
	}
	v, err := tx.Voucher.Create().SetShopID(in.ShopID).SetTitle(in.Title).
		SetNillableSubTitle(in.SubTitle).SetNillableRules(in.Rules).
		SetPayValue(in.PayValue).SetActualValue(in.ActualValue).
		SetType(typ).SetStatus(statusOn).Save(ctx)
	if err != nil || in.Seckill == nil {
		return v, nil, err
	}
	sk := in.Seckill
	sv, err := tx.SeckillVoucher.Create().SetID(v.ID).SetStock(sk.Stock).
		SetBeginTime(sk.BeginTime.UTC().Truncate(time.Second)).SetEndTime(sk.EndTime.UTC().Truncate(time.Second)).Save(ctx)
	return v, sv, err
}

// Get returns a voucher, nil when absent.
func (s *Service) Get(ctx context.Context, id int64) (*ent.Voucher, error) {
	v, err := s.db.Voucher.Get(ctx, id)
	if ent.IsNotFound(err) {
		return nil, nil
	}
	return v, err
}

// ByShop returns a shop's vouchers that are on sale (status 1, and for a
// flash sale: not yet ended), in id order.
func (s *Service) ByShop(ctx context.Context, shopID int64) ([]*ent.Voucher, error) {
	vs, err := s.db.Voucher.Query().Where(voucher.ShopID(shopID), voucher.Status(statusOn)).
		Order(ent.Asc(voucher.FieldID)).All(ctx)
	if err != nil {
		return nil, err
	}
	var ids []int64
	for _, v := range vs {
		if v.Type == typeSeckill {
			ids = append(ids, v.ID)
		}
	}
	if len(ids) == 0 {
		return vs, nil
	}
	ended, err := s.db.SeckillVoucher.Query().
		Where(seckillvoucher.IDIn(ids...), seckillvoucher.EndTimeLTE(s.Now())).IDs(ctx)
	if err != nil {
		return nil, err
	}
	out := vs[:0]
	for _, v := range vs {
		if !contains(ended, v.ID) {
			out = append(out, v)
		}
	}
	return out, nil
}

func contains(ids []int64, id int64) bool {
	for _, x := range ids {
		if x == id {
			return true
		}
	}
	return false
}

// Seckill returns a flash-sale voucher's sale (MySQL's stock), nil for a normal voucher.
func (s *Service) Seckill(ctx context.Context, v *ent.Voucher) (*ent.SeckillVoucher, error) {
	if v.Type != typeSeckill {
		return nil, nil
	}
	sv, err := s.db.SeckillVoucher.Get(ctx, v.ID)
	if ent.IsNotFound(err) {
		return nil, nil
	}
	return sv, err
}

// Status is a voucher's status (GraphQL VoucherStatus).
func (s *Service) Status(ctx context.Context, v *ent.Voucher) (Status, error) {
	switch v.Status {
	case statusOff:
		return StatusOffSale, nil
	case statusEnded:
		return StatusExpired, nil
	}
	sv, err := s.Seckill(ctx, v)
	if err != nil {
		return "", err
	}
	if sv != nil && !s.Now().Before(sv.EndTime) {
		return StatusExpired, nil
	}
	return StatusOnSale, nil
}

// TypeOf is a voucher's type (GraphQL VoucherType).
func TypeOf(v *ent.Voucher) Type {
	if v.Type == typeSeckill {
		return TypeSeckill
	}
	return TypeNormal
}

// Type is GraphQL's VoucherType.
type Type string

// Status is GraphQL's VoucherStatus.
type Status string

const (
	TypeNormal    Type   = "NORMAL"
	TypeSeckill   Type   = "SECKILL"
	StatusOnSale  Status = "ON_SALE"
	StatusOffSale Status = "OFF_SALE"
	StatusExpired Status = "EXPIRED"
)

// MarshalGQL writes the enum value.
func (t Type) MarshalGQL(w io.Writer) { _, _ = io.WriteString(w, strconv.Quote(string(t))) }

// UnmarshalGQL reads the enum value.
func (t *Type) UnmarshalGQL(v any) error {
	s, _ := v.(string)
	if s != string(TypeNormal) && s != string(TypeSeckill) {
		return fmt.Errorf("%v is not a VoucherType", v)
	}
	*t = Type(s)
	return nil
}

// MarshalGQL writes the enum value.
func (st Status) MarshalGQL(w io.Writer) { _, _ = io.WriteString(w, strconv.Quote(string(st))) }

// UnmarshalGQL reads the enum value.
func (st *Status) UnmarshalGQL(v any) error {
	s, _ := v.(string)
	switch Status(s) {
	case StatusOnSale, StatusOffSale, StatusExpired:
		*st = Status(s)
		return nil
	}
	return fmt.Errorf("%v is not a VoucherStatus", v)
}
