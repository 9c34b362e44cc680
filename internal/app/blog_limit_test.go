package app

import (
	"fmt"
	"testing"
	"time"

	"github.com/hmdp/hmdp/internal/config"
	"github.com/hmdp/hmdp/internal/ratelimit"
)

const createBlogMutation = `mutation($t: String!) { createBlog(input: {title: $t, content: "c"}) { id } }`

// createBlog allows each user HMDP_BLOG_RATE_LIMIT, then RATE_LIMITED with
// retryAfterMs; invalid input costs nothing; other users are not affected;
// the allowance comes back with time.
func TestCreateBlogRateLimit(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, backend string) {
		ts := startServer(t, backend, func(c *config.Config) { c.BlogRateLimit = ratelimit.Limit{Events: 3, Per: time.Hour} })
		a, b := ts.login("13800000001"), ts.login("13800000002")
		ts.fails(a, createBlogMutation, map[string]any{"t": " "}, "BAD_USER_INPUT")
		for i := range 3 {
			ts.ok(a, createBlogMutation, map[string]any{"t": fmt.Sprint("t", i)}, nil)
		}
		e := ts.fails(a, createBlogMutation, map[string]any{"t": "t3"}, "RATE_LIMITED")
		// One every 20 minutes after the burst.
		if ms, _ := e.Extensions["retryAfterMs"].(float64); ms < 19*60*1000 || ms > 20*60*1000 {
			t.Fatalf("retryAfterMs: %+v", e)
		}
		ts.ok(b, createBlogMutation, map[string]any{"t": "b"}, nil)
		ts.advance(20 * time.Minute)
		ts.ok(a, createBlogMutation, map[string]any{"t": "t4"}, nil)
		ts.fails(a, createBlogMutation, map[string]any{"t": "t5"}, "RATE_LIMITED")
	})
}
