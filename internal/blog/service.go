// Package blog writes and reads blogs (shop visit notes).
package blog

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/hmdp/hmdp/ent"
	entblog "github.com/hmdp/hmdp/ent/blog"
	entblogcomment "github.com/hmdp/hmdp/ent/blogcomment"
	entbloglike "github.com/hmdp/hmdp/ent/bloglike"
	entcommentlike "github.com/hmdp/hmdp/ent/commentlike"
	entcommenttext "github.com/hmdp/hmdp/ent/commenttext"
	"github.com/hmdp/hmdp/ent/schema/enum"
	"github.com/hmdp/hmdp/internal/apperr"
	"github.com/hmdp/hmdp/internal/database"
	"github.com/hmdp/hmdp/internal/page"
	"github.com/hmdp/hmdp/internal/ratelimit"
	"github.com/hmdp/hmdp/internal/review"
)

// Limits of a blog: product rules, within its columns (maxlen.BlogTitle,
// maxlen.BlogContent, maxlen.BlogImages).
const (
	MaxTitle   = 100  // characters
	MaxContent = 2000 // characters
	MaxImages  = 9
)

// Fanout is told about published and deleted blogs (the feed does this).
type Fanout interface {
	Published(ctx context.Context, b *ent.Blog) error
	Deleted(ctx context.Context, b *ent.Blog) error
}

// Likes is the part of the like service a delete needs: Forget records, in
// the delete's transaction, that the blog's like set must go, and returns
// what to run after commit.
type Likes interface {
	Forget(ctx context.Context, tx *ent.Tx, blogID int64) (after func(context.Context), err error)
}

// Ratings gives a shop rating in a post's transaction (the review service):
// RateInTx returns what to run after commit.
type Ratings interface {
	RateInTx(ctx context.Context, tx *ent.Tx, userID, shopID int64, stars int) (after func(context.Context), err error)
}

// ImageStore tells our own uploads from other paths.
type ImageStore interface {
	Owns(path string) bool
}

// ImageUse keeps uploads that blogs show (image.Collector): Claim in the
// transaction that makes a blog show images, Release in the one that stops it.
type ImageUse interface {
	Claim(ctx context.Context, tx *ent.Tx, userID int64, field string, many bool, paths []string) error
	Release(ctx context.Context, tx *ent.Tx, paths []string) (after func(context.Context), err error)
}

// Config holds the service's dependencies; zero values take the defaults.
type Config struct {
	DB     *ent.Client
	Images ImageStore
	// ImageUse, when set, claims a new blog's images and releases a deleted
	// blog's (nil: images are left as they are).
	ImageUse ImageUse
	Likes    Likes
	// Ratings takes the stars a post gives its shop; nil: a post with
	// stars is refused.
	Ratings Ratings
	// Fanout hears of published and deleted blogs (the feed); nil: no one.
	Fanout Fanout
	Log    *slog.Logger // default slog.Default()
	// Limiter, when set, allows each user PerUser creates (RATE_LIMITED past it).
	Limiter *ratelimit.Limiter
	PerUser ratelimit.Limit // default DefaultPerUser
	// Hot, when set, answers hotBlogs from the kept hot list (hot.go); Create
	// and Delete drop it.
	Hot *Hot
	// ShopPosts, when set, answers blogsByShop from the kept lists per shop
	// (shopposts.go); Create and Delete drop the shop's.
	ShopPosts *ShopPosts
}

// DefaultPerUser is the default rate limit of Create per user.
var DefaultPerUser = ratelimit.Limit{Events: 20, Per: time.Hour}

// Service is the blog service.
type Service struct {
	db     *ent.Client
	images ImageStore
	use    ImageUse // nil: none
	likes  Likes
	rates  Ratings // nil: none
	log    *slog.Logger
	fanout Fanout // nil: no one
	limit  func(ctx context.Context, author int64) error
	hot    *Hot       // nil: hotBlogs reads MySQL
	shops  *ShopPosts // nil: blogsByShop reads MySQL
}

