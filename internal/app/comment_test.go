package app

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

const (
	addCommentMutation = `mutation($b: ID!, $c: String!, $r: ID) { addComment(blogId: $b, content: $c, replyTo: $r) { id content parentId replyTo { id author { id } } author { id } liked likedByMe deleted createTime } }`
	commentListQuery   = `query($b: ID!, $n: Int, $after: String, $rn: Int) { blog(id: $b) { comments commentList(first: $n, after: $after) {
		edges { cursor node { id content deleted liked likedByMe author { id nickName } replyCount
			replies(first: $rn) { edges { node { id content parentId likedByMe author { id nickName } replyTo { id author { id } } } } pageInfo { hasNextPage endCursor } } } }
		pageInfo { hasNextPage endCursor } } } }`
	setCommentLikeMutation = `mutation($id: ID!, $l: Boolean!) { setCommentLike(id: $id, liked: $l) { id liked likedByMe } }`
	deleteCommentMutation  = `mutation($id: ID!) { deleteComment(id: $id) }`
)

type commentJSON struct {
	ID        string  `json:"id"`
	Content   *string `json:"content"`
	ParentID  *string `json:"parentId"`
	Deleted   bool    `json:"deleted"`
	Liked     int     `json:"liked"`
	LikedByMe bool    `json:"likedByMe"`
	Author    struct {
		ID       string `json:"id"`
		NickName string `json:"nickName"`
	} `json:"author"`
	ReplyTo *struct {
		ID     string `json:"id"`
		Author struct{ ID string }
	} `json:"replyTo"`
	ReplyCount int `json:"replyCount"`
	Replies    struct {
		Edges []struct{ Node commentJSON }
		Info  struct {
			HasNextPage bool    `json:"hasNextPage"`
			EndCursor   *string `json:"endCursor"`
		} `json:"pageInfo"`
	} `json:"replies"`
}

type commentListJSON struct {
	Blog struct {
		Comments    int `json:"comments"`
		CommentList struct {
			Edges []struct {
				Cursor string
				Node   commentJSON
			}
			PageInfo struct {
				HasNextPage bool    `json:"hasNextPage"`
				EndCursor   *string `json:"endCursor"`
			} `json:"pageInfo"`
		} `json:"commentList"`
	} `json:"blog"`
}

func (ts *testServer) addComment(token, blogID, content string, replyTo *string) commentJSON {
	ts.t.Helper()
	var out struct{ AddComment commentJSON }
	vars := map[string]any{"b": blogID, "c": content}
	if replyTo != nil {
		vars["r"] = *replyTo
	}
	ts.ok(token, addCommentMutation, vars, &out)
	return out.AddComment
}

func (ts *testServer) newBlog(token, title string) string {
	ts.t.Helper()
	var c struct{ CreateBlog struct{ ID string } }
	ts.ok(token, `mutation($in: CreateBlogInput!) { createBlog(input: $in) { id } }`,
		map[string]any{"in": map[string]any{"title": title, "content": "c"}}, &c)
	return c.CreateBlog.ID
}

