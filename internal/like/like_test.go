package like

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hmdp/hmdp/ent"
	entbloglike "github.com/hmdp/hmdp/ent/bloglike"
	"github.com/hmdp/hmdp/internal/testenv"
)

// setup builds the service with now as its clock (nil: time.Now).
func setup(t *testing.T, b testenv.Backends, users int, now func() time.Time) (*Service, int64, []int64) {
	t.Helper()
	ctx := context.Background()
	db := b.DB.Client
	var ids []int64
	for i := range users {
		u := db.User.Create().SetPhone(phone(i)).SaveX(ctx)
		ids = append(ids, u.ID)
	}
	bl := db.Blog.Create().SetUserID(ids[0]).SetTitle("t").SetContent("c").SetLiked(0).SetComments(0).SaveX(ctx)
	return New(Config{DB: db, Redis: b.Redis.Client, Prefix: b.Redis.Prefix, Now: now}), bl.ID, ids
}

func phone(i int) string { return "138" + string(rune('0'+i/10000000%10)) + pad(i) }

func pad(i int) string {
	s := []byte("0000000")
	for k := 6; k >= 0; k-- {
		s[k] = byte('0' + i%10)
		i /= 10
	}
	return string(s)
}

// 100 users like one blog at once: tb_blog.liked ends at exactly 100, the
// table has 100 rows, and topLikers are the five earliest (time, then id).
func TestConcurrentLikes(t *testing.T) {
	testenv.ForEachBackend(t, func(t *testing.T, b testenv.Backends) {
		ctx := context.Background()
		var clock atomic.Int64
		base := time.Now().Truncate(time.Millisecond)
		// Several likes share each millisecond, so ties must be broken by id.
		s, blogID, users := setup(t, b, 100, func() time.Time { return base.Add(time.Duration(clock.Add(1)/7) * time.Millisecond) })
		var wg sync.WaitGroup
		errs := make(chan error, 200)
		for _, u := range users {
			wg.Go(func() {
				errs <- s.Set(ctx, u, blogID, true)
				errs <- s.Set(ctx, u, blogID, true) // idempotent
			})
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil {
				t.Fatal(err)
			}
		}
		bl := b.DB.Client.Blog.GetX(ctx, blogID)
		if bl.Liked != 100 {
			t.Fatalf("liked = %d, want 100", bl.Liked)
		}
		rows := b.DB.Client.BlogLike.Query().Where(entbloglike.BlogID(blogID)).
			Order(ent.Asc(entbloglike.FieldCreateTime, entbloglike.FieldUserID)).AllX(ctx)
		if len(rows) != 100 {
			t.Fatalf("%d rows", len(rows))
		}
		var want []int64
		for _, r := range rows[:TopN] {
			want = append(want, r.UserID)
		}
		check := func(what string) {
			t.Helper()
			infos, err := s.Infos(ctx, users[3], []int64{blogID})
			if err != nil {
				t.Fatal(err)
			}
			if !equal(infos[0].Top, want) || !infos[0].LikedByMe {
				t.Fatalf("%s: top %v likedByMe %v, want %v", what, infos[0].Top, infos[0].LikedByMe, want)
			}
		}
		check("from the live set")
		b.Redis.Client.Del(ctx, s.setKey(blogID))
		check("rebuilt from MySQL (answered by the rows)")
		check("rebuilt set")

		// Unliking, twice, counts once.
		for range 2 {
			if err := s.Set(ctx, want[0], blogID, false); err != nil {
				t.Fatal(err)
			}
		}
		if got := b.DB.Client.Blog.GetX(ctx, blogID).Liked; got != 99 {
			t.Fatalf("liked = %d, want 99", got)
		}
		infos, _ := s.Infos(ctx, want[0], []int64{blogID})
		if infos[0].LikedByMe || infos[0].Top[0] != want[1] {
			t.Fatalf("after unlike: %+v", infos[0])
		}
	})
}

// A rebuild that read MySQL before a like landed must not overwrite it.
func TestRebuildLosesNoConcurrentLike(t *testing.T) {
	testenv.ForEachBackend(t, func(t *testing.T, b testenv.Backends) {
		ctx := context.Background()
		s, blogID, users := setup(t, b, 3, nil)
		if err := s.Set(ctx, users[1], blogID, true); err != nil {
			t.Fatal(err)
		}
		b.Redis.Client.Del(ctx, s.setKey(blogID))
		// The reader saw version v and read only users[1]'s like ...
		ver := b.Redis.Client.Get(ctx, s.verKey(blogID)).Val()
		rows := b.DB.Client.BlogLike.Query().Where(entbloglike.BlogID(blogID)).AllX(ctx)
		// ... then users[2] liked before the reader wrote the set.
		if err := s.Set(ctx, users[2], blogID, true); err != nil {
			t.Fatal(err)
		}
		if err := s.writeSets(ctx, map[int64][]*ent.BlogLike{blogID: rows}, map[int64]string{blogID: ver}); err != nil {
			t.Fatal(err)
		}
		infos, err := s.Infos(ctx, users[2], []int64{blogID})
		if err != nil {
			t.Fatal(err)
		}
		if len(infos[0].Top) != 2 || !infos[0].LikedByMe {
			t.Fatalf("lost a like: %+v", infos[0])
		}
	})
}

// Liking a blog that does not exist is NOT_FOUND and writes nothing.
func TestLikeMissingBlog(t *testing.T) {
	testenv.ForEachBackend(t, func(t *testing.T, b testenv.Backends) {
		ctx := context.Background()
		s, _, users := setup(t, b, 1, nil)
		if err := s.Set(ctx, users[0], 999999, true); err == nil {
			t.Fatal("no error")
		}
		if n := b.DB.Client.BlogLike.Query().CountX(ctx); n != 0 {
			t.Fatalf("%d rows written", n)
		}
	})
}

func equal(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
