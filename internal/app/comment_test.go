package app

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hmdp/hmdp/internal/gqlclient"
)

// commentJSON is a comment as blogComments delivers it.
type commentJSON struct {
	ID       string  `json:"id"`
	Content  *string `json:"content"`
	ParentID *string `json:"parentId"`
	Author   struct {
		ID       string `json:"id"`
		NickName string `json:"nickName"`
	} `json:"author"`
	ReplyTo *struct {
		ID string `json:"id"`
	} `json:"replyTo"`
}

func (ts *testServer) addComment(token, blogID, content string, replyTo *string) gqlclient.CommentFields {
	ts.t.Helper()
	return must(gqlclient.AddComment(ts.t.Context(), ts.gql(token), blogID, content, replyTo))(ts.t).AddComment
}

func (ts *testServer) newBlog(token, title string) string {
	ts.t.Helper()
	return must(gqlclient.CreateBlog(ts.t.Context(), ts.gql(token), gqlclient.CreateBlogInput{Title: title, Content: "c"}))(ts.t).CreateBlog.Id
}

func TestCommentsOverGraphQL(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, backend string) {
		ctx := t.Context()
		ts := startServer(t, backend)
		owner, alice, bob := ts.login("13800000001"), ts.login("13800000002"), ts.login("13800000003")
		aliceID, bobID := ts.userID(alice), ts.userID(bob)
		anonC, aliceC, bobC, ownerC := ts.gql(""), ts.gql(alice), ts.gql(bob), ts.gql(owner)
		blogID := ts.newBlog(owner, "comments")

		_, err := gqlclient.AddComment(ctx, anonC, blogID, "anonymous", nil)
		wantCode(t, err, "UNAUTHENTICATED")
		_, err = gqlclient.AddComment(ctx, aliceC, blogID, "   ", nil)
		wantField(t, err, "content") // empty content
		_, err = gqlclient.AddComment(ctx, aliceC, blogID, strings.Repeat("长", 1001), nil)
		wantField(t, err, "content") // long content
		_, err = gqlclient.AddComment(ctx, aliceC, "999999", "x", nil)
		wantCode(t, err, "NOT_FOUND")

		top := ts.addComment(alice, blogID, "  好吃！ ", nil)
		if *top.Content != "好吃！" || top.ParentId != nil || top.ReplyTo != nil || top.Author.Id != aliceID || top.Deleted {
			t.Fatalf("top-level comment: %+v", top)
		}
		second := ts.addComment(bob, blogID, "second", nil)
		r1 := ts.addComment(bob, blogID, "agreed", &top.Id)
		long := strings.Repeat("谢", 1000) // longer than the original column: kept whole
		r2 := ts.addComment(alice, blogID, long, &r1.Id)
		if *r2.ParentId != top.Id || r2.ReplyTo.Id != r1.Id || r2.ReplyTo.Author.Id != bobID || *r2.Content != long {
			t.Fatalf("reply to a reply: %+v", r2)
		}
		_, err = gqlclient.AddComment(ctx, aliceC, ts.newBlog(owner, "other"), "x", &top.Id)
		wantField(t, err, "replyTo") // replyTo of another blog

		must(gqlclient.SetCommentLike(ctx, bobC, top.Id, true))(t)
		liked := must(gqlclient.SetCommentLike(ctx, bobC, top.Id, true))(t).SetCommentLike
		if liked.Liked != 1 || !liked.LikedByMe {
			t.Fatalf("liked twice: %+v", liked)
		}
		must(gqlclient.SetCommentLike(ctx, bobC, r2.Id, true))(t)

		list := must(gqlclient.BlogCommentList(ctx, bobC, blogID, nil, nil, new(1)))(t).Blog
		cl := list.CommentList
		if list.Comments != 4 || len(cl.Edges) != 2 || cl.Edges[0].Node.Id != top.Id || cl.Edges[1].Node.Id != second.Id {
			t.Fatalf("list: %+v", list)
		}
		n := cl.Edges[0].Node
		if n.ReplyCount != 2 || len(n.Replies.Edges) != 1 || n.Replies.Edges[0].Node.Id != r1.Id || !n.Replies.PageInfo.HasNextPage || !n.LikedByMe || n.Liked != 1 {
			t.Fatalf("first comment: %+v", n)
		}
		if cl.Edges[1].Node.ReplyCount != 0 || len(cl.Edges[1].Node.Replies.Edges) != 0 || cl.Edges[1].Node.LikedByMe {
			t.Fatalf("second comment: %+v", cl.Edges[1].Node)
		}
		// The next page of one comment's replies, through comment(id).
		rs := must(gqlclient.CommentReplies(ctx, bobC, top.Id, new(5), n.Replies.PageInfo.EndCursor))(t).Comment.Replies
		if len(rs.Edges) != 1 || rs.Edges[0].Node.Id != r2.Id || *rs.Edges[0].Node.Content != long || !rs.Edges[0].Node.LikedByMe || rs.Edges[0].Node.ReplyTo.Author.Id != bobID || rs.PageInfo.HasNextPage {
			t.Fatalf("replies page 2: %+v", rs)
		}

		// Deleting: a stranger may not; the blog's author may; the replies stay.
		_, err = gqlclient.DeleteComment(ctx, bobC, top.Id)
		wantCode(t, err, "FORBIDDEN")
		_, err = gqlclient.DeleteComment(ctx, bobC, "999999")
		wantCode(t, err, "NOT_FOUND")
		must(gqlclient.DeleteComment(ctx, ownerC, top.Id))(t)
		must(gqlclient.DeleteComment(ctx, aliceC, top.Id))(t) // again: harmless
		list = must(gqlclient.BlogCommentList(ctx, anonC, blogID, nil, nil, new(5)))(t).Blog
		n = list.CommentList.Edges[0].Node
		if list.Comments != 3 || n.Id != top.Id || !n.Deleted || n.Content != nil || n.ReplyCount != 2 || len(n.Replies.Edges) != 2 || n.LikedByMe {
			t.Fatalf("after deleting the top-level comment: %+v", list)
		}
		_, err = gqlclient.SetCommentLike(ctx, bobC, top.Id, true)
		wantCode(t, err, "NOT_FOUND")

		// The per-user limit: 10 a minute, then RATE_LIMITED with retryAfterMs.
		// The clock stands still meanwhile (a loaded machine took over 6 s
		// for the ten, and a token came back).
		carol := ts.login("13800000004")
		thaw := ts.clock.freeze()
		for range 10 {
			ts.addComment(carol, blogID, "more", nil)
		}
		_, err = gqlclient.AddComment(ctx, ts.gql(carol), blogID, "one too many", nil)
		wantCode(t, err, "RATE_LIMITED")
		e := gqlErrors(err)[0]
		if ms, _ := e.Extensions["retryAfterMs"].(float64); ms <= 0 || ms > 6000 {
			t.Fatalf("retryAfterMs: %+v", e)
		}
		ts.addComment(bob, blogID, "others are not limited", nil)
		ts.advance(6 * time.Second)
		ts.addComment(carol, blogID, "after a pause", nil)
		thaw()

		// Deleting the blog takes its comments with it.
		must(gqlclient.DeleteBlog(ctx, ownerC, blogID))(t)
		if gone := must(gqlclient.Comment(ctx, anonC, r1.Id))(t).Comment; gone != nil {
			t.Fatalf("comment of a deleted blog: %+v", gone)
		}
	})
}

