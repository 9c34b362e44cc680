package graph

import (
	"context"

	"github.com/hmdp/hmdp/ent"
	"github.com/hmdp/hmdp/internal/auth"
	"github.com/hmdp/hmdp/internal/blog"
	"github.com/hmdp/hmdp/internal/comment"
	"github.com/hmdp/hmdp/internal/dataloader"
)

// WithDataloaders gives a response its own loaders (the server calls it for every
// response, subscription events included), made when a resolver first needs
// them: an idle subscription, waiting for its next event, holds none.
func (r *Resolver) WithDataloaders(ctx context.Context) context.Context {
	viewer := viewerID(ctx)
	if r.CommentService != nil {
		ctx = comment.WithLazyLoaders(ctx, func() *comment.Loaders { return r.CommentService.NewLoaders(viewer, r.Dataloaders.Wait) })
	}
	ctx = context.WithValue(ctx, viewerLoadersKey{}, &lazyViewerLoaders{make: func() *viewerLoaders { return r.newViewerLoaders(viewer) }})
	return dataloader.WithLazy(ctx, func() *dataloader.Loaders { return r.Dataloaders.New(viewer) })
}

// dataloaders are the response's loaders; a resolver run outside a response
// (tests) gets unbatched fresh ones.
func (r *Resolver) dataloaders(ctx context.Context) *dataloader.Loaders {
	if l := dataloader.From(ctx); l != nil {
		return l
	}
	return r.Dataloaders.New(viewerID(ctx))
}

// commentLoaders are the response's comment loaders; a resolver run outside
// a response (tests) gets unbatched fresh ones.
func (r *Resolver) commentLoaders(ctx context.Context) *comment.Loaders {
	if l := comment.LoadersFrom(ctx); l != nil {
		return l
	}
	return r.CommentService.NewLoaders(viewerID(ctx), r.Dataloaders.Wait)
}

// viewerID is the id of the request's user, 0 when anonymous.
func viewerID(ctx context.Context) int64 {
	if v := auth.ViewerFrom(ctx); v != nil {
		return v.UserID
	}
	return 0
}

// notePage lets the blogs' field resolvers batch per page.
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

// noteComments lets the comments' field resolvers batch per page.
func (r *Resolver) noteComments(ctx context.Context) func(*comment.Page, error) (*comment.Page, error) {
	return func(p *comment.Page, err error) (*comment.Page, error) {
		if p != nil {
			r.commentLoaders(ctx).NotePage(p.Nodes())
		}
		return p, err
	}
}
