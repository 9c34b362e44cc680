package graph

import (
	"context"

	"github.com/hmdp/hmdp/ent"
	"github.com/hmdp/hmdp/internal/review"
)

// noteReviews lets the field resolvers of the reviews' posts batch per page.
func (r *Resolver) noteReviews(ctx context.Context) func(*review.Page, error) (*review.Page, error) {
	return func(p *review.Page, err error) (*review.Page, error) {
		if p != nil {
			bs := make([]*ent.Blog, len(p.Edges))
			for i, e := range p.Edges {
				bs[i] = e.Node.Blog
			}
			r.dataloaders(ctx).NotePage(bs)
		}
		return p, err
	}
}
