// Package dataloader batches the per-item look-ups of one GraphQL response
// (users and their profiles, shops, their types, vouchers and visitor counts,
// vouchers' sales, blogs, likes, follow state) into one query per kind, so a page
// of N items costs the same number of SQL statements and Redis round trips
// whatever N is. A fresh set is made for every response (every subscription
// event too), so nothing is cached across requests.
package dataloader

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/vikstrous/dataloadgen"

	"github.com/hmdp/hmdp/ent"
	entblog "github.com/hmdp/hmdp/ent/blog"
	entseckillvoucher "github.com/hmdp/hmdp/ent/seckillvoucher"
	entshop "github.com/hmdp/hmdp/ent/shop"
	entuser "github.com/hmdp/hmdp/ent/user"
	entuserinfo "github.com/hmdp/hmdp/ent/userinfo"
	entvoucher "github.com/hmdp/hmdp/ent/voucher"
	"github.com/hmdp/hmdp/internal/apperr"
	"github.com/hmdp/hmdp/internal/auth"
	"github.com/hmdp/hmdp/internal/follow"
	"github.com/hmdp/hmdp/internal/like"
	"github.com/hmdp/hmdp/internal/shop"
	"github.com/hmdp/hmdp/internal/voucher"
)

// wait is how long a loader collects keys before it fetches: resolvers of
// sibling fields run concurrently, so a short pause gathers a whole page.
const wait = 2 * time.Millisecond

// Loaders are one response's loaders. The mapped ones (by id) answer
// ErrNotFound (see Missing) for an id that does not exist.
type Loaders struct {
	Users     *dataloadgen.Loader[int64, *ent.User]
	UserInfos *dataloadgen.Loader[int64, *ent.UserInfo] // by user id
	Blogs     *dataloadgen.Loader[int64, *ent.Blog]
	Shops     *dataloadgen.Loader[int64, *ent.Shop]
	Likes     *dataloadgen.Loader[int64, like.Info]
	Follows   FollowLoaders
	// Vouchers are vouchers by id; ShopVouchers a shop's on-sale vouchers
	// (Service.ByShop) by shop id; Sales a flash-sale voucher's sale by
	// voucher id (ShopVouchers fills it with the sales it reads).
	Vouchers     *dataloadgen.Loader[int64, *ent.Voucher]
	ShopVouchers *dataloadgen.Loader[int64, []*ent.Voucher]
	Sales        *dataloadgen.Loader[int64, *ent.SeckillVoucher]
	// SaleStocks are flash sales' live stock by voucher id (Redis, one
	// pipeline per batch; voucher.Service.LiveStocks); nil without Factory.Vouchers.
	SaleStocks *dataloadgen.Loader[int64, int]
	// ShopTypes are shop types by id (from the cached list); UVToday a
	// shop's distinct visitors today (one pipeline per batch).
	ShopTypes *dataloadgen.Loader[int64, *ent.ShopType]
	UVToday   *dataloadgen.Loader[int64, int]
	// ShopViews are shop(id) reads (through the shop cache, counting the
	// viewer as a visitor), once per distinct id however many aliases ask,
	// the ids of a batch concurrently; nil for an absent shop.
	ShopViews *dataloadgen.Loader[int64, *ent.Shop]

	viewer   int64            // 0: anonymous
	vouchers *voucher.Service // statuses; nil without Factory.Vouchers

	mu     sync.Mutex
	groups map[int64]*group
}

// FollowLoaders are the follow look-ups, supplied by the follow service.
type FollowLoaders struct {
	FollowedByMe *dataloadgen.Loader[int64, bool]
	Counts       *dataloadgen.Loader[int64, follow.Counts]
}

// Factory are what the loaders read.
type Factory struct {
	DB      *ent.Client
	Likes   *like.Service
	Follows *follow.Service
	// Shops and Vouchers serve ShopTypes, UVToday and ShopVouchers.
	Shops    *shop.Service
	Vouchers *voucher.Service
	// Wait replaces the default batching pause (tests on a loaded machine
	// lengthen it, so a page is never split over two batches).
	Wait time.Duration
}

