package feed

import (
	"context"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/hmdp/hmdp/internal/blog"
	"github.com/hmdp/hmdp/internal/follow"
	"github.com/hmdp/hmdp/internal/like"
	"github.com/hmdp/hmdp/internal/pubsub"
	"github.com/hmdp/hmdp/internal/testenv"
)

type noImages struct{}

func (noImages) Owns(string) bool { return false }

type world struct {
	feed    *Service
	blogs   *blog.Service
	follows *follow.Service
	users   []int64
}

func newWorld(t *testing.T, b testenv.Backends, users, pushLimit int) *world {
	t.Helper()
	return newWorldTB(t, b, users, pushLimit)
}

func newWorldTB(t testing.TB, b testenv.Backends, users, pushLimit int) *world {
	t.Helper()
	ctx := context.Background()
	db, rdb, prefix := b.DB.Client, b.Redis.Client, b.Redis.Prefix
	log := slog.New(slog.DiscardHandler)
	broker := pubsub.New(rdb, prefix, nil, pubsub.Options{})
	t.Cleanup(func() { _ = broker.Close() })
	sets := follow.NewSets(follow.SetsConfig{DB: db, Redis: rdb, Prefix: prefix})
	w := &world{feed: New(Config{DB: db, Redis: rdb, Prefix: prefix, Follows: sets, Broker: broker, PushLimit: pushLimit, Log: log})}
	likes := like.New(like.Config{DB: db, Redis: rdb, Prefix: prefix})
	w.blogs = blog.New(blog.Config{DB: db, Images: noImages{}, Likes: likes, Fanout: w.feed, Log: log})
	w.follows = follow.New(follow.Config{DB: db, Redis: rdb, Prefix: prefix, Sets: sets, Listener: w.feed})
	for i := range users {
		w.users = append(w.users, db.User.Create().SetPhone(fmt.Sprintf("138%08d", i)).SaveX(ctx).ID)
	}
	return w
}

// Random interleavings of posts (many in the same second, by pushed and by
// pulled authors), lost inboxes and page reads of random sizes: a scroll
// started at some moment returns every post that existed then exactly once,
// newest first, and nothing else.
func TestFeedPagingProperty(t *testing.T) {
	testenv.ForEachBackend(t, func(t *testing.T, b testenv.Backends) {
		ctx := context.Background()
		// users[0] reads; 1..3 are pushed authors; 4 is pulled (3 followers
		// > limit 2); 5 is not followed; 6, 7 only follow 4.
		w := newWorld(t, b, 8, 2)
		reader := w.users[0]
		for _, a := range w.users[1:5] {
			if err := w.follows.Set(ctx, reader, a, true); err != nil {
				t.Fatal(err)
			}
		}
		for _, f := range w.users[6:8] {
			if err := w.follows.Set(ctx, f, w.users[4], true); err != nil {
				t.Fatal(err)
			}
		}
		followed := map[int64]bool{w.users[1]: true, w.users[2]: true, w.users[3]: true, w.users[4]: true}
		var posts []int64 // by followed authors, in creation (id) order
		post := func(rng *rand.Rand) {
			author := w.users[1+rng.IntN(5)]
			bl, err := w.blogs.Create(ctx, author, blog.Input{Title: "t", Content: "c"})
			if err != nil {
				t.Fatal(err)
			}
			if followed[author] {
				posts = append(posts, bl.ID)
			}
		}
		rng := rand.New(rand.NewPCG(1, 2))
		for range 15 {
			post(rng)
		}
		for round := range 6 {
			var want, got []int64
			var after *string
			for {
				for range rng.IntN(3) {
					post(rng)
				}
				if rng.IntN(5) == 0 {
					b.Redis.Client.Del(ctx, w.feed.inboxKey(reader)) // Redis lost the inbox
				}
				if after == nil {
					// The scroll starts: it must see exactly the posts existing now.
					want = slices.Clone(posts)
					slices.Reverse(want) // newest first (ids grow with time)
				}
				first := 1 + rng.IntN(4)
				p, err := w.feed.Read(ctx, reader, &first, after)
				if err != nil {
					t.Fatal(err)
				}
				for _, e := range p.Edges {
					got = append(got, e.Node.ID)
				}
				if !p.Info.HasNextPage {
					break
				}
				var buf strings.Builder
				p.Info.EndCursor.MarshalGQL(&buf)
				str := strings.Trim(buf.String(), `"`)
				after = &str
			}
			if !slices.Equal(got, want) {
				t.Fatalf("round %d:\n got %v\nwant %v", round, got, want)
			}
		}
	})
}

// Unfollowing takes the author's posts out of the feed; following back
// brings them in; a deleted blog leaves the feed.
func TestFeedFollowChangesAndDelete(t *testing.T) {
	testenv.ForEachBackend(t, func(t *testing.T, b testenv.Backends) {
		ctx := context.Background()
		w := newWorld(t, b, 2, 10)
		reader, author := w.users[0], w.users[1]
		if err := w.follows.Set(ctx, reader, author, true); err != nil {
			t.Fatal(err)
		}
		b1, _ := w.blogs.Create(ctx, author, blog.Input{Title: "1", Content: "c"})
		b2, _ := w.blogs.Create(ctx, author, blog.Input{Title: "2", Content: "c"})
		ids := func() []int64 {
			p, err := w.feed.Read(ctx, reader, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			var out []int64
			for _, e := range p.Edges {
				out = append(out, e.Node.ID)
			}
			return out
		}
		if got := ids(); !slices.Equal(got, []int64{b2.ID, b1.ID}) {
			t.Fatalf("feed %v", got)
		}
		_ = w.follows.Set(ctx, reader, author, false)
		if got := ids(); len(got) != 0 {
			t.Fatalf("after unfollow %v", got)
		}
		_ = w.follows.Set(ctx, reader, author, true)
		if got := ids(); !slices.Equal(got, []int64{b2.ID, b1.ID}) {
			t.Fatalf("after following back %v", got)
		}
		if err := w.blogs.Delete(ctx, author, b2.ID); err != nil {
			t.Fatal(err)
		}
		if got := ids(); !slices.Equal(got, []int64{b1.ID}) {
			t.Fatalf("after delete %v", got)
		}
	})
}
