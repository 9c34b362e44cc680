package shop

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/hmdp/hmdp/ent"
	"github.com/hmdp/hmdp/ent/schema/enum"
	"github.com/hmdp/hmdp/ent/schema/maxlen"
	"github.com/hmdp/hmdp/internal/apperr"
	"github.com/hmdp/hmdp/internal/audit"
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

// validate checks the fields has reports as given (Create gives all).
func (s *Service) validate(ctx context.Context, f *fields, has func(field string) bool) error {
	f.name = strings.TrimSpace(f.name)
	f.address = strings.TrimSpace(f.address)
	switch {
	case has("name") && f.name == "":
		return apperr.BadInput("input.name", "must not be empty")
	case has("name") && utf8.RuneCountInString(f.name) > maxlen.ShopName:
		return apperr.BadInput("input.name", "at most %d characters", maxlen.ShopName)
	case has("address") && f.address == "":
		return apperr.BadInput("input.address", "must not be empty")
	case has("address") && utf8.RuneCountInString(f.address) > maxlen.ShopAddress:
		return apperr.BadInput("input.address", "at most %d characters", maxlen.ShopAddress)
	case has("area") && utf8.RuneCountInString(f.area) > maxlen.ShopArea:
		return apperr.BadInput("input.area", "at most %d characters", maxlen.ShopArea)
	case has("openHours") && utf8.RuneCountInString(f.openHours) > maxlen.ShopOpenHours:
		return apperr.BadInput("input.openHours", "at most %d characters", maxlen.ShopOpenHours)
	case has("images") && utf8.RuneCountInString(f.images) > maxlen.ShopImages:
		return apperr.BadInput("input.images", "at most %d characters together", maxlen.ShopImages)
	case has("x") && (math.IsNaN(f.x) || f.x < -180 || f.x > 180):
		return apperr.BadInput("input.x", "longitude must be between -180 and 180")
	case has("y") && (math.IsNaN(f.y) || f.y < -maxLatitude || f.y > maxLatitude):
		return apperr.BadInput("input.y", "latitude must be between -%v and %v", maxLatitude, maxLatitude)
	case has("avgPrice") && f.avgPrice < 0:
		return apperr.BadInput("input.avgPrice", "must not be negative")
	}
	if !has("typeId") {
		return nil
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

func all(string) bool { return true }

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

// Create adds a shop for an admin: MySQL first (with an outbox row and the
// audit row in the same transaction), then the Bloom filter, GEO set and cache.
func (s *Service) Create(ctx context.Context, in CreateInput) (*ent.Shop, error) {
	actor, err := audit.Operator(ctx)
	if err != nil {
		return nil, err
	}
	images, err := joinImages(in.Images)
	if err != nil {
		return nil, err
	}
	f := fields{name: in.Name, images: images, area: deref(in.Area), address: in.Address,
		openHours: deref(in.OpenHours), typeID: in.TypeID, x: in.X, y: in.Y, avgPrice: deref(in.AvgPrice)}
	if err := s.validate(ctx, &f, all); err != nil {
		return nil, err
	}
	var id int64
	err = s.write(ctx, actor, enum.OperatorCreateShop, func(tx *ent.Tx) (int64, string, error) {
		sh, err := tx.Shop.Create().SetName(f.name).SetTypeID(f.typeID).SetImages(f.images).SetArea(f.area).
			SetAddress(f.address).SetX(f.x).SetY(f.y).SetAvgPrice(f.avgPrice).SetOpenHours(f.openHours).Save(ctx)
		if err != nil {
			return 0, "", err
		}
		id = sh.ID
		return sh.ID, fmt.Sprintf("%q at %v,%v", f.name, f.x, f.y), nil
	})
	if err != nil {
		return nil, err
	}
	return s.db.Shop.Get(ctx, id)
}

// Update changes the given fields of a shop for an admin, then invalidates
// its cache entry and moves it in the GEO sets. Only the given columns are written, in
// one UPDATE (which row-locks): two admins editing different fields of a shop
// at once both keep their edit, and nothing is read first that could be stale.
func (s *Service) Update(ctx context.Context, id int64, in UpdateInput) (*ent.Shop, error) {
	actor, err := audit.Operator(ctx)
	if err != nil {
		return nil, err
	}
	f, given, err := in.toFields()
	if err != nil {
		return nil, err
	}
	if err := s.validate(ctx, &f, func(name string) bool { return given[name] }); err != nil {
		return nil, err
	}
	err = s.write(ctx, actor, enum.OperatorUpdateShop, func(tx *ent.Tx) (int64, string, error) {
		u := tx.Shop.UpdateOneID(id)
		f.set(u, given)
		err := u.Exec(ctx)
		if ent.IsNotFound(err) {
			return 0, "", apperr.New(apperr.NotFound, "no shop %d", id)
		}
		return id, givenNames(given), err
	})
	if err != nil {
		return nil, err
	}
	return s.db.Shop.Get(ctx, id)
}

// toFields is in as fields, with the names of the fields it gives.
func (in UpdateInput) toFields() (fields, map[string]bool, error) {
	var f fields
	given := map[string]bool{}
	str := func(name string, dst *string, v *string) {
		if v != nil {
			*dst, given[name] = *v, true
		}
	}
	str("name", &f.name, in.Name)
	str("area", &f.area, in.Area)
	str("address", &f.address, in.Address)
	str("openHours", &f.openHours, in.OpenHours)
	if in.Images != nil {
		var err error
		if f.images, err = joinImages(in.Images); err != nil {
			return fields{}, nil, err
		}
		given["images"] = true
	}
	if in.TypeID != nil {
		f.typeID, given["typeId"] = *in.TypeID, true
	}
	if in.X != nil {
		f.x, given["x"] = *in.X, true
	}
	if in.Y != nil {
		f.y, given["y"] = *in.Y, true
	}
	if in.AvgPrice != nil {
		f.avgPrice, given["avgPrice"] = *in.AvgPrice, true
	}
	return f, given, nil
}

// set sets the given fields' columns on u, and only those.
func (f fields) set(u *ent.ShopUpdateOne, given map[string]bool) {
	if given["name"] {
		u.SetName(f.name)
	}
	if given["area"] {
		u.SetArea(f.area)
	}
	if given["address"] {
		u.SetAddress(f.address)
	}
	if given["openHours"] {
		u.SetOpenHours(f.openHours)
	}
	if given["images"] {
		u.SetImages(f.images)
	}
	if given["typeId"] {
		u.SetTypeID(f.typeID)
	}
	if given["x"] {
		u.SetX(f.x)
	}
	if given["y"] {
		u.SetY(f.y)
	}
	if given["avgPrice"] {
		u.SetAvgPrice(f.avgPrice)
	}
}

// givenNames lists the fields an update changes, in a fixed order (the audit's detail).
func givenNames(given map[string]bool) string {
	var names []string
	for _, n := range []string{"name", "typeId", "images", "area", "address", "x", "y", "avgPrice", "openHours"} {
		if given[n] {
			names = append(names, n)
		}
	}
	return strings.Join(names, ", ")
}

// write runs change in a transaction that also records the shop.changed
// outbox row and the audit row of actor's action, then, after commit (never
// before), runs the outbox row. A failed run is not the caller's failure:
// MySQL has the change, and the outbox retries.
func (s *Service) write(ctx context.Context, actor string, action enum.OperatorAction, change func(tx *ent.Tx) (int64, string, error)) error {
	tx, err := s.db.Tx(ctx)
	if err != nil {
		return err
	}
	id, detail, err := change(tx)
	if err == nil {
		err = indexShop(ctx, tx, id) // searchShops finds the shop as written
	}
	if err == nil {
		err = audit.Record(ctx, tx, actor, audit.Entry{Action: action, ShopID: id, Detail: detail})
	}
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
// learns the id, the shop moves in the GEO sets, the cache entry goes (the
// hot entry is rewritten).
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
	if err := s.shops.InvalidateID(ctx, arg); err != nil {
		return err
	}
	return s.refreshHot(ctx, id) // rewritten, not deleted: a hot shop never misses
}
