package app

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

	"github.com/Khan/genqlient/graphql"
	"github.com/google/go-cmp/cmp"

	"github.com/hmdp/hmdp/ent"
	"github.com/hmdp/hmdp/internal/auth"
	"github.com/hmdp/hmdp/internal/config"
	"github.com/hmdp/hmdp/internal/gqlclient"
	"github.com/hmdp/hmdp/internal/testenv"
)

// startCounted starts a server whose SQL statements are counted in sqlCount.
func startCounted(t *testing.T, backend string, sqlCount *atomic.Int64) *testServer {
	t.Helper()
	return startApp(t, backend, testConfig(t, backend), Options{
		// A page's loads must fall in one batch even on a loaded CI machine
		// running with -race; production batches for 2 ms.
		DataloaderWait: 100 * time.Millisecond,
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

// requestRoundTrips counts the Redis round trips made for requests: one per
// command or pipeline.
func requestRoundTrips() *testenv.RoundTrips { return &testenv.RoundTrips{Match: onBehalfOfRequest} }

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
	req, _ := http.NewRequestWithContext(ts.t.Context(), http.MethodPost, ts.URL+"/graphql", &body)
	req.Header.Set("Content-Type", w.FormDataContentType())
	req.Header.Set("Authorization", "Bearer "+token)
	if preflight {
		req.Header.Set("GraphQL-Require-Preflight", "1")
	}
	return ts.send(req)
}

// topLikers are BlogFields.topLikers of the users with ids, in order.
func topLikers(ids ...string) []gqlclient.BlogFieldsTopLikersUser {
	out := []gqlclient.BlogFieldsTopLikersUser{}
	for _, id := range ids {
		out = append(out, gqlclient.BlogFieldsTopLikersUser{Id: id})
	}
	return out
}

func TestUploadAndBlogLifecycle(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, backend string) {
		ctx := t.Context()
		ts := startServer(t, backend)
		alice, bob := ts.login("13800000001"), ts.login("13800000002")
		aliceID := ts.userID(alice)

		// Uploads are multipart requests over HTTP.
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
		res, err := httpGet(t.Context(), ts.URL+up.UploadImage)
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

		asAlice, asBob, anon := ts.gql(alice), ts.gql(bob), ts.gql("")
		for _, c := range []struct {
			name  string
			in    gqlclient.CreateBlogInput
			field string
		}{
			{"blank title", gqlclient.CreateBlogInput{Title: " ", Content: "c"}, "input.title"},
			{"long title", gqlclient.CreateBlogInput{Title: strings.Repeat("长", 101), Content: "c"}, "input.title"},
			{"empty content", gqlclient.CreateBlogInput{Title: "t", Content: ""}, "input.content"},
			{"image not uploaded here", gqlclient.CreateBlogInput{Title: "t", Content: "c", Images: []string{"/imgs/blogs/blog1.jpg"}}, "input.images.0"},
			{"image never uploaded", gqlclient.CreateBlogInput{Title: "t", Content: "c", Images: []string{"/images/0123456789abcdef0123456789abcdef.png"}}, "input.images.0"},
			{"unknown shop", gqlclient.CreateBlogInput{Title: "t", Content: "c", ShopId: new("424242")}, "input.shopId"},
		} {
			t.Run(c.name, func(t *testing.T) {
				_, err := gqlclient.CreateBlog(ctx, asAlice, c.in)
				wantField(t, err, c.field)
			})
		}
		_, err = gqlclient.CreateBlog(ctx, anon, gqlclient.CreateBlogInput{Title: "t", Content: "c"})
		wantCode(t, err, "UNAUTHENTICATED")

		b := must(gqlclient.CreateBlog(ctx, asAlice, gqlclient.CreateBlogInput{
			Title: "港式茶餐厅", Content: "好吃", Images: []string{up.UploadImage}, ShopId: new("1"),
		}))(t).CreateBlog
		want := gqlclient.BlogFields{
			Id: b.Id, Title: "港式茶餐厅", Content: "好吃", Images: []string{up.UploadImage},
			Shop: &gqlclient.BlogFieldsShop{Id: "1"}, Author: gqlclient.BlogFieldsAuthorUser{Id: aliceID},
			Liked: 0, LikedByMe: false, TopLikers: topLikers(),
		}
		if diff := cmp.Diff(want, b); diff != "" {
			t.Fatalf("createBlog (-want +got):\n%s", diff)
		}
		more := must(gqlclient.CreateBlog(ctx, asAlice, gqlclient.CreateBlogInput{Title: "second", Content: "c"}))(t).CreateBlog
		want = gqlclient.BlogFields{
			Id: more.Id, Title: "second", Content: "c", Images: []string{},
			Shop: nil, Author: gqlclient.BlogFieldsAuthorUser{Id: aliceID}, TopLikers: topLikers(),
		}
		if diff := cmp.Diff(want, more); diff != "" {
			t.Fatalf("createBlog with no shop nor images (-want +got):\n%s", diff)
		}

		// blogsByUser pages newest first.
		var ids []string
		var after *string
		for {
			page := must(gqlclient.BlogsByUser(ctx, anon, aliceID, new(1), after))(t).BlogsByUser
			for _, e := range page.Edges {
				ids = append(ids, e.Node.Id)
			}
			if !page.PageInfo.HasNextPage {
				break
			}
			after = page.PageInfo.EndCursor
		}
		if diff := cmp.Diff([]string{more.Id, b.Id}, ids); diff != "" {
			t.Fatalf("blogsByUser (-want +got):\n%s", diff)
		}
		_, err = gqlclient.BlogsByUser(ctx, anon, aliceID, new(1), new("garbage"))
		wantCode(t, err, "BAD_USER_INPUT")

		_, err = gqlclient.DeleteBlog(ctx, asBob, b.Id)
		wantCode(t, err, "FORBIDDEN")
		if !must(gqlclient.DeleteBlog(ctx, asAlice, b.Id))(t).DeleteBlog {
			t.Fatal("deleteBlog returned false")
		}
		_, err = gqlclient.DeleteBlog(ctx, asAlice, b.Id)
		wantCode(t, err, "NOT_FOUND")
		if gone := must(gqlclient.Blog(ctx, anon, b.Id))(t).Blog; gone != nil {
			t.Fatalf("deleted blog still readable: %+v", gone)
		}
	})
}

