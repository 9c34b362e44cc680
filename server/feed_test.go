package main

import (
	"fmt"
	"slices"
	"testing"
)

// feed over GraphQL: newest first, paged by cursor, the same whether the
// author is pushed or (above HMDP_FEED_PUSH_LIMIT) pulled.
func TestFeedOverGraphQL(t *testing.T) {
	forEachBackend(t, func(t *testing.T, backend string) {
		ts := startServer(t, backend, func(c *Config) { c.FeedPushLimit = 1 })
		small, big := ts.login("13800000001"), ts.login("13800000002")
		reader, other := ts.login("13800000003"), ts.login("13800000004")
		smallID, bigID := ts.userID(small), ts.userID(big)
		ts.ok(reader, setFollowMutation, map[string]any{"u": smallID, "f": true}, nil)
		ts.ok(reader, setFollowMutation, map[string]any{"u": bigID, "f": true}, nil)
		ts.ok(other, setFollowMutation, map[string]any{"u": bigID, "f": true}, nil) // 2 followers > limit 1: pulled
		var want []string
		for i := range 5 {
			tok := small
			if i%2 == 1 {
				tok = big
			}
			var c struct{ CreateBlog blogJSON }
			ts.ok(tok, createBlogMutation, map[string]any{"in": map[string]any{"title": fmt.Sprint("p", i), "content": "c"}}, &c)
			want = append(want, c.CreateBlog.ID)
		}
		slices.Reverse(want)
		q := `query($after: String) { feed(first: 2, after: $after) { edges { node { id author { id } } } pageInfo { hasNextPage endCursor } } }`
		var got []string
		var after any
		for {
			var out struct {
				Feed struct {
					Edges    []struct{ Node blogJSON }
					PageInfo struct {
						HasNextPage bool
						EndCursor   string
					}
				}
			}
			ts.ok(reader, q, map[string]any{"after": after}, &out)
			for _, e := range out.Feed.Edges {
				got = append(got, e.Node.ID)
			}
			if !out.Feed.PageInfo.HasNextPage {
				break
			}
			after = out.Feed.PageInfo.EndCursor
		}
		if !slices.Equal(got, want) {
			t.Fatalf("feed %v, want %v", got, want)
		}
		ts.fails("", q, nil, "UNAUTHENTICATED")
		ts.fails(reader, `{ feed(first: 51) { edges { cursor } } }`, nil, "BAD_USER_INPUT")
	})
}
