// Package shop reads and writes shops and shop types through the Redis
// cache-aside toolkit (internal/rediscache): shop(id) with the mutex strategy,
// or logical expiry for hot shops (hot.go decides which shops are hot), null
// values, a Bloom filter and a near cache; the shop type list cached whole.
// Every write's Redis steps go through an outbox (internal/outbox). It also
// keeps a GEO set per shop type for nearby search and a HyperLogLog per shop
// per day for unique visitors.
package shop

import (
	"context"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/redis/go-redis/v9"

	"github.com/hmdp/hmdp/ent"
	entshop "github.com/hmdp/hmdp/ent/shop"
	entshoptype "github.com/hmdp/hmdp/ent/shoptype"
	"github.com/hmdp/hmdp/internal/database"
	"github.com/hmdp/hmdp/internal/lock"
	"github.com/hmdp/hmdp/internal/outbox"
	"github.com/hmdp/hmdp/internal/ratelimit"
	"github.com/hmdp/hmdp/internal/rediscache"
)

// Config holds the service's dependencies and tunables; zero values take
// the defaults.
type Config struct {
	DB     *ent.Client
	Redis  redis.UniversalClient
	Locker *lock.Locker // the cache's rebuild mutex
	Prefix string       // Redis key prefix ("hmdp:")
	// NearTTL is the near cache's lifetime (0 = off; 1 s is a good value).
	NearTTL time.Duration
	// TTL of cached shops and the type list (default 30 min, jittered ±10%).
	TTL time.Duration
	// OutboxInterval is how often failed Redis side effects are retried (default 1 s).
	OutboxInterval time.Duration
	Registerer     prometheus.Registerer
	Log            *slog.Logger
	// UVFlush is how often buffered shop visitors are written to their
	// HyperLogLogs, and how long a count read from one answers (default
	// 100 ms).
	UVFlush time.Duration
	// Now is the clock of the daily UV key (default time.Now).
	Now func() time.Time
	// Location is the zone whose day the UV key counts (the app passes
	// HMDP_TIME_ZONE); default time.Local.
	Location *time.Location
	// HotShops are always served with logical expiry (preloaded at Start;
	// a stale value is returned at once while one rebuild runs).
	HotShops []int64
	// HotTop adds the HotTop most-read shops of the last HotWindow (default
	// 10 min) to them, recomputed every HotEvery (default 30 s); 0 = off.
	HotTop    int
	HotWindow time.Duration
	HotEvery  time.Duration
	// Limiter limits searchShops per client address (SearchLimit, default
	// DefaultSearchLimit); nil = no limit.
	Limiter     *ratelimit.Limiter
	SearchLimit ratelimit.Limit
}

// Service is the shop service.
type Service struct {
	db     *ent.Client
	rdb    redis.UniversalClient
	prefix string
	log    *slog.Logger
	now    func() time.Time
	locker *lock.Locker

	shops    *rediscache.Cache[int64, *ent.Shop] // mutex strategy: every shop not hot
	hotShops *rediscache.Cache[int64, *ent.Shop] // logical expiry: the hot shops
	hot      *hotShops
	types    *rediscache.Cache[string, []*ent.ShopType]
	bloom    *rediscache.Bloom
	outbox   *outbox.Outbox
	geo      *geoIndex
	visits   *visits
	limiter  *ratelimit.Limiter
	searches ratelimit.Limit
}

const (
	kindShopChanged = "shop.changed"
	allTypes        = "all"
)

