package app

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"regexp"
	"testing"
	"time"

	"github.com/hmdp/hmdp/internal/config"
	"github.com/hmdp/hmdp/internal/testenv"
)

func TestLoginMeLogout(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, backend string) {
		ts := startServer(t, backend)
		const phone = "13812345678"
		ts.ok("", sendCodeMutation, map[string]any{"p": phone}, nil)
		code := ts.sms.code(phone)
		if !regexp.MustCompile(`^\d{6}$`).MatchString(code) {
			t.Fatalf("code %q is not 6 digits", code)
		}
		var out struct {
			Login struct {
				Token string
				User  struct{ ID, NickName string }
			}
		}
		ts.ok("", loginMutation, map[string]any{"p": phone, "c": code}, &out)
		if len(out.Login.Token) != 32 {
			t.Fatalf("token %q is not 128 bits in hex", out.Login.Token)
		}
		if !regexp.MustCompile(`^user_[a-z0-9]{10}$`).MatchString(out.Login.User.NickName) {
			t.Fatalf("new user's nick name %q", out.Login.User.NickName)
		}
		var me struct {
			Me *struct{ ID, NickName string }
		}
		ts.ok(out.Login.Token, meQuery, nil, &me)
		if me.Me == nil || me.Me.ID != out.Login.User.ID {
			t.Fatalf("me = %+v, want user %s", me.Me, out.Login.User.ID)
		}
		// The bare header form of the original app works too.
		req := bareAuthRequest(t, ts, out.Login.Token)
		if r := ts.send(req); string(r.Data) == `{"me":null}` {
			t.Fatal("bare authorization header not accepted")
		}

		var lo struct{ Logout bool }
		ts.ok(out.Login.Token, `mutation { logout }`, nil, &lo)
		if !lo.Logout {
			t.Fatal("logout returned false")
		}
		ts.ok(out.Login.Token, meQuery, nil, &me)
		if me.Me != nil {
			t.Fatalf("me after logout = %+v", me.Me)
		}

		// Logging in again with a new code finds the same user.
		ts.advance(time.Minute)
		token := ts.login(phone)
		ts.ok(token, meQuery, nil, &me)
		if me.Me == nil || me.Me.ID != out.Login.User.ID {
			t.Fatalf("second login is user %+v, want %s", me.Me, out.Login.User.ID)
		}
	})
}

func TestWrongExpiredAndReusedCodes(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, backend string) {
		ts := startServer(t, backend)
		login := func(phone, code string) gqlResponse {
			return ts.do("", loginMutation, map[string]any{"p": phone, "c": code})
		}
		wrong := func(code string) string {
			if code == "000000" {
				return "000001"
			}
			return "000000"
		}

		// Wrong code, then the right one still works; reusing it fails.
		const p1 = "13800000001"
		ts.ok("", sendCodeMutation, map[string]any{"p": p1}, nil)
		code := ts.sms.code(p1)
		e := ts.fails("", loginMutation, map[string]any{"p": p1, "c": wrong(code)}, "BAD_USER_INPUT")
		if e.Extensions["field"] != "code" {
			t.Fatalf("wrong code error names %v, want code", e.Extensions["field"])
		}
		if r := login(p1, code); r.code() != "" {
			t.Fatalf("right code after one wrong guess: %+v", r.Errors)
		}
		ts.fails("", loginMutation, map[string]any{"p": p1, "c": code}, "BAD_USER_INPUT")

		// Five wrong guesses void the code.
		const p2 = "13800000002"
		ts.ok("", sendCodeMutation, map[string]any{"p": p2}, nil)
		code = ts.sms.code(p2)
		for range 5 {
			ts.fails("", loginMutation, map[string]any{"p": p2, "c": wrong(code)}, "BAD_USER_INPUT")
		}
		ts.fails("", loginMutation, map[string]any{"p": p2, "c": code}, "BAD_USER_INPUT")

		// A code lives two minutes.
		const p3 = "13800000003"
		ts.ok("", sendCodeMutation, map[string]any{"p": p3}, nil)
		code = ts.sms.code(p3)
		key := ts.app.cfg.RedisPrefix + "login:code:" + p3
		ttl := ts.redis().PTTL(context.Background(), key).Val()
		if ttl <= 0 || ttl > 2*time.Minute {
			t.Fatalf("code TTL %v, want (0, 2m]", ttl)
		}
		expire(t, ts, key, 2*time.Minute)
		ts.fails("", loginMutation, map[string]any{"p": p3, "c": code}, "BAD_USER_INPUT")

		// Neither or both of code and password.
		ts.fails("", `mutation { login(phone: "13800000004") { token } }`, nil, "BAD_USER_INPUT")
		// Malformed code.
		ts.fails("", loginMutation, map[string]any{"p": p1, "c": "12ab56"}, "BAD_USER_INPUT")
	})
}

