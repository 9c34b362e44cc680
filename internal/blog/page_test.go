package blog

import (
	"context"
	"io"
	"log/slog"
	"slices"
	"testing"

	"github.com/hmdp/hmdp/ent/schema/enum"
	"github.com/hmdp/hmdp/internal/like"
	"github.com/hmdp/hmdp/internal/testenv"
)

// hotBlogs pages through blogs nobody liked: their cursors carry liked = 0,
// which the cursor's encoding leaves out, and they must still read back.
func TestHotPagesThroughUnlikedBlogs(t *testing.T) {
	testenv.ForEachBackend(t, func(t *testing.T, b testenv.Backends) {
		ctx := context.Background()
		db := b.DB.Client
		likes := like.New(like.Config{DB: db, Redis: b.Redis.Client, Prefix: b.Redis.Prefix})
		s := New(Config{DB: db, Images: noImages{}, Likes: likes, Fanout: &failingFanout{},
			Log: slog.New(slog.NewJSONHandler(io.Discard, nil))})
		author := db.User.Create().SetPhone("13800000001").SaveX(ctx).ID
		fan := db.User.Create().SetPhone("13800000002").SaveX(ctx).ID
		var ids []int64
		for range 3 {
			bl, err := s.Create(ctx, author, Input{Title: "t", Content: "c"})
			if err != nil {
				t.Fatal(err)
			}
			ids = append(ids, bl.ID)
		}
		if err := likes.Set(ctx, fan, ids[0], true); err != nil {
			t.Fatal(err)
		}
		want := []int64{ids[0], ids[2], ids[1]} // most liked, then newest
		one := 1
		var after *string
		for i, id := range want {
			p, err := s.Hot(ctx, &one, after)
			if err != nil {
				t.Fatalf("page %d: %v", i, err)
			}
			if len(p.Edges) != 1 || p.Edges[0].Node.ID != id {
				t.Fatalf("page %d: %+v, want blog %d", i, p.Edges, id)
			}
			if p.Info.HasNextPage != (i < len(want)-1) {
				t.Fatalf("page %d: hasNextPage %v", i, p.Info.HasNextPage)
			}
			c := p.Info.EndCursor.String()
			after = &c
		}
	})
}

// A shop's blogs page newest first and most liked first (ties newest
// first), two at a time, with none of another shop's and none repeated.
func TestByShopPagesEitherOrder(t *testing.T) {
	testenv.ForEachBackend(t, func(t *testing.T, b testenv.Backends) {
		ctx := context.Background()
		db := b.DB.Client
		s := New(Config{DB: db, Images: noImages{}, Fanout: &failingFanout{}, Log: slog.New(slog.DiscardHandler)})
		author := db.User.Create().SetPhone("13800000001").SaveX(ctx).ID
		var ids []int64 // of shop 7, oldest first
		for _, liked := range []int{3, 0, 5, 3, 1} {
			ids = append(ids, db.Blog.Create().SetUserID(author).SetShopID(7).SetTitle("t").SetContent("c").SetLiked(liked).SaveX(ctx).ID)
			db.Blog.Create().SetUserID(author).SetShopID(8).SetTitle("other").SetContent("c").SetLiked(9).SaveX(ctx)
		}
		two := 2
		read := func(order enum.BlogOrder) []int64 {
			var got []int64
			var after *string
			for range 10 {
				p, err := s.ByShop(ctx, 7, order, &two, after)
				if err != nil {
					t.Fatal(err)
				}
				for _, e := range p.Edges {
					got = append(got, e.Node.ID)
				}
				if !p.Info.HasNextPage {
					return got
				}
				c := p.Info.EndCursor.String()
				after = &c
			}
			t.Fatalf("%v: no last page", order)
			return nil
		}
		if got, want := read(enum.BlogNewest), []int64{ids[4], ids[3], ids[2], ids[1], ids[0]}; !slices.Equal(got, want) {
			t.Errorf("NEWEST: %v, want %v", got, want)
		}
		if got, want := read(enum.BlogMostLiked), []int64{ids[2], ids[3], ids[0], ids[4], ids[1]}; !slices.Equal(got, want) {
			t.Errorf("MOST_LIKED: %v, want %v", got, want)
		}
		if p, err := s.ByShop(ctx, 999, enum.BlogNewest, nil, nil); err != nil || len(p.Edges) != 0 || p.Info.HasNextPage {
			t.Errorf("a shop with no blogs: %+v, %v", p, err)
		}
	})
}
