package shop

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/hmdp/hmdp/ent"
	"github.com/hmdp/hmdp/internal/apperr"
)

// CreateInput is a new shop.
type CreateInput struct {
	Name      string
	TypeID    int64
	Images    []string
	Area      *string
	Address   string
	X, Y      float64
	AvgPrice  *int64
	OpenHours *string
}

// UpdateInput changes the fields that are set.
type UpdateInput struct {
	Name      *string
	TypeID    *int64
	Images    []string // nil: unchanged; empty: no images
	Area      *string
	Address   *string
	X, Y      *float64
	AvgPrice  *int64
	OpenHours *string
}

// fields is a shop's editable state, validated as a whole.
type fields struct {
	name, images, area, address, openHours string
	typeID                                 int64
	x, y                                   float64
	avgPrice                               int64
}

func (s *Service) validate(ctx context.Context, f *fields) error {
	f.name = strings.TrimSpace(f.name)
	f.address = strings.TrimSpace(f.address)
	switch {
	case f.name == "":
		return apperr.BadInput("input.name", "must not be empty")
	case utf8.RuneCountInString(f.name) > 128:
		return apperr.BadInput("input.name", "at most 128 characters")
	case f.address == "":
		return apperr.BadInput("input.address", "must not be empty")
	case utf8.RuneCountInString(f.address) > 255:
		return apperr.BadInput("input.address", "at most 255 characters")
	case utf8.RuneCountInString(f.area) > 128:
		return apperr.BadInput("input.area", "at most 128 characters")
	case utf8.RuneCountInString(f.openHours) > 32:
		return apperr.BadInput("input.openHours", "at most 32 characters")
	case len(f.images) > 1024:
		return apperr.BadInput("input.images", "at most 1024 characters together")
	case math.IsNaN(f.x) || f.x < -180 || f.x > 180:
		return apperr.BadInput("input.x", "longitude must be between -180 and 180")
	case math.IsNaN(f.y) || f.y < -maxLatitude || f.y > maxLatitude:
		return apperr.BadInput("input.y", "latitude must be between -%v and %v", maxLatitude, maxLatitude)
	case f.avgPrice < 0:
		return apperr.BadInput("input.avgPrice", "must not be negative")
	}
	t, err := s.Type(ctx, f.typeID)
	if err != nil {
		return err
	}
	if t == nil {
		return apperr.BadInput("input.typeId", "no shop type %d", f.typeID)
	}
	return nil
}

func joinImages(images []string) (string, error) {
	for i, im := range images {
		im = strings.TrimSpace(im)
		if im == "" || strings.Contains(im, ",") {
			return "", apperr.BadInput("input.images", "image %d must be a non-empty path without commas", i)
		}
		images[i] = im
	}
	return strings.Join(images, ","), nil
}

func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}

// Create adds a shop: MySQL first (with an outbox row in the same
// transaction), then the Bloom filter, GEO set and cache.
func (s *Service) Create(ctx context.Context, in CreateInput) (*ent.Shop, error) {
	images, err := joinImages(in.Images)
	if err != nil {
		return nil, err
	}
	f := fields{name: in.Name, images: images, area: deref(in.Area), address: in.Address,
		openHours: deref(in.OpenHours), typeID: in.TypeID, x: in.X, y: in.Y, avgPrice: deref(in.AvgPrice)}
	if err := s.validate(ctx, &f); err != nil {
		return nil, err
	}
	var id int64
	err = s.write(ctx, func(tx *ent.Tx) (int64, error) {
		sh, err := tx.Shop.Create().SetName(f.name).SetTypeID(f.typeID).SetImages(f.images).SetArea(f.area).
			SetAddress(f.address).SetX(f.x).SetY(f.y).SetAvgPrice(f.avgPrice).SetOpenHours(f.openHours).Save(ctx)
		if err != nil {
			return 0, err
		}
		id = sh.ID
		return sh.ID, nil
	})
	if err != nil {
		return nil, err
	}
	return s.db.Shop.Get(ctx, id)
}

// Update changes a shop, then invalidates its cache entry and moves it in the GEO sets.
func (s *Service) Update(ctx context.Context, id int64, in UpdateInput) (*ent.Shop, error) {
	cur, err := s.db.Shop.Get(ctx, id)
	if ent.IsNotFound(err) {
		return nil, apperr.New(apperr.NotFound, "no shop %d", id)
	}
	if err != nil {
		return nil, err
	}
	f := fields{name: cur.Name, images: cur.Images, area: cur.Area, address: cur.Address,
		openHours: cur.OpenHours, typeID: cur.TypeID, x: cur.X, y: cur.Y, avgPrice: cur.AvgPrice}
	set := func(dst *string, v *string) {
		if v != nil {
			*dst = *v
		}
	}
	set(&f.name, in.Name)
	set(&f.area, in.Area)
	set(&f.address, in.Address)
	set(&f.openHours, in.OpenHours)
	if in.Images != nil {
		if f.images, err = joinImages(in.Images); err != nil {
			return nil, err
		}
	}
	if in.TypeID != nil {
		f.typeID = *in.TypeID
	}
	if in.X != nil {
		f.x = *in.X
	}
	if in.Y != nil {
		f.y = *in.Y
	}
	if in.AvgPrice != nil {
		f.avgPrice = *in.AvgPrice
	}
	if err := s.validate(ctx, &f); err != nil {
		return nil, err
	}
	err = s.write(ctx, func(tx *ent.Tx) (int64, error) {
		return id, tx.Shop.UpdateOneID(id).SetName(f.name).SetTypeID(f.typeID).SetImages(f.images).SetArea(f.area).
			SetAddress(f.address).SetX(f.x).SetY(f.y).SetAvgPrice(f.avgPrice).SetOpenHours(f.openHours).Exec(ctx)
	})
	if err != nil {
		return nil, err
	}
	return s.db.Shop.Get(ctx, id)
}

// write runs change in a transaction that also records the shop.changed
// outbox row, then, after commit (never before), runs it. A failed run is not
// the caller's failure: MySQL has the change, and the outbox retries.
func (s *Service) write(ctx context.Context, change func(tx *ent.Tx) (int64, error)) error {
	tx, err := s.db.Tx(ctx)
	if err != nil {
		return err
	}
	id, err := change(tx)
	if err != nil {
		_ = tx.Rollback()
		return err
	}
	row, err := s.outbox.Record(ctx, tx, kindShopChanged, strconv.FormatInt(id, 10))
	if err != nil {
		_ = tx.Rollback()
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("commit shop %d: %w", id, err)
	}
	if err := s.outbox.Run(context.WithoutCancel(ctx), row); err != nil {
		s.log.Warn("shop change side effects failed; the outbox retries them", "shop", id, "err", err)
	}
	return nil
}

// applyShopChange is the shop.changed handler (idempotent): the Bloom filter
// learns the id, the shop moves in the GEO sets, the cache entry goes.
func (s *Service) applyShopChange(ctx context.Context, arg string) error {
	id, err := strconv.ParseInt(arg, 10, 64)
	if err != nil {
		return fmt.Errorf("shop.changed: bad id %q", arg)
	}
	sh, err := s.db.Shop.Get(ctx, id)
	if err != nil && !ent.IsNotFound(err) {
		return err
	}
	if sh != nil {
		if err := s.bloom.Add(ctx, arg); err != nil {
			return err
		}
		if err := s.geo.place(ctx, sh); err != nil {
			return err
		}
	}
	return s.shops.InvalidateID(ctx, arg)
}
