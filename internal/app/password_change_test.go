package app

import (
	"fmt"
	"testing"
	"time"

	"github.com/hmdp/hmdp/internal/config"
)

const setPassword = `mutation($in: UpdateProfileInput!) { updateProfile(input: $in) { id } }`

// wantInputError fails unless r is BAD_USER_INPUT on field.
func wantInputError(t *testing.T, r gqlResponse, field string) {
	t.Helper()
	if r.code() != "BAD_USER_INPUT" || r.Errors[0].Extensions["field"] != field {
		t.Fatalf("want BAD_USER_INPUT on %s, got status %d %+v", field, r.Status, r.Errors)
	}
}

// freshCode lets the per-phone gap between codes pass, sends phone a login
// code and returns it.
func (ts *testServer) freshCode(phone string) string {
	ts.t.Helper()
	ts.advance(61 * time.Second)
	ts.ok("", sendCodeMutation, map[string]any{"p": phone}, nil)
	return ts.sms.code(phone)
}

// setFirstPassword sets the first password of token's user, whose phone is
// phone, with the fresh login code it needs.
func (ts *testServer) setFirstPassword(token, phone, password string) {
	ts.t.Helper()
	ts.ok(token, setPassword, map[string]any{"in": map[string]any{"password": password, "code": ts.freshCode(phone)}}, nil)
}

// isLoggedIn reports whether token is a session on ts (me is not null).
func (ts *testServer) isLoggedIn(token string) bool {
	ts.t.Helper()
	var out struct{ Me *struct{ ID string } }
	ts.ok(token, `{ me { id } }`, nil, &out)
	return out.Me != nil
}

// Setting the first password needs a login code (see
// TestAdversarialStolenSessionCannotSetFirstPassword); changing it needs the
// current password (or a login code), and ends every other session of the
// user on every instance, closing their websockets with 4403, while the
// session that changed it stays.
func TestPasswordChangeNeedsCurrentPasswordAndEndsOtherSessions(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, backend string) {
		a, b := twoInstances(t, backend)
		const phone = "13500000041"
		mine := a.login(phone)
		a.setFirstPassword(mine, phone, "first horse")

		// A second session, by password on the other instance, with a
		// socket on each instance; and a bystander of another user.
		var login struct{ Login struct{ Token string } }
		b.ok("", passwordLogin, map[string]any{"p": phone, "pw": "first horse"}, &login)
		other := login.Login.Token
		bystander := a.login("13500000042")
		var sockets []*wsClient
		for _, s := range []*testServer{a, b} {
			c, err := dialWS(t, s.URL, "graphql-transport-ws", map[string]any{"authorization": "Bearer " + other}, nil)
			if err != nil {
				t.Fatal(err)
			}
			c.subscribe("feed", feedItemsSubscription, nil)
			s.waitSubscriptions("feedItems", 1)
			sockets = append(sockets, c)
		}

		// Without the current password, or with a wrong one: refused,
		// nothing changes.
		wantInputError(t, a.do(mine, setPassword, map[string]any{"in": map[string]any{"password": "second horse"}}), "input.currentPassword")
		wantInputError(t, a.do(mine, setPassword, map[string]any{"in": map[string]any{"password": "second horse", "currentPassword": "wrong horse"}}), "input.currentPassword")
		wantInputError(t, a.do(mine, setPassword, map[string]any{"in": map[string]any{"password": "second horse", "code": "12345x"}}), "input.code")
		wantInputError(t, a.do(mine, setPassword, map[string]any{"in": map[string]any{"password": "second horse", "code": "123456"}}), "input.code")
		wantInputError(t, a.do(mine, setPassword, map[string]any{"in": map[string]any{"nickName": "x", "currentPassword": "first horse"}}), "input.currentPassword")
		if !a.isLoggedIn(other) || !b.isLoggedIn(other) {
			t.Fatal("a refused change ended the other session")
		}

		// With it: changed; the other session ends everywhere, at once.
		a.ok(mine, setPassword, map[string]any{"in": map[string]any{"password": "second horse", "currentPassword": "first horse"}}, nil)
		// The change is done: the sockets close (within milliseconds when the
		// machine is idle; the bound leaves room for a loaded CI machine).
		start := time.Now()
		for _, c := range sockets {
			expectSessionEnded(t, c, "feed", 10*time.Second-time.Since(start))
		}
		t.Logf("other sessions' sockets closed %v after the change", time.Since(start))
		for _, s := range []*testServer{a, b} {
			if s.isLoggedIn(other) {
				t.Fatal("the other session is still logged in after the password change")
			}
			if !s.isLoggedIn(mine) {
				t.Fatal("the session that changed the password was logged out")
			}
			if !s.isLoggedIn(bystander) {
				t.Fatal("another user's session was logged out")
			}
		}
		wantInputError(t, b.do("", passwordLogin, map[string]any{"p": phone, "pw": "first horse"}), "password")
		b.ok("", passwordLogin, map[string]any{"p": phone, "pw": "second horse"}, &login)
		third := login.Login.Token

		// A login code works instead of the current password, once.
		a.ok("", sendCodeMutation, map[string]any{"p": phone}, nil)
		code := a.sms.code(phone)
		a.ok(mine, setPassword, map[string]any{"in": map[string]any{"password": "third horse", "code": code}}, nil)
		wantInputError(t, a.do(mine, setPassword, map[string]any{"in": map[string]any{"password": "fourth horse", "code": code}}), "input.code")
		if b.isLoggedIn(third) {
			t.Fatal("the session made after the first change survived the second")
		}
		b.ok("", passwordLogin, map[string]any{"p": phone, "pw": "third horse"}, nil)
	})
}