// New returns fresh loaders for viewer (0 = anonymous).
func (s Factory) New(viewer int64) *Loaders {
	l := &Loaders{viewer: viewer, vouchers: s.Vouchers}
	wait := wait
	if s.Wait > 0 {
		wait = s.Wait
	}
	opt := dataloadgen.WithWait(wait)
	s.rowLoaders(l, opt)
	if s.Vouchers != nil {
		l.ShopVouchers = s.shopVouchers(l, opt)
		l.SaleStocks = dataloadgen.NewLoader(func(ctx context.Context, ids []int64) ([]int, []error) {
			n, err := s.Vouchers.LiveStocks(ctx, ids)
			if err != nil {
				return nil, []error{err}
			}
			return n, nil
		}, opt)
	}
	if s.Shops != nil {
		s.shopLoaders(l, viewer, opt)
	}
	l.Likes = s.likes(viewer, opt)
	if s.Follows != nil {
		l.Follows = s.followLoaders(viewer, opt)
	}
	return l
}

// rowLoaders sets l's loaders of rows by id.
func (s Factory) rowLoaders(l *Loaders, opt dataloadgen.Option) {
	l.Users = dataloadgen.NewMappedLoader(byID(func(ctx context.Context, ids []int64) ([]*ent.User, error) {
		return s.DB.User.Query().Where(entuser.IDIn(ids...)).All(ctx)
	}, func(u *ent.User) int64 { return u.ID }), opt)
	l.UserInfos = dataloadgen.NewMappedLoader(byID(func(ctx context.Context, ids []int64) ([]*ent.UserInfo, error) {
		return s.DB.UserInfo.Query().Where(entuserinfo.IDIn(ids...)).All(ctx)
	}, func(u *ent.UserInfo) int64 { return u.ID }), opt)
	l.Blogs = dataloadgen.NewMappedLoader(byID(func(ctx context.Context, ids []int64) ([]*ent.Blog, error) {
		return s.DB.Blog.Query().Where(entblog.IDIn(ids...)).All(ctx)
	}, func(b *ent.Blog) int64 { return b.ID }), opt)
	l.Shops = dataloadgen.NewMappedLoader(byID(func(ctx context.Context, ids []int64) ([]*ent.Shop, error) {
		return s.DB.Shop.Query().Where(entshop.IDIn(ids...)).All(ctx)
	}, func(x *ent.Shop) int64 { return x.ID }), opt)
	l.Vouchers = dataloadgen.NewMappedLoader(byID(func(ctx context.Context, ids []int64) ([]*ent.Voucher, error) {
		return s.DB.Voucher.Query().Where(entvoucher.IDIn(ids...)).All(ctx)
	}, func(v *ent.Voucher) int64 { return v.ID }), opt)
	l.Sales = dataloadgen.NewMappedLoader(byID(func(ctx context.Context, ids []int64) ([]*ent.SeckillVoucher, error) {
		return s.DB.SeckillVoucher.Query().Where(entseckillvoucher.IDIn(ids...)).All(ctx)
	}, func(v *ent.SeckillVoucher) int64 { return v.ID }), opt)
}

// shopVouchers loads shops' on-sale vouchers and primes l.Sales with the
// sales it reads.
func (s Factory) shopVouchers(l *Loaders, opt dataloadgen.Option) *dataloadgen.Loader[int64, []*ent.Voucher] {
	return dataloadgen.NewLoader(func(ctx context.Context, ids []int64) ([][]*ent.Voucher, []error) {
		vs, sales, err := s.Vouchers.ByShops(ctx, ids)
		if err != nil {
			return nil, []error{err}
		}
		for _, sv := range sales {
			l.Sales.Prime(sv.ID, sv)
		}
		return vs, nil
	}, opt)
}

// shopLoaders sets l's loaders served by the shop service.
func (s Factory) shopLoaders(l *Loaders, viewer int64, opt dataloadgen.Option) {
	l.ShopTypes = dataloadgen.NewMappedLoader(func(ctx context.Context, ids []int64) (map[int64]*ent.ShopType, error) {
		ts, err := s.Shops.Types(ctx)
		if err != nil {
			return nil, err
		}
		m := make(map[int64]*ent.ShopType, len(ts))
		for _, t := range ts {
			m[t.ID] = t
		}
		return m, nil
	}, opt)
	l.ShopViews = dataloadgen.NewLoader(func(ctx context.Context, ids []int64) ([]*ent.Shop, []error) {
		visitor := shop.Visitor{UserID: viewer, Address: auth.ClientIP(ctx)}
		out, errs := make([]*ent.Shop, len(ids)), make([]error, len(ids))
		var wg sync.WaitGroup
		for i, id := range ids {
			wg.Go(func() { out[i], errs[i] = s.Shops.View(ctx, id, visitor) })
		}
		wg.Wait()
		return out, errs
	}, opt)
	l.UVToday = dataloadgen.NewLoader(func(ctx context.Context, ids []int64) ([]int, []error) {
		n, err := s.Shops.UVTodayMany(ctx, ids)
		if err != nil {
			return nil, []error{err}
		}
		return n, nil
	}, opt)
}

