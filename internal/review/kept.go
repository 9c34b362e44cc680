package review

import (
	"context"
	"log/slog"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/redis/go-redis/v9"

	"github.com/hmdp/hmdp/ent"
	"github.com/hmdp/hmdp/internal/lock"
	"github.com/hmdp/hmdp/internal/page"
	"github.com/hmdp/hmdp/internal/rediscache"
	"github.com/hmdp/hmdp/internal/user"
)

// keptReviews is how many reviews of a shop are kept per order: the shop
// page's first pages (it asks for 5 at a time) and the one after them;
// deeper pages read MySQL.
const keptReviews = 21

// DefaultKeptTTL is how long a shop's kept reviews live in Redis: every
// write that changes them drops them at once, so this only bounds how long a
// drop that failed leaves them stale.
const DefaultKeptTTL = time.Minute

// KeptConfig keeps each viewed shop's first reviews in Redis and the near
// cache of every instance (nil Redis: reviewsByShop reads MySQL).
type KeptConfig struct {
	Redis  redis.UniversalClient
	Locker *lock.Locker // the cache's rebuild mutex
	Prefix string       // Redis key prefix ("hmdp:")
	// NearTTL is the near cache's lifetime (0 = off; HMDP_NEAR_CACHE_TTL).
	NearTTL    time.Duration
	TTL        time.Duration // default DefaultKeptTTL
	Registerer prometheus.Registerer
	Log        *slog.Logger
}

// keptLists are a shop's first keptReviews reviews in each order, each
// post with its author's public fields.
type keptLists struct {
	Newest  []*Review `json:"newest"`
	Highest []*Review `json:"highest"`
	Lowest  []*Review `json:"lowest"`
}

func (k keptLists) in(o Order) []*Review {
	switch o {
	case Highest:
		return k.Highest
	case Lowest:
		return k.Lowest
	default:
		return k.Newest
	}
}

// keepWith sets up s's kept reviews (New calls it when cfg.Redis is set).
func (s *Service) keepWith(cfg KeptConfig) {
	if cfg.TTL <= 0 {
		cfg.TTL = DefaultKeptTTL
	}
	if cfg.Log == nil {
		cfg.Log = slog.Default()
	}
	s.log = cfg.Log
	s.kept = rediscache.New(cfg.Redis, rediscache.Config{
		Name: "shop_reviews", Prefix: cfg.Prefix, TTL: cfg.TTL, NearTTL: cfg.NearTTL,
		Locker: cfg.Locker, Registerer: cfg.Registerer, Log: cfg.Log,
	}, s.loadKept)
	s.keepRatingsWith(cfg)
}

// Start subscribes to the kept reviews' and ratings' near-cache invalidations.
func (s *Service) Start(ctx context.Context) error {
	if s.kept == nil {
		return nil
	}
	if err := s.kept.Start(ctx); err != nil {
		return err
	}
	return s.ratings.Start(ctx)
}

// Close ends the subscription.
func (s *Service) Close() {
	if s.kept != nil {
		_ = s.kept.Close()
		_ = s.ratings.Close()
	}
}

// ShopChanged drops a shop's kept reviews on every instance; call it after
// the commit of a write that changes them (a rating, a post about the shop
// created or deleted, an author's new nickname or icon). A failure is
// logged, not returned (the write is made): the TTL bounds the staleness.
func (s *Service) ShopChanged(ctx context.Context, shopID int64) {
	if s == nil || s.kept == nil || shopID <= 0 {
		return
	}
	if err := s.kept.Invalidate(context.WithoutCancel(ctx), shopID); err != nil {
		s.log.Warn("reviews: invalidation failed; the kept reviews may be stale until their TTL", "shop", shopID, "err", err)
	}
}

// loadKept reads a shop's first reviews in each order and their authors
// (four statements).
func (s *Service) loadKept(ctx context.Context, shopID int64) (keptLists, bool, error) {
	var k keptLists
	var err error
	if k.Newest, err = s.query(ctx, shopID, Newest, nil, 0, keptReviews); err != nil {
		return k, false, err
	}
	if k.Highest, err = s.query(ctx, shopID, Highest, nil, 0, keptReviews); err != nil {
		return k, false, err
	}
	if k.Lowest, err = s.query(ctx, shopID, Lowest, nil, 0, keptReviews); err != nil {
		return k, false, err
	}
	var bs []*ent.Blog
	for _, list := range [][]*Review{k.Newest, k.Highest, k.Lowest} {
		for _, r := range list {
			bs = append(bs, r.Blog)
		}
	}
	if err := user.AttachAuthors(ctx, s.db, bs); err != nil {
		return k, false, err
	}
	return k, true, nil
}

// keptPage answers reviewsByShop's page of n after c from the kept lists; ok
// is false when the page's end, or the review after it, lies past a full
// list (MySQL has the rest).
func (s *Service) keptPage(ctx context.Context, shopID int64, order Order, n int, c *page.Cursor, cstars int64) (*Page, bool, error) {
	k, _, err := s.kept.Get(ctx, shopID)
	if err != nil {
		return nil, false, err
	}
	kept := k.in(order)
	from := 0
	if c != nil {
		for from < len(kept) && !order.after(kept[from], cstars, c.ID) {
			from++
		}
	}
	rest := kept[from:]
	if len(rest) < n+1 && len(kept) == keptReviews {
		return nil, false, nil
	}
	rest = rest[:min(len(rest), n+1)]
	// Each page gets its own copies: nothing reading a page changes the list.
	rs := make([]*Review, len(rest))
	for i, r := range rest {
		b := *r.Blog
		rs[i] = &Review{ID: r.ID, Stars: r.Stars, Blog: &b}
	}
	return pageOf(rs, n, order), true, nil
}