// New returns the service.
func New(cfg Config) *Service {
	if cfg.Log == nil {
		cfg.Log = slog.Default()
	}
	if cfg.PerUser.Events <= 0 || cfg.PerUser.Per <= 0 {
		cfg.PerUser = DefaultPerUser
	}
	s := &Service{db: cfg.DB, images: cfg.Images, use: cfg.ImageUse, likes: cfg.Likes, rates: cfg.Ratings, log: cfg.Log, fanout: cfg.Fanout, hot: cfg.Hot, shops: cfg.ShopPosts}
	if l := cfg.Limiter; l != nil {
		s.limit = func(ctx context.Context, author int64) error {
			res, err := l.Allow(ctx, "blog:user:"+strconv.FormatInt(author, 10), cfg.PerUser)
			if err == nil && !res.Allowed {
				err = apperr.RateLimit("blogs", res.RetryAfter.Milliseconds())
			}
			return err
		}
	}
	return s
}

// Input is a new blog.
type Input struct {
	Title, Content string
	Images         []string
	ShopID         *int64
	// Stars rate the shop (1 to 5), as rateShop would; they need ShopID.
	Stars *int
}

func (in Input) validate(images ImageStore) error {
	title, content := strings.TrimSpace(in.Title), strings.TrimSpace(in.Content)
	switch {
	case title == "":
		return apperr.BadInput("input.title", "must not be empty")
	case utf8.RuneCountInString(in.Title) > MaxTitle:
		return apperr.BadInput("input.title", "must be at most %d characters", MaxTitle)
	case content == "":
		return apperr.BadInput("input.content", "must not be empty")
	case utf8.RuneCountInString(in.Content) > MaxContent:
		return apperr.BadInput("input.content", "must be at most %d characters", MaxContent)
	case len(in.Images) > MaxImages:
		return apperr.BadInput("input.images", "at most %d images", MaxImages)
	}
	seen := map[string]bool{}
	for i, p := range in.Images {
		if !images.Owns(p) {
			return apperr.BadInput(fmt.Sprintf("input.images.%d", i), "must be the path uploadImage returned")
		}
		if seen[p] {
			return apperr.BadInput(fmt.Sprintf("input.images.%d", i), "is listed twice")
		}
		seen[p] = true
	}
	if in.ShopID != nil && *in.ShopID <= 0 {
		return apperr.BadInput("input.shopId", "shop %d not found", *in.ShopID)
	}
	if in.Stars != nil {
		if in.ShopID == nil {
			return apperr.BadInput("input.stars", "rate a shop: give input.shopId too")
		}
		return review.CheckStars("input.stars", *in.Stars)
	}
	return nil
}

// ownerChecker is the image store's uploader check (image.Store.CheckOwner):
// a blog shows only its author's uploads.
type ownerChecker interface {
	CheckOwner(ctx context.Context, userID int64, field string, many bool, paths []string) error
}

// Create writes a blog by author and hands it to the fan-out; RATE_LIMITED
// past the author's allowance (a refused or invalid call uses none). A blog
// with stars also rates its shop, in the blog's transaction.
func (s *Service) Create(ctx context.Context, author int64, in Input) (*ent.Blog, error) {
	if err := in.validate(s.images); err != nil {
		return nil, err
	}
	if in.Stars != nil && s.rates == nil {
		return nil, errors.New("blog: no rating service to take input.stars")
	}
	if o, ok := s.images.(ownerChecker); ok { // the server's store knows uploaders
		if err := o.CheckOwner(ctx, author, "input.images", true, in.Images); err != nil {
			return nil, err
		}
	}
	if s.limit != nil {
		if err := s.limit(ctx, author); err != nil {
			return nil, err
		}
	}
	var shopID int64
	if in.ShopID != nil {
		ok, err := s.db.Shop.Get(ctx, *in.ShopID)
		if ent.IsNotFound(err) || ok == nil {
			return nil, apperr.BadInput("input.shopId", "shop %d not found", *in.ShopID)
		}
		if err != nil {
			return nil, err
		}
		shopID = *in.ShopID
	}
	b, rated, err := s.insert(ctx, author, shopID, in)
	if err != nil {
		return nil, err
	}
	rated(context.WithoutCancel(ctx))
	s.hot.Changed(ctx)
	s.shops.ShopChanged(ctx, b.ShopID)
	if s.fanout != nil {
		// The blog is saved whatever happens here; a failed push is logged
		// and the followers' inboxes are rebuilt from MySQL when lost.
		if err := s.fanout.Published(ctx, b); err != nil {
			s.log.ErrorContext(ctx, "blog fan-out", "blog", b.ID, "err", err)
		}
	}
	return b, nil
}

