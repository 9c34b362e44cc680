// Package blog writes and reads blogs (shop visit notes).
package blog

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/hmdp/hmdp/ent"
	"github.com/hmdp/hmdp/ent/blog"
	"github.com/hmdp/hmdp/ent/bloglike"
	"github.com/hmdp/hmdp/internal/apperr"
	"github.com/hmdp/hmdp/internal/page"
)

// Limits of a blog.
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

// Likes is the part of the like service a delete needs.
type Likes interface {
	Forget(ctx context.Context, blogID int64) error
}

// Images tells our own uploads from other paths.
type ImageStore interface {
	Owns(path string) bool
}

// Service is the blog service.
type Service struct {
	db     *ent.Client
	images ImageStore
	likes  Likes
	log    *slog.Logger
	// Fanout is set once the feed exists (it needs the follow service).
	Fanout Fanout
}

// New returns the service.
func New(db *ent.Client, images ImageStore, likes Likes, log *slog.Logger) *Service {
	return &Service{db: db, images: images, likes: likes, log: log}
}

// Input is a new blog.
type Input struct {
	Title, Content string
	Images         []string
	ShopID         *int64
}

func (in Input) validate(images ImageStore) error {
	title, content := strings.TrimSpace(in.Title), strings.TrimSpace(in.Content)
	switch {
	case title == "":
		return apperr.BadInput("input.title", "must not be empty")
	case utf8.RuneCountInString(in.Title) > MaxTitle || len(in.Title) > 255:
		return apperr.BadInput("input.title", "must be at most %d characters", MaxTitle)
	case content == "":
		return apperr.BadInput("input.content", "must not be empty")
	case utf8.RuneCountInString(in.Content) > MaxContent || len(in.Content) > 2048:
		return apperr.BadInput("input.content", "must be at most %d characters (2048 bytes)", MaxContent)
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
	return nil
}

// Create writes a blog by author and hands it to the fan-out.
func (s *Service) Create(ctx context.Context, author int64, in Input) (*ent.Blog, error) {
	if err := in.validate(s.images); err != nil {
		return nil, err
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
	b, err := s.db.Blog.Create().SetUserID(author).SetShopID(shopID).
		SetTitle(in.Title).SetContent(in.Content).SetImages(strings.Join(in.Images, ",")).
		SetLiked(0).SetComments(0).
		// Whole seconds, as a MySQL TIMESTAMP keeps them: the feed's scores
		// must be the same whether pushed now or rebuilt from MySQL later.
		SetCreateTime(time.Now().Truncate(time.Second)).Save(ctx)
	if err != nil {
		return nil, err
	}
	if s.Fanout != nil {
		// The blog is saved whatever happens here; a failed push is logged
		// and the followers' inboxes are rebuilt from MySQL when lost.
		if err := s.Fanout.Published(ctx, b); err != nil {
			s.log.ErrorContext(ctx, "blog fan-out", "blog", b.ID, "err", err)
		}
	}
	return b, nil
}

// Delete removes the viewer's own blog with its likes, and takes it out of
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
	if _, err := tx.BlogLike.Delete().Where(bloglike.BlogID(id)).Exec(ctx); err != nil {
		return errors.Join(err, tx.Rollback())
	}
	if n, err := tx.Blog.Delete().Where(blog.ID(id)).Exec(ctx); err != nil || n == 0 {
		if err == nil {
			err = apperr.New(apperr.NotFound, "blog %d not found", id)
		}
		return errors.Join(err, tx.Rollback())
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	if err := s.likes.Forget(ctx, id); err != nil {
		s.log.ErrorContext(ctx, "forget likes", "blog", id, "err", err)
	}
	if s.Fanout != nil {
		if err := s.Fanout.Deleted(ctx, b); err != nil {
			return err
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
	q := s.db.Blog.Query()
	if c != nil {
		liked, err := page.Int(c.Value)
		if err != nil {
			return nil, err
		}
		q = q.Where(blog.Or(blog.LikedLT(int(liked)), blog.And(blog.Liked(int(liked)), blog.IDLT(c.ID))))
	}
	bs, err := q.Order(ent.Desc(blog.FieldLiked, blog.FieldID)).Limit(n + 1).All(ctx)
	if err != nil {
		return nil, err
	}
	return pageOf(bs, n, func(b *ent.Blog) page.Cursor { return page.Cursor{ID: b.ID, Value: int64(b.Liked)} }), nil
}

// ByUser pages a user's blogs, newest first.
func (s *Service) ByUser(ctx context.Context, userID int64, first *int, after *string) (*Page, error) {
	n, c, err := page.Args(first, after)
	if err != nil {
		return nil, err
	}
	q := s.db.Blog.Query().Where(blog.UserID(userID))
	if c != nil {
		q = q.Where(blog.IDLT(c.ID))
	}
	bs, err := q.Order(ent.Desc(blog.FieldID)).Limit(n + 1).All(ctx)
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
