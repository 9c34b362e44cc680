package graph

import (
	"context"
	"errors"

	"github.com/vikstrous/dataloadgen"

	"github.com/hmdp/hmdp/ent"
	"github.com/hmdp/hmdp/internal/apperr"
	"github.com/hmdp/hmdp/internal/auth"
	"github.com/hmdp/hmdp/internal/blog"
	"github.com/hmdp/hmdp/internal/dataloader"
	"github.com/hmdp/hmdp/internal/voucher"
)

// WithDataloaders gives a response its own loaders (the server calls it for every
// response, subscription events included), made when a resolver first needs
// them: an idle subscription, waiting for its next event, holds none.
func (r *Resolver) WithDataloaders(ctx context.Context) context.Context {
	viewer := viewerID(ctx)
	ctx = r.withCommentLoaders(ctx, viewer)
	return dataloader.WithLazy(ctx, func() *dataloader.Loaders { return r.Dataloaders.New(viewer) })
}

// loaders are the response's loaders; a resolver run outside a response
// (tests) gets unbatched fresh ones.
func (r *Resolver) dataloaders(ctx context.Context) *dataloader.Loaders {
	if l := dataloader.From(ctx); l != nil {
		return l
	}
	return r.Dataloaders.New(viewerID(ctx))
}

func viewerID(ctx context.Context) int64 {
	if v := auth.ViewerFrom(ctx); v != nil {
		return v.UserID
	}
	return 0
}

// noteBlogs lets the blogs' field resolvers batch per page.
func (r *Resolver) notePage(ctx context.Context) func(*blog.Page, error) (*blog.Page, error) {
	return func(p *blog.Page, err error) (*blog.Page, error) {
		if p != nil {
			bs := make([]*ent.Blog, len(p.Edges))
			for i, e := range p.Edges {
				bs[i] = e.Node
			}
			r.dataloaders(ctx).NotePage(bs)
		}
		return p, err
	}
}

// authorOf loads a blog's author.
func (r *Resolver) authorOf(ctx context.Context, b *ent.Blog) (*ent.User, error) {
	// A live feed event carries its author, read once for all its
	// subscribers.
	if u := b.Edges.Author; u != nil {
		return u, nil
	}
	u, err := r.dataloaders(ctx).Author(ctx, b)
	if dataloader.Missing(err) {
		return nil, apperr.New(apperr.NotFound, "user %d not found", b.UserID)
	}
	return u, err
}

// userOf loads a user that must exist (an author, a liker).
func (r *Resolver) userOf(ctx context.Context, id int64) (*ent.User, error) {
	u, err := r.dataloaders(ctx).Users.Load(ctx, id)
	if dataloader.Missing(err) {
		return nil, apperr.New(apperr.NotFound, "user %d not found", id)
	}
	return u, err
}

// shopOf loads a blog's shop; nil when none (0) or gone.
func (r *Resolver) shopOf(ctx context.Context, id int64) (*ent.Shop, error) {
	if id == 0 {
		return nil, nil
	}
	s, err := r.dataloaders(ctx).Shops.Load(ctx, id)
	if dataloader.Missing(err) {
		return nil, nil
	}
	return s, err
}

func (r *Resolver) likedByMe(ctx context.Context, blogID int64) (bool, error) {
	if viewerID(ctx) == 0 {
		return false, nil
	}
	in, err := r.dataloaders(ctx).Like(ctx, blogID)
	return in.LikedByMe, err
}

func (r *Resolver) topLikers(ctx context.Context, blogID int64) ([]*ent.User, error) {
	l := r.dataloaders(ctx)
	in, err := l.Like(ctx, blogID)
	if err != nil {
		return nil, err
	}
	us, err := l.Users.LoadAll(ctx, in.Top)
	out := make([]*ent.User, 0, len(us))
	for i, u := range us {
		if u != nil { // a liker whose account is gone is left out
			out = append(out, u)
		} else if err != nil && !dataloader.Missing(errAt(err, i)) {
			return nil, errAt(err, i)
		}
	}
	return out, nil
}

// setBlogLike applies the like and returns the blog as it now is.
func (r *Resolver) setBlogLike(ctx context.Context, blogID int64, liked bool) (*ent.Blog, error) {
	if err := r.LikeService.Set(ctx, auth.ViewerFrom(ctx).UserID, blogID, liked); err != nil {
		return nil, err
	}
	b, err := r.BlogService.Get(ctx, blogID)
	if err == nil && b == nil {
		return nil, apperr.New(apperr.NotFound, "blog %d not found", blogID)
	}
	return b, err
}

// saleOf loads a flash-sale voucher's sale; nil for a normal voucher.
func (r *Resolver) saleOf(ctx context.Context, v *ent.Voucher) (*ent.SeckillVoucher, error) {
	if !voucher.IsSeckill(v) {
		return nil, nil
	}
	return dataloader.OrNil(r.dataloaders(ctx).Sales.Load(ctx, v.ID))
}

// voucherStatus is a voucher's status, its sale loaded only when it matters.
func (r *Resolver) voucherStatus(ctx context.Context, v *ent.Voucher) (voucher.Status, error) {
	var sale *ent.SeckillVoucher
	if voucher.NeedsSale(v) {
		var err error
		if sale, err = r.saleOf(ctx, v); err != nil {
			return "", err
		}
	}
	return r.VoucherService.StatusOf(v, sale), nil
}

// errAt is the error of item i of a LoadAll.
func errAt(err error, i int) error {
	var es dataloadgen.ErrorSlice
	if errors.As(err, &es) && i < len(es) {
		return es[i]
	}
	return err
}

// followCount is a user's followers (i = 0) or followees (i = 1).
func (r *Resolver) followCount(ctx context.Context, userID int64, i int) (int, error) {
	c, err := r.dataloaders(ctx).Follows.Counts.Load(ctx, userID)
	return int(c[i]), err
}

// setFollow applies the follow and returns the followed user.
func (r *Resolver) setFollow(ctx context.Context, target int64, follows bool) (*ent.User, error) {
	if err := r.FollowService.Set(ctx, auth.ViewerFrom(ctx).UserID, target, follows); err != nil {
		return nil, err
	}
	return r.userOf(ctx, target)
}

// commonFollows loads the users both the viewer and userID follow.
func (r *Resolver) commonFollows(ctx context.Context, userID int64) ([]*ent.User, error) {
	ids, err := r.FollowService.Common(ctx, auth.ViewerFrom(ctx).UserID, userID)
	if err != nil {
		return nil, err
	}
	return r.UserService.Many(ctx, ids)
}
