package blog

import (
	"context"
	"log/slog"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/redis/go-redis/v9"

	"github.com/hmdp/hmdp/ent"
	entblog "github.com/hmdp/hmdp/ent/blog"
	"github.com/hmdp/hmdp/ent/schema/enum"
	"github.com/hmdp/hmdp/internal/lock"
	"github.com/hmdp/hmdp/internal/page"
	"github.com/hmdp/hmdp/internal/rediscache"
	"github.com/hmdp/hmdp/internal/user"
)

// shopKept is how many posts about a shop are kept per order: the shop page's
// first pages (it asks for 4 at a time) and the one after them; deeper pages
// read MySQL. Smaller than the hot list, as there is a list per shop viewed.
const shopKept = 21

// ShopPostsConfig is the shop posts' cache; zero values take the defaults.
type ShopPostsConfig struct {
	DB     *ent.Client
	Redis  redis.UniversalClient
	Locker *lock.Locker // the cache's rebuild mutex
	Prefix string       // Redis key prefix ("hmdp:")
	// NearTTL is the near cache's lifetime (0 = off; HMDP_NEAR_CACHE_TTL).
	NearTTL time.Duration
	// TTL of a shop's lists in Redis (default DefaultHotTTL).
	TTL        time.Duration
	Registerer prometheus.Registerer
	Log        *slog.Logger
	// AlsoDrop, when set, hears of every shop whose lists are dropped, for
	// what is kept with them (the shop's reviews).
	AlsoDrop func(ctx context.Context, shopID int64)
}

// shopPosts are the first shopKept posts about one shop in each order of
// blogsByShop, with their authors' public fields.
type shopPosts struct {
	Newest    []*ent.Blog `json:"newest"`
	MostLiked []*ent.Blog `json:"mostLiked"`
}

// ShopPosts keeps the first posts about each shop viewed, newest and most
// liked first, in Redis and the near cache of every instance, so the shop
// page's posts cost no SQL. Whatever changes what a shop's lists show drops
// them on every instance (ShopChanged, BlogChanged, AuthorChanged): a post
// about the shop created or deleted, a like or unlike of one (its count and
// the order), an author's new nickname or icon.
type ShopPosts struct {
	db    *ent.Client
	log   *slog.Logger
	cache *rediscache.Cache[int64, shopPosts]
	also  func(ctx context.Context, shopID int64) // nil: none
}

// NewShopPosts returns the shops' post lists; call Start before serving and
// Close at the end.
func NewShopPosts(cfg ShopPostsConfig) *ShopPosts {
	if cfg.TTL <= 0 {
		cfg.TTL = DefaultHotTTL
	}
	if cfg.Log == nil {
		cfg.Log = slog.Default()
	}
	s := &ShopPosts{db: cfg.DB, log: cfg.Log, also: cfg.AlsoDrop}
	s.cache = rediscache.New(cfg.Redis, rediscache.Config{
		Name: "blog_shop", Prefix: cfg.Prefix, TTL: cfg.TTL, NearTTL: cfg.NearTTL,
		Locker: cfg.Locker, Registerer: cfg.Registerer, Log: cfg.Log,
	}, s.load)
	return s
}

// Start subscribes to the near cache's invalidations.
func (s *ShopPosts) Start(ctx context.Context) error { return s.cache.Start(ctx) }

// Close ends the subscription.
func (s *ShopPosts) Close() { _ = s.cache.Close() }

// ShopChanged drops a shop's lists on every instance; call it after the
// commit of a write that changes them. A failure is logged, not returned (the
// write is made): the TTL bounds how long the lists stay stale then.
func (s *ShopPosts) ShopChanged(ctx context.Context, shopID int64) {
	if s == nil || shopID <= 0 {
		return
	}
	if err := s.cache.Invalidate(context.WithoutCancel(ctx), shopID); err != nil {
		s.log.Warn("shop posts: invalidation failed; the lists may be stale until their TTL", "shop", shopID, "err", err)
	}
	if s.also != nil {
		s.also(ctx, shopID)
	}
}

// BlogChanged drops the lists of the shop blog id is about (its likes moved).
func (s *ShopPosts) BlogChanged(ctx context.Context, blogID int64) {
	if s == nil {
		return
	}
	shops, err := shopIDs(ctx, s.db.Blog.Query().Where(entblog.ID(blogID)))
	if err != nil {
		s.log.Warn("shop posts: the blog's shop unread; its lists may be stale until their TTL", "blog", blogID, "err", err)
		return
	}
	for _, id := range shops {
		s.ShopChanged(ctx, id)
	}
}