// likes loads blogs' like information for viewer (TopLikers loads the
// first likers, only when asked for: likedByMe alone costs no SQL).
func (s Factory) likes(viewer int64, opt dataloadgen.Option) *dataloadgen.Loader[int64, like.Info] {
	return dataloadgen.NewLoader(func(ctx context.Context, ids []int64) ([]like.Info, []error) {
		infos, err := s.Likes.Infos(ctx, viewer, ids)
		if err != nil {
			return nil, []error{err}
		}
		return infos, nil
	}, opt)
}

// followLoaders are the follow look-ups for viewer.
func (s Factory) followLoaders(viewer int64, opt dataloadgen.Option) FollowLoaders {
	return FollowLoaders{
		Counts: dataloadgen.NewLoader(func(ctx context.Context, ids []int64) ([]follow.Counts, []error) {
			c, err := s.Follows.Counts(ctx, ids)
			if err != nil {
				return nil, []error{err}
			}
			return c, nil
		}, opt),
		FollowedByMe: dataloadgen.NewLoader(func(ctx context.Context, ids []int64) ([]bool, []error) {
			if viewer == 0 {
				return make([]bool, len(ids)), nil
			}
			f, err := s.Follows.FollowedBy(ctx, viewer, ids)
			if err != nil {
				return nil, []error{err}
			}
			return f, nil
		}, opt),
	}
}

// byID makes a mapped fetch of a query by ids.
func byID[V any](query func(context.Context, []int64) ([]V, error), id func(V) int64) func(context.Context, []int64) (map[int64]V, error) {
	return func(ctx context.Context, ids []int64) (map[int64]V, error) {
		rows, err := query(ctx, ids)
		if err != nil {
			return nil, err
		}
		m := make(map[int64]V, len(rows))
		for _, r := range rows {
			m[id(r)] = r
		}
		return m, nil
	}
}

// OrNil is a mapped loader's answer with a missing id as the zero value (nil).
func OrNil[V any](v V, err error) (V, error) {
	if Missing(err) {
		var zero V
		return zero, nil
	}
	return v, err
}

type ctxKey struct{}

// WithLazy returns ctx carrying the loaders newLoaders makes, on first use:
// a subscription waiting for its next event holds none.
func WithLazy(ctx context.Context, newLoaders func() *Loaders) context.Context {
	return context.WithValue(ctx, ctxKey{}, sync.OnceValue(newLoaders))
}

// From returns the loaders in ctx, nil when none.
func From(ctx context.Context) *Loaders {
	if l, ok := ctx.Value(ctxKey{}).(func() *Loaders); ok {
		return l()
	}
	return nil
}

// Missing reports a key a mapped loader did not find.
func Missing(err error) bool { return errors.Is(err, dataloadgen.ErrNotFound) }

// group is the blogs of one page. The first resolver that needs authors (or
// likes) of any blog of the page queues the keys of the whole page at once,
// so each kind is fetched in one batch however the resolvers are scheduled.
type group struct {
	blogs   []*ent.Blog
	authors sync.Once
	likes   sync.Once
	likers  sync.Once
}

// NotePage records the blogs of a page.
func (l *Loaders) NotePage(blogs []*ent.Blog) {
	g := &group{blogs: blogs}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.groups == nil {
		l.groups = map[int64]*group{}
	}
	for _, b := range blogs {
		l.groups[b.ID] = g
	}
}

func (l *Loaders) group(blogID int64) *group {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.groups[blogID]
}

// Author loads a blog's author, queuing its page's authors first; NOT_FOUND
// when the author is gone. A live feed event carries its author, read once
// for all its subscribers: that one is taken as it is.
func (l *Loaders) Author(ctx context.Context, b *ent.Blog) (*ent.User, error) {
	if u := b.Edges.Author; u != nil {
		return u, nil
	}
	if g := l.group(b.ID); g != nil {
		g.authors.Do(func() {
			for _, x := range g.blogs {
				l.Users.LoadThunk(ctx, x.UserID)
			}
		})
	}
	return l.ExistingUser(ctx, b.UserID)
}

// ExistingUser loads a user that must exist (a comment's author): NOT_FOUND
// when there is none.
func (l *Loaders) ExistingUser(ctx context.Context, id int64) (*ent.User, error) {
	u, err := l.Users.Load(ctx, id)
	if Missing(err) {
		return nil, apperr.New(apperr.NotFound, "user %d not found", id)
	}
	return u, err
}

