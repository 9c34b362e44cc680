package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"mime/multipart"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/hmdp/hmdp/ent"
	"github.com/hmdp/hmdp/internal/auth"
)

// startCounted starts a server whose SQL statements are counted in sqlCount.
func startCounted(t *testing.T, backend string, sqlCount *atomic.Int64) *testServer {
	t.Helper()
	return startApp(t, backend, testConfig(t, backend), Options{
		// A page's loads must fall in one batch even on a loaded CI machine
		// running with -race; production batches for 2 ms.
		LoaderWait: 100 * time.Millisecond,
		EntOptions: []ent.Option{ent.TraceSQL(func(ctx context.Context, _ ...any) {
			if onBehalfOfRequest(ctx) {
				sqlCount.Add(1)
			}
		})},
	})
}

// onBehalfOfRequest tells a request's work from the server's background work
// (stream consumers, outbox and sale polling), which runs at any moment: every
// HTTP request's context carries the client's address.
func onBehalfOfRequest(ctx context.Context) bool { return auth.ClientIP(ctx) != "" }

// redisCounter counts the round trips made for requests: one per command or pipeline.
type redisCounter struct{ n atomic.Int64 }

func (c *redisCounter) DialHook(next redis.DialHook) redis.DialHook { return next }
func (c *redisCounter) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		if onBehalfOfRequest(ctx) {
			c.n.Add(1)
		}
		return next(ctx, cmd)
	}
}
func (c *redisCounter) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []redis.Cmder) error {
		if onBehalfOfRequest(ctx) {
			c.n.Add(1)
		}
		return next(ctx, cmds)
	}
}

func pngBytes(t *testing.T) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, 2, 2))
	img.Set(0, 0, color.RGBA{255, 0, 0, 255})
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// upload posts a GraphQL multipart request (the upload spec) for uploadImage.
func (ts *testServer) upload(token string, file []byte, preflight bool) gqlResponse {
	ts.t.Helper()
	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	_ = w.WriteField("operations", `{"query":"mutation($f: Upload!) { uploadImage(file: $f) }","variables":{"f":null}}`)
	_ = w.WriteField("map", `{"0":["variables.f"]}`)
	fw, _ := w.CreateFormFile("0", "photo.bin")
	_, _ = fw.Write(file)
	_ = w.Close()
	req, _ := http.NewRequest(http.MethodPost, ts.URL+"/graphql", &body)
	req.Header.Set("Content-Type", w.FormDataContentType())
	req.Header.Set("Authorization", "Bearer "+token)
	if preflight {
		req.Header.Set("GraphQL-Require-Preflight", "1")
	}
	return ts.send(req)
}

const createBlogMutation = `mutation($in: CreateBlogInput!) { createBlog(input: $in) { id title images shop { id } author { id } liked likedByMe topLikers { id } } }`

type blogJSON struct {
	ID        string   `json:"id"`
	Title     string   `json:"title"`
	Images    []string `json:"images"`
	Shop      *struct{ ID string }
	Author    struct{ ID string }
	Liked     int  `json:"liked"`
	LikedByMe bool `json:"likedByMe"`
	TopLikers []struct{ ID string }
}

