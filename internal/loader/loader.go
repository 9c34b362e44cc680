// Package loader batches the per-item look-ups of one GraphQL response
// (authors, shops, likes, follow state) into one query per kind, so a page
// of N items costs the same number of SQL statements and Redis round trips
// whatever N is. A fresh set is made for every response (every subscription
// event too), so nothing is cached across requests.
package loader

import (
	"context"
	"sync"
	"time"

	"github.com/vikstrous/dataloadgen"

	"github.com/hmdp/hmdp/ent"
	"github.com/hmdp/hmdp/ent/shop"
	"github.com/hmdp/hmdp/ent/user"
	"github.com/hmdp/hmdp/internal/follow"
	"github.com/hmdp/hmdp/internal/like"
)

// wait is how long a loader collects keys before it fetches: resolvers of
// sibling fields run concurrently, so a short pause gathers a whole page.
const wait = 2 * time.Millisecond

// Loaders are one response's loaders.
type Loaders struct {
	Users   *dataloadgen.Loader[int64, *ent.User]
	Shops   *dataloadgen.Loader[int64, *ent.Shop]
	Likes   *dataloadgen.Loader[int64, like.Info]
	Follows FollowLoaders

	mu     sync.Mutex
	groups map[int64]*group
}

// FollowLoaders are the follow look-ups, supplied by the follow service.
type FollowLoaders struct {
	FollowedByMe *dataloadgen.Loader[int64, bool]
	Counts       *dataloadgen.Loader[int64, [2]int64] // followers, followees
}

// Sources are what the loaders read.
type Sources struct {
	DB      *ent.Client
	Likes   *like.Service
	Follows *follow.Service
	// Wait replaces the default batching pause (tests on a loaded machine
	// lengthen it, so a page is never split over two batches).
	Wait time.Duration
}

// New returns fresh loaders for viewer (0 = anonymous).
func (s Sources) New(viewer int64) *Loaders {
	l := &Loaders{}
	wait := wait
	if s.Wait > 0 {
		wait = s.Wait
	}
	l.Users = dataloadgen.NewMappedLoader(func(ctx context.Context, ids []int64) (map[int64]*ent.User, error) {
		us, err := s.DB.User.Query().Where(user.IDIn(ids...)).All(ctx)
		if err != nil {
			return nil, err
		}
		m := make(map[int64]*ent.User, len(us))
		for _, u := range us {
			m[u.ID] = u
		}
		return m, nil
	}, dataloadgen.WithWait(wait))
	l.Shops = dataloadgen.NewMappedLoader(func(ctx context.Context, ids []int64) (map[int64]*ent.Shop, error) {
		ss, err := s.DB.Shop.Query().Where(shop.IDIn(ids...)).All(ctx)
		if err != nil {
			return nil, err
		}
		m := make(map[int64]*ent.Shop, len(ss))
		for _, x := range ss {
			m[x.ID] = x
		}
		return m, nil
	}, dataloadgen.WithWait(wait))
	l.Likes = dataloadgen.NewLoader(func(ctx context.Context, ids []int64) ([]like.Info, []error) {
		infos, err := s.Likes.Infos(ctx, viewer, ids)
		if err != nil {
			return nil, []error{err}
		}
		// Queue every first liker now, in one batch, before the
		// topLikers resolvers ask for them one by one.
		for _, in := range infos {
			for _, id := range in.Top {
				l.Users.LoadThunk(ctx, id)
			}
		}
		return infos, nil
	}, dataloadgen.WithWait(wait))
	if s.Follows != nil {
		l.Follows.Counts = dataloadgen.NewLoader(func(ctx context.Context, ids []int64) ([][2]int64, []error) {
			c, err := s.Follows.Counts(ctx, ids)
			if err != nil {
				return nil, []error{err}
			}
			return c, nil
		}, dataloadgen.WithWait(wait))
		l.Follows.FollowedByMe = dataloadgen.NewLoader(func(ctx context.Context, ids []int64) ([]bool, []error) {
			if viewer == 0 {
				return make([]bool, len(ids)), nil
			}
			f, err := s.Follows.FollowedBy(ctx, viewer, ids)
			if err != nil {
				return nil, []error{err}
			}
			return f, nil
		}, dataloadgen.WithWait(wait))
	}
	return l
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
func Missing(err error) bool { return err == dataloadgen.ErrNotFound }

// group is the blogs of one page. The first resolver that needs authors (or
// likes) of any blog of the page queues the keys of the whole page at once,
// so each kind is fetched in one batch however the resolvers are scheduled.
type group struct {
	blogs   []*ent.Blog
	authors sync.Once
	likes   sync.Once
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

// Author loads a blog's author, queuing its page's authors first.
func (l *Loaders) Author(ctx context.Context, b *ent.Blog) (*ent.User, error) {
	if g := l.group(b.ID); g != nil {
		g.authors.Do(func() {
			for _, x := range g.blogs {
				l.Users.LoadThunk(ctx, x.UserID)
			}
		})
	}
	return l.Users.Load(ctx, b.UserID)
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
