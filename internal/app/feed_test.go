package app

import (
	"fmt"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hmdp/hmdp/internal/config"
	"github.com/hmdp/hmdp/internal/gqlclient"
)

// feed over GraphQL: newest first, paged by cursor, the same whether the
// author is pushed or (above HMDP_FEED_PUSH_LIMIT) pulled.
func TestFeedOverGraphQL(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, backend string) {
		ctx := t.Context()
		ts := startServer(t, backend, func(c *config.Config) { c.FeedPushLimit = 1 })
		small, big := ts.login("13800000001"), ts.login("13800000002")
		reader := ts.gql(ts.login("13800000003"))
		other := ts.gql(ts.login("13800000004"))
		smallID, bigID := ts.userID(small), ts.userID(big)
		must(gqlclient.SetFollow(ctx, reader, smallID, true))(t)
		must(gqlclient.SetFollow(ctx, reader, bigID, true))(t)
		must(gqlclient.SetFollow(ctx, other, bigID, true))(t) // 2 followers > limit 1: pulled
		type post struct{ ID, Author string }
		var want []post
		for i := range 5 {
			tok, author := small, smallID
			if i%2 == 1 {
				tok, author = big, bigID
			}
			b := must(gqlclient.CreateBlog(ctx, ts.gql(tok), gqlclient.CreateBlogInput{Title: fmt.Sprint("p", i), Content: "c"}))(t).CreateBlog
			want = append(want, post{b.Id, author})
		}
		slices.Reverse(want)
		var got []post
		var after *string
		for {
			page := must(gqlclient.Feed(ctx, reader, new(2), after))(t).Feed
			for _, e := range page.Edges {
				got = append(got, post{e.Node.Id, e.Node.Author.Id})
			}
			if !page.PageInfo.HasNextPage {
				break
			}
			after = page.PageInfo.EndCursor
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("feed (-want +got):\n%s", diff)
		}
		_, err := gqlclient.Feed(ctx, ts.gql(""), new(2), nil)
		wantCode(t, err, "UNAUTHENTICATED")
		_, err = gqlclient.Feed(ctx, reader, new(51), nil)
		wantCode(t, err, "BAD_USER_INPUT")
	})
}