func TestUploadAndBlogLifecycle(t *testing.T) {
	forEachBackend(t, func(t *testing.T, backend string) {
		ts := startServer(t, backend)
		alice, bob := ts.login("13800000001"), ts.login("13800000002")

		if r := ts.upload(alice, pngBytes(t), false); r.Status != http.StatusBadRequest || r.code() != "BAD_USER_INPUT" {
			t.Fatalf("no preflight header: status %d %+v", r.Status, r.Errors)
		}
		if r := ts.upload(alice, []byte("<html>not an image</html>"), true); r.code() != "BAD_USER_INPUT" {
			t.Fatalf("html accepted: %+v", r)
		}
		big := append(pngBytes(t), make([]byte, 5<<20)...)
		if r := ts.upload(alice, big, true); r.code() != "BAD_USER_INPUT" {
			t.Fatalf("6 MB accepted: %+v", r)
		}
		if r := ts.upload("", pngBytes(t), true); r.code() != "UNAUTHENTICATED" {
			t.Fatalf("anonymous upload: %+v", r)
		}
		r := ts.upload(alice, pngBytes(t), true)
		var up struct{ UploadImage string }
		if len(r.Errors) > 0 || json.Unmarshal(r.Data, &up) != nil || !strings.HasPrefix(up.UploadImage, "/images/") {
			t.Fatalf("upload: %+v %s", r.Errors, r.Data)
		}
		res, err := http.Get(ts.URL + up.UploadImage)
		if err != nil {
			t.Fatal(err)
		}
		got, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != 200 || !bytes.Equal(got, pngBytes(t)) || res.Header.Get("Content-Type") != "image/png" {
			t.Fatalf("GET image: %d %s", res.StatusCode, res.Header.Get("Content-Type"))
		}
		if code, _ := get(t, ts.URL+"/images/..%2fhmdp.db"); code != 404 {
			t.Fatalf("traversal: %d", code)
		}

		bad := []struct {
			in    map[string]any
			field string
		}{
			{map[string]any{"title": " ", "content": "c"}, "input.title"},
			{map[string]any{"title": strings.Repeat("长", 101), "content": "c"}, "input.title"},
			{map[string]any{"title": "t", "content": ""}, "input.content"},
			{map[string]any{"title": "t", "content": "c", "images": []string{"/imgs/blogs/blog1.jpg"}}, "input.images.0"},
			{map[string]any{"title": "t", "content": "c", "images": []string{"/images/0123456789abcdef0123456789abcdef.png"}}, "input.images.0"},
			{map[string]any{"title": "t", "content": "c", "shopId": "424242"}, "input.shopId"},
		}
		for _, c := range bad {
			e := ts.fails(alice, createBlogMutation, map[string]any{"in": c.in}, "BAD_USER_INPUT")
			if f, _ := e.Extensions["field"].(string); f != c.field && !strings.Contains(e.Message, c.field) {
				t.Fatalf("%v: error %+v does not name %s", c.in, e, c.field)
			}
		}
		ts.fails("", createBlogMutation, map[string]any{"in": map[string]any{"title": "t", "content": "c"}}, "UNAUTHENTICATED")

		var created struct{ CreateBlog blogJSON }
		ts.ok(alice, createBlogMutation, map[string]any{"in": map[string]any{
			"title": "港式茶餐厅", "content": "好吃", "images": []string{up.UploadImage}, "shopId": "1"}}, &created)
		b := created.CreateBlog
		if b.Title != "港式茶餐厅" || len(b.Images) != 1 || b.Images[0] != up.UploadImage || b.Shop == nil || b.Shop.ID != "1" || b.Liked != 0 {
			t.Fatalf("created %+v", b)
		}
		var more struct{ CreateBlog blogJSON }
		ts.ok(alice, createBlogMutation, map[string]any{"in": map[string]any{"title": "second", "content": "c"}}, &more)
		if more.CreateBlog.Shop != nil {
			t.Fatalf("no shop given, got %+v", more.CreateBlog.Shop)
		}

		// blogsByUser pages newest first.
		q := `query($u: ID!, $after: String) { blogsByUser(userId: $u, first: 1, after: $after) { edges { cursor node { id } } pageInfo { hasNextPage endCursor } } }`
		var ids []string
		var after any
		for {
			var out struct {
				BlogsByUser struct {
					Edges    []struct{ Node struct{ ID string } }
					PageInfo struct {
						HasNextPage bool
						EndCursor   *string
					}
				}
			}
			ts.ok("", q, map[string]any{"u": b.Author.ID, "after": after}, &out)
			for _, e := range out.BlogsByUser.Edges {
				ids = append(ids, e.Node.ID)
			}
			if !out.BlogsByUser.PageInfo.HasNextPage {
				break
			}
			after = *out.BlogsByUser.PageInfo.EndCursor
		}
		if len(ids) != 2 || ids[0] != more.CreateBlog.ID || ids[1] != b.ID {
			t.Fatalf("blogsByUser %v", ids)
		}
		ts.fails("", q, map[string]any{"u": b.Author.ID, "after": "garbage"}, "BAD_USER_INPUT")

		del := `mutation($id: ID!) { deleteBlog(id: $id) }`
		ts.fails(bob, del, map[string]any{"id": b.ID}, "FORBIDDEN")
		ts.ok(alice, del, map[string]any{"id": b.ID}, nil)
		ts.fails(alice, del, map[string]any{"id": b.ID}, "NOT_FOUND")
		var gone struct{ Blog *blogJSON }
		ts.ok("", `query($id: ID!) { blog(id: $id) { id } }`, map[string]any{"id": b.ID}, &gone)
		if gone.Blog != nil {
			t.Fatal("deleted blog still readable")
		}
	})
}

