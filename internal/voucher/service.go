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
	"github.com/hmdp/hmdp/ent/schema/enum"
	"github.com/hmdp/hmdp/ent/schema/maxlen"
	entseckillvoucher "github.com/hmdp/hmdp/ent/seckillvoucher"
	entshop "github.com/hmdp/hmdp/ent/shop"
	entvoucher "github.com/hmdp/hmdp/ent/voucher"
	"github.com/hmdp/hmdp/internal/apperr"
	"github.com/hmdp/hmdp/internal/audit"
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
	// Changed is told, after the commit, that a sale's stock, window or
	// voucher status changed in MySQL.
	Changed(ctx context.Context, sv *ent.SeckillVoucher)
}

// Config holds the service's dependencies; zero values take the defaults.
type Config struct {
	DB *ent.Client
	// Publisher writes the Redis sale state of new flash-sale vouchers.
	Publisher Publisher
	// Now is the clock: a sale whose end passed shows as EXPIRED (default time.Now).
	Now func() time.Time
	// Stocks, when set, gives flash sales' live stock (internal/seckill);
	// without, LiveStocks reads MySQL's.
	Stocks Stocks
	// Cache, when its Redis and Locker are set, keeps each shop's vouchers
	// (with their sales) in Redis and the near cache, and reads sales' live
	// stock from Redis (cache.go); without, every read goes to MySQL.
	Cache CacheConfig
}

// Service is the voucher service.
type Service struct {
	db     *ent.Client
	pub    Publisher
	now    func() time.Time
	cache  *shopCache // nil: no cache
	stocks Stocks     // nil: MySQL's stock
}

// Stocks are flash sales' live stock by voucher id (seckill.Service), ids
// that name no sale left out.
type Stocks interface {
	LiveStocks(ctx context.Context, ids []int64) (map[int64]int, error)
}

// New returns the service; with a cache, call Start before serving and
// Close at the end.
func New(cfg Config) *Service {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	s := &Service{db: cfg.DB, pub: cfg.Publisher, now: cfg.Now, stocks: cfg.Stocks}
	if cfg.Cache.Redis != nil && cfg.Cache.Locker != nil {
		s.cache = newShopCache(s, cfg.Cache)
	}
	return s
}

