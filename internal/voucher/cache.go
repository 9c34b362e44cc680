package voucher

import (
	"context"
	"log/slog"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/redis/go-redis/v9"

	"github.com/hmdp/hmdp/ent"
	entseckillvoucher "github.com/hmdp/hmdp/ent/seckillvoucher"
	"github.com/hmdp/hmdp/internal/database"
	"github.com/hmdp/hmdp/internal/lock"
	"github.com/hmdp/hmdp/internal/outbox"
	"github.com/hmdp/hmdp/internal/rediscache"
)

// CacheConfig is the cache of shops' vouchers; zero values take the defaults.
type CacheConfig struct {
	Redis  redis.UniversalClient
	Locker *lock.Locker // the cache's rebuild mutex
	Prefix string       // Redis key prefix ("hmdp:")
	// NearTTL is the near cache's lifetime (0 = off; HMDP_NEAR_CACHE_TTL).
	NearTTL time.Duration
	// TTL of a shop's cached vouchers in Redis (default 30 min, jittered ±10%).
	TTL time.Duration
	// OutboxInterval is how often failed invalidations are retried (default 1 s).
	OutboxInterval time.Duration
	Registerer     prometheus.Registerer
	Log            *slog.Logger
	// Bloom, when set, is the shops' filter: an id it rejects has no
	// vouchers and is not cached (nor asked of MySQL).
	Bloom *rediscache.Bloom
}

// kindVouchersChanged is the outbox row of a write to a shop's vouchers
// (its argument: the shop id).
const kindVouchersChanged = "voucher.changed"

// shopVouchers is the cached value of a shop: its on-sale vouchers and the
// sales of the flash-sale ones among them, as MySQL had them. A sale's
// stock in it is not read: the live stock comes from Redis (LiveStocks).
type shopVouchers struct {
	Vouchers []*ent.Voucher        `json:"vouchers"`
	Sales    []*ent.SeckillVoucher `json:"sales"`
}

// shopCache keeps each shop's vouchers in Redis (cache-aside, mutex
// strategy) with the near cache in front; every write to a shop's vouchers
// records an outbox row in its transaction that drops the shop's entry on
// every instance (ARCHITECTURE.md "Local copies expire and are told").
type shopCache struct {
	s      *Service
	log    *slog.Logger
	byID   *rediscache.Cache[int64, shopVouchers]
	outbox *outbox.Outbox
}

func newShopCache(s *Service, cfg CacheConfig) *shopCache {
	if cfg.Log == nil {
		cfg.Log = slog.Default()
	}
	c := &shopCache{s: s, log: cfg.Log}
	c.byID = rediscache.New(cfg.Redis, rediscache.Config{
		Name: "shop_vouchers", Prefix: cfg.Prefix, TTL: cfg.TTL, NearTTL: cfg.NearTTL,
		Locker: cfg.Locker, Registerer: cfg.Registerer, Log: cfg.Log, Bloom: cfg.Bloom,
	}, c.load)
	c.outbox = outbox.New(s.db, outbox.Config{Interval: cfg.OutboxInterval, Log: cfg.Log})
	c.outbox.Handle(kindVouchersChanged, c.byID.InvalidateID)
	return c
}

// load reads a shop's on-sale vouchers (a shop without any, or no such shop,
// has an empty list: both are cached, and createVoucher invalidates).
func (c *shopCache) load(ctx context.Context, shopID int64) (shopVouchers, bool, error) {
	out, sales, err := c.s.byShops(ctx, []int64{shopID})
	if err != nil {
		return shopVouchers{}, false, err
	}
	return shopVouchers{Vouchers: out[0], Sales: sales}, true, nil
}

// byShop is ByShops of one shop from the cache, leaving out the sales that
// ended since it was cached.
func (c *shopCache) byShop(ctx context.Context, shopID int64) ([][]*ent.Voucher, []*ent.SeckillVoucher, error) {
	v, _, err := c.byID.Get(ctx, shopID)
	if err != nil {
		return nil, nil, err
	}
	now := c.s.now()
	ended := map[int64]bool{}
	sales := make([]*ent.SeckillVoucher, 0, len(v.Sales))
	for _, sv := range v.Sales {
		if !sv.EndTime.After(now) {
			ended[sv.ID] = true
		} else {
			sales = append(sales, sv)
		}
	}
	vs := make([]*ent.Voucher, 0, len(v.Vouchers))
	for _, x := range v.Vouchers {
		if !ended[x.ID] {
			vs = append(vs, x)
		}
	}
	return [][]*ent.Voucher{vs}, sales, nil
}

// recordChange records, in tx, that shopID's vouchers change; nil without a cache.
func (c *shopCache) recordChange(ctx context.Context, tx *ent.Tx, shopID int64) (*ent.Outbox, error) {
	if c == nil {
		return nil, nil
	}
	return c.outbox.Record(ctx, tx, kindVouchersChanged, strconv.FormatInt(shopID, 10))
}

// changed runs the committed change's row now: the shop's entry goes on every
// instance. A failure is not the writer's (MySQL has the change): the outbox
// retries it.
func (c *shopCache) changed(ctx context.Context, shopID int64, row *ent.Outbox) {
	if c == nil || row == nil {
		return
	}
	if err := c.outbox.Run(context.WithoutCancel(ctx), row); err != nil {
		c.log.Warn("vouchers' cache invalidation failed; the outbox retries it", "shop", shopID, "err", err)
	}
}

// Start subscribes to the near cache's invalidations and starts retrying the
// outbox; a no-op without a cache.
func (s *Service) Start(ctx context.Context) error {
	if s.cache == nil {
		return nil
	}
	if err := s.cache.byID.Start(ctx); err != nil {
		return err
	}
	s.cache.outbox.Start() //nolint:contextcheck // the outbox retries run in the background until Close
	return nil
}

// Close stops the background work.
func (s *Service) Close() {
	if s.cache == nil {
		return
	}
	s.cache.outbox.Close()
	_ = s.cache.byID.Close()
}

// Cache is the cache of shops' vouchers (for tests); nil without one.
func (s *Service) Cache() *rediscache.Cache[int64, shopVouchers] {
	if s.cache == nil {
		return nil
	}
	return s.cache.byID
}

// LiveStocks are flash sales' stock as a buyer sees it now: out[i] is the
// sale ids[i]'s live count (Config.Stocks: Redis's, what it can still admit;
// MySQL's stock lags it by the orders not yet persisted), one round trip for
// all. A sale Stocks does not know, or every sale without Stocks, is read
// from MySQL.
func (s *Service) LiveStocks(ctx context.Context, ids []int64) ([]int, error) {
	out := make([]int, len(ids))
	live := map[int64]int{}
	if s.stocks != nil {
		var err error
		if live, err = s.stocks.LiveStocks(ctx, ids); err != nil {
			return nil, err
		}
	}
	missing := map[int64][]int{} // id -> positions
	for i, id := range ids {
		if n, ok := live[id]; ok {
			out[i] = n
		} else {
			missing[id] = append(missing[id], i)
		}
	}
	if len(missing) == 0 {
		return out, nil
	}
	want := make([]int64, 0, len(missing))
	for id := range missing {
		want = append(want, id)
	}
	rows, err := s.db.SeckillVoucher.Query().Where(entseckillvoucher.IDIn(want...)).
		Select(entseckillvoucher.FieldID, entseckillvoucher.FieldStock).All(database.PrimaryOnly(ctx))
	if err != nil {
		return nil, err
	}
	for _, r := range rows {
		for _, i := range missing[r.ID] {
			out[i] = r.Stock
		}
	}
	return out, nil
}