// AuthorChanged drops the lists of every shop user id has posted about (their
// nickname or icon, which the lists carry, changed).
func (s *ShopPosts) AuthorChanged(ctx context.Context, userID int64) {
	if s == nil {
		return
	}
	shops, err := shopIDs(ctx, s.db.Blog.Query().Where(entblog.UserID(userID), entblog.ShopIDGT(0)).Unique(true))
	if err != nil {
		s.log.Warn("shop posts: the author's shops unread; their lists may be stale until their TTL", "user", userID, "err", err)
		return
	}
	for _, id := range shops {
		s.ShopChanged(ctx, id)
	}
}

// shopIDs are the shops the blogs of q are about.
func shopIDs(ctx context.Context, q *ent.BlogQuery) ([]int64, error) {
	var rows []struct {
		ShopID int64 `json:"shop_id"`
	}
	if err := q.Select(entblog.FieldShopID).Scan(ctx, &rows); err != nil {
		return nil, err
	}
	ids := make([]int64, len(rows))
	for i, r := range rows {
		ids[i] = r.ShopID
	}
	return ids, nil
}

// load reads a shop's first posts in both orders and their authors (three
// statements). A shop without posts has empty lists, kept like any other.
func (s *ShopPosts) load(ctx context.Context, shopID int64) (shopPosts, bool, error) {
	var p shopPosts
	var err error
	q := func() *ent.BlogQuery { return s.db.Blog.Query().Where(entblog.ShopID(shopID)).Limit(shopKept) }
	if p.Newest, err = q().Order(ent.Desc(entblog.FieldID)).All(ctx); err != nil {
		return p, false, err
	}
	if p.MostLiked, err = q().Order(ent.Desc(entblog.FieldLiked, entblog.FieldID)).All(ctx); err != nil {
		return p, false, err
	}
	if err := user.AttachAuthors(ctx, s.db, append(append([]*ent.Blog(nil), p.Newest...), p.MostLiked...)); err != nil {
		return p, false, err
	}
	return p, true, nil
}

// page answers blogsByShop's page of n after c in order from the kept lists;
// ok is false when the page reaches past them (MySQL has the rest).
func (s *ShopPosts) page(ctx context.Context, shopID int64, order enum.BlogOrder, n int, c *page.Cursor) (*Page, bool, error) {
	kept, _, err := s.cache.Get(ctx, shopID)
	if err != nil {
		return nil, false, err
	}
	if order == enum.BlogMostLiked {
		return keptPage(kept.MostLiked, shopKept, n, c, hotCursor)
	}
	return keptPage(kept.Newest, shopKept, n, c, newestCursor)
}

func newestCursor(b *ent.Blog) page.Cursor { return page.Cursor{ID: b.ID} }

// keptPage is the page of n after c of a kept list of at most max blogs in
// the order cursor gives; ok is false when the page's end, or the blog after
// it, lies past a full list.
func keptPage(kept []*ent.Blog, max, n int, c *page.Cursor, cursor func(*ent.Blog) page.Cursor) (*Page, bool, error) {
	from := 0
	if c != nil {
		after, err := page.Int(c.Value)
		if err != nil {
			return nil, false, err
		}
		// The page starts at the first kept blog strictly after the cursor.
		for from < len(kept) && !cursorAfter(cursor(kept[from]), after, c.ID) {
			from++
		}
	}
	rest := kept[from:]
	if len(rest) < n+1 && len(kept) == max {
		return nil, false, nil
	}
	rest = rest[:min(len(rest), n+1)]
	// Pages share the kept blogs (and other pages' resolvers read them):
	// each page gets its own copies, so nothing reading a page changes the list.
	bs := make([]*ent.Blog, len(rest))
	for i, b := range rest {
		cp := *b
		bs[i] = &cp
	}
	return pageOf(bs, n, cursor), true, nil
}

// cursorAfter reports whether position k comes after the cursor (value, id)
// in a descending order of (value, id); a newest-first cursor has no value.
func cursorAfter(k page.Cursor, value, id int64) bool {
	kv, _ := page.Int(k.Value) // our own cursor's int64 or nil
	return kv < value || kv == value && k.ID < id
}
