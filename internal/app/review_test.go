package app

import (
	"testing"
	"time"

	"github.com/hmdp/hmdp/internal/config"
	"github.com/hmdp/hmdp/internal/gqlclient"
	"github.com/hmdp/hmdp/internal/testenv"
)

// wantScore is a shop's score and review count after ratings of stars on
// top of its numbers before (score × count, in tenths, rounded half up).
func wantScore(score, count int, stars ...int) (int, int) {
	total := score * count
	for _, s := range stars {
		total += 10 * s
	}
	n := count + len(stars)
	return (2*total + n) / (2 * n), n
}

// rateShop and createBlog's stars through GraphQL: anonymous callers are
// refused, bad stars name their field and change nothing, and a rating is
// read at once by the next anonymous shop(id), which the response cache and
// an hour-long near cache had kept; reviewsByShop lists the post with its
// stars.
func TestRatingsThroughGraphQL(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, backend string) {
		ctx := t.Context()
		ts := startServer(t, backend, func(c *config.Config) { c.NearCacheTTL = time.Hour })
		anon := ts.gql("")
		before := must(gqlclient.ShopScore(ctx, anon, "1"))(t).Shop
		if again := must(gqlclient.ShopScore(ctx, anon, "1"))(t).Shop; *again != *before {
			t.Fatalf("second read %+v, first %+v", again, before)
		}
		if hit, _, _ := cacheCounts(t, ts); hit != 1 {
			t.Fatalf("%v response cache hits, want 1: the test must read through it", hit)
		}

		_, err := gqlclient.RateShop(ctx, anon, "1", 4)
		wantCode(t, err, "UNAUTHENTICATED")
		user := ts.gql(ts.login("13800000101"))
		for _, stars := range []int{0, 6} {
			_, err := gqlclient.RateShop(ctx, user, "1", stars)
			wantField(t, err, "stars")
			_, err = gqlclient.CreateBlog(ctx, user, gqlclient.CreateBlogInput{Title: "t", Content: "c", ShopId: new("1"), Stars: new(stars)})
			wantField(t, err, "input.stars")
		}
		_, err = gqlclient.CreateBlog(ctx, user, gqlclient.CreateBlogInput{Title: "t", Content: "c", Stars: new(4)})
		wantField(t, err, "input.stars")
		_, err = gqlclient.RateShop(ctx, user, "424242", 3)
		wantCode(t, err, "NOT_FOUND")
		if got := must(gqlclient.ShopScore(ctx, anon, "1"))(t).Shop; *got != *before {
			t.Fatalf("after refused ratings %+v, before %+v", got, before)
		}

		post := must(gqlclient.CreateBlog(ctx, user, gqlclient.CreateBlogInput{
			Title: "四星", Content: "好吃", ShopId: new("1"), Stars: new(4)}))(t).CreateBlog
		score, count := wantScore(before.Score, before.Comments, 4)
		if got := must(gqlclient.ShopScore(ctx, anon, "1"))(t).Shop; got.Score != score || got.Comments != count {
			t.Fatalf("after a 4-star post: score %d comments %d, want %d and %d", got.Score, got.Comments, score, count)
		}

		other := ts.gql(ts.login("13800000102"))
		rated := must(gqlclient.RateShop(ctx, other, "1", 2))(t).RateShop
		score, count = wantScore(before.Score, before.Comments, 4, 2)
		if rated.Score != score || rated.Comments != count {
			t.Fatalf("rateShop answers score %d comments %d, want %d and %d", rated.Score, rated.Comments, score, count)
		}
		// The author changes the rating on its own: the count stays.
		must(gqlclient.RateShop(ctx, user, "1", 5))(t)
		score, count = wantScore(before.Score, before.Comments, 5, 2)
		if got := must(gqlclient.ShopScore(ctx, anon, "1"))(t).Shop; got.Score != score || got.Comments != count {
			t.Fatalf("after the change: score %d comments %d, want %d and %d", got.Score, got.Comments, score, count)
		}

		// other rated without a post: only the author's post is a review,
		// with the author's stars as they are now.
		page := must(gqlclient.ReviewsByShop(ctx, anon, "1", gqlclient.ReviewOrderHighest, nil, nil))(t).ReviewsByShop
		if len(page.Edges) != 1 || page.Edges[0].Node.Id != post.Id || page.Edges[0].Node.Stars != 5 ||
			page.Edges[0].Node.Blog.Author.Id != post.Author.Id {
			t.Fatalf("reviews %+v, want post %s with 5 stars", page.Edges, post.Id)
		}
	})
}

// Two instances with hour-long near caches: a rating on one is read on the
// other as soon as the invalidation reaches it.
func TestRatingSeenOnAnotherInstance(t *testing.T) {
	t.Parallel()
	if testenv.RealMySQLDSN() == "" || testenv.RealRedisAddr() == "" {
		t.Skip("two instances share back ends only when they are real")
	}
	ctx := t.Context()
	cfg := testConfig(t, "real")
	cfg.NearCacheTTL = time.Hour
	a, b := startServerWith(t, "real", cfg), startServerWith(t, "real", cfg)
	anonB := b.gql("")
	before := must(gqlclient.ShopScore(ctx, anonB, "3"))(t).Shop
	must(gqlclient.RateShop(ctx, a.gql(a.login("13800000103")), "3", 1))(t)
	score, count := wantScore(before.Score, before.Comments, 1)
	testenv.Eventually(t, 10*time.Second, "b reads the new score", func() bool {
		got := must(gqlclient.ShopScore(ctx, anonB, "3"))(t).Shop
		return got.Score == score && got.Comments == count
	})
}