// A page of comments with replies, authors, likedByMe, reply counts and the
// comments answered costs the same number of SQL statements for 3 comments
// as for 10.
func TestCommentPageCostIsConstant(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, backend string) {
		var sqlCount atomic.Int64
		ts := startCounted(t, backend, &sqlCount)
		author := ts.login("13800000001")
		var users []string
		for i := range 4 {
			users = append(users, ts.login(fmt.Sprintf("1380000001%d", i)))
		}
		blogID := ts.newBlog(author, "busy")
		ctx, liker := t.Context(), ts.gql(users[0])
		for i := range 12 {
			u := users[i%len(users)]
			c := ts.addComment(u, blogID, fmt.Sprint("comment ", i, strings.Repeat("长", 300*(i%2))), nil)
			prev := c.Id
			for k := range i % 4 {
				r := ts.addComment(users[(i+k+1)%len(users)], blogID, fmt.Sprint("reply", strings.Repeat("长", 300*(k%2))), &prev)
				must(gqlclient.SetCommentLike(ctx, liker, r.Id, true))(t)
				prev = r.Id
			}
			if i%2 == 0 {
				must(gqlclient.SetCommentLike(ctx, liker, c.Id, true))(t)
			}
			ts.advance(time.Minute) // the per-user comment limit
		}
		cost := func(n int) int64 {
			s0 := sqlCount.Load()
			out := must(gqlclient.BlogCommentList(ctx, liker, blogID, &n, nil, new(2)))(t)
			if got := len(out.Blog.CommentList.Edges); got != n {
				t.Fatalf("%d comments, want %d", got, n)
			}
			return sqlCount.Load() - s0
		}
		// The blog; the page; its replies (one window query); reply counts;
		// likedByMe and users (authors), each in one batch or two (the
		// page's, then its replies', unless they meet in one batch window).
		// The comments answered are on the page already. Texts longer than
		// the original column: one statement for the page, one for the replies.
		const maxSQL = 10
		cost(3) // warm up
		for _, n := range []int{3, 10} {
			c := cost(n)
			t.Logf("%d comments: %d SQL statements", n, c)
			if c > maxSQL {
				t.Fatalf("%d comments cost %d statements, want at most %d whatever the page size", n, c, maxSQL)
			}
		}
	})
}

