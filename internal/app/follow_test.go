package app

import (
	"testing"

	"github.com/Khan/genqlient/graphql"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/hmdp/hmdp/internal/gqlclient"
)

// userID is the id of the user token is logged in as.
func (ts *testServer) userID(token string) string {
	ts.t.Helper()
	me := must(gqlclient.Me(ts.t.Context(), ts.gql(token)))(ts.t).Me
	if me == nil {
		ts.t.Fatal("me is null: the token is not logged in")
	}
	return me.Id
}

func TestFollows(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, backend string) {
		ctx := t.Context()
		ts := startServer(t, backend)
		ta, tb, tc := ts.login("13800000001"), ts.login("13800000002"), ts.login("13800000003")
		ida, idb, idc := ts.userID(ta), ts.userID(tb), ts.userID(tc)
		anon, a, b := ts.gql(""), ts.gql(ta), ts.gql(tb)
		follow := func(c graphql.Client, id string, f bool) gqlclient.FollowState {
			t.Helper()
			return must(gqlclient.SetFollow(ctx, c, id, f))(t).SetFollow
		}
		follow(a, idb, true)
		got := follow(a, idb, true) // idempotent
		if diff := cmp.Diff(gqlclient.FollowState{Id: idb, FollowerCount: 1, FollowedByMe: true}, got); diff != "" {
			t.Fatalf("a follows b twice (-want +got):\n%s", diff)
		}
		follow(a, idc, true)
		follow(b, idc, true)
		follow(b, ida, true)
		for _, c := range []struct {
			name   string
			client graphql.Client
			user   string
			code   string
		}{
			{"yourself", a, ida, "BAD_USER_INPUT"},
			{"unknown user", a, "987654321", "NOT_FOUND"},
			{"anonymous", anon, idb, "UNAUTHENTICATED"},
		} {
			t.Run(c.name, func(t *testing.T) {
				_, err := gqlclient.SetFollow(ctx, c.client, c.user, true)
				wantCode(t, err, c.code)
			})
		}

		check := func(what string) {
			t.Helper()
			want := []*gqlclient.FollowState{
				{Id: ida, FollowerCount: 1, FolloweeCount: 2, FollowedByMe: true},
				{Id: idc, FollowerCount: 2, FolloweeCount: 0, FollowedByMe: true},
			}
			got := []*gqlclient.FollowState{
				must(gqlclient.UserFollowState(ctx, b, ida))(t).User,
				must(gqlclient.UserFollowState(ctx, b, idc))(t).User,
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Fatalf("%s: a and c as b sees them (-want +got):\n%s", what, diff)
			}
			common := must(gqlclient.CommonFollows(ctx, a, idb))(t).CommonFollows
			if diff := cmp.Diff([]gqlclient.CommonFollowsCommonFollowsUser{{Id: idc}}, common); diff != "" {
				t.Fatalf("%s: common follows of a and b (-want +got):\n%s", what, diff)
			}
		}
		check("live sets")
		testenvDeleteKeys(ts, "follow")
		check("sets rebuilt from MySQL")

		// followers of c, most recent first, one per page.
		var ids []string
		var after *string
		for {
			page := must(gqlclient.Followers(ctx, anon, idc, new(1), after))(t).Followers
			for _, e := range page.Edges {
				ids = append(ids, e.Node.Id)
			}
			if !page.PageInfo.HasNextPage {
				break
			}
			after = page.PageInfo.EndCursor
		}
		if diff := cmp.Diff([]string{idb, ida}, ids); diff != "" {
			t.Fatalf("followers of c (-want +got):\n%s", diff)
		}
		ids = nil
		for _, e := range must(gqlclient.Followees(ctx, anon, ida, nil, nil))(t).Followees.Edges {
			ids = append(ids, e.Node.Id)
		}
		if diff := cmp.Diff([]string{idc, idb}, ids); diff != "" {
			t.Fatalf("followees of a (-want +got):\n%s", diff)
		}

		follow(a, idc, false)
		got = follow(a, idc, false)
		if diff := cmp.Diff(gqlclient.FollowState{Id: idc, FollowerCount: 1, FollowedByMe: false}, got); diff != "" {
			t.Fatalf("after unfollowing twice (-want +got):\n%s", diff)
		}
		if common := must(gqlclient.CommonFollows(ctx, a, idb))(t).CommonFollows; len(common) != 0 {
			t.Fatalf("common follows after unfollowing: %+v", common)
		}
		// Anonymous: the counts, and followedByMe false.
		if diff := cmp.Diff(&gqlclient.FollowState{Id: idb, FollowerCount: 1, FolloweeCount: 2}, must(gqlclient.UserFollowState(ctx, anon, idb))(t).User); diff != "" {
			t.Fatalf("b seen anonymously (-want +got):\n%s", diff)
		}
	})
}

func TestSignInOverGraphQL(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, backend string) {
		ctx := t.Context()
		ts := startServer(t, backend)
		user := ts.gql(ts.login("13800000001"))
		before := must(gqlclient.SignInStatus(ctx, user, nil))(t).SignInStatus
		if diff := cmp.Diff(gqlclient.SignInFields{}, before, cmpopts.EquateEmpty()); diff != "" {
			t.Fatalf("before signing in (-want +got):\n%s", diff)
		}
		must(gqlclient.SignIn(ctx, user))(t)
		after := must(gqlclient.SignIn(ctx, user))(t).SignIn
		today := ts.now().Day()
		if diff := cmp.Diff(gqlclient.SignInFields{SignedToday: true, Streak: 1, Days: []int{today}}, after); diff != "" {
			t.Fatalf("after signing in twice (-want +got):\n%s", diff)
		}
		_, err := gqlclient.SignInStatus(ctx, user, new("2026-1"))
		wantCode(t, err, "BAD_USER_INPUT")
		_, err = gqlclient.SignIn(ctx, ts.gql(""))
		wantCode(t, err, "UNAUTHENTICATED")
	})
}
