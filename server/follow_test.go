package main

import (
	"testing"
	"time"
)

func (ts *testServer) userID(token string) string {
	ts.t.Helper()
	var me struct{ Me struct{ ID string } }
	ts.ok(token, meQuery, nil, &me)
	return me.Me.ID
}

const setFollowMutation = `mutation($u: ID!, $f: Boolean!) { setFollow(userId: $u, follow: $f) { id followerCount followedByMe } }`

type userJSON struct {
	ID            string `json:"id"`
	FollowerCount int    `json:"followerCount"`
	FolloweeCount int    `json:"followeeCount"`
	FollowedByMe  bool   `json:"followedByMe"`
}

func TestFollows(t *testing.T) {
	forEachBackend(t, func(t *testing.T, backend string) {
		ts := startServer(t, backend)
		a, b, c := ts.login("13800000001"), ts.login("13800000002"), ts.login("13800000003")
		ida, idb, idc := ts.userID(a), ts.userID(b), ts.userID(c)
		follow := func(tok, id string, f bool) userJSON {
			var out struct{ SetFollow userJSON }
			ts.ok(tok, setFollowMutation, map[string]any{"u": id, "f": f}, &out)
			return out.SetFollow
		}
		follow(a, idb, true)
		got := follow(a, idb, true) // idempotent
		if got.ID != idb || got.FollowerCount != 1 || !got.FollowedByMe {
			t.Fatalf("a follows b twice: %+v", got)
		}
		follow(a, idc, true)
		follow(b, idc, true)
		follow(b, ida, true)
		ts.fails(a, setFollowMutation, map[string]any{"u": ida, "f": true}, "BAD_USER_INPUT")
		ts.fails(a, setFollowMutation, map[string]any{"u": "987654321", "f": true}, "NOT_FOUND")
		ts.fails("", setFollowMutation, map[string]any{"u": idb, "f": true}, "UNAUTHENTICATED")

		check := func(what string) {
			t.Helper()
			var out struct {
				A, C userJSON
			}
			ts.ok(b, `query($a: ID!, $c: ID!) { a: user(id: $a) { id followerCount followeeCount followedByMe } c: user(id: $c) { id followerCount followeeCount followedByMe } }`,
				map[string]any{"a": ida, "c": idc}, &out)
			if out.A.FollowerCount != 1 || out.A.FolloweeCount != 2 || !out.A.FollowedByMe ||
				out.C.FollowerCount != 2 || out.C.FolloweeCount != 0 || !out.C.FollowedByMe {
				t.Fatalf("%s: %+v", what, out)
			}
			var common struct{ CommonFollows []struct{ ID string } }
			ts.ok(a, `query($u: ID!) { commonFollows(userId: $u) { id } }`, map[string]any{"u": idb}, &common)
			if len(common.CommonFollows) != 1 || common.CommonFollows[0].ID != idc {
				t.Fatalf("%s: common follows of a and b = %+v, want c", what, common)
			}
		}
		check("live sets")
		testenvDeleteKeys(ts, "follow")
		check("sets rebuilt from MySQL")

		// followers of c, most recent first, one per page.
		var ids []string
		var after any
		for {
			var out struct {
				Followers struct {
					Edges    []struct{ Node struct{ ID string } }
					PageInfo struct {
						HasNextPage bool
						EndCursor   string
					}
				}
			}
			ts.ok("", `query($u: ID!, $after: String) { followers(userId: $u, first: 1, after: $after) { edges { node { id } } pageInfo { hasNextPage endCursor } } }`,
				map[string]any{"u": idc, "after": after}, &out)
			for _, e := range out.Followers.Edges {
				ids = append(ids, e.Node.ID)
			}
			if !out.Followers.PageInfo.HasNextPage {
				break
			}
			after = out.Followers.PageInfo.EndCursor
		}
		if len(ids) != 2 || ids[0] != idb || ids[1] != ida {
			t.Fatalf("followers of c: %v", ids)
		}
		var fe struct {
			Followees struct {
				Edges []struct{ Node struct{ ID string } }
			}
		}
		ts.ok("", `query($u: ID!) { followees(userId: $u) { edges { node { id } } } }`, map[string]any{"u": ida}, &fe)
		if len(fe.Followees.Edges) != 2 {
			t.Fatalf("followees of a: %+v", fe)
		}

		got = follow(a, idc, false)
		got = follow(a, idc, false)
		if got.FollowerCount != 1 || got.FollowedByMe {
			t.Fatalf("after unfollowing twice: %+v", got)
		}
		var common struct{ CommonFollows []struct{ ID string } }
		ts.ok(a, `query($u: ID!) { commonFollows(userId: $u) { id } }`, map[string]any{"u": idb}, &common)
		if len(common.CommonFollows) != 0 {
			t.Fatalf("common after unfollow: %+v", common)
		}
		var anon struct{ User userJSON }
		ts.ok("", `query($u: ID!) { user(id: $u) { followedByMe } }`, map[string]any{"u": idb}, &anon)
		if anon.User.FollowedByMe {
			t.Fatal("anonymous followedByMe true")
		}
	})
}

func TestSignInOverGraphQL(t *testing.T) {
	forEachBackend(t, func(t *testing.T, backend string) {
		ts := startServer(t, backend)
		tok := ts.login("13800000001")
		type status struct {
			SignedToday bool
			Streak      int
			Days        []int
		}
		var before struct{ SignInStatus status }
		ts.ok(tok, `{ signInStatus { signedToday streak days } }`, nil, &before)
		if before.SignInStatus.SignedToday || before.SignInStatus.Streak != 0 || len(before.SignInStatus.Days) != 0 {
			t.Fatalf("before: %+v", before)
		}
		var out struct{ SignIn status }
		ts.ok(tok, `mutation { signIn { signedToday streak days } }`, nil, &out)
		ts.ok(tok, `mutation { signIn { signedToday streak days } }`, nil, &out)
		today := time.Now().Day()
		if !out.SignIn.SignedToday || out.SignIn.Streak != 1 || len(out.SignIn.Days) != 1 || out.SignIn.Days[0] != today {
			t.Fatalf("after signing twice: %+v (today %d)", out.SignIn, today)
		}
		ts.fails(tok, `{ signInStatus(month: "2026-1") { days } }`, nil, "BAD_USER_INPUT")
		ts.fails("", `mutation { signIn { streak } }`, nil, "UNAUTHENTICATED")
	})
}
