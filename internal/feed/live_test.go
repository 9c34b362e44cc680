package feed

import (
	"context"
	"log/slog"
	"testing"
	"time"

	"github.com/hmdp/hmdp/ent"
	"github.com/hmdp/hmdp/internal/blog"
	"github.com/hmdp/hmdp/internal/follow"
	"github.com/hmdp/hmdp/internal/pubsub"
	"github.com/hmdp/hmdp/internal/testenv"
)

// A pulled author's post is published once, and each instance's relay hands
// it to its own subscribers who follow the author (as they follow now); a
// pushed author's post goes to each follower's topic. Both carry the author.
func TestLiveDeliveryOfPulledAuthors(t *testing.T) {
	testenv.ForEachBackend(t, func(t *testing.T, b testenv.Backends) {
		ctx := context.Background()
		w := newWorld(t, b, 6, 2)
		db, rdb, prefix := b.DB.Client, b.Redis.Client, b.Redis.Prefix
		// A second instance: its own broker and feed service on the same back ends.
		broker2 := pubsub.New(rdb, prefix, nil, pubsub.Options{})
		t.Cleanup(func() { _ = broker2.Close() })
		feed2 := New(Config{DB: db, Redis: rdb, Prefix: prefix, Broker: broker2, PushLimit: 2,
			Follows: follow.NewSets(follow.SetsConfig{DB: db, Redis: rdb, Prefix: prefix}), Log: slog.New(slog.DiscardHandler)})
		u := w.users
		big, small := u[0], u[5]
		db.User.UpdateOneID(big).SetNickName("big").ExecX(ctx)
		db.User.UpdateOneID(small).SetNickName("small").ExecX(ctx)
		for _, f := range u[1:4] {
			if err := w.follows.Set(ctx, f, big, true); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.follows.Set(ctx, u[1], small, true); err != nil {
			t.Fatal(err)
		}

		subCtx, cancel := context.WithCancel(ctx)
		defer cancel()
		type sub struct {
			viewer int64
			ch     <-chan *ent.Blog
		}
		var subs []sub
		for _, s := range []struct {
			f      *Service
			viewer int64
		}{{w.feed, u[1]}, {feed2, u[2]}, {feed2, u[4]}, {w.feed, u[3]}, {feed2, u[3]}} {
			ch, err := s.f.Subscribe(subCtx, s.viewer, nil)
			if err != nil {
				t.Fatal(err)
			}
			subs = append(subs, sub{s.viewer, ch})
		}
		publishes := &testenv.Commands{Match: testenv.Named("publish")}
		testenv.AddHook(rdb, publishes)

		expect := func(b *ent.Blog, nick string, to ...int64) {
			t.Helper()
			for _, s := range subs {
				want := false
				for _, v := range to {
					want = want || v == s.viewer
				}
				if !want {
					select {
					case got := <-s.ch:
						t.Fatalf("viewer %d got blog %d", s.viewer, got.ID)
					case <-time.After(300 * time.Millisecond):
					}
					continue
				}
				select {
				case got := <-s.ch:
					if got.ID != b.ID || got.Edges.Author == nil || got.Edges.Author.NickName != nick || got.Edges.Author.Phone != "" {
						t.Fatalf("viewer %d got %+v (author %+v), want blog %d by %s without phone", s.viewer, got, got.Edges.Author, b.ID, nick)
					}
				case <-time.After(5 * time.Second):
					t.Fatalf("viewer %d: no blog %d", s.viewer, b.ID)
				}
			}
		}
		post := func(author int64) *ent.Blog {
			t.Helper()
			b, err := w.blogs.Create(ctx, author, blog.Input{Title: "t", Content: "c"})
			if err != nil {
				t.Fatal(err)
			}
			return b
		}

		p1 := post(big)
		expect(p1, "big", u[1], u[2], u[3])
		if n := publishes.Reset(); n != 1 {
			t.Fatalf("%d PUBLISH for a pulled author's post, want 1", n)
		}
		if err := w.follows.Set(ctx, u[2], big, false); err != nil {
			t.Fatal(err)
		}
		if err := w.follows.Set(ctx, u[4], big, true); err != nil {
			t.Fatal(err)
		}
		p2 := post(big)
		expect(p2, "big", u[1], u[3], u[4])
		publishes.Reset()

		p3 := post(small)
		expect(p3, "small", u[1])
		if n := publishes.N(); n != 1 {
			t.Fatalf("%d PUBLISH for a pushed author's post with one follower, want 1", n)
		}
	})
}

// gatedSets holds every FollowersAmong until gate closes: a relay stuck on
// a slow round trip.
type gatedSets struct {
	*follow.Sets
	gate chan struct{}
}

func (g gatedSets) FollowersAmong(ctx context.Context, author int64, users []int64) ([]bool, error) {
	<-g.gate
	return g.Sets.FollowersAmong(ctx, author, users)
}

// A relay that falls behind a burst of pulled authors' posts is dropped by
// the broker, delivers what it had, and subscribes again by itself: later
// posts reach the subscribers that were already there.
func TestRelaySubscribesAgainAfterFallingBehind(t *testing.T) {
	testenv.ForEachBackend(t, func(t *testing.T, b testenv.Backends) {
		ctx := context.Background()
		w := newWorld(t, b, 3, 1)
		db, rdb, prefix := b.DB.Client, b.Redis.Client, b.Redis.Prefix
		broker2 := pubsub.New(rdb, prefix, nil, pubsub.Options{Buffer: 64})
		t.Cleanup(func() { _ = broker2.Close() })
		gate := make(chan struct{})
		sets := gatedSets{follow.NewSets(follow.SetsConfig{DB: db, Redis: rdb, Prefix: prefix}), gate}
		slow := New(Config{DB: db, Redis: rdb, Prefix: prefix, Broker: broker2, PushLimit: 1, Follows: sets,
			RelayBuffer: 2, Log: slog.New(slog.DiscardHandler)})
		author, viewer := w.users[0], w.users[1]
		for _, f := range w.users[1:] {
			if err := w.follows.Set(ctx, f, author, true); err != nil {
				t.Fatal(err)
			}
		}
		subCtx, cancel := context.WithCancel(ctx)
		defer cancel()
		ch, err := slow.Subscribe(subCtx, viewer, nil)
		if err != nil {
			t.Fatal(err)
		}
		post := func() int64 {
			t.Helper()
			b, err := w.blogs.Create(ctx, author, blog.Input{Title: "t", Content: "c"})
			if err != nil {
				t.Fatal(err)
			}
			return b.ID
		}
		// One held by the stuck relay, two buffered, the rest overflow.
		for range 6 {
			post()
		}
		time.Sleep(300 * time.Millisecond) // let them all reach the relay's buffer
		close(gate)
		for range 3 {
			select {
			case <-ch:
			case <-time.After(5 * time.Second):
				t.Fatal("the relay lost what it held")
			}
		}
		testenv.Eventually(t, 10*time.Second, "a post after the drop is delivered", func() bool {
			id := post()
			for {
				select {
				case got := <-ch:
					if got.ID == id {
						return true
					}
				case <-time.After(300 * time.Millisecond):
					return false
				}
			}
		})
	})
}