// New returns the service; call Start before serving and Close at the end.
func New(cfg Config) *Service {
	db, rdb, locker := cfg.DB, cfg.Redis, cfg.Locker
	if cfg.Log == nil {
		cfg.Log = slog.Default()
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Location == nil {
		cfg.Location = time.Local
	}
	clock, loc := cfg.Now, cfg.Location
	cfg.Now = func() time.Time { return clock().In(loc) } // the UV key's day is loc's
	if cfg.UVFlush <= 0 {
		cfg.UVFlush = 100 * time.Millisecond
	}
	if cfg.SearchLimit.Events <= 0 || cfg.SearchLimit.Per <= 0 {
		cfg.SearchLimit = DefaultSearchLimit
	}
	s := &Service{db: db, rdb: rdb, prefix: cfg.Prefix, log: cfg.Log, now: cfg.Now, locker: locker,
		limiter: cfg.Limiter, searches: cfg.SearchLimit}
	s.bloom = rediscache.NewBloom(rdb, cfg.Prefix, "shop", rediscache.BloomConfig{Log: cfg.Log}, s.allIDs)
	s.shops = rediscache.New(rdb, rediscache.Config{
		Name: "shop", Prefix: cfg.Prefix, TTL: cfg.TTL, NearTTL: cfg.NearTTL,
		Bloom: s.bloom, Locker: locker, Registerer: cfg.Registerer, Log: cfg.Log,
	}, s.loadShop)
	s.hotShops = rediscache.New(rdb, rediscache.Config{
		Name: "shop_hot", Prefix: cfg.Prefix, TTL: cfg.TTL, NearTTL: cfg.NearTTL, Strategy: rediscache.LogicalExpiry,
		Bloom: s.bloom, Locker: locker, Registerer: cfg.Registerer, Log: cfg.Log,
	}, s.loadShopPrimary)
	s.hot = newHotShops(s, cfg)
	s.types = rediscache.New(rdb, rediscache.Config{
		Name: "shop_type", Prefix: cfg.Prefix, TTL: cfg.TTL, NearTTL: cfg.NearTTL,
		Locker: locker, Registerer: cfg.Registerer, Log: cfg.Log,
	}, s.loadTypes)
	s.outbox = outbox.New(db, outbox.Config{Interval: cfg.OutboxInterval, Log: cfg.Log})
	s.outbox.Handle(kindShopChanged, s.applyShopChange)
	s.geo = &geoIndex{s: s}
	s.visits = newVisits(rdb, cfg.UVFlush, func(err error) { cfg.Log.Warn("write shop visitors", "err", err) })
	return s
}

// Start writes missing search rows, fills the Bloom filter from MySQL, subscribes to near-cache
// invalidations and starts retrying the outbox.
func (s *Service) Start(ctx context.Context) error {
	if err := s.indexAll(ctx); err != nil {
		return fmt.Errorf("shop search rows: %w", err)
	}
	if err := s.bloom.Fill(ctx); err != nil {
		return fmt.Errorf("shop bloom filter: %w", err)
	}
	if err := s.shops.Start(ctx); err != nil {
		return err
	}
	if err := s.types.Start(ctx); err != nil {
		return err
	}
	if err := s.hotShops.Start(ctx); err != nil {
		return err
	}
	if err := s.hot.start(ctx); err != nil {
		return err
	}
	s.outbox.Start() //nolint:contextcheck // the outbox retries run in the background until Close
	return nil
}

// Close stops the background work.
func (s *Service) Close() {
	s.hot.close()
	s.visits.close()
	s.outbox.Close()
	_ = s.shops.Close()
	_ = s.types.Close()
	_ = s.hotShops.Close()
	s.bloom.Wait()
}

// Cache is the shop cache (for tests and benchmarks).
func (s *Service) Cache() *rediscache.Cache[int64, *ent.Shop] { return s.shops }

// HotCache is the logical-expiry cache of the hot shops (for tests).
func (s *Service) HotCache() *rediscache.Cache[int64, *ent.Shop] { return s.hotShops }

// Outbox is the outbox of the service's Redis side effects (for tests).
func (s *Service) Outbox() *outbox.Outbox { return s.outbox }

func (s *Service) loadShop(ctx context.Context, id int64) (*ent.Shop, bool, error) {
	// A cache miss may read a replica: writes and the binlog invalidate.
	sh, err := s.db.Shop.Get(database.LagTolerant(ctx), id)
	if ent.IsNotFound(err) {
		return nil, false, nil
	}
	return sh, err == nil, err
}

func (s *Service) loadTypes(ctx context.Context, _ string) ([]*ent.ShopType, bool, error) {
	ts, err := s.db.ShopType.Query().Order(ent.Asc(entshoptype.FieldSort, entshoptype.FieldID)).All(database.LagTolerant(ctx))
	return ts, err == nil, err
}

// allIDs streams every shop id to the Bloom filter, in batches by id.
func (s *Service) allIDs(ctx context.Context, add func(ids ...string) error) error {
	var after int64
	for {
		ids, err := s.db.Shop.Query().Where(entshop.IDGT(after)).Order(ent.Asc(entshop.FieldID)).Limit(1000).IDs(ctx)
		if err != nil {
			return err
		}
		if len(ids) == 0 {
			return nil
		}
		strs := make([]string, len(ids))
		for i, id := range ids {
			strs[i] = strconv.FormatInt(id, 10)
		}
		if err := add(strs...); err != nil {
			return err
		}
		after = ids[len(ids)-1]
	}
}

// Get returns a shop through the cache, nil when absent. With the near cache
// on, concurrent readers share one value: callers must not modify it.
func (s *Service) Get(ctx context.Context, id int64) (*ent.Shop, error) {
	c := s.shops
	if s.hot.is(id) {
		c = s.hotShops // never waits for MySQL once preloaded
	}
	sh, found, err := c.Get(ctx, id)
	if err != nil || !found {
		return nil, err
	}
	return sh, nil
}

// View is the shop(id) read: Get, and count v as today's visitor.
func (s *Service) View(ctx context.Context, id int64, v Visitor) (*ent.Shop, error) {
	sh, err := s.Get(ctx, id)
	if err != nil || sh == nil {
		return sh, err
	}
	s.Visited(id, v)
	return sh, nil
}

// Visited counts v as today's visitor of shop id and the read towards the
// hot shops: what View does besides reading, for a read answered elsewhere
// (a kept response, see internal/responsecache).
func (s *Service) Visited(id int64, v Visitor) {
	s.countVisit(id, v)
	s.hot.note(id)
}

// Types returns every shop type ordered by sort (then id), cached as one list.
func (s *Service) Types(ctx context.Context) ([]*ent.ShopType, error) {
	ts, _, err := s.types.Get(ctx, allTypes)
	return ts, err
}

// Type returns a shop type from the cached list, nil when absent.
func (s *Service) Type(ctx context.Context, id int64) (*ent.ShopType, error) {
	ts, err := s.Types(ctx)
	if err != nil {
		return nil, err
	}
	for _, t := range ts {
		if t.ID == id {
			return t, nil
		}
	}
	return nil, nil
}

// InvalidateTypes drops the cached type list (after a type changes).
func (s *Service) InvalidateTypes(ctx context.Context) error {
	return s.types.Invalidate(ctx, allTypes)
}

// Images splits the comma-separated image column.
func Images(sh *ent.Shop) []string {
	if sh.Images == "" {
		return []string{}
	}
	return strings.Split(sh.Images, ",")
}