// expire makes key expire: on the embedded Redis by letting d pass, on a real
// one (whose clock tests cannot move) by shortening the TTL after checking it.
func expire(t *testing.T, ts *testServer, key string, d time.Duration) {
	t.Helper()
	if ts.app.miniRedis != nil {
		ts.advance(d + time.Second)
		return
	}
	ctx := context.Background()
	ts.redis().PExpire(ctx, key, time.Millisecond)
	for ts.redis().Exists(ctx, key).Val() == 1 {
		time.Sleep(5 * time.Millisecond)
	}
	ts.clock.Add(d) // and for the instance's own session cache
}

func TestInvalidPhones(t *testing.T) {
	t.Parallel()
	ts := startServer(t, "embedded")
	for _, p := range []string{
		"15,12345678", "+8613800000000", "1380000000", "138000000000", "", " 13800000000",
		"12800000000", "23800000000", "1380000000a", "１３８００００００００", "13800000000\n",
	} {
		t.Run(p, func(t *testing.T) {
			e := ts.fails("", sendCodeMutation, map[string]any{"p": p}, "BAD_USER_INPUT")
			if e.Extensions["field"] != "phone" {
				t.Fatalf("error names %v, want phone", e.Extensions["field"])
			}
			ts.fails("", loginMutation, map[string]any{"p": p, "c": "123456"}, "BAD_USER_INPUT")
		})
	}
	if len(ts.sms.codes) != 0 {
		t.Fatalf("codes sent to invalid phones: %v", ts.sms.codes)
	}
}

func TestSendCodeRateLimits(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, backend string) {
		ts := startServer(t, backend)
		const phone = "13700000000"
		ts.ok("", sendCodeMutation, map[string]any{"p": phone}, nil)
		e := ts.fails("", sendCodeMutation, map[string]any{"p": phone}, "RATE_LIMITED")
		if ms, _ := e.Extensions["retryAfterMs"].(float64); ms <= 0 || ms > 60000 {
			t.Fatalf("retryAfterMs %v", e.Extensions["retryAfterMs"])
		}
		// One a minute, ten a day.
		for i := 2; i <= 10; i++ {
			ts.clock.Add(61 * time.Second)
			ts.ok("", sendCodeMutation, map[string]any{"p": phone}, nil)
		}
		ts.clock.Add(61 * time.Second)
		e = ts.fails("", sendCodeMutation, map[string]any{"p": phone}, "RATE_LIMITED")
		if ms, _ := e.Extensions["retryAfterMs"].(float64); ms < 60*60*1000 {
			t.Fatalf("11th code of the day: retry after %v ms, want hours", ms)
		}

	})
}

func TestSendCodePerAddressLimit(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, backend string) {
		ts := startServer(t, backend)
		// Thirty an hour from one client address (the test's 127.0.0.1), whatever the phone.
		for i := range 30 {
			ts.ok("", sendCodeMutation, map[string]any{"p": fmt.Sprintf("1360000%04d", i)}, nil)
		}
		ts.fails("", sendCodeMutation, map[string]any{"p": "13500000000"}, "RATE_LIMITED")
		// The sustained rate is one every two minutes.
		ts.clock.Add(2 * time.Minute)
		ts.ok("", sendCodeMutation, map[string]any{"p": "13500000000"}, nil)
		ts.fails("", sendCodeMutation, map[string]any{"p": "13500000001"}, "RATE_LIMITED")
	})
}

func TestRateLimitsOff(t *testing.T) {
	t.Parallel()
	ts := startServer(t, "embedded", func(c *config.Config) { c.RateLimits = false })
	for range 3 {
		ts.ok("", sendCodeMutation, map[string]any{"p": "13700000000"}, nil)
	}
}

func TestSessionSlidesAndExpires(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, backend string) {
		ts := startServer(t, backend)
		token := ts.login("13600000001")
		sum := sha256.Sum256([]byte(token))
		key := ts.app.cfg.RedisPrefix + "login:session:" + hex.EncodeToString(sum[:])
		ctx := context.Background()
		if ts.redis().Exists(ctx, key).Val() != 1 {
			t.Fatalf("session not stored under the sha256 of the token")
		}
		// Sliding: a request puts the TTL back to 30 minutes.
		ts.redis().PExpire(ctx, key, time.Minute)
		var me struct{ Me *struct{ ID string } }
		ts.ok(token, meQuery, nil, &me)
		if ttl := ts.redis().PTTL(ctx, key).Val(); ttl < 29*time.Minute || ttl > 30*time.Minute {
			t.Fatalf("TTL after a request %v, want about 30m", ttl)
		}
		// Expiry: after 30 idle minutes the token is anonymous.
		expire(t, ts, key, 30*time.Minute)
		ts.ok(token, meQuery, nil, &me)
		if me.Me != nil {
			t.Fatal("expired token still logged in")
		}
	})
}