// insert writes the blog: alone, or in one transaction with the claim of
// its images (so the image collector cannot remove one before the blog
// shows it) and its shop rating (the stars count in the shop's score exactly
// when the blog is written). rated runs after the commit.
func (s *Service) insert(ctx context.Context, author, shopID int64, in Input) (b *ent.Blog, rated func(context.Context), err error) {
	create := func(db *ent.Client) (*ent.Blog, error) {
		return db.Blog.Create().SetUserID(author).SetShopID(shopID).
			SetTitle(in.Title).SetContent(in.Content).SetImages(strings.Join(in.Images, ",")).
			SetLiked(0).SetComments(0).
			// Whole seconds, as a MySQL TIMESTAMP keeps them: the feed's scores
			// must be the same whether pushed now or rebuilt from MySQL later.
			SetCreateTime(time.Now().Truncate(time.Second)).Save(ctx)
	}
	rated = func(context.Context) {}
	claim := s.use != nil && len(in.Images) > 0
	if !claim && in.Stars == nil {
		b, err = create(s.db)
		return b, rated, err
	}
	err = database.WithTx(ctx, s.db, func(tx *ent.Tx) error {
		if in.Stars != nil { // first: it must be the transaction's first statement
			if rated, err = s.rates.RateInTx(ctx, tx, author, shopID, *in.Stars); err != nil {
				return err
			}
		}
		if claim {
			if err := s.use.Claim(ctx, tx, author, "input.images", true, in.Images); err != nil {
				return err
			}
		}
		b, err = create(tx.Client())
		return err
	})
	if err != nil {
		return nil, nil, err
	}
	return b.Unwrap(), rated, nil
}