const likeMutation = `mutation($id: ID!, $l: Boolean!) { setBlogLike(blogId: $id, liked: $l) { id liked likedByMe topLikers { id } } }`

func TestLikesAndHotBlogs(t *testing.T) {
	forEachBackend(t, func(t *testing.T, backend string) {
		ts := startServer(t, backend)
		tokens := []string{ts.login("13800000001"), ts.login("13800000002"), ts.login("13800000003")}
		var blogs []blogJSON
		for i := range 3 {
			var c struct{ CreateBlog blogJSON }
			ts.ok(tokens[0], createBlogMutation, map[string]any{"in": map[string]any{"title": fmt.Sprint("b", i), "content": "c"}}, &c)
			blogs = append(blogs, c.CreateBlog)
		}
		like := func(tok, id string, l bool) blogJSON {
			var out struct{ SetBlogLike blogJSON }
			ts.ok(tok, likeMutation, map[string]any{"id": id, "l": l}, &out)
			return out.SetBlogLike
		}
		like(tokens[1], blogs[0].ID, true)
		got := like(tokens[1], blogs[0].ID, true) // idempotent
		if got.Liked != 1 || !got.LikedByMe || len(got.TopLikers) != 1 {
			t.Fatalf("after liking twice: %+v", got)
		}
		like(tokens[2], blogs[0].ID, true)
		like(tokens[2], blogs[1].ID, true)
		got = like(tokens[2], blogs[1].ID, false)
		got = like(tokens[2], blogs[1].ID, false)
		if got.Liked != 0 || got.LikedByMe {
			t.Fatalf("after unliking twice: %+v", got)
		}
		like(tokens[1], blogs[2].ID, true)
		ts.fails(tokens[1], likeMutation, map[string]any{"id": "99999999", "l": true}, "NOT_FOUND")
		ts.fails("", likeMutation, map[string]any{"id": blogs[0].ID, "l": true}, "UNAUTHENTICATED")

		var hot struct {
			HotBlogs struct{ Edges []struct{ Node blogJSON } }
		}
		ts.ok(tokens[1], `{ hotBlogs(first: 50) { edges { node { id liked likedByMe topLikers { id } } } } }`, nil, &hot)
		var order []string
		for _, e := range hot.HotBlogs.Edges {
			order = append(order, e.Node.ID)
		}
		// 2 likes, then 1 like (blog 2, and the seed's blogs with likes), ties newest first.
		if order[0] != blogs[0].ID || hot.HotBlogs.Edges[0].Node.Liked != 2 || !hot.HotBlogs.Edges[0].Node.LikedByMe {
			t.Fatalf("hot %v %+v", order, hot.HotBlogs.Edges[0])
		}
		for i := 1; i < len(hot.HotBlogs.Edges); i++ {
			a, b := hot.HotBlogs.Edges[i-1].Node, hot.HotBlogs.Edges[i].Node
			if a.Liked < b.Liked || (a.Liked == b.Liked && atoi(a.ID) < atoi(b.ID)) {
				t.Fatalf("not most liked first, ties newest first: %+v then %+v", a, b)
			}
		}

		// The like sets may be lost: they are rebuilt from the table.
		testenvDeleteKeys(ts, "blog:")
		var again struct{ Blog blogJSON }
		ts.ok(tokens[2], `query($id: ID!) { blog(id: $id) { liked likedByMe topLikers { id } } }`, map[string]any{"id": blogs[0].ID}, &again)
		if again.Blog.Liked != 2 || !again.Blog.LikedByMe || len(again.Blog.TopLikers) != 2 {
			t.Fatalf("after losing Redis keys: %+v", again.Blog)
		}
	})
}

