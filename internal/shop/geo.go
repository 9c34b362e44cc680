package shop

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/hmdp/hmdp/ent"
	entshop "github.com/hmdp/hmdp/ent/shop"
	"github.com/hmdp/hmdp/lua"
)

// geoAddIfExists moves a shop in its type's GEO set only if that set exists.
var geoAddIfExists = lua.Script("geo_add_if_exists")

// geoIndex is one Redis GEO set per shop type (member = shop id). A set is
// rebuilt whole from MySQL when missing (into a temporary key, then RENAME,
// so readers never see half a set) and kept current by the shop.changed
// outbox handler. Rebuilds and changes take one lock, so a rebuild that read
// MySQL before a change committed cannot overwrite that change's update.
type geoIndex struct {
	s *Service
	// radiusFallback is set once the server turns out not to know GEOSEARCH
	// (the embedded Redis); GEORADIUS answers the same question there.
	radiusFallback atomic.Bool
}

const geoLockWait, geoLockTTL = 5 * time.Second, 30 * time.Second

func (g *geoIndex) key(typeID int64) string {
	return g.s.prefix + "shop:geo:{" + strconv.FormatInt(typeID, 10) + "}"
}

// withLock runs fn holding the GEO maintenance lock.
func (g *geoIndex) withLock(ctx context.Context, fn func(ctx context.Context) error) error {
	h, err := g.s.locker.Simple("shop:geo").TryLock(ctx, geoLockWait, geoLockTTL)
	if err != nil {
		return err
	}
	defer func() { _ = h.Unlock(context.WithoutCancel(ctx)) }()
	return fn(h.Context()) //nolint:contextcheck // h.Context() derives from ctx (and ends if the lock is lost)
}

// ensure rebuilds the set of typeID from MySQL when Redis does not have it.
func (g *geoIndex) ensure(ctx context.Context, typeID int64) error {
	key := g.key(typeID)
	if n, err := g.s.rdb.Exists(ctx, key).Result(); err != nil || n == 1 {
		return err
	}
	return g.withLock(ctx, func(ctx context.Context) error {
		if n, err := g.s.rdb.Exists(ctx, key).Result(); err != nil || n == 1 {
			return err
		}
		var rows []struct {
			ID int64   `json:"id"`
			X  float64 `json:"x"`
			Y  float64 `json:"y"`
		}
		if err := g.s.db.Shop.Query().Where(entshop.TypeID(typeID)).
			Select(entshop.FieldID, entshop.FieldX, entshop.FieldY).Scan(ctx, &rows); err != nil {
			return err
		}
		if len(rows) == 0 {
			return nil // nothing to index; an empty set cannot be stored
		}
		tmp := key + ":build"
		const chunk = 1000
		for i := 0; i < len(rows); i += chunk {
			locs := make([]*redis.GeoLocation, 0, chunk)
			for _, r := range rows[i:min(i+chunk, len(rows))] {
				locs = append(locs, &redis.GeoLocation{Name: strconv.FormatInt(r.ID, 10), Longitude: r.X, Latitude: r.Y})
			}
			if err := g.s.rdb.GeoAdd(ctx, tmp, locs...).Err(); err != nil {
				return err
			}
		}
		return g.s.rdb.Rename(ctx, tmp, key).Err()
	})
}

// place puts sh in its type's set (when that set exists) and out of every other.
func (g *geoIndex) place(ctx context.Context, sh *ent.Shop) error {
	typeIDs, err := g.s.db.ShopType.Query().IDs(ctx)
	if err != nil {
		return err
	}
	member := strconv.FormatInt(sh.ID, 10)
	return g.withLock(ctx, func(ctx context.Context) error {
		if _, err := g.s.rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
			for _, t := range typeIDs {
				if t != sh.TypeID {
					p.ZRem(ctx, g.key(t), member)
				}
			}
			return nil
		}); err != nil {
			return err
		}
		return geoAddIfExists.Run(ctx, g.s.rdb, []string{g.key(sh.TypeID)},
			strconv.FormatFloat(sh.X, 'f', -1, 64), strconv.FormatFloat(sh.Y, 'f', -1, 64), member).Err()
	})
}

// nearest returns up to count members of typeID's set within radius metres
// of (x, y), nearest first, with distances in metres.
func (g *geoIndex) nearest(ctx context.Context, typeID int64, x, y, radius float64, count int) ([]redis.GeoLocation, error) {
	key := g.key(typeID)
	if !g.radiusFallback.Load() {
		locs, err := g.s.rdb.GeoSearchLocation(ctx, key, &redis.GeoSearchLocationQuery{
			GeoSearchQuery: redis.GeoSearchQuery{
				Longitude: x, Latitude: y, Radius: radius, RadiusUnit: "m", Sort: "ASC", Count: count,
			},
			WithDist: true,
		}).Result()
		if err == nil || !unknownCommand(err) {
			return locs, err
		}
		g.radiusFallback.Store(true)
	}
	return g.s.rdb.GeoRadius(ctx, key, x, y, &redis.GeoRadiusQuery{
		Radius: radius, Unit: "m", WithDist: true, Sort: "ASC", Count: count,
	}).Result()
}

func unknownCommand(err error) bool {
	var rerr redis.Error
	return errors.As(err, &rerr) && strings.Contains(strings.ToLower(err.Error()), "unknown command")
}
