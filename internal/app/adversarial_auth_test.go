package app

// Attacks on logins and profiles by an anonymous client or by one logged-in
// user: each is run against the whole server and its bounds are
// asserted, on the embedded and the real back ends.

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"
)

// authClientAt sends GraphQL requests to ts as a client at peer
// ("host:port"), with token when not empty: the per-address limits key on it.
func (ts *testServer) authClientAt(peer string) func(token, query string, vars map[string]any) gqlResponse {
	client := &http.Client{Transport: handlerTransport{h: ts.app.Handler(), remoteAddr: peer}}
	return func(token, query string, vars map[string]any) gqlResponse {
		ts.t.Helper()
		req := gqlRequest(ts.t, ts.URL, query, vars)
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		return ts.sendWith(client, req)
	}
}

// An address that has used its codes quota keeps calling sendCode(victim),
// every minute for 12 minutes, spending each minute's refilled quota on
// other phones first: every call for the victim is refused by the address's
// limit and counts against nothing of the victim's, who then gets a code and
// logs in from another address. (Before the fix every refused call still
// counted against the victim's phone: after the attack the victim was
// refused, RATE_LIMITED "codes for this phone today", for hours.)
func TestAdversarialSendCodeBlockedAddressSpendsNoPhoneQuota(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, backend string) {
		ts := startServer(t, backend)
		const victim = "13600000051"
		attacker := ts.authClientAt("203.0.113.66:5000")
		fresh := 0
		spendAddress := func() (sent int) {
			t.Helper()
			for ; ; sent++ {
				fresh++
				r := attacker("", sendCodeMutation, map[string]any{"p": fmt.Sprintf("137%08d", fresh)})
				if r.code() == "RATE_LIMITED" {
					return sent
				}
				if len(r.Errors) > 0 || sent > 30 {
					t.Fatalf("spending the address's quota, call %d: %+v", sent, r.Errors)
				}
			}
		}
		if sent := spendAddress(); sent != 30 {
			t.Fatalf("the address sent %d codes before its limit, want 30", sent)
		}
		refused := 0
		for round := range 12 {
			if round > 0 {
				ts.advance(61 * time.Second)
				spendAddress()
			}
			for range 3 {
				r := attacker("", sendCodeMutation, map[string]any{"p": victim})
				if r.code() != "RATE_LIMITED" || !strings.Contains(r.Errors[0].Message, "from this address") {
					t.Fatalf("round %d: sendCode(victim) from the spent address: want RATE_LIMITED by the address's limit, got %+v", round, r.Errors)
				}
				refused++
			}
		}
		if ts.sms.code(victim) != "" {
			t.Fatal("a code reached the victim during the attack")
		}

		// The victim, elsewhere, gets a code at once and logs in.
		home := ts.authClientAt("198.51.100.20:6000")
		if r := home("", sendCodeMutation, map[string]any{"p": victim}); len(r.Errors) > 0 {
			t.Fatalf("after %d refused calls for the victim: the victim's sendCode: %+v", refused, r.Errors)
		}
		r := home("", loginMutation, map[string]any{"p": victim, "c": ts.sms.code(victim)})
		if len(r.Errors) > 0 {
			t.Fatalf("the victim's login: %+v", r.Errors)
		}
		// And still has the whole day's quota but that one code.
		for i := 1; i < 10; i++ {
			ts.advance(61 * time.Second)
			if r := home("", sendCodeMutation, map[string]any{"p": victim}); len(r.Errors) > 0 {
				t.Fatalf("the victim's code %d of 10 today: %+v", i+1, r.Errors)
			}
		}
		ts.advance(61 * time.Second)
		if r := home("", sendCodeMutation, map[string]any{"p": victim}); r.code() != "RATE_LIMITED" || !strings.Contains(r.Errors[0].Message, "today") {
			t.Fatalf("the victim's 11th code today: want RATE_LIMITED by the phone's daily limit, got %+v", r.Errors)
		}
	})
}

