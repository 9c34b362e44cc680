package app

import (
	"context"
	"fmt"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hmdp/hmdp/ent"
	"github.com/hmdp/hmdp/internal/testenv"
)

// webAppOp is the web app's operation name as the app sends it, read from its
// sources (internal/testenv), never pasted here.
func webAppOp(t *testing.T, name string) string {
	t.Helper()
	doc, err := testenv.WebAppOperation("../..", name)
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// The web app's answers, as far as the test reads them.
type (
	shopPage struct {
		Shop struct {
			Name     string
			UvToday  int
			Type     struct{ Name string }
			Vouchers []struct {
				ID      string
				Title   string
				Status  string
				Seckill *struct{ Stock int }
			}
		}
	}
	blogEdges struct {
		Edges []struct {
			Node struct {
				ID        string
				Title     string
				Liked     int
				LikedByMe bool
				Author    struct{ NickName string }
			}
		}
	}
	hotPage struct {
		HotBlogs blogEdges
	}
	shopPostsPage struct {
		BlogsByShop blogEdges
	}
	shopReviewsPage struct {
		ReviewsByShop struct {
			Edges []struct {
				Node struct {
					ID    string
					Stars int
					Blog  struct {
						Title  string
						Author struct{ NickName string }
					}
				}
			}
		}
	}
)

// The web app's hottest pages, the shop page (its Shop, ShopBlogs and
// ShopReviews operations, in each of their orders) and the home page (Home
// and HotBlogs), run no SQL statement on behalf of their requests once warm,
// anonymous or logged in, on either of two instances; and every write the
// pages show is seen at once on both: a new voucher, a purchase's stock, a
// shop's change, a new blog, a like, a rating and an author's new nickname.
func TestWebAppPagesRunNoSQLOnceWarm(t *testing.T) {
	forEachBackend(t, func(t *testing.T, backend string) {
		cfg := testConfig(t, backend)
		cfg.RateLimits = false
		var statements atomic.Int64
		var last atomic.Value
		a, b := twoInstancesWith(t, backend, cfg, Options{EntOptions: []ent.Option{ent.TraceSQL(func(ctx context.Context, args ...any) {
			if onBehalfOfRequest(ctx) {
				statements.Add(1)
				last.Store(fmt.Sprint(args...))
			}
		})}})
		shopOp, homeOp, hotOp := webAppOp(t, "Shop"), webAppOp(t, "Home"), webAppOp(t, "HotBlogs")
		postsOp, reviewsOp := webAppOp(t, "ShopBlogs"), webAppOp(t, "ShopReviews")
		sizes, err := testenv.WebAppPageSizes("../..")
		if err != nil {
			t.Fatal(err)
		}
		hotVars := map[string]any{"first": sizes["HotBlogs"]}
		shopVars := map[string]any{"id": "1"}
		postsVars := func(order string) map[string]any {
			return map[string]any{"shopId": "1", "orderBy": order, "first": sizes["ShopBlogs"]}
		}
		reviewsVars := func(order string) map[string]any {
			return map[string]any{"shopId": "1", "orderBy": order, "first": sizes["ShopReviews"]}
		}

		admin := a.admin()
		sale := a.createSale(50, time.Now().Add(-time.Minute), time.Now().Add(time.Hour))
		buyer := a.login("13800000001")
		author := b.login("13800000002")
		var posted struct{ CreateBlog struct{ ID string } }
		b.ok(author, `mutation { createBlog(input: {title: "稳态一", content: "c", shopId: "1", stars: 4}) { id } }`, nil, &posted)

		viewers := map[string]string{"anonymous": "", "logged in": buyer}
		views := func() {
			for _, ts := range []*testServer{a, b} {
				for _, tok := range viewers {
					ts.ok(tok, shopOp, shopVars, nil)
					ts.ok(tok, postsOp, postsVars("NEWEST"), nil)
					ts.ok(tok, postsOp, postsVars("MOST_LIKED"), nil)
					for _, order := range []string{"NEWEST", "HIGHEST", "LOWEST"} {
						ts.ok(tok, reviewsOp, reviewsVars(order), nil)
					}
					ts.ok(tok, homeOp, nil, nil)
					ts.ok(tok, hotOp, hotVars, nil)
				}
			}
		}
		views() // warm
		statements.Store(0)
		for range 3 {
			views()
		}
		if n := statements.Load(); n != 0 {
			t.Fatalf("%d SQL statements on behalf of 3 rounds of warm views (last: %v), want 0", n, last.Load())
		}
		// Past the near caches' lifetime the pages are still answered
		// without MySQL (from Redis, and Redis's counts).
		time.Sleep(cfg.NearCacheTTL + 100*time.Millisecond)
		views()
		if n := statements.Load(); n != 0 {
			t.Fatalf("%d SQL statements once the near copies expired (last: %v), want 0", n, last.Load())
		}

		shopOn := func(ts *testServer) shopPage {
			var p shopPage
			ts.ok(buyer, shopOp, shopVars, &p)
			return p
		}
		hotOn := func(ts *testServer, tok string) hotPage {
			var p hotPage
			ts.ok(tok, hotOp, hotVars, &p)
			return p
		}
		stockOf := func(p shopPage, id int64) int {
			for _, v := range p.Shop.Vouchers {
				if v.ID == strconv.FormatInt(id, 10) && v.Seckill != nil {
					return v.Seckill.Stock
				}
			}
			t.Fatalf("sale %d not on the shop page: %+v", id, p.Shop.Vouchers)
			return 0
		}
		hasVoucher := func(p shopPage, title string) bool {
			for _, v := range p.Shop.Vouchers {
				if v.Title == title {
					return true
				}
			}
			return false
		}
		reviewOf := func(ts *testServer, order, id string) (stars int, nick string) {
			var p shopReviewsPage
			ts.ok(buyer, reviewsOp, reviewsVars(order), &p)
			for _, e := range p.ReviewsByShop.Edges {
				if e.Node.ID == id {
					return e.Node.Stars, e.Node.Blog.Author.NickName
				}
			}
			return 0, ""
		}
		postsOn := func(ts *testServer, order string) blogEdges {
			var p shopPostsPage
			ts.ok(buyer, postsOp, postsVars(order), &p)
			return p.BlogsByShop
		}
		blogOf := func(p blogEdges, id string) (liked int, nick string, ok bool) {
			for _, e := range p.Edges {
				if e.Node.ID == id {
					return e.Node.Liked, e.Node.Author.NickName, true
				}
			}
			return 0, "", false
		}

		// Another instance hears an invalidation through Redis Pub/Sub a few
		// milliseconds after the write: each check waits that long at most
		// (generously, for a loaded machine).
		onBoth := func(what string, ok func(ts *testServer) bool) {
			t.Helper()
			for name, ts := range map[string]*testServer{"a": a, "b": b} {
				testenv.Eventually(t, 5*time.Second, "instance "+name+": "+what, func() bool { return ok(ts) })
			}
		}

		// A new voucher (on a), a purchase (on b), a shop's new name (on a).
		a.ok(admin, `mutation { createVoucher(input: {shopId: "1", title: "新券", payValue: 1, actualValue: 2}) { id } }`, nil, nil)
		b.ok(buyer, `mutation($v: ID!) { seckillVoucher(voucherId: $v) { orderId } }`, map[string]any{"v": strconv.FormatInt(sale, 10)}, nil)
		a.ok(admin, `mutation { updateShop(id: "1", input: {name: "稳态店"}) { id } }`, nil, nil)
		onBoth("the new voucher, stock 49 of 50 after a purchase and the shop's new name on the shop page", func(ts *testServer) bool {
			p := shopOn(ts)
			return hasVoucher(p, "新券") && stockOf(p, sale) == 49 && p.Shop.Name == "稳态店"
		})

		// A new blog (on a), a like (on b), a rating (on a), the author's new
		// nickname (on b), each checked before the next (the nickname drops
		// every list of the author's posts).
		var second struct{ CreateBlog struct{ ID string } }
		a.ok(author, `mutation { createBlog(input: {title: "稳态二", content: "c", shopId: "1"}) { id } }`, nil, &second)
		onBoth("the new post first of the shop's newest", func(ts *testServer) bool {
			p := postsOn(ts, "NEWEST").Edges
			postsOn(ts, "MOST_LIKED") // kept again, with the new post
			return len(p) > 0 && p[0].Node.ID == second.CreateBlog.ID
		})
		b.ok(buyer, `mutation($b: ID!) { setBlogLike(blogId: $b, liked: true) { id } }`, map[string]any{"b": posted.CreateBlog.ID}, nil)
		onBoth("the liked post shows liked=1 among the shop's posts", func(ts *testServer) bool {
			liked, _, _ := blogOf(postsOn(ts, "NEWEST"), posted.CreateBlog.ID)
			return liked == 1
		})
		a.ok(author, `mutation { rateShop(shopId: "1", stars: 2) { id } }`, nil, nil)
		onBoth("the author's review shows the new 2 stars in every order", func(ts *testServer) bool {
			for _, order := range []string{"NEWEST", "HIGHEST", "LOWEST"} {
				if stars, _ := reviewOf(ts, order, posted.CreateBlog.ID); stars != 2 {
					return false
				}
			}
			return true
		})
		b.ok(author, `mutation { updateProfile(input: {nickName: "稳态作者"}) { id } }`, nil, nil)
		onBoth("the review's author shows the new nickname", func(ts *testServer) bool {
			_, nick := reviewOf(ts, "NEWEST", posted.CreateBlog.ID)
			return nick == "稳态作者"
		})
		onBoth("the hot blogs and the shop's posts show the new blog, the like (liked=1, likedByMe) and the new nickname, the liked post first of the most liked",
			func(ts *testServer) bool {
				lists := map[string]blogEdges{"hot": hotOn(ts, buyer).HotBlogs, "newest": postsOn(ts, "NEWEST"), "liked": postsOn(ts, "MOST_LIKED")}
				for _, p := range lists {
					if _, _, ok := blogOf(p, second.CreateBlog.ID); !ok {
						return false
					}
					if liked, nick, ok := blogOf(p, posted.CreateBlog.ID); !ok || liked != 1 || nick != "稳态作者" {
						return false
					}
				}
				if top := lists["liked"].Edges; len(top) == 0 || top[0].Node.ID != posted.CreateBlog.ID {
					return false
				}
				for _, e := range lists["hot"].Edges {
					if e.Node.ID == posted.CreateBlog.ID {
						return e.Node.LikedByMe
					}
				}
				return false
			})

		// A post deleted (on b) leaves the shop's lists on both.
		b.ok(author, `mutation($b: ID!) { deleteBlog(id: $b) }`, map[string]any{"b": second.CreateBlog.ID}, nil)
		onBoth("the deleted post gone from the shop's posts", func(ts *testServer) bool {
			for _, order := range []string{"NEWEST", "MOST_LIKED"} {
				if _, _, ok := blogOf(postsOn(ts, order), second.CreateBlog.ID); ok {
					return false
				}
			}
			return true
		})
	})
}
