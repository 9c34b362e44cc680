package blog

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/hmdp/hmdp/internal/lock"
	"github.com/hmdp/hmdp/internal/testenv"
)

// hotBlogs pages the same from the kept hot list as from MySQL, whatever
// the page size and wherever the cursor falls (ties of liked included, and
// pages that run past the kept blogs into MySQL's), and a change dropped by
// Changed shows at once.
func TestHotListPagesAsMySQL(t *testing.T) {
	testenv.ForEachBackend(t, func(t *testing.T, b testenv.Backends) {
		ctx := context.Background()
		db := b.DB.Client
		locker := lock.New(b.Redis.Client, b.Redis.Prefix)
		t.Cleanup(func() { _ = locker.Close() })
		hot := NewHot(HotConfig{DB: db, Redis: b.Redis.Client, Locker: locker, Prefix: b.Redis.Prefix})
		if err := hot.Start(ctx); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(hot.Close)
		kept := New(Config{DB: db, Images: noImages{}, Hot: hot})
		plain := New(Config{DB: db, Images: noImages{}})
		author := db.User.Create().SetPhone("13800000001").SetNickName("甲").SaveX(ctx).ID
		for i := range 70 {
			db.Blog.Create().SetUserID(author).SetTitle(fmt.Sprint("b", i)).SetContent("c").SetLiked(i % 9).ExecX(ctx)
		}
		walk := func(s *Service, first int) []int64 {
			var ids []int64
			var after *string
			for range 100 {
				p, err := s.Hot(ctx, &first, after)
				if err != nil {
					t.Fatal(err)
				}
				for _, e := range p.Edges {
					ids = append(ids, e.Node.ID)
				}
				if !p.Info.HasNextPage {
					return ids
				}
				c := p.Info.EndCursor.String()
				after = &c
			}
			t.Fatal("no last page")
			return nil
		}
		for _, first := range []int{1, 7, 10, 50} {
			if got, want := walk(kept, first), walk(plain, first); !slices.Equal(got, want) || len(want) != 70 {
				t.Fatalf("first=%d: kept list pages %v, MySQL %v", first, got, want)
			}
		}
		p, err := kept.Hot(ctx, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		if a := p.Edges[0].Node.Edges.Author; a == nil || a.NickName != "甲" || a.Phone != "" {
			t.Fatalf("kept author %+v, want the nickname and no phone", a)
		}
		last := p.Edges[len(p.Edges)-1].Node.ID
		db.Blog.UpdateOneID(last).SetLiked(100).ExecX(ctx)
		hot.Changed(ctx)
		if p, err := kept.Hot(ctx, nil, nil); err != nil || p.Edges[0].Node.ID != last || p.Edges[0].Node.Liked != 100 {
			t.Fatalf("after a change: first %+v (%v), want blog %d with 100 likes", p.Edges[0].Node, err, last)
		}
	})
}