// A stolen session cannot set the account's first password: without a
// fresh login code sent to the owner's phone the change is refused
// (BAD_USER_INPUT on input.code) and the owner's sessions stay. (Before the
// fix the session alone set it: the thief could then log in with it, and
// the owner's other sessions were ended.)
func TestAdversarialStolenSessionCannotSetFirstPassword(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, backend string) {
		ts := startServer(t, backend)
		const phone = "13600000052"
		owner := ts.login(phone)
		ts.advance(61 * time.Second) // the gap between two codes for one phone
		stolen := ts.login(phone)    // another session of the owner's, in the thief's hands
		for _, in := range []map[string]any{
			{"password": "thief's horse"},
			{"password": "thief's horse", "currentPassword": "anything at all"},
			{"password": "thief's horse", "code": "12345x"},
			{"password": "thief's horse", "code": "123456"}, // no code was sent: none is valid
		} {
			wantInputError(t, ts.do(stolen, setPassword, map[string]any{"in": in}), "input.code")
		}
		if !ts.isLoggedIn(owner) {
			t.Fatal("the owner was logged out by a refused first password")
		}
		wantInputError(t, ts.do("", passwordLogin, map[string]any{"p": phone, "pw": "thief's horse"}), "password")

		// A code sent to the phone, wrongly guessed: refused too.
		ts.freshCode(phone)
		guess := "000000"
		if ts.sms.code(phone) == guess {
			guess = "000001"
		}
		wantInputError(t, ts.do(stolen, setPassword, map[string]any{"in": map[string]any{"password": "thief's horse", "code": guess}}), "input.code")

		// The owner, with the code the phone received, sets it; the code is
		// then used up.
		code := ts.sms.code(phone)
		ts.ok(owner, setPassword, map[string]any{"in": map[string]any{"password": "owner's horse", "code": code}}, nil)
		wantInputError(t, ts.do(owner, setPassword, map[string]any{"in": map[string]any{"password": "owner's new horse", "code": code}}), "input.code")
		if ts.isLoggedIn(stolen) || !ts.isLoggedIn(owner) {
			t.Fatal("setting the first password did not end the other session only")
		}
		ts.ok("", passwordLogin, map[string]any{"p": phone, "pw": "owner's horse"}, nil)
	})
}

// A nickname with a right-to-left override (or another invisible format
// character) is refused, naming input.nickName, and the stored nickname
// stays. (Before the fix "\u202Egnp.exe" was stored and shown reversed.)
func TestAdversarialNickNameBidiOverride(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, backend string) {
		ts := startServer(t, backend)
		token := ts.login("13600000053")
		const update = `mutation($in: UpdateProfileInput!) { updateProfile(input: $in) { nickName } }`
		ts.ok(token, update, map[string]any{"in": map[string]any{"nickName": "小明👩‍💻"}}, nil)
		for _, nick := range []string{"admin\u202Egnp.exe", "\u2067admin\u2069", "ad\u200Bmin", "\u200Fadmin", "a\uFEFFb"} {
			e := ts.fails(token, update, map[string]any{"in": map[string]any{"nickName": nick}}, "BAD_USER_INPUT")
			if e.Extensions["field"] != "input.nickName" || !strings.Contains(e.Message, "U+") {
				t.Fatalf("%+q: %+v", nick, e)
			}
		}
		var me struct{ Me struct{ NickName string } }
		ts.ok(token, meQuery, nil, &me)
		if me.Me.NickName != "小明👩‍💻" {
			t.Fatalf("nickname now %+q", me.Me.NickName)
		}
	})
}