func TestUnknownTokenIsAnonymous(t *testing.T) {
	t.Parallel()
	ts := startServer(t, "embedded")
	var me struct{ Me *struct{ ID string } }
	ts.ok("0123456789abcdef0123456789abcdef", meQuery, nil, &me)
	if me.Me != nil {
		t.Fatal("unknown token logged in")
	}
	e := ts.fails("", `mutation { updateProfile(input: {nickName: "x"}) { id } }`, nil, "UNAUTHENTICATED")
	if e.Message == "" {
		t.Fatal("no message")
	}
	ts.fails("", `mutation { updateProfile(input: {nickName: "x"}) { id } }`, nil, "UNAUTHENTICATED")
}

// Loading and sliding a session is one Redis round trip, and an instance
// reuses a session it read for HMDP_SESSION_CACHE_TTL without asking again.
func TestSessionRoundTrips(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, backend string) {
		ts := startServer(t, backend)
		token := ts.login("13600000002")
		ts.ok(token, meQuery, nil, nil) // loads the script on the server (EVALSHA, then EVAL on NOSCRIPT)
		counter := requestRoundTrips()
		ts.redis().AddHook(counter)
		for range 5 {
			ts.ok(token, meQuery, nil, nil)
		}
		if n := counter.N(); n != 0 {
			t.Fatalf("%d Redis round trips for 5 requests within the session cache TTL, want 0", n)
		}
		for range 5 {
			ts.advance(ts.app.cfg.SessionCacheTTL + time.Millisecond)
			ts.ok(token, meQuery, nil, nil)
		}
		if n := counter.N(); n != 5 {
			t.Fatalf("%d Redis round trips for 5 requests each after the TTL, want 5", n)
		}
	})
	t.Run("off", func(t *testing.T) {
		ts := startServer(t, "embedded", func(c *config.Config) { c.SessionCacheTTL = 0 })
		token := ts.login("13600000002")
		ts.ok(token, meQuery, nil, nil)
		counter := requestRoundTrips()
		ts.redis().AddHook(counter)
		for range 5 {
			ts.ok(token, meQuery, nil, nil)
		}
		if n := counter.N(); n != 5 {
			t.Fatalf("%d Redis round trips for 5 requests, want 5", n)
		}
	})
}

// Two servers sharing Redis with session caches that outlive the test: a
// logout or a new nickname on one reaches the other through the
// announcement, not the TTL.
func TestSessionChangesReachEveryInstance(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, backend string) {
		if backend != "real" {
			t.Skip("embedded servers each have their own Redis")
		}
		cfg := testConfig(t, backend)
		cfg.SessionCacheTTL = time.Minute
		a, b := startServerWith(t, backend, cfg), startServerWith(t, backend, cfg)
		token := a.login("13600000003")
		var me struct{ Me *struct{ NickName string } }
		b.ok(token, meQuery, nil, &me) // b now holds the session
		a.ok(token, `mutation { updateProfile(input: {nickName: "renamed"}) { id } }`, nil, nil)
		testenv.Eventually(t, 10*time.Second, "the new nickname on the other instance", func() bool {
			b.ok(token, meQuery, nil, &me)
			return me.Me != nil && me.Me.NickName == "renamed"
		})
		a.ok(token, `mutation { logout }`, nil, nil)
		testenv.Eventually(t, 10*time.Second, "the logout on the other instance", func() bool {
			b.ok(token, meQuery, nil, &me)
			return me.Me == nil
		})
	})
}

// logout is open to anonymous requests and says false when there was no
// session: none sent, an unknown token, or one already logged out.
func TestLogoutWithoutSession(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, backend string) {
		ts := startServer(t, backend)
		var lo struct{ Logout bool }
		ts.ok("", `mutation { logout }`, nil, &lo)
		if lo.Logout {
			t.Fatal("logout without a token = true")
		}
		ts.ok("0123456789abcdef0123456789abcdef", `mutation { logout }`, nil, &lo)
		if lo.Logout {
			t.Fatal("logout with an unknown token = true")
		}
		token := ts.login("13800000077")
		ts.ok(token, `mutation { logout }`, nil, &lo)
		if !lo.Logout {
			t.Fatal("logout of a live session = false")
		}
		ts.ok(token, `mutation { logout }`, nil, &lo)
		if lo.Logout {
			t.Fatal("second logout = true")
		}
	})
}