// Me loads the viewer's user; nil for an anonymous viewer or a user gone.
func (l *Loaders) Me(ctx context.Context) (*ent.User, error) {
	if l.viewer == 0 {
		return nil, nil
	}
	return OrNil(l.Users.Load(ctx, l.viewer))
}

// Shop loads a shop that something refers to (a blog's, a voucher's); nil
// for none (id 0) or a shop gone.
func (l *Loaders) Shop(ctx context.Context, id int64) (*ent.Shop, error) {
	if id == 0 {
		return nil, nil
	}
	return OrNil(l.Shops.Load(ctx, id))
}

// Sale loads a flash-sale voucher's sale with its live stock (SaleStocks:
// a stock or sale-state change is seen at once, though the sale's row may
// come from a cache); nil for a normal voucher.
func (l *Loaders) Sale(ctx context.Context, v *ent.Voucher) (*ent.SeckillVoucher, error) {
	if !voucher.IsSeckill(v) {
		return nil, nil
	}
	if l.SaleStocks == nil {
		return OrNil(l.Sales.Load(ctx, v.ID))
	}
	stock := l.SaleStocks.LoadThunk(ctx, v.ID) // in the same batch as the rows
	sv, err := OrNil(l.Sales.Load(ctx, v.ID))
	if sv == nil || err != nil {
		return sv, err
	}
	n, err := stock()
	if err != nil {
		return nil, err
	}
	live := *sv // the row may be shared (a cache's): not changed in place
	live.Stock = n
	return &live, nil
}

// VoucherStatus is a voucher's status, its sale loaded only when it matters
// (its end time, not its stock).
func (l *Loaders) VoucherStatus(ctx context.Context, v *ent.Voucher) (voucher.Status, error) {
	var sale *ent.SeckillVoucher
	if voucher.NeedsSale(v) {
		var err error
		if sale, err = OrNil(l.Sales.Load(ctx, v.ID)); err != nil {
			return "", err
		}
	}
	return l.vouchers.StatusOf(v, sale), nil
}

// FollowerCount loads how many users follow user id.
func (l *Loaders) FollowerCount(ctx context.Context, id int64) (int, error) {
	c, err := l.Follows.Counts.Load(ctx, id)
	return int(c.Followers), err
}

// FolloweeCount loads how many users user id follows.
func (l *Loaders) FolloweeCount(ctx context.Context, id int64) (int, error) {
	c, err := l.Follows.Counts.Load(ctx, id)
	return int(c.Following), err
}

// LikedByMe loads whether the viewer likes a blog (false for an anonymous viewer).
func (l *Loaders) LikedByMe(ctx context.Context, blogID int64) (bool, error) {
	if l.viewer == 0 {
		return false, nil
	}
	in, err := l.Like(ctx, blogID)
	return in.LikedByMe, err
}

// TopLikers loads a blog's first likers, earliest first; a liker whose
// account is gone is left out.
func (l *Loaders) TopLikers(ctx context.Context, blogID int64) ([]*ent.User, error) {
	in, err := l.Like(ctx, blogID)
	if err != nil {
		return nil, err
	}
	if g := l.group(blogID); g != nil {
		// Queue the first likers of the whole page at once, before the
		// topLikers resolvers ask for them one by one: the page's like
		// infos came in one batch, so each is loaded already.
		g.likers.Do(func() {
			for _, x := range g.blogs {
				if xi, err := l.Likes.Load(ctx, x.ID); err == nil {
					for _, id := range xi.Top {
						l.Users.LoadThunk(ctx, id)
					}
				}
			}
		})
	}
	us, err := l.Users.LoadAll(ctx, in.Top)
	out := make([]*ent.User, 0, len(us))
	for i, u := range us {
		if u != nil {
			out = append(out, u)
		} else if err != nil && !Missing(errAt(err, i)) {
			return nil, errAt(err, i)
		}
	}
	return out, nil
}

// errAt is the error of item i of a LoadAll.
func errAt(err error, i int) error {
	var es dataloadgen.ErrorSlice
	if errors.As(err, &es) && i < len(es) {
		return es[i]
	}
	return err
}

// Like loads a blog's like info, queuing its page's blogs first.
func (l *Loaders) Like(ctx context.Context, blogID int64) (like.Info, error) {
	if g := l.group(blogID); g != nil {
		g.likes.Do(func() {
			for _, x := range g.blogs {
				l.Likes.LoadThunk(ctx, x.ID)
			}
		})
	}
	return l.Likes.Load(ctx, blogID)
}