func TestLikesAndHotBlogs(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, backend string) {
		ctx := t.Context()
		ts := startServer(t, backend)
		tokens := []string{ts.login("13800000001"), ts.login("13800000002"), ts.login("13800000003")}
		var users []graphql.Client
		var ids []string
		for _, tok := range tokens {
			users = append(users, ts.gql(tok))
			ids = append(ids, ts.userID(tok))
		}
		var blogs []gqlclient.BlogFields
		for i := range 3 {
			blogs = append(blogs, must(gqlclient.CreateBlog(ctx, users[0], gqlclient.CreateBlogInput{Title: fmt.Sprint("b", i), Content: "c"}))(t).CreateBlog)
		}
		like := func(user int, blog string, l bool) gqlclient.BlogFields {
			t.Helper()
			return must(gqlclient.SetBlogLike(ctx, users[user], blog, l))(t).SetBlogLike
		}
		// liked as its viewer sees it.
		liked := func(b gqlclient.BlogFields, byMe bool, likerIDs ...string) gqlclient.BlogFields {
			b.Liked, b.LikedByMe, b.TopLikers = len(likerIDs), byMe, topLikers(likerIDs...)
			return b
		}
		like(1, blogs[0].Id, true)
		if diff := cmp.Diff(liked(blogs[0], true, ids[1]), like(1, blogs[0].Id, true)); diff != "" { // idempotent
			t.Fatalf("after liking twice (-want +got):\n%s", diff)
		}
		like(2, blogs[0].Id, true)
		like(2, blogs[1].Id, true)
		like(2, blogs[1].Id, false)
		if diff := cmp.Diff(liked(blogs[1], false), like(2, blogs[1].Id, false)); diff != "" {
			t.Fatalf("after unliking twice (-want +got):\n%s", diff)
		}
		like(1, blogs[2].Id, true)
		for _, c := range []struct {
			name   string
			client graphql.Client
			blog   string
			code   string
		}{
			{"unknown blog", users[1], "99999999", "NOT_FOUND"},
			{"anonymous", ts.gql(""), blogs[0].Id, "UNAUTHENTICATED"},
		} {
			t.Run(c.name, func(t *testing.T) {
				_, err := gqlclient.SetBlogLike(ctx, c.client, c.blog, true)
				wantCode(t, err, c.code)
			})
		}

		// 2 likes, then 1 like (blog 2, and the seed's blogs with likes), ties newest first.
		hot := must(gqlclient.HotBlogs(ctx, users[1], new(50), nil))(t).HotBlogs.Edges
		if diff := cmp.Diff(liked(blogs[0], true, ids[1], ids[2]), hot[0].Node); diff != "" {
			t.Fatalf("hottest blog (-want +got):\n%s", diff)
		}
		for i := 1; i < len(hot); i++ {
			a, b := hot[i-1].Node, hot[i].Node
			if a.Liked < b.Liked || (a.Liked == b.Liked && atoi(a.Id) < atoi(b.Id)) {
				t.Fatalf("not most liked first, ties newest first: %+v then %+v", a, b)
			}
		}

		// The like sets may be lost: they are rebuilt from the table.
		testenvDeleteKeys(ts, "blog:")
		again := must(gqlclient.Blog(ctx, users[2], blogs[0].Id))(t).Blog
		if diff := cmp.Diff(new(liked(blogs[0], true, ids[1], ids[2])), again); diff != "" {
			t.Fatalf("after losing Redis keys (-want +got):\n%s", diff)
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
	t.Parallel()
	forEachBackend(t, func(t *testing.T, backend string) {
		var sqlCount atomic.Int64
		// The hot list's near copy and the session must outlive the measured
		// requests however slow the machine (writes drop them as ever).
		ts := startCountedWith(t, backend, &sqlCount, func(c *config.Config) {
			c.NearCacheTTL, c.SessionCacheTTL = time.Hour, time.Minute
		})
		rc := requestRoundTrips()
		ts.redis().AddHook(rc)
		author := ts.login("13800000001")
		var likers []string
		for i := range 6 {
			likers = append(likers, ts.login(fmt.Sprintf("1380000001%d", i)))
		}
		ctx := t.Context()
		for i := range 12 {
			b := must(gqlclient.CreateBlog(ctx, ts.gql(author), gqlclient.CreateBlogInput{Title: fmt.Sprint("b", i), Content: "c"}))(t).CreateBlog
			for _, l := range likers[:i%7] {
				must(gqlclient.SetBlogLike(ctx, ts.gql(l), b.Id, true))(t)
			}
		}
		// The page is this query, not an operation of gqlclient: its selection
		// is what the bounds below were worked out for.
		q := `query($n: Int) { hotBlogs(first: $n) { edges { node { id author { id nickName } likedByMe topLikers { id nickName } } } } }`
		cost := func(n int, cold bool) (int64, int64) {
			if cold {
				testenvDeleteKeys(ts, "blog:")
			}
			s0, r0 := sqlCount.Load(), rc.N()
			var out struct {
				HotBlogs struct {
					Edges []struct{ Node struct{ ID string } }
				}
			}
			ts.ok(likers[0], q, map[string]any{"n": n}, &out)
			if len(out.HotBlogs.Edges) != n {
				t.Fatalf("%d blogs, want %d", len(out.HotBlogs.Edges), n)
			}
			return sqlCount.Load() - s0, rc.N() - r0
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