func atoi(s string) int64 {
	var n int64
	_, _ = fmt.Sscan(s, &n)
	return n
}

func testenvDeleteKeys(ts *testServer, what string) {
	ctx := context.Background()
	keys, _ := ts.redis().Keys(ctx, ts.app.cfg.RedisPrefix+what+"*").Result()
	if len(keys) > 0 {
		for _, k := range keys {
			ts.redis().Del(ctx, k)
		}
	}
}

// A page of blogs with author, likedByMe and topLikers costs the same number
// of SQL statements and Redis round trips for 3 blogs as for 10, whether the
// like sets are in Redis or must be rebuilt.
func TestBlogPageCostIsConstant(t *testing.T) {
	forEachBackend(t, func(t *testing.T, backend string) {
		var sqlCount atomic.Int64
		ts := startCounted(t, backend, &sqlCount)
		var rc redisCounter
		ts.redis().AddHook(&rc)
		author := ts.login("13800000001")
		var likers []string
		for i := range 6 {
			likers = append(likers, ts.login(fmt.Sprintf("1380000001%d", i)))
		}
		for i := range 12 {
			var c struct{ CreateBlog blogJSON }
			ts.ok(author, createBlogMutation, map[string]any{"in": map[string]any{"title": fmt.Sprint("b", i), "content": "c"}}, &c)
			for _, l := range likers[:i%7] {
				ts.ok(l, likeMutation, map[string]any{"id": c.CreateBlog.ID, "l": true}, nil)
			}
		}
		q := `query($n: Int) { hotBlogs(first: $n) { edges { node { id author { id nickName } likedByMe topLikers { id nickName } } } } }`
		cost := func(n int, cold bool) (int64, int64) {
			if cold {
				testenvDeleteKeys(ts, "blog:")
			}
			s0, r0 := sqlCount.Load(), rc.n.Load()
			var out struct {
				HotBlogs struct{ Edges []struct{ Node blogJSON } }
			}
			ts.ok(likers[0], q, map[string]any{"n": n}, &out)
			if len(out.HotBlogs.Edges) != n {
				t.Fatalf("%d blogs, want %d", len(out.HotBlogs.Edges), n)
			}
			return sqlCount.Load() - s0, rc.n.Load() - r0
		}
		// The page query, one batch of users (authors and first likers share
		// it when their keys arrive within one batch window) or two; the
		// session touch and one pipeline of like look-ups; when the like sets
		// are gone, one more statement and one more pipeline rebuild them.
		for _, cold := range []bool{false, true} {
			maxSQL, maxRedis := int64(3), int64(2)
			if cold {
				maxSQL, maxRedis = 4, 3
			}
			// On a Redis Cluster a pipeline goes to every master holding one of
			// its keys, and a script is loaded per master: the cost is bounded by
			// the number of masters, still not by the page size.
			if masters := len(ts.app.cfg.RedisAddrs); masters > 1 {
				maxRedis += int64(masters - 1)
			}
			cost(10, cold) // load the scripts once
			for _, n := range []int{3, 10} {
				s, r := cost(n, cold)
				t.Logf("cold=%v: %d blogs: %d SQL statements, %d Redis round trips", cold, n, s, r)
				if s > maxSQL || r > maxRedis {
					t.Fatalf("cold=%v: %d blogs cost %d SQL / %d Redis, want at most %d / %d whatever the page size", cold, n, s, r, maxSQL, maxRedis)
				}
			}
		}
	})
}
