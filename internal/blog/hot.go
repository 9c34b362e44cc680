package blog

import (
	"context"
	"log/slog"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/redis/go-redis/v9"

	"github.com/hmdp/hmdp/ent"
	entblog "github.com/hmdp/hmdp/ent/blog"
	"github.com/hmdp/hmdp/internal/lock"
	"github.com/hmdp/hmdp/internal/page"
	"github.com/hmdp/hmdp/internal/rediscache"
	"github.com/hmdp/hmdp/internal/user"
)

// hotKept is how many of the most liked blogs the hot list keeps: a whole
// page of the largest size and the one after it (hasNextPage).
const hotKept = page.Max + 1

// DefaultHotTTL is how long the hot list lives in Redis: every write that
// changes it drops it at once, so this only bounds how long a drop that
// failed (Redis unreachable after a commit) leaves it stale.
const DefaultHotTTL = time.Minute

// HotConfig is the hot list's cache; zero values take the defaults.
type HotConfig struct {
	DB     *ent.Client
	Redis  redis.UniversalClient
	Locker *lock.Locker // the cache's rebuild mutex
	Prefix string       // Redis key prefix ("hmdp:")
	// NearTTL is the near cache's lifetime (0 = off; HMDP_NEAR_CACHE_TTL).
	NearTTL time.Duration
	// TTL of the list in Redis (default DefaultHotTTL).
	TTL        time.Duration
	Registerer prometheus.Registerer
	Log        *slog.Logger
}

// Hot keeps the first hotKept blogs of hotBlogs' order (most liked first,
// ties newest first), each with its author's id, nickname and icon, in Redis
// and the near cache of every instance, so the home page's hot blogs cost no
// SQL. Everything that changes what the list shows drops it on every
// instance at once (Changed): a blog created or deleted, a like or unlike
// (the liked count and the order), an author's new nickname or icon. Pages
// that reach past the kept blogs read MySQL.
type Hot struct {
	db    *ent.Client
	log   *slog.Logger
	cache *rediscache.Cache[string, []*ent.Blog]
}

const hotKey = "top"

// NewHot returns the hot list; call Start before serving and Close at the end.
func NewHot(cfg HotConfig) *Hot {
	if cfg.TTL <= 0 {
		cfg.TTL = DefaultHotTTL
	}
	if cfg.Log == nil {
		cfg.Log = slog.Default()
	}
	h := &Hot{db: cfg.DB, log: cfg.Log}
	h.cache = rediscache.New(cfg.Redis, rediscache.Config{
		Name: "blog_hot", Prefix: cfg.Prefix, TTL: cfg.TTL, NearTTL: cfg.NearTTL,
		Locker: cfg.Locker, Registerer: cfg.Registerer, Log: cfg.Log,
	}, h.load)
	return h
}

// Start subscribes to the near cache's invalidations.
func (h *Hot) Start(ctx context.Context) error { return h.cache.Start(ctx) }

// Close ends the subscription.
func (h *Hot) Close() { _ = h.cache.Close() }

// Cache is the hot list's cache (for tests).
func (h *Hot) Cache() *rediscache.Cache[string, []*ent.Blog] { return h.cache }

// Changed drops the list on every instance; call it after the commit of a
// write that changes what it shows. A failure is logged, not returned (the
// write is made): the list's TTL bounds how long it stays stale then.
func (h *Hot) Changed(ctx context.Context) {
	if h == nil {
		return
	}
	if err := h.cache.Invalidate(context.WithoutCancel(ctx), hotKey); err != nil {
		h.log.Warn("hot blogs: invalidation failed; the list may be stale until its TTL", "err", err)
	}
}

// load reads the first hotKept blogs and their authors' public fields (two
// statements), so the list's blogs carry their authors.
func (h *Hot) load(ctx context.Context, _ string) ([]*ent.Blog, bool, error) {
	bs, err := h.db.Blog.Query().Order(ent.Desc(entblog.FieldLiked, entblog.FieldID)).Limit(hotKept).All(ctx)
	if err != nil {
		return nil, false, err
	}
	if err := user.AttachAuthors(ctx, h.db, bs); err != nil {
		return nil, false, err
	}
	return bs, true, nil
}

// page answers hotBlogs' page of n after c from the kept list; ok is false
// when the page reaches past it (MySQL has the rest).
func (h *Hot) page(ctx context.Context, n int, c *page.Cursor) (p *Page, ok bool, err error) {
	kept, _, err := h.cache.Get(ctx, hotKey)
	if err != nil {
		return nil, false, err
	}
	return keptPage(kept, hotKept, n, c, hotCursor)
}

func hotCursor(b *ent.Blog) page.Cursor { return page.Cursor{ID: b.ID, Value: int64(b.Liked)} }
