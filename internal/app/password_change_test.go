package app

import (
	"fmt"
	"testing"
	"time"

	"github.com/hmdp/hmdp/internal/config"
	"github.com/hmdp/hmdp/internal/gqlclient"
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
		ctx := t.Context()
		a, b := twoInstances(t, backend)
		const phone = "13500000041"
		mine := a.login(phone)
		a.setFirstPassword(mine, phone, "first horse")
		asMine, anonA, anonB := a.gql(mine), a.gql(""), b.gql("")
		update := func(in gqlclient.UpdateProfileInput) error {
			return errOf(gqlclient.UpdateProfile(ctx, asMine, in))
		}
		loginB := func(pw string) (*gqlclient.LoginResponse, error) {
			return gqlclient.Login(ctx, anonB, phone, nil, &pw)
		}

		// A second session, by password on the other instance, with a
		// socket on each instance; and a bystander of another user.
		other := must(loginB("first horse"))(t).Login.Token
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
		wantField(t, update(gqlclient.UpdateProfileInput{Password: new("second horse")}), "input.currentPassword")
		wantField(t, update(gqlclient.UpdateProfileInput{Password: new("second horse"), CurrentPassword: new("wrong horse")}), "input.currentPassword")
		wantField(t, update(gqlclient.UpdateProfileInput{Password: new("second horse"), Code: new("12345x")}), "input.code")
		wantField(t, update(gqlclient.UpdateProfileInput{Password: new("second horse"), Code: new("123456")}), "input.code")
		wantField(t, update(gqlclient.UpdateProfileInput{NickName: new("x"), CurrentPassword: new("first horse")}), "input.currentPassword")
		if !a.isLoggedIn(other) || !b.isLoggedIn(other) {
			t.Fatal("a refused change ended the other session")
		}

		// With it: changed; the other session ends everywhere, at once.
		must(gqlclient.UpdateProfile(ctx, asMine, gqlclient.UpdateProfileInput{Password: new("second horse"), CurrentPassword: new("first horse")}))(t)
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
		wantField(t, errOf(loginB("first horse")), "password")
		third := must(loginB("second horse"))(t).Login.Token

		// A login code works instead of the current password, once.
		must(gqlclient.SendCode(ctx, anonA, phone))(t)
		code := a.sms.code(phone)
		must(gqlclient.UpdateProfile(ctx, asMine, gqlclient.UpdateProfileInput{Password: new("third horse"), Code: &code}))(t)
		wantField(t, update(gqlclient.UpdateProfileInput{Password: new("fourth horse"), Code: &code}), "input.code")
		if b.isLoggedIn(third) {
			t.Fatal("the session made after the first change survived the second")
		}
		must(loginB("third horse"))(t)
	})
}

// Wrong current passwords spend the wrong-password budget of the phone, as
// wrong passwords at login do.
func TestPasswordChangeWrongCurrentPasswordsAreLimited(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, backend string) {
		ctx := t.Context()
		ts := startServer(t, backend)
		const phone = "13500000043"
		tok := ts.login(phone)
		ts.setFirstPassword(tok, phone, "first horse")
		c := ts.gql(tok)
		update := func(password, current string) error {
			return errOf(gqlclient.UpdateProfile(ctx, c, gqlclient.UpdateProfileInput{Password: &password, CurrentPassword: &current}))
		}
		for i := range 5 {
			wantField(t, update("second horse", fmt.Sprint("wrong ", i)), "input.currentPassword")
		}
		if err := update("second horse", "first horse"); kindOf(err).Code != "RATE_LIMITED" {
			t.Fatalf("sixth attempt: %v", err)
		}
		if _, err := gqlclient.Login(ctx, ts.gql(""), phone, nil, new("first horse")); kindOf(err).Code != "RATE_LIMITED" {
			t.Fatalf("login after the budget was spent: %v", err)
		}
		// A too short new password is refused before the current one is
		// looked at, so it costs nothing.
		wantField(t, update("short", "wrong"), "input.password")
	})
}

// The user's list of sessions drops the sessions that ended, and expires.
func TestUserSessionListIsPruned(t *testing.T) {
	t.Parallel()
	ts := startServer(t, "embedded", func(c *config.Config) { c.RateLimits = false })
	const phone = "13500000044"
	first := ts.login(phone)
	must(gqlclient.Logout(t.Context(), ts.gql(first)))(t)
	second := ts.login(phone)
	key := ts.app.cfg.RedisPrefix + "login:user:" + ts.userID(second) + ":sessions"
	if n := ts.redis().SCard(t.Context(), key).Val(); n != 1 {
		t.Fatalf("%d sessions listed after a logout and a login, want 1", n)
	}
	if ttl := ts.redis().PTTL(t.Context(), key).Val(); ttl <= 0 || ttl > 2*ts.app.cfg.SessionTTL {
		t.Fatalf("list's TTL %v", ttl)
	}
}
