package comment

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/vikstrous/dataloadgen"

	"github.com/hmdp/hmdp/ent"
)

// DefaultWait is how long a loader collects keys before it fetches (as
// internal/dataloader's: sibling resolvers run concurrently).
const DefaultWait = 2 * time.Millisecond

// Loaders are one response's comment look-ups: each kind (replies of the
// page's comments, their reply counts, likedByMe, the comments answered) is
// one statement per page, whatever the page's size. Authors go through the
// response's user loader (internal/dataloader).
type Loaders struct {
	svc       *Service
	viewer    int64 // 0: anonymous
	wait      time.Duration
	comments  *dataloadgen.Loader[int64, *ent.BlogComment]
	likedByMe *dataloadgen.Loader[int64, bool]
	counts    *dataloadgen.Loader[int64, int]

	mu      sync.Mutex
	replies map[RepliesArgs]*dataloadgen.Loader[int64, *Page]
	groups  map[int64]*group
}

// group is the comments of one page: the first resolver that needs a kind of
// look-up for any of them queues the whole page's keys at once, so each kind
// is one batch however the resolvers are scheduled.
type group struct {
	cs                      []*ent.BlogComment
	liked, counts, answered sync.Once
	replies                 sync.Map // RepliesArgs → *sync.Once
}

// NewLoaders returns fresh loaders for viewer (0 = anonymous); wait 0 is DefaultWait.
func (s *Service) NewLoaders(viewer int64, wait time.Duration) *Loaders {
	if wait <= 0 {
		wait = DefaultWait
	}
	l := &Loaders{svc: s, viewer: viewer, wait: wait, replies: map[RepliesArgs]*dataloadgen.Loader[int64, *Page]{}, groups: map[int64]*group{}}
	l.comments = dataloadgen.NewMappedLoader(s.Many, dataloadgen.WithWait(wait))
	l.likedByMe = dataloadgen.NewMappedLoader(func(ctx context.Context, ids []int64) (map[int64]bool, error) {
		return complete(ids, false)(s.LikedBy(ctx, viewer, ids))
	}, dataloadgen.WithWait(wait))
	l.counts = dataloadgen.NewMappedLoader(func(ctx context.Context, ids []int64) (map[int64]int, error) {
		return complete(ids, 0)(s.ReplyCounts(ctx, ids))
	}, dataloadgen.WithWait(wait))
	return l
}

// complete gives every key absent from a fetch's map the zero answer.
func complete[V any](ids []int64, zero V) func(map[int64]V, error) (map[int64]V, error) {
	return func(m map[int64]V, err error) (map[int64]V, error) {
		if err != nil {
			return nil, err
		}
		for _, id := range ids {
			if _, ok := m[id]; !ok {
				m[id] = zero
			}
		}
		return m, nil
	}
}

// pages is the replies loader of one set of paging arguments.
func (l *Loaders) pages(a RepliesArgs) *dataloadgen.Loader[int64, *Page] {
	l.mu.Lock()
	defer l.mu.Unlock()
	if p := l.replies[a]; p != nil {
		return p
	}
	p := dataloadgen.NewMappedLoader(func(ctx context.Context, parents []int64) (map[int64]*Page, error) {
		pages, err := l.svc.Replies(ctx, parents, a)
		if err != nil {
			return nil, err
		}
		// All replies of the batch are one page for the look-ups that follow.
		var all []*ent.BlogComment
		for _, p := range pages {
			all = append(all, p.Nodes()...)
		}
		l.NotePage(all)
		return pages, nil
	}, dataloadgen.WithWait(l.wait))
	l.replies[a] = p
	return p
}

// NotePage records the comments of a page (and primes the comment cache
// with them: an answered comment is often on the same page).
func (l *Loaders) NotePage(cs []*ent.BlogComment) {
	g := &group{cs: cs}
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, c := range cs {
		l.groups[c.ID] = g
		l.comments.Prime(c.ID, c)
	}
}

func (l *Loaders) group(id int64) *group {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.groups[id]
}

// each runs queue for every comment of c's page, once per once.
func (l *Loaders) each(c *ent.BlogComment, once func(*group) *sync.Once, queue func(*ent.BlogComment)) {
	if g := l.group(c.ID); g != nil {
		once(g).Do(func() {
			for _, x := range g.cs {
				queue(x)
			}
		})
	}
}

// Replies loads a page of c's replies (none for a reply); first and after
// are the field's paging arguments.
func (l *Loaders) Replies(ctx context.Context, c *ent.BlogComment, first *int, after *string) (*Page, error) {
	a, err := Args(first, after)
	if err != nil {
		return nil, err
	}
	if c.ParentID != 0 {
		return pageOf(nil, a.First), nil
	}
	p := l.pages(a)
	l.each(c, func(g *group) *sync.Once {
		o, _ := g.replies.LoadOrStore(a, &sync.Once{})
		return o.(*sync.Once)
	}, func(x *ent.BlogComment) {
		if x.ParentID == 0 {
			p.LoadThunk(ctx, x.ID)
		}
	})
	return p.Load(ctx, c.ID)
}

// ReplyCount loads the number of c's live replies (0 for a reply).
func (l *Loaders) ReplyCount(ctx context.Context, c *ent.BlogComment) (int, error) {
	if c.ParentID != 0 {
		return 0, nil
	}
	l.each(c, func(g *group) *sync.Once { return &g.counts }, func(x *ent.BlogComment) {
		if x.ParentID == 0 {
			l.counts.LoadThunk(ctx, x.ID)
		}
	})
	return l.counts.Load(ctx, c.ID)
}

// LikedByMe loads whether the viewer likes c (false for an anonymous viewer).
func (l *Loaders) LikedByMe(ctx context.Context, c *ent.BlogComment) (bool, error) {
	if l.viewer == 0 {
		return false, nil
	}
	l.each(c, func(g *group) *sync.Once { return &g.liked }, func(x *ent.BlogComment) {
		l.likedByMe.LoadThunk(ctx, x.ID)
	})
	return l.likedByMe.Load(ctx, c.ID)
}

// ReplyTo loads the comment c answers; nil for a top-level comment or when
// that comment is gone.
func (l *Loaders) ReplyTo(ctx context.Context, c *ent.BlogComment) (*ent.BlogComment, error) {
	if c.AnswerID == 0 {
		return nil, nil
	}
	l.each(c, func(g *group) *sync.Once { return &g.answered }, func(x *ent.BlogComment) {
		if x.AnswerID != 0 {
			l.comments.LoadThunk(ctx, x.AnswerID)
		}
	})
	a, err := l.comments.Load(ctx, c.AnswerID)
	if errors.Is(err, dataloadgen.ErrNotFound) {
		return nil, nil
	}
	return a, err
}

type ctxKey struct{}

// WithLazyLoaders returns ctx carrying the loaders newLoaders makes, on first use.
func WithLazyLoaders(ctx context.Context, newLoaders func() *Loaders) context.Context {
	return context.WithValue(ctx, ctxKey{}, sync.OnceValue(newLoaders))
}

// LoadersFrom returns the loaders in ctx, nil when none.
func LoadersFrom(ctx context.Context) *Loaders {
	if l, ok := ctx.Value(ctxKey{}).(func() *Loaders); ok {
		return l()
	}
	return nil
}