// Delete removes the viewer's own blog with its likes and comments, and takes it out of
// the feeds. NOT_FOUND when absent, FORBIDDEN when someone else's.
func (s *Service) Delete(ctx context.Context, viewer, id int64) error {
	b, err := s.db.Blog.Get(ctx, id)
	if ent.IsNotFound(err) {
		return apperr.New(apperr.NotFound, "blog %d not found", id)
	}
	if err != nil {
		return err
	}
	if b.UserID != viewer {
		return apperr.New(apperr.Forbidden, "only the author may delete a blog")
	}
	tx, err := s.db.Tx(ctx)
	if err != nil {
		return err
	}
	if _, err := tx.BlogLike.Delete().Where(entbloglike.BlogID(id)).Exec(ctx); err != nil {
		return errors.Join(err, tx.Rollback())
	}
	if _, err := tx.CommentLike.Delete().Where(entcommentlike.BlogID(id)).Exec(ctx); err != nil {
		return errors.Join(err, tx.Rollback())
	}
	if _, err := tx.BlogComment.Delete().Where(entblogcomment.BlogID(id)).Exec(ctx); err != nil {
		return errors.Join(err, tx.Rollback())
	}
	if _, err := tx.CommentText.Delete().Where(entcommenttext.BlogID(id)).Exec(ctx); err != nil {
		return errors.Join(err, tx.Rollback())
	}
	if n, err := tx.Blog.Delete().Where(entblog.ID(id)).Exec(ctx); err != nil || n == 0 {
		if err == nil {
			err = apperr.New(apperr.NotFound, "blog %d not found", id)
		}
		return errors.Join(err, tx.Rollback())
	}
	forgetLikes, err := s.likes.Forget(ctx, tx, id)
	if err != nil {
		return errors.Join(err, tx.Rollback())
	}
	releaseImages := func(context.Context) {}
	if s.use != nil {
		if releaseImages, err = s.use.Release(ctx, tx, Images(b)); err != nil {
			return errors.Join(err, tx.Rollback())
		}
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	// Committed: nothing after this is the caller's failure (a retry would
	// only get NOT_FOUND). The like set's drop is retried by the like
	// service's outbox and the images' removal by the collector's; a blog left in an inbox is skipped when read, as it
	// is no longer in MySQL.
	ctx = context.WithoutCancel(ctx)
	s.hot.Changed(ctx)
	s.shops.ShopChanged(ctx, b.ShopID)
	forgetLikes(ctx)
	releaseImages(ctx)
	if s.fanout != nil {
		if err := s.fanout.Deleted(ctx, b); err != nil {
			s.log.ErrorContext(ctx, "blog fan-out of a delete", "blog", id, "err", err)
		}
	}
	return nil
}

// Get returns a blog, nil when absent.
func (s *Service) Get(ctx context.Context, id int64) (*ent.Blog, error) {
	b, err := s.db.Blog.Get(ctx, id)
	if ent.IsNotFound(err) {
		return nil, nil
	}
	return b, err
}

// Edge is a blog with its cursor.
type Edge struct {
	Cursor page.Cursor
	Node   *ent.Blog
}

// Page is one page of blogs.
type Page struct {
	Edges []Edge
	Info  page.Info
}

// Hot pages blogs most liked first; ties newest (highest id) first, so the
// order is stable. The cursor holds (liked, id).
func (s *Service) Hot(ctx context.Context, first *int, after *string) (*Page, error) {
	n, c, err := page.Args(first, after)
	if err != nil {
		return nil, err
	}
	if s.hot != nil {
		if p, ok, err := s.hot.page(ctx, n, c); err != nil || ok {
			return p, err
		}
	}
	q := s.db.Blog.Query()
	if c != nil {
		liked, err := page.Int(c.Value)
		if err != nil {
			return nil, err
		}
		q = q.Where(entblog.Or(entblog.LikedLT(int(liked)), entblog.And(entblog.Liked(int(liked)), entblog.IDLT(c.ID))))
	}
	bs, err := q.Order(ent.Desc(entblog.FieldLiked, entblog.FieldID)).Limit(n + 1).All(ctx)
	if err != nil {
		return nil, err
	}
	return pageOf(bs, n, hotCursor), nil
}

// ByUser pages a user's blogs, newest first.
func (s *Service) ByUser(ctx context.Context, userID int64, first *int, after *string) (*Page, error) {
	n, c, err := page.Args(first, after)
	if err != nil {
		return nil, err
	}
	q := s.db.Blog.Query().Where(entblog.UserID(userID))
	if c != nil {
		q = q.Where(entblog.IDLT(c.ID))
	}
	bs, err := q.Order(ent.Desc(entblog.FieldID)).Limit(n + 1).All(ctx)
	if err != nil {
		return nil, err
	}
	return pageOf(bs, n, func(b *ent.Blog) page.Cursor { return page.Cursor{ID: b.ID} }), nil
}

// ByShop pages the blogs about a shop, newest or most liked first (ties
// newest first); a shop with none, or no such shop, has an empty page. The
// cursor holds the id, and for enum.BlogMostLiked the liked count too.
func (s *Service) ByShop(ctx context.Context, shopID int64, order enum.BlogOrder, first *int, after *string) (*Page, error) {
	n, c, err := page.Args(first, after)
	if err != nil {
		return nil, err
	}
	if s.shops != nil {
		if p, ok, err := s.shops.page(ctx, shopID, order, n, c); err != nil || ok {
			return p, err
		}
	}
	q := s.db.Blog.Query().Where(entblog.ShopID(shopID))
	if order == enum.BlogMostLiked {
		if c != nil {
			liked, err := page.Int(c.Value)
			if err != nil {
				return nil, err
			}
			q = q.Where(entblog.Or(entblog.LikedLT(int(liked)), entblog.And(entblog.Liked(int(liked)), entblog.IDLT(c.ID))))
		}
		bs, err := q.Order(ent.Desc(entblog.FieldLiked, entblog.FieldID)).Limit(n + 1).All(ctx)
		if err != nil {
			return nil, err
		}
		return pageOf(bs, n, func(b *ent.Blog) page.Cursor { return page.Cursor{ID: b.ID, Value: int64(b.Liked)} }), nil
	}
	if c != nil {
		q = q.Where(entblog.IDLT(c.ID))
	}
	bs, err := q.Order(ent.Desc(entblog.FieldID)).Limit(n + 1).All(ctx)
	if err != nil {
		return nil, err
	}
	return pageOf(bs, n, func(b *ent.Blog) page.Cursor { return page.Cursor{ID: b.ID} }), nil
}

func pageOf(bs []*ent.Blog, n int, cursor func(*ent.Blog) page.Cursor) *Page {
	p := &Page{Info: page.Make(len(bs), n, func(i int) page.Cursor { return cursor(bs[i]) })}
	for i, b := range bs {
		if i == n {
			break
		}
		p.Edges = append(p.Edges, Edge{Cursor: cursor(b), Node: b})
	}
	return p
}

// Images splits the comma-separated image column.
func Images(b *ent.Blog) []string {
	if b.Images == "" {
		return []string{}
	}
	return strings.Split(b.Images, ",")
}