func TestCommentsOverGraphQL(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, backend string) {
		ts := startServer(t, backend)
		owner, alice, bob := ts.login("13800000001"), ts.login("13800000002"), ts.login("13800000003")
		aliceID, bobID := ts.userID(alice), ts.userID(bob)
		blogID := ts.newBlog(owner, "comments")

		ts.fails("", addCommentMutation, map[string]any{"b": blogID, "c": "anonymous"}, "UNAUTHENTICATED")
		e := ts.fails(alice, addCommentMutation, map[string]any{"b": blogID, "c": "   "}, "BAD_USER_INPUT")
		if e.Extensions["field"] != "content" {
			t.Fatalf("empty content: %+v", e)
		}
		e = ts.fails(alice, addCommentMutation, map[string]any{"b": blogID, "c": strings.Repeat("长", 1001)}, "BAD_USER_INPUT")
		if e.Extensions["field"] != "content" {
			t.Fatalf("long content: %+v", e)
		}
		ts.fails(alice, addCommentMutation, map[string]any{"b": "999999", "c": "x"}, "NOT_FOUND")

		top := ts.addComment(alice, blogID, "  好吃！ ", nil)
		if *top.Content != "好吃！" || top.ParentID != nil || top.ReplyTo != nil || top.Author.ID != aliceID || top.Deleted {
			t.Fatalf("top-level comment: %+v", top)
		}
		second := ts.addComment(bob, blogID, "second", nil)
		r1 := ts.addComment(bob, blogID, "agreed", &top.ID)
		long := strings.Repeat("谢", 1000) // longer than the original column: kept whole
		r2 := ts.addComment(alice, blogID, long, &r1.ID)
		if *r2.ParentID != top.ID || r2.ReplyTo.ID != r1.ID || r2.ReplyTo.Author.ID != bobID || *r2.Content != long {
			t.Fatalf("reply to a reply: %+v", r2)
		}
		e = ts.fails(alice, addCommentMutation, map[string]any{"b": ts.newBlog(owner, "other"), "c": "x", "r": top.ID}, "BAD_USER_INPUT")
		if e.Extensions["field"] != "replyTo" {
			t.Fatalf("replyTo of another blog: %+v", e)
		}

		var liked struct{ SetCommentLike commentJSON }
		ts.ok(bob, setCommentLikeMutation, map[string]any{"id": top.ID, "l": true}, &liked)
		ts.ok(bob, setCommentLikeMutation, map[string]any{"id": top.ID, "l": true}, &liked)
		if liked.SetCommentLike.Liked != 1 || !liked.SetCommentLike.LikedByMe {
			t.Fatalf("liked twice: %+v", liked.SetCommentLike)
		}
		ts.ok(bob, setCommentLikeMutation, map[string]any{"id": r2.ID, "l": true}, nil)

		var list commentListJSON
		ts.ok(bob, commentListQuery, map[string]any{"b": blogID, "rn": 1}, &list)
		cl := list.Blog.CommentList
		if list.Blog.Comments != 4 || len(cl.Edges) != 2 || cl.Edges[0].Node.ID != top.ID || cl.Edges[1].Node.ID != second.ID {
			t.Fatalf("list: %+v", list)
		}
		n := cl.Edges[0].Node
		if n.ReplyCount != 2 || len(n.Replies.Edges) != 1 || n.Replies.Edges[0].Node.ID != r1.ID || !n.Replies.Info.HasNextPage || !n.LikedByMe || n.Liked != 1 {
			t.Fatalf("first comment: %+v", n)
		}
		if cl.Edges[1].Node.ReplyCount != 0 || len(cl.Edges[1].Node.Replies.Edges) != 0 || cl.Edges[1].Node.LikedByMe {
			t.Fatalf("second comment: %+v", cl.Edges[1].Node)
		}
		// The next page of one comment's replies, through comment(id).
		var more struct{ Comment commentJSON }
		ts.ok(bob, `query($id: ID!, $after: String) { comment(id: $id) { replies(first: 5, after: $after) { edges { node { id content likedByMe replyTo { id author { id } } } } pageInfo { hasNextPage endCursor } } } }`,
			map[string]any{"id": top.ID, "after": *n.Replies.Info.EndCursor}, &more)
		rs := more.Comment.Replies
		if len(rs.Edges) != 1 || rs.Edges[0].Node.ID != r2.ID || *rs.Edges[0].Node.Content != long || !rs.Edges[0].Node.LikedByMe || rs.Edges[0].Node.ReplyTo.Author.ID != bobID || rs.Info.HasNextPage {
			t.Fatalf("replies page 2: %+v", rs)
		}

		// Deleting: a stranger may not; the blog's author may; the replies stay.
		ts.fails(bob, deleteCommentMutation, map[string]any{"id": top.ID}, "FORBIDDEN")
		ts.fails(bob, deleteCommentMutation, map[string]any{"id": "999999"}, "NOT_FOUND")
		ts.ok(owner, deleteCommentMutation, map[string]any{"id": top.ID}, nil)
		ts.ok(alice, deleteCommentMutation, map[string]any{"id": top.ID}, nil) // again: harmless
		ts.ok("", commentListQuery, map[string]any{"b": blogID, "rn": 5}, &list)
		n = list.Blog.CommentList.Edges[0].Node
		if list.Blog.Comments != 3 || n.ID != top.ID || !n.Deleted || n.Content != nil || n.ReplyCount != 2 || len(n.Replies.Edges) != 2 || n.LikedByMe {
			t.Fatalf("after deleting the top-level comment: %+v", list)
		}
		ts.fails(bob, setCommentLikeMutation, map[string]any{"id": top.ID, "l": true}, "NOT_FOUND")

		// The per-user limit: 10 a minute, then RATE_LIMITED with retryAfterMs.
		// The clock stands still meanwhile (a loaded machine took over 6 s
		// for the ten, and a token came back).
		carol := ts.login("13800000004")
		thaw := ts.clock.freeze()
		for range 10 {
			ts.addComment(carol, blogID, "more", nil)
		}
		e = ts.fails(carol, addCommentMutation, map[string]any{"b": blogID, "c": "one too many"}, "RATE_LIMITED")
		if ms, _ := e.Extensions["retryAfterMs"].(float64); ms <= 0 || ms > 6000 {
			t.Fatalf("retryAfterMs: %+v", e)
		}
		ts.addComment(bob, blogID, "others are not limited", nil)
		ts.advance(6 * time.Second)
		ts.addComment(carol, blogID, "after a pause", nil)
		thaw()

		// Deleting the blog takes its comments with it.
		ts.ok(owner, `mutation($id: ID!) { deleteBlog(id: $id) }`, map[string]any{"id": blogID}, nil)
		var gone struct{ Comment *commentJSON }
		ts.ok("", `query($id: ID!) { comment(id: $id) { id } }`, map[string]any{"id": r1.ID}, &gone)
		if gone.Comment != nil {
			t.Fatalf("comment of a deleted blog: %+v", gone.Comment)
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
		for i := range 12 {
			u := users[i%len(users)]
			c := ts.addComment(u, blogID, fmt.Sprint("comment ", i, strings.Repeat("长", 300*(i%2))), nil)
			prev := c.ID
			for k := range i % 4 {
				r := ts.addComment(users[(i+k+1)%len(users)], blogID, fmt.Sprint("reply", strings.Repeat("长", 300*(k%2))), &prev)
				ts.ok(users[0], setCommentLikeMutation, map[string]any{"id": r.ID, "l": true}, nil)
				prev = r.ID
			}
			if i%2 == 0 {
				ts.ok(users[0], setCommentLikeMutation, map[string]any{"id": c.ID, "l": true}, nil)
			}
			ts.advance(time.Minute) // the per-user comment limit
		}
		cost := func(n int) int64 {
			s0 := sqlCount.Load()
			var out commentListJSON
			ts.ok(users[0], commentListQuery, map[string]any{"b": blogID, "n": n, "rn": 2}, &out)
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
		reply := b.addComment(reader, blogID, "reply", &top.ID)
		for i, c := range subs {
			for _, want := range []commentJSON{top, reply} {
				r := c.result("1", 10*time.Second)
				var got struct{ BlogComments commentJSON }
				if len(r.Errors) > 0 {
					t.Fatalf("subscriber %d: %+v", i, r.Errors)
				}
				if err := json.Unmarshal(r.Data, &got); err != nil {
					t.Fatal(err)
				}
				g := got.BlogComments
				if g.ID != want.ID || *g.Content != *want.Content || g.Author.ID != want.Author.ID || g.Author.NickName == "" {
					t.Fatalf("subscriber %d: got %+v, want %+v", i, g, want)
				}
				if want.ID == reply.ID && (g.ReplyTo == nil || g.ReplyTo.ID != top.ID || *g.ParentID != top.ID) {
					t.Fatalf("subscriber %d: reply %+v", i, g)
				}
			}
		}
	})
}
