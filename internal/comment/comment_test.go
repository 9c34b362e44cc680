package comment

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/hmdp/hmdp/ent"
	"github.com/hmdp/hmdp/internal/apperr"
	"github.com/hmdp/hmdp/internal/pubsub"
	"github.com/hmdp/hmdp/internal/ratelimit"
	"github.com/hmdp/hmdp/internal/testenv"
)

type fixture struct {
	s            *Service
	db           *ent.Client
	blog, other  int64
	owner, users []int64
}

func setup(t *testing.T, b testenv.Backends, cfg Config) fixture {
	t.Helper()
	ctx := context.Background()
	db := b.DB.Client
	blog := db.Blog.Create().SetUserID(1).SetTitle("t").SetContent("c").SetLiked(0).SetComments(0).SaveX(ctx)
	other := db.Blog.Create().SetUserID(2).SetTitle("t").SetContent("c").SetLiked(0).SetComments(0).SaveX(ctx)
	cfg.DB = db
	cfg.Limiter = ratelimit.New(b.Redis.Client, b.Redis.Prefix, true)
	if cfg.Broker == nil {
		cfg.Broker = pubsub.New(b.Redis.Client, b.Redis.Prefix, nil, pubsub.Options{})
		t.Cleanup(func() { _ = cfg.Broker.Close() })
	}
	return fixture{s: New(cfg), db: db, blog: blog.ID, other: other.ID, owner: []int64{1}, users: []int64{10, 11, 12}}
}

func wantCode(t *testing.T, err error, code apperr.Code, field string) {
	t.Helper()
	e, ok := apperr.As(err)
	if !ok || e.Code != code || e.Field != field {
		t.Fatalf("want %s (field %q), got %v", code, field, err)
	}
}

func (f fixture) comments(t *testing.T) int {
	t.Helper()
	return f.db.Blog.GetX(context.Background(), f.blog).Comments
}

func ids(p *Page) []int64 {
	var out []int64
	for _, e := range p.Edges {
		out = append(out, e.Node.ID)
	}
	return out
}