// CreateInput is createVoucher's input (GraphQL CreateVoucherInput).
type CreateInput struct {
	ShopID      int64
	Title       string
	SubTitle    *string
	Rules       *string
	PayValue    int64
	ActualValue int64
	// PerUserLimit bounds one buyer's order of a normal voucher (nil: the
	// default, DefaultPerUserLimit).
	PerUserLimit *int
	Seckill      *SeckillInput
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
	case in.Title == "" || utf8.RuneCountInString(in.Title) > maxlen.VoucherTitle:
		return apperr.BadInput("input.title", "must be 1 to %d characters", maxlen.VoucherTitle)
	case in.SubTitle != nil && utf8.RuneCountInString(*in.SubTitle) > maxlen.VoucherSub:
		return apperr.BadInput("input.subTitle", "must be at most %d characters", maxlen.VoucherSub)
	case in.Rules != nil && utf8.RuneCountInString(*in.Rules) > maxlen.VoucherRules:
		return apperr.BadInput("input.rules", "must be at most %d characters", maxlen.VoucherRules)
	case in.PayValue < 0:
		return apperr.BadInput("input.payValue", "must be >= 0 (cents)")
	case in.ActualValue < 0:
		return apperr.BadInput("input.actualValue", "must be >= 0 (cents)")
	}
	if err := checkLimit(in.PerUserLimit, in.Seckill != nil); err != nil {
		return err
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

// Create adds a voucher for an admin; with Seckill, tb_voucher and
// tb_seckill_voucher are written in one transaction (with the audit row) and
// the Redis sale state after it commits.
func (s *Service) Create(ctx context.Context, in CreateInput) (*ent.Voucher, error) {
	actor, err := audit.Operator(ctx)
	if err != nil {
		return nil, err
	}
	if err := in.validate(); err != nil {
		return nil, err
	}
	if ok, err := s.db.Shop.Query().Where(entshop.ID(in.ShopID)).Exist(ctx); err != nil {
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
	changed, err := s.cache.recordChange(ctx, tx, in.ShopID)
	if err == nil {
		err = audit.Record(ctx, tx, actor, audit.Entry{Action: enum.OperatorCreateVoucher, ShopID: in.ShopID,
			VoucherID: v.ID, Detail: createDetail(in)})
	}
	if err != nil {
		return nil, errors.Join(err, tx.Rollback())
	}
	if err := tx.Commit(); err != nil {
		return nil, err
	}
	s.cache.changed(ctx, in.ShopID, changed)
	if sv != nil {
		s.pub.Publish(ctx, sv.Unwrap())
	}
	return v.Unwrap(), nil
}

// createDetail is a new voucher as the audit describes it.
func createDetail(in CreateInput) string {
	d := fmt.Sprintf("%q payValue %d actualValue %d", in.Title, in.PayValue, in.ActualValue)
	if in.PerUserLimit != nil {
		d += fmt.Sprintf(" perUserLimit %d", *in.PerUserLimit)
	}
	if sk := in.Seckill; sk != nil {
		d += fmt.Sprintf(" flash sale stock %d %s..%s", sk.Stock, sk.BeginTime.UTC().Format(time.RFC3339), sk.EndTime.UTC().Format(time.RFC3339))
	}
	return d
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
	if err == nil && in.PerUserLimit != nil {
		err = tx.VoucherLimit.Create().SetID(v.ID).SetPerUser(*in.PerUserLimit).Exec(ctx)
		v.PerUserLimit, v.LimitRead = in.PerUserLimit, true
	}
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
	vs, _, err := s.ByShops(ctx, []int64{shopID})
	if err != nil {
		return nil, err
	}
	return vs[0], nil
}

// ByShops is ByShop for many shops at once, in two statements whatever their
// number: out[i] are the vouchers of shopIDs[i]. It also returns the sales of
// the flash-sale vouchers among them (which it reads to leave out ended sales),
// so a caller can keep them for Seckill.
//
// The vouchers of one shop (a shop page) come from the cache when the
// service has one; lists of shops read MySQL, in the two statements.
func (s *Service) ByShops(ctx context.Context, shopIDs []int64) (out [][]*ent.Voucher, sales []*ent.SeckillVoucher, err error) {
	if s.cache != nil && len(shopIDs) == 1 {
		return s.cache.byShop(ctx, shopIDs[0])
	}
	return s.byShops(ctx, shopIDs)
}

// byShops is ByShops from MySQL.
func (s *Service) byShops(ctx context.Context, shopIDs []int64) (out [][]*ent.Voucher, sales []*ent.SeckillVoucher, err error) {
	out = make([][]*ent.Voucher, len(shopIDs))
	vs, err := s.db.Voucher.Query().Where(entvoucher.ShopIDIn(shopIDs...), entvoucher.Status(statusOn)).
		Order(ent.Asc(entvoucher.FieldID)).All(ctx)
	if err != nil {
		return nil, nil, err
	}
	if err := s.readLimits(ctx, vs); err != nil {
		return nil, nil, err
	}
	var ids []int64
	for _, v := range vs {
		if v.Type == typeSeckill {
			ids = append(ids, v.ID)
		}
	}
	ended := map[int64]bool{}
	if len(ids) > 0 {
		all, err := s.db.SeckillVoucher.Query().Where(entseckillvoucher.IDIn(ids...)).All(ctx)
		if err != nil {
			return nil, nil, err
		}
		now := s.now()
		for _, sv := range all {
			if !sv.EndTime.After(now) {
				ended[sv.ID] = true
			} else {
				sales = append(sales, sv)
			}
		}
	}
	byShop := make(map[int64][]*ent.Voucher, len(shopIDs))
	for _, v := range vs {
		if !ended[v.ID] {
			byShop[v.ShopID] = append(byShop[v.ShopID], v)
		}
	}
	for i, id := range shopIDs {
		out[i] = byShop[id]
		if out[i] == nil {
			out[i] = []*ent.Voucher{}
		}
	}
	return out, sales, nil
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

// IsSeckill reports a flash-sale voucher (one that has a sale).
func IsSeckill(v *ent.Voucher) bool { return v.Type == typeSeckill }

// NeedsSale reports whether v's status depends on its sale: an on-sale
// flash-sale voucher shows as EXPIRED once its sale has ended.
func NeedsSale(v *ent.Voucher) bool { return v.Status == statusOn && IsSeckill(v) }

// Status is a voucher's status (GraphQL VoucherStatus).
func (s *Service) Status(ctx context.Context, v *ent.Voucher) (Status, error) {
	if !NeedsSale(v) {
		return s.StatusOf(v, nil), nil
	}
	sv, err := s.Seckill(ctx, v)
	if err != nil {
		return "", err
	}
	return s.StatusOf(v, sv), nil
}

// StatusOf is a voucher's status given its sale (nil for a normal voucher).
func (s *Service) StatusOf(v *ent.Voucher, sale *ent.SeckillVoucher) Status {
	switch v.Status {
	case statusOff:
		return StatusOffSale
	case statusEnded:
		return StatusExpired
	}
	if sale != nil && !s.now().Before(sale.EndTime) {
		return StatusExpired
	}
	return StatusOnSale
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

// The voucher types and statuses.
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
