package app

import (
	"fmt"
	"testing"
	"time"

	"github.com/Khan/genqlient/graphql"

	"github.com/hmdp/hmdp/internal/config"
	"github.com/hmdp/hmdp/internal/gqlclient"
	"github.com/hmdp/hmdp/internal/ratelimit"
)

// createBlogMutation is the raw createBlog of adversarial_redis_test.go.
const createBlogMutation = `mutation($t: String!) { createBlog(input: {title: $t, content: "c"}) { id } }`

// createBlog allows each user HMDP_BLOG_RATE_LIMIT, then RATE_LIMITED with
// retryAfterMs; invalid input costs nothing; other users are not affected;
// the allowance comes back with time.
func TestCreateBlogRateLimit(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, backend string) {
		ctx := t.Context()
		ts := startServer(t, backend, func(c *config.Config) { c.BlogRateLimit = ratelimit.Limit{Events: 3, Per: time.Hour} })
		a, b := ts.gql(ts.login("13800000001")), ts.gql(ts.login("13800000002"))
		create := func(c graphql.Client, title string) (*gqlclient.CreateBlogResponse, error) {
			return gqlclient.CreateBlog(ctx, c, gqlclient.CreateBlogInput{Title: title, Content: "c"})
		}
		wantCode(t, errOf(create(a, " ")), "BAD_USER_INPUT")
		for i := range 3 {
			must(create(a, fmt.Sprint("t", i)))(t)
		}
		err := errOf(create(a, "t3"))
		wantCode(t, err, "RATE_LIMITED")
		// One every 20 minutes after the burst.
		if ms, _ := gqlErrors(err)[0].Extensions["retryAfterMs"].(float64); ms < 19*60*1000 || ms > 20*60*1000 {
			t.Fatalf("retryAfterMs: %+v", gqlErrors(err)[0])
		}
		must(create(b, "b"))(t)
		ts.advance(20 * time.Minute)
		must(create(a, "t4"))(t)
		wantCode(t, errOf(create(a, "t5")), "RATE_LIMITED")
	})
}
