package graph

import (
	"context"
	"sync"
	"time"

	"github.com/vikstrous/dataloadgen"

	"github.com/hmdp/hmdp/ent"
	"github.com/hmdp/hmdp/internal/voucher"
)

// viewerLoaders batch the per-response reads of Shop.viewerRating and of
// Voucher.perUserLimit not carried by the voucher: one statement for a list
// of shops or vouchers, not one per item.
type viewerLoaders struct {
	ratings *dataloadgen.Loader[int64, *int]
	limits  *dataloadgen.Loader[int64, *int]
	// vouchers are the rows asked for by id, which limits' batch reads.
	mu       sync.Mutex
	vouchers map[int64]*ent.Voucher
}

type viewerLoadersKey struct{}

// lazyViewerLoaders makes the loaders when a resolver first needs them.
type lazyViewerLoaders struct {
	once sync.Once
	make func() *viewerLoaders
	l    *viewerLoaders
}

func (r *Resolver) newViewerLoaders(viewer int64) *viewerLoaders {
	wait := 2 * time.Millisecond
	if r.Dataloaders.Wait > 0 {
		wait = r.Dataloaders.Wait
	}
	opt := dataloadgen.WithWait(wait)
	l := &viewerLoaders{vouchers: map[int64]*ent.Voucher{}}
	l.ratings = dataloadgen.NewLoader(func(ctx context.Context, shopIDs []int64) ([]*int, []error) {
		out, err := r.ReviewService.ViewerRatings(ctx, viewer, shopIDs)
		if err != nil {
			return nil, []error{err}
		}
		return out, nil
	}, opt)
	l.limits = dataloadgen.NewLoader(func(ctx context.Context, ids []int64) ([]*int, []error) {
		vs := make([]*ent.Voucher, len(ids))
		l.mu.Lock()
		for i, id := range ids {
			vs[i] = l.vouchers[id]
		}
		l.mu.Unlock()
		out, err := r.VoucherService.Limits(ctx, vs)
		if err != nil {
			return nil, []error{err}
		}
		return out, nil
	}, opt)
	return l
}

// viewerLoadersOf are the response's loaders (set by WithDataloaders); a
// resolver run outside a response (tests) gets unbatched fresh ones.
func (r *Resolver) viewerLoadersOf(ctx context.Context) *viewerLoaders {
	if lz, _ := ctx.Value(viewerLoadersKey{}).(*lazyViewerLoaders); lz != nil {
		lz.once.Do(func() { lz.l = lz.make() })
		return lz.l
	}
	return r.newViewerLoaders(viewerID(ctx))
}

// viewerRating is Shop.viewerRating.
func (r *Resolver) viewerRating(ctx context.Context, shopID int64) (*int, error) {
	if viewerID(ctx) == 0 {
		return nil, nil
	}
	return r.viewerLoadersOf(ctx).ratings.Load(ctx, shopID)
}

// perUserLimit is Voucher.perUserLimit: as the voucher carries it (read
// with its shop's vouchers), else batched.
func (r *Resolver) perUserLimit(ctx context.Context, v *ent.Voucher) (*int, error) {
	if v.LimitRead {
		return v.PerUserLimit, nil
	}
	l := r.viewerLoadersOf(ctx)
	l.mu.Lock()
	l.vouchers[v.ID] = v
	l.mu.Unlock()
	return l.limits.Load(ctx, v.ID)
}

// maxQuantity is Voucher.maxQuantity: its limit, or the default.
func (r *Resolver) maxQuantity(ctx context.Context, v *ent.Voucher) (int, error) {
	if voucher.IsSeckill(v) {
		return 1, nil
	}
	limit, err := r.perUserLimit(ctx, v)
	return voucher.MaxQuantity(v, limit), err
}