// Wrong current passwords spend the wrong-password budget of the phone, as
// wrong passwords at login do.
func TestPasswordChangeWrongCurrentPasswordsAreLimited(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, backend string) {
		ts := startServer(t, backend)
		const phone = "13500000043"
		tok := ts.login(phone)
		ts.setFirstPassword(tok, phone, "first horse")
		for i := range 5 {
			wantInputError(t, ts.do(tok, setPassword, map[string]any{"in": map[string]any{"password": "second horse", "currentPassword": fmt.Sprint("wrong ", i)}}), "input.currentPassword")
		}
		if r := ts.do(tok, setPassword, map[string]any{"in": map[string]any{"password": "second horse", "currentPassword": "first horse"}}); r.code() != "RATE_LIMITED" {
			t.Fatalf("sixth attempt: %+v", r.Errors)
		}
		if r := ts.do("", passwordLogin, map[string]any{"p": phone, "pw": "first horse"}); r.code() != "RATE_LIMITED" {
			t.Fatalf("login after the budget was spent: %+v", r.Errors)
		}
		// A too short new password is refused before the current one is
		// looked at, so it costs nothing.
		wantInputError(t, ts.do(tok, setPassword, map[string]any{"in": map[string]any{"password": "short", "currentPassword": "wrong"}}), "input.password")
	})
}

// The user's list of sessions drops the sessions that ended, and expires.
func TestUserSessionListIsPruned(t *testing.T) {
	t.Parallel()
	ts := startServer(t, "embedded", func(c *config.Config) { c.RateLimits = false })
	const phone = "13500000044"
	first := ts.login(phone)
	ts.ok(first, `mutation { logout }`, nil, nil)
	second := ts.login(phone)
	key := ts.app.cfg.RedisPrefix + "login:user:" + ts.userID(second) + ":sessions"
	if n := ts.redis().SCard(t.Context(), key).Val(); n != 1 {
		t.Fatalf("%d sessions listed after a logout and a login, want 1", n)
	}
	if ttl := ts.redis().PTTL(t.Context(), key).Val(); ttl <= 0 || ttl > 2*ts.app.cfg.SessionTTL {
		t.Fatalf("list's TTL %v", ttl)
	}
}