func eq(a, b []int64) bool {
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

func ptr[T any](v T) *T { return &v }

// Top-level comments and replies: parent and answer, oldest first, paging,
// counts kept in tb_blog.comments, deletion by the author or the blog's
// author, and a deleted top-level comment listed while it has live replies.
func TestAddListDelete(t *testing.T) {
	testenv.ForEachBackend(t, func(t *testing.T, b testenv.Backends) {
		ctx := context.Background()
		f := setup(t, b, Config{})
		s, u := f.s, f.users
		a, err := s.Add(ctx, u[0], f.blog, "  first!  ", nil)
		if err != nil {
			t.Fatal(err)
		}
		if a.Content != "first!" || a.ParentID != 0 || a.AnswerID != 0 || a.UserID != u[0] {
			t.Fatalf("top-level: %+v", a)
		}
		bc, _ := s.Add(ctx, u[1], f.blog, "second", nil)
		r1, err := s.Add(ctx, u[1], f.blog, "reply to first", &a.ID)
		if err != nil {
			t.Fatal(err)
		}
		r2, err := s.Add(ctx, u[2], f.blog, strings.Repeat("回", MaxContent), &r1.ID) // characters, not bytes
		if err != nil {
			t.Fatal(err)
		}
		if r1.ParentID != a.ID || r1.AnswerID != a.ID || r2.ParentID != a.ID || r2.AnswerID != r1.ID {
			t.Fatalf("replies: r1 %+v r2 %+v", r1, r2)
		}
		// The original column keeps the first 255 characters; the whole text is read back.
		if row := f.db.BlogComment.GetX(ctx, r2.ID); row.Content != strings.Repeat("回", 255) {
			t.Fatalf("tb_blog_comments.content holds %d characters", utf8.RuneCountInString(row.Content))
		}
		if got, _ := s.Get(ctx, r2.ID); got.Content != r2.Content || utf8.RuneCountInString(got.Content) != MaxContent {
			t.Fatalf("long comment read back with %d characters", utf8.RuneCountInString(got.Content))
		}
		if n := f.comments(t); n != 4 {
			t.Fatalf("tb_blog.comments = %d, want 4", n)
		}

		// Refusals change nothing.
		_, err = s.Add(ctx, u[0], f.blog, " \n\t ", nil)
		wantCode(t, err, apperr.BadUserInput, "content")
		_, err = s.Add(ctx, u[0], f.blog, strings.Repeat("x", MaxContent+1), nil)
		wantCode(t, err, apperr.BadUserInput, "content")
		_, err = s.Add(ctx, u[0], f.other, "wrong blog", &a.ID)
		wantCode(t, err, apperr.BadUserInput, "replyTo")
		_, err = s.Add(ctx, u[0], f.blog, "no such comment", ptr(int64(1<<40)))
		wantCode(t, err, apperr.BadUserInput, "replyTo")
		_, err = s.Add(ctx, u[0], 1<<40, "no such blog", nil)
		wantCode(t, err, apperr.NotFound, "")
		if n := f.comments(t); n != 4 {
			t.Fatalf("tb_blog.comments = %d after refusals, want 4", n)
		}

		p, err := s.TopLevel(ctx, f.blog, ptr(1), nil)
		if err != nil || !eq(ids(p), []int64{a.ID}) || !p.Info.HasNextPage {
			t.Fatalf("first page: %v %+v", err, p)
		}
		var after strings.Builder
		p.Info.EndCursor.MarshalGQL(&after)
		p, err = s.TopLevel(ctx, f.blog, nil, ptr(strings.Trim(after.String(), `"`)))
		if err != nil || !eq(ids(p), []int64{bc.ID}) || p.Info.HasNextPage {
			t.Fatalf("second page: %v %+v", err, p)
		}
		_, err = s.TopLevel(ctx, f.blog, nil, ptr("garbage"))
		wantCode(t, err, apperr.BadUserInput, "after")

		rp, err := s.Replies(ctx, []int64{a.ID, bc.ID}, RepliesArgs{First: 1})
		if err != nil || !eq(ids(rp[a.ID]), []int64{r1.ID}) || !rp[a.ID].Info.HasNextPage || len(rp[bc.ID].Edges) != 0 {
			t.Fatalf("replies: %v %+v", err, rp)
		}
		rp, _ = s.Replies(ctx, []int64{a.ID}, RepliesArgs{First: 5, After: r1.ID})
		if !eq(ids(rp[a.ID]), []int64{r2.ID}) || rp[a.ID].Info.HasNextPage || rp[a.ID].Edges[0].Node.Content != r2.Content {
			t.Fatalf("replies after r1: %+v", rp[a.ID])
		}
		counts, _ := s.ReplyCounts(ctx, []int64{a.ID, bc.ID})
		if counts[a.ID] != 2 || counts[bc.ID] != 0 {
			t.Fatalf("reply counts %v", counts)
		}

		// Deleting: a stranger may not; the blog's author may.
		wantCode(t, s.Delete(ctx, u[2], a.ID), apperr.Forbidden, "")
		wantCode(t, s.Delete(ctx, u[0], 1<<40), apperr.NotFound, "")
		if err := s.Delete(ctx, f.owner[0], a.ID); err != nil {
			t.Fatal(err)
		}
		if err := s.Delete(ctx, u[0], a.ID); err != nil { // again, by its author: nothing changes
			t.Fatal(err)
		}
		if n := f.comments(t); n != 3 {
			t.Fatalf("tb_blog.comments = %d after a delete, want 3", n)
		}
		got, _ := s.Get(ctx, a.ID)
		if !Deleted(got) || got.Content != "" {
			t.Fatalf("deleted comment: %+v", got)
		}
		p, _ = s.TopLevel(ctx, f.blog, nil, nil)
		if !eq(ids(p), []int64{a.ID, bc.ID}) {
			t.Fatalf("a deleted comment with replies stays listed: %v", ids(p))
		}
		_, err = s.Add(ctx, u[0], f.blog, "reply to a deleted comment", &a.ID)
		wantCode(t, err, apperr.BadUserInput, "replyTo")
		// Its replies go too: then it is no longer listed.
		if err := s.Delete(ctx, u[1], r1.ID); err != nil {
			t.Fatal(err)
		}
		rp, _ = s.Replies(ctx, []int64{a.ID}, RepliesArgs{First: 5})
		if !eq(ids(rp[a.ID]), []int64{r2.ID}) {
			t.Fatalf("replies after deleting r1: %v", ids(rp[a.ID]))
		}
		if err := s.Delete(ctx, u[2], r2.ID); err != nil {
			t.Fatal(err)
		}
		if n := f.db.CommentText.Query().CountX(ctx); n != 0 {
			t.Fatalf("%d texts left after deleting the long comment", n)
		}
		p, _ = s.TopLevel(ctx, f.blog, nil, nil)
		if !eq(ids(p), []int64{bc.ID}) {
			t.Fatalf("after deleting every reply: %v", ids(p))
		}
		if n := f.comments(t); n != 1 {
			t.Fatalf("tb_blog.comments = %d, want 1", n)
		}
	})
}

// Liking is idempotent and the count exact under concurrency; a deleted
// comment cannot be liked.
func TestCommentLikes(t *testing.T) {
	testenv.ForEachBackend(t, func(t *testing.T, b testenv.Backends) {
		ctx := context.Background()
		f := setup(t, b, Config{})
		s := f.s
		c, _ := s.Add(ctx, 10, f.blog, "like me", nil)
		other, _ := s.Add(ctx, 10, f.blog, "not me", nil)
		var wg sync.WaitGroup
		errs := make(chan error, 100)
		for u := range int64(25) {
			wg.Go(func() {
				_, err := s.SetLike(ctx, 100+u, c.ID, true)
				errs <- err
				_, err = s.SetLike(ctx, 100+u, c.ID, true)
				errs <- err
			})
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil {
				t.Fatal(err)
			}
		}
		got, _ := s.SetLike(ctx, 100, c.ID, false)
		if got.Liked != 24 {
			t.Fatalf("liked = %d, want 24", got.Liked)
		}
		got, _ = s.SetLike(ctx, 100, c.ID, false)
		if got.Liked != 24 {
			t.Fatalf("unliking twice: liked = %d, want 24", got.Liked)
		}
		liked, err := s.LikedBy(ctx, 101, []int64{c.ID, other.ID})
		if err != nil || !liked[c.ID] || liked[other.ID] {
			t.Fatalf("liked by 101: %v %v", liked, err)
		}
		if liked, _ := s.LikedBy(ctx, 100, []int64{c.ID}); liked[c.ID] {
			t.Fatal("100 unliked it")
		}
		_, err = s.SetLike(ctx, 100, 1<<40, true)
		wantCode(t, err, apperr.NotFound, "")
		if err := s.Delete(ctx, 10, other.ID); err != nil {
			t.Fatal(err)
		}
		_, err = s.SetLike(ctx, 100, other.ID, true)
		wantCode(t, err, apperr.NotFound, "")
	})
}

// addComment is limited per user; a refused call uses no allowance.
func TestAddRateLimit(t *testing.T) {
	testenv.ForEachBackend(t, func(t *testing.T, b testenv.Backends) {
		ctx := context.Background()
		f := setup(t, b, Config{PerUser: ratelimit.Limit{Events: 3, Per: time.Hour}})
		for i := range 3 {
			if _, err := f.s.Add(ctx, 10, f.blog, "c", nil); err != nil {
				t.Fatal(i, err)
			}
		}
		_, err := f.s.Add(ctx, 10, f.blog, "c", nil)
		e, ok := apperr.As(err)
		if !ok || e.Code != apperr.RateLimited || e.RetryAfterMs <= 0 {
			t.Fatalf("4th comment: %v", err)
		}
		if _, err := f.s.Add(ctx, 11, f.blog, "c", nil); err != nil {
			t.Fatal("another user is not limited:", err)
		}
		if n := f.comments(t); n != 4 {
			t.Fatalf("tb_blog.comments = %d, want 4", n)
		}
	})
}

// A subscriber hears the blog's new comments, replies included, and nothing
// of other blogs; an unknown blog cannot be subscribed to.
func TestSubscribe(t *testing.T) {
	testenv.ForEachBackend(t, func(t *testing.T, b testenv.Backends) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		f := setup(t, b, Config{})
		ch, err := f.s.Subscribe(ctx, f.blog, nil)
		if err != nil {
			t.Fatal(err)
		}
		_, err = f.s.Subscribe(ctx, 1<<40, nil)
		wantCode(t, err, apperr.NotFound, "")
		if _, err := f.s.Add(ctx, 10, f.other, "elsewhere", nil); err != nil {
			t.Fatal(err)
		}
		a, _ := f.s.Add(ctx, 10, f.blog, "hello", nil)
		r, _ := f.s.Add(ctx, 11, f.blog, "hi", &a.ID)
		for _, want := range []*ent.BlogComment{a, r} {
			select {
			case got := <-ch:
				if got.ID != want.ID || got.Content != want.Content || got.ParentID != want.ParentID || got.UserID != want.UserID ||
					!got.CreateTime.Equal(want.CreateTime) {
					t.Fatalf("got %+v, want %+v", got, want)
				}
			case <-time.After(5 * time.Second):
				t.Fatalf("no event for comment %d", want.ID)
			}
		}
	})
}