const blogCommentsSubscription = `subscription($b: ID!) { blogComments(blogId: $b) { id content parentId author { id nickName } replyTo { id } } }`

// blogComments delivers a blog's new comments to subscribers on every
// instance, and nothing of other blogs; an unknown blog is NOT_FOUND.
func TestBlogCommentsAcrossInstances(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, backend string) {
		a, b := twoInstances(t, backend)
		author, reader := a.login("13800000001"), a.login("13800000002")
		blogID, otherID := a.newBlog(author, "live"), a.newBlog(author, "quiet")
		var subs []*wsClient
		for _, s := range []*testServer{a, b} {
			c, err := dialWS(t, s.URL, "graphql-transport-ws", map[string]any{"authorization": "Bearer " + reader}, nil)
			if err != nil {
				t.Fatal(err)
			}
			c.subscribe("1", blogCommentsSubscription, map[string]any{"b": blogID})
			subs = append(subs, c)
		}
		anon, err := dialWS(t, b.URL, "graphql-ws", nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		anon.subscribe("1", blogCommentsSubscription, map[string]any{"b": blogID})
		subs = append(subs, anon)
		a.waitSubscriptions("blogComments", 1)
		b.waitSubscriptions("blogComments", 2)

		unknown, err := dialWS(t, a.URL, "graphql-transport-ws", nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		unknown.subscribe("9", blogCommentsSubscription, map[string]any{"b": "999999"})
		if r := unknown.result("9", 10*time.Second); r.code() != "NOT_FOUND" {
			t.Fatalf("unknown blog: %+v", r)
		}

		a.addComment(author, otherID, "elsewhere", nil)
		top := a.addComment(author, blogID, "first", nil)
		reply := b.addComment(reader, blogID, "reply", &top.Id)
		for i, c := range subs {
			for _, want := range []gqlclient.CommentFields{top, reply} {
				r := c.result("1", 10*time.Second)
				var got struct{ BlogComments commentJSON }
				if len(r.Errors) > 0 {
					t.Fatalf("subscriber %d: %+v", i, r.Errors)
				}
				if err := json.Unmarshal(r.Data, &got); err != nil {
					t.Fatal(err)
				}
				g := got.BlogComments
				if g.ID != want.Id || *g.Content != *want.Content || g.Author.ID != want.Author.Id || g.Author.NickName == "" {
					t.Fatalf("subscriber %d: got %+v, want %+v", i, g, want)
				}
				if want.Id == reply.Id && (g.ReplyTo == nil || g.ReplyTo.ID != top.Id || *g.ParentID != top.Id) {
					t.Fatalf("subscriber %d: reply %+v", i, g)
				}
			}
		}
	})
}
