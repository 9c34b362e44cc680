package review_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"go.uber.org/goleak"

	"github.com/hmdp/hmdp/ent"
	entrating "github.com/hmdp/hmdp/ent/shoprating"
	"github.com/hmdp/hmdp/internal/apperr"
	"github.com/hmdp/hmdp/internal/blog"
	"github.com/hmdp/hmdp/internal/lock"
	"github.com/hmdp/hmdp/internal/review"
	"github.com/hmdp/hmdp/internal/shop"
	"github.com/hmdp/hmdp/internal/testenv"
)

// TestMain proves the shop services' subscriptions and outbox pollers stop.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// env is a seeded database and Redis with shop service instances on them.
type env struct {
	b testenv.Backends
}

func forEach(t *testing.T, fn func(t *testing.T, e env)) {
	t.Helper()
	testenv.ForEachBackend(t, func(t *testing.T, b testenv.Backends) {
		if _, err := b.DB.Seed(context.Background(), time.Now()); err != nil {
			t.Fatal(err)
		}
		fn(t, env{b: b})
	})
}

// shops starts one shop service as one server process would (its own near
// cache, which lives an hour: only an invalidation can drop a copy).
func (e env) shops(t *testing.T) *shop.Service {
	t.Helper()
	l := lock.New(e.b.Redis.Client, e.b.Redis.Prefix)
	t.Cleanup(func() { _ = l.Close() })
	s := shop.New(shop.Config{DB: e.b.DB.Client, Redis: e.b.Redis.Client, Locker: l, Prefix: e.b.Redis.Prefix,
		NearTTL: time.Hour, Registerer: prometheus.NewRegistry(), OutboxInterval: 50 * time.Millisecond})
	if err := s.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

// newShop writes a shop as createShop would (score 0, no reviews); straight
// to MySQL, as createShop is an audited admin action.
func (e env) newShop(t *testing.T, name string) *ent.Shop {
	t.Helper()
	sh, err := e.b.DB.Client.Shop.Create().SetName(name).SetTypeID(1).SetAddress("here").SetX(120).SetY(30).Save(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	return sh
}

func (e env) reviews(shops *shop.Service) *review.Service {
	return review.New(review.Config{DB: e.b.DB.Client, Shops: shops})
}

// want is the score and count the ratings must give on top of a shop's
// demo numbers: (score × comments + 10 × stars) / (comments + n), in
// tenths, rounded half up.
func want(score, comments int, stars []int) (int, int) {
	total, n := score*comments, comments+len(stars)
	for _, s := range stars {
		total += 10 * s
	}
	if n == 0 {
		return 0, 0
	}
	return (2*total + n) / (2 * n), n
}

// 50 goroutines rate one shop at once, 20 of them changing an earlier
// rating and 30 rating it anew: the shop's score and review count are
// exactly the arithmetic of the final ratings on the demo numbers, the
// aggregate row agrees with the rating rows, and both instances read the
// new numbers through their caches (one at once, the other once told).
func TestConcurrentRatingsAddUpExactly(t *testing.T) {
	t.Parallel()
	forEach(t, func(t *testing.T, e env) {
		ctx := t.Context()
		a, b := e.shops(t), e.shops(t)
		reviews := e.reviews(a)
		const shopID = 1
		before, err := e.b.DB.Client.Shop.Get(ctx, shopID)
		if err != nil {
			t.Fatal(err)
		}
		// Both instances hold the shop in their near caches (an hour).
		for _, s := range []*shop.Service{a, b} {
			if sh, err := s.Get(ctx, shopID); err != nil || sh.Score != before.Score {
				t.Fatalf("warm read: %+v, %v", sh, err)
			}
		}

		final := map[int64]int{}
		for u := int64(1); u <= 20; u++ { // earlier ratings, one by one
			stars := int(u%5) + 1
			if _, err := reviews.Rate(ctx, 1000+u, shopID, stars); err != nil {
				t.Fatal(err)
			}
			final[1000+u] = stars
		}
		var wg sync.WaitGroup
		errs := make(chan error, 50)
		var mu sync.Mutex
		for i := range 50 {
			user := int64(1001 + i) // 1001..1020 change theirs, 1021..1050 are new
			stars := (i*3)%5 + 1
			wg.Go(func() {
				if _, err := reviews.Rate(ctx, user, shopID, stars); err != nil {
					errs <- fmt.Errorf("user %d: %w", user, err)
					return
				}
				mu.Lock()
				final[user] = stars
				mu.Unlock()
			})
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Fatal(err)
		}
		stars := make([]int, 0, len(final))
		for _, s := range final {
			stars = append(stars, s)
		}
		wantScore, wantCount := want(before.Score, before.Comments, stars)

		after, err := e.b.DB.Client.Shop.Get(ctx, shopID)
		if err != nil {
			t.Fatal(err)
		}
		if after.Score != wantScore || after.Comments != wantCount {
			t.Fatalf("tb_shop: score %d comments %d, want %d and %d (from %d, %d and %d ratings)",
				after.Score, after.Comments, wantScore, wantCount, before.Score, before.Comments, len(stars))
		}
		var rows []struct {
			Count int `json:"count"`
			Sum   int `json:"sum"`
		}
		if err := e.b.DB.Client.ShopRating.Query().Where(entrating.ShopID(shopID)).
			Aggregate(ent.Count(), ent.Sum(entrating.FieldStars)).Scan(ctx, &rows); err != nil {
			t.Fatal(err)
		}
		agg, err := e.b.DB.Client.ShopScore.Get(ctx, shopID)
		if err != nil {
			t.Fatal(err)
		}
		if len(rows) != 1 || rows[0].Count != 50 || int64(rows[0].Sum) != agg.StarsSum || agg.Ratings != 50 ||
			agg.BaseCount != before.Comments || agg.BaseSum != int64(before.Score*before.Comments) {
			t.Fatalf("aggregate %+v, rows %+v", agg, rows)
		}

		// The writing instance reads the new numbers at once, the other as
		// soon as the invalidation reaches it (an hour-long near cache).
		sh, err := a.Get(ctx, shopID)
		if err != nil {
			t.Fatal(err)
		}
		if sh.Score != wantScore || sh.Comments != wantCount {
			t.Fatalf("instance a reads score %d comments %d, want %d and %d", sh.Score, sh.Comments, wantScore, wantCount)
		}
		testenv.Eventually(t, 10*time.Second, "instance b reads the new score", func() bool {
			sh, err := b.Get(ctx, shopID)
			return err == nil && sh.Score == wantScore && sh.Comments == wantCount
		})
	})
}

// Stars outside 1..5 name the field; no shop is NOT_FOUND; the same
// stars twice count once; a changed rating moves the score, not the count.
func TestRateChecksAndChanges(t *testing.T) {
	t.Parallel()
	forEach(t, func(t *testing.T, e env) {
		ctx := t.Context()
		reviews := e.reviews(e.shops(t))
		for _, stars := range []int{0, 6, -1} {
			_, err := reviews.Rate(ctx, 7, 1, stars)
			if ae, ok := apperr.As(err); !ok || ae.Code != apperr.BadUserInput || ae.Field != "stars" {
				t.Fatalf("stars %d: %v, want BAD_USER_INPUT on stars", stars, err)
			}
		}
		for _, id := range []int64{0, 424242} {
			if _, err := reviews.Rate(ctx, 7, id, 3); !errors.Is(err, apperr.New(apperr.NotFound, "")) {
				t.Fatalf("shop %d: %v, want NOT_FOUND", id, err)
			}
		}
		const shopID = 2
		before, err := e.b.DB.Client.Shop.Get(ctx, shopID)
		if err != nil {
			t.Fatal(err)
		}
		for range 2 {
			sh, err := reviews.Rate(ctx, 7, shopID, 1)
			if err != nil {
				t.Fatal(err)
			}
			if s, n := want(before.Score, before.Comments, []int{1}); sh.Score != s || sh.Comments != n {
				t.Fatalf("after one 1-star rating: %d/%d, want %d/%d", sh.Score, sh.Comments, s, n)
			}
		}
		sh, err := reviews.Rate(ctx, 7, shopID, 5)
		if err != nil {
			t.Fatal(err)
		}
		if s, n := want(before.Score, before.Comments, []int{5}); sh.Score != s || sh.Comments != n {
			t.Fatalf("after the change to 5: %d/%d, want %d/%d", sh.Score, sh.Comments, s, n)
		}
	})
}

// A shop created by the API (score 0, no reviews) gets exactly the mean of
// its ratings.
func TestScoreOfAShopWithoutDemoNumbers(t *testing.T) {
	t.Parallel()
	forEach(t, func(t *testing.T, e env) {
		ctx := t.Context()
		reviews := e.reviews(e.shops(t))
		sh := e.newShop(t, "New")
		var err error
		for u, stars := range []int{5, 4, 4} {
			if sh, err = reviews.Rate(ctx, int64(u+1), sh.ID, stars); err != nil {
				t.Fatal(err)
			}
		}
		if sh.Score != 43 || sh.Comments != 3 { // 13 / 3 = 4.33
			t.Fatalf("score %d comments %d, want 43 and 3", sh.Score, sh.Comments)
		}
	})
}

type ownAll struct{}

func (ownAll) Owns(string) bool { return true }

// A post with stars rates its shop in the post's transaction; invalid
// stars name input.stars and write nothing. The reviews list the posts of
// authors who rated the shop, with their current stars, newest, highest and
// lowest first, page by page.
func TestPostsWithStarsAndReviewOrder(t *testing.T) {
	t.Parallel()
	forEach(t, func(t *testing.T, e env) {
		ctx := t.Context()
		shops := e.shops(t)
		reviews := e.reviews(shops)
		blogs := blog.New(blog.Config{DB: e.b.DB.Client, Images: ownAll{}, Ratings: reviews})
		sh := e.newShop(t, "Reviewed")
		post := func(user int64, stars *int, shopID *int64) (*ent.Blog, error) {
			return blogs.Create(ctx, user, blog.Input{Title: "t", Content: "c", ShopID: shopID, Stars: stars})
		}
		id := sh.ID
		blogsBefore := countBlogs(t, e)
		for _, tc := range []struct {
			stars  int
			shopID *int64
		}{{0, &id}, {6, &id}, {3, nil}} {
			if _, err := post(1, &tc.stars, tc.shopID); !isField(err, "input.stars") {
				t.Fatalf("stars %d shop %v: %v, want BAD_USER_INPUT on input.stars", tc.stars, tc.shopID, err)
			}
		}
		if n := countBlogs(t, e); n != blogsBefore {
			t.Fatalf("%d blogs after refused posts, %d before", n, blogsBefore)
		}

		// Users 1..4 post with stars 4, 2, 5, 2 (in that order); user 5 posts
		// without rating (no review); user 1 posts again without stars (a
		// review: the author rated the shop).
		var ids []int64
		for u, stars := range []int{4, 2, 5, 2} {
			b, err := post(int64(u+1), &stars, &id)
			if err != nil {
				t.Fatal(err)
			}
			ids = append(ids, b.ID)
		}
		if _, err := post(5, nil, &id); err != nil {
			t.Fatal(err)
		}
		again, err := post(1, nil, &id)
		if err != nil {
			t.Fatal(err)
		}
		got, err := e.b.DB.Client.Shop.Get(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if got.Score != 33 || got.Comments != 4 { // 13 / 4 = 3.25
			t.Fatalf("score %d comments %d, want 33 and 4", got.Score, got.Comments)
		}

		type item struct {
			post  int64
			stars int
		}
		list := func(order review.Order) []item {
			var all []item
			var after *string
			for {
				first := 2
				p, err := reviews.ByShop(ctx, id, order, &first, after)
				if err != nil {
					t.Fatal(err)
				}
				for _, e := range p.Edges {
					if e.Node.ID != e.Node.Blog.ID {
						t.Fatalf("review %d shows post %d", e.Node.ID, e.Node.Blog.ID)
					}
					all = append(all, item{e.Node.ID, e.Node.Stars})
				}
				if !p.Info.HasNextPage {
					return all
				}
				c := p.Info.EndCursor.String()
				after = &c
			}
		}
		check := func(order review.Order, want []item) {
			t.Helper()
			if got := list(order); fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("%s: %v, want %v", order, got, want)
			}
		}
		p1, p2, p3, p4, p1b := ids[0], ids[1], ids[2], ids[3], again.ID
		check(review.Newest, []item{{p1b, 4}, {p4, 2}, {p3, 5}, {p2, 2}, {p1, 4}})
		check(review.Highest, []item{{p3, 5}, {p1b, 4}, {p1, 4}, {p4, 2}, {p2, 2}})
		check(review.Lowest, []item{{p4, 2}, {p2, 2}, {p1b, 4}, {p1, 4}, {p3, 5}})

		// User 1 changes to 1 star: both posts show it, and move.
		if _, err := reviews.Rate(ctx, 1, id, 1); err != nil {
			t.Fatal(err)
		}
		check(review.Lowest, []item{{p1b, 1}, {p1, 1}, {p4, 2}, {p2, 2}, {p3, 5}})
		check(review.Highest, []item{{p3, 5}, {p4, 2}, {p2, 2}, {p1b, 1}, {p1, 1}})

		// Another shop's reviews are its own; a bad cursor names after.
		if p, err := reviews.ByShop(ctx, 424242, review.Newest, nil, nil); err != nil || len(p.Edges) != 0 {
			t.Fatalf("no such shop: %+v, %v", p, err)
		}
		bad := "!!"
		if _, err := reviews.ByShop(ctx, id, review.Highest, nil, &bad); !isField(err, "after") {
			t.Fatalf("bad cursor: %v", err)
		}
	})
}

func isField(err error, field string) bool {
	ae, ok := apperr.As(err)
	return ok && ae.Code == apperr.BadUserInput && ae.Field == field
}

func countBlogs(t *testing.T, e env) int {
	t.Helper()
	n, err := e.b.DB.Client.Blog.Query().Count(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// The order enum reads and writes its GraphQL names.
func TestOrderNames(t *testing.T) {
	for _, o := range []review.Order{review.Newest, review.Highest, review.Lowest} {
		var b strings.Builder
		o.MarshalGQL(&b)
		var back review.Order
		if err := back.UnmarshalGQL(strings.Trim(b.String(), `"`)); err != nil || back != o {
			t.Fatalf("%v: wrote %s, read %v (%v)", o, b.String(), back, err)
		}
	}
	var o review.Order
	if err := o.UnmarshalGQL("BEST"); err == nil {
		t.Fatal("BEST read as an order")
	}
}