// Nobody but its user reads a profile's city, gender and birthday: not an
// anonymous client walking the sequential ids with user(id), not another
// user, not through a blog's author; the user does, through me and
// user(id). Introduce, credits and level stay public. (Before the fix every
// client read all three private fields of every user.)
func TestAdversarialProfilePrivateFields(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, backend string) {
		ts := startServer(t, backend)
		owner := ts.login("13600000054")
		other := ts.login("13600000055")
		ts.ok(owner, `mutation { updateProfile(input: {city: "杭州", gender: 1, birthday: "1990-05-17", introduce: "爱吃"}) { id } }`, nil, nil)
		id := ts.userID(owner)
		blog := ts.newBlog(owner, "hotpot")
		const info = `info { city gender birthday introduce credits level }`
		type infoJSON struct {
			City, Birthday *string
			Gender         *int
			Introduce      *string
			Credits, Level int
		}
		read := func(token, query string, vars map[string]any) []infoJSON {
			t.Helper()
			var out struct {
				Me   *struct{ Info *infoJSON }
				User *struct{ Info *infoJSON }
				Blog *struct{ Author struct{ Info *infoJSON } }
			}
			ts.ok(token, query, vars, &out)
			var got []infoJSON
			if out.Me != nil && out.Me.Info != nil {
				got = append(got, *out.Me.Info)
			}
			if out.User != nil && out.User.Info != nil {
				got = append(got, *out.User.Info)
			}
			if out.Blog != nil && out.Blog.Author.Info != nil {
				got = append(got, *out.Blog.Author.Info)
			}
			return got
		}
		byID := `query($id: ID!, $b: ID!) { user(id: $id) { ` + info + ` } blog(id: $b) { author { ` + info + ` } } }`
		vars := map[string]any{"id": id, "b": blog}
		for who, token := range map[string]string{"anonymous": "", "another user": other} {
			got := read(token, byID, vars)
			if len(got) != 2 {
				t.Fatalf("%s: %d profiles read, want 2", who, len(got))
			}
			for _, i := range got {
				if i.City != nil || i.Gender != nil || i.Birthday != nil {
					t.Fatalf("%s read a private field: city %v gender %v birthday %v", who, i.City, i.Gender, i.Birthday)
				}
				if i.Introduce == nil || *i.Introduce != "爱吃" {
					t.Fatalf("%s: the public introduce is %v", who, i.Introduce)
				}
			}
		}
		// Walking ids 1..20 anonymously yields no private field at all.
		for n := 1; n <= 20; n++ {
			for _, i := range read("", `query($id: ID!) { user(id: $id) { `+info+` } }`, map[string]any{"id": fmt.Sprint(n)}) {
				if i.City != nil || i.Gender != nil || i.Birthday != nil {
					t.Fatalf("user %d: a private field read anonymously", n)
				}
			}
		}
		// The user reads them everywhere.
		got := append(read(owner, byID, vars), read(owner, `{ me { `+info+` } }`, nil)...)
		if len(got) != 3 {
			t.Fatalf("the owner read %d profiles, want 3", len(got))
		}
		for _, i := range got {
			if i.City == nil || *i.City != "杭州" || i.Gender == nil || *i.Gender != 1 || i.Birthday == nil || *i.Birthday != "1990-05-17" {
				t.Fatalf("the owner's own profile: %+v", i)
			}
		}
	})
}

// Wrong login codes are limited per address, checked before a guess reaches
// the code: one address guessing at a victim's codes voids at most two of
// them (5 wrong guesses void a code; the address may send 10 wrong ones in
// 15 minutes), then its guesses are refused without touching the victim's
// code, and the victim logs in. (Before the fix the address voided every
// code the victim was sent, for as long as it kept guessing.)
func TestAdversarialCodeGuessesCannotLockOut(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, backend string) {
		ts := startServer(t, backend)
		const victim = "13600000052"
		attacker := ts.authClientAt("203.0.113.67:5000")
		home := ts.authClientAt("198.51.100.21:6000")
		wrong := func(code string) string {
			if code == "000000" {
				return "000001"
			}
			return "000000"
		}
		for round := range 3 {
			if round > 0 {
				ts.advance(61 * time.Second) // the phone's gap between codes
			}
			if r := home("", sendCodeMutation, map[string]any{"p": victim}); len(r.Errors) > 0 {
				t.Fatalf("round %d: the victim's sendCode: %+v", round, r.Errors)
			}
			code := ts.sms.code(victim)
			for guess := range 5 {
				r := attacker("", loginMutation, map[string]any{"p": victim, "c": wrong(code)})
				want := "BAD_USER_INPUT"
				if round == 2 {
					want = "RATE_LIMITED" // the address's 10 wrong codes are spent
				}
				if r.code() != want {
					t.Fatalf("round %d, guess %d: want %s, got %+v", round, guess, want, r.Errors)
				}
			}
			r := home("", loginMutation, map[string]any{"p": victim, "c": code})
			if round < 2 && r.code() != "BAD_USER_INPUT" {
				t.Fatalf("round %d: the code survived 5 wrong guesses: %+v", round, r.Errors)
			}
			if round == 2 && len(r.Errors) > 0 {
				t.Fatalf("the victim's third code, after the attacker's address was spent: %+v", r.Errors)
			}
		}
		// The address's budget comes back after its window (real Redis's
		// TTLs cannot be moved on: the window is ended instead).
		ts.advance(16 * time.Minute)
		if ts.app.miniRedis == nil {
			ts.redis().Del(t.Context(), ts.app.cfg.RedisPrefix+"rl:fail:code:ip:203.0.113.67")
		}
		if r := attacker("", loginMutation, map[string]any{"p": victim, "c": "123456"}); r.code() != "BAD_USER_INPUT" {
			t.Fatalf("a guess after the window: %+v", r.Errors)
		}
	})
}
