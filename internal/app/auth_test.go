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
	"github.com/hmdp/hmdp/internal/gqlclient"
	"github.com/hmdp/hmdp/internal/testenv"
)

func TestLoginMeLogout(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, backend string) {
		ctx := t.Context()
		ts := startServer(t, backend)
		const phone = "13812345678"
		must(gqlclient.SendCode(ctx, ts.gql(""), phone))(t)
		code := ts.sms.code(phone)
		if !regexp.MustCompile(`^\d{6}$`).MatchString(code) {
			t.Fatalf("code %q is not 6 digits", code)
		}
		out := must(gqlclient.Login(ctx, ts.gql(""), phone, &code, nil))(t)
		if len(out.Login.Token) != 32 {
			t.Fatalf("token %q is not 128 bits in hex", out.Login.Token)
		}
		if !regexp.MustCompile(`^user_[a-z0-9]{10}$`).MatchString(out.Login.User.NickName) {
			t.Fatalf("new user's nick name %q", out.Login.User.NickName)
		}
		c := ts.gql(out.Login.Token)
		me := must(gqlclient.Me(ctx, c))(t).Me
		if me == nil || me.Id != out.Login.User.Id {
			t.Fatalf("me = %+v, want user %s", me, out.Login.User.Id)
		}
		// The bare header form of the original app works too. Raw: the
		// typed client sends "Bearer <token>", not the bare token.
		req := bareAuthRequest(t, ts, out.Login.Token)
		if r := ts.send(req); string(r.Data) == `{"me":null}` {
			t.Fatal("bare authorization header not accepted")
		}

		if !must(gqlclient.Logout(ctx, c))(t).Logout {
			t.Fatal("logout returned false")
		}
		me = must(gqlclient.Me(ctx, c))(t).Me
		if me != nil {
			t.Fatalf("me after logout = %+v", me)
		}

		// Logging in again with a new code finds the same user.
		ts.advance(time.Minute)
		token := ts.login(phone)
		me = must(gqlclient.Me(ctx, ts.gql(token)))(t).Me
		if me == nil || me.Id != out.Login.User.Id {
			t.Fatalf("second login is user %+v, want %s", me, out.Login.User.Id)
		}
	})
}

func TestWrongExpiredAndReusedCodes(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, backend string) {
		ctx := t.Context()
		ts := startServer(t, backend)
		anon := ts.gql("")
		login := func(phone, code string) error {
			_, err := gqlclient.Login(ctx, anon, phone, &code, nil)
			return err
		}
		wrong := func(code string) string {
			if code == "000000" {
				return "000001"
			}
			return "000000"
		}

		// Wrong code, then the right one still works; reusing it fails.
		const p1 = "13800000001"
		must(gqlclient.SendCode(ctx, anon, p1))(t)
		code := ts.sms.code(p1)
		wantField(t, login(p1, wrong(code)), "code")
		if err := login(p1, code); err != nil {
			t.Fatalf("right code after one wrong guess: %v", err)
		}
		wantCode(t, login(p1, code), "BAD_USER_INPUT")

		// Five wrong guesses void the code.
		const p2 = "13800000002"
		must(gqlclient.SendCode(ctx, anon, p2))(t)
		code = ts.sms.code(p2)
		for range 5 {
			wantCode(t, login(p2, wrong(code)), "BAD_USER_INPUT")
		}
		wantCode(t, login(p2, code), "BAD_USER_INPUT")

		// A code lives two minutes.
		const p3 = "13800000003"
		must(gqlclient.SendCode(ctx, anon, p3))(t)
		code = ts.sms.code(p3)
		key := ts.app.cfg.RedisPrefix + "login:code:" + p3
		ttl := ts.redis().PTTL(context.Background(), key).Val()
		if ttl <= 0 || ttl > 2*time.Minute {
			t.Fatalf("code TTL %v, want (0, 2m]", ttl)
		}
		expire(t, ts, key, 2*time.Minute)
		wantCode(t, login(p3, code), "BAD_USER_INPUT")

		// Neither or both of code and password.
		_, err := gqlclient.Login(ctx, anon, "13800000004", nil, nil)
		wantCode(t, err, "BAD_USER_INPUT")
		// Malformed code.
		wantCode(t, login(p1, "12ab56"), "BAD_USER_INPUT")
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
			ctx, anon := t.Context(), ts.gql("")
			_, err := gqlclient.SendCode(ctx, anon, p)
			wantField(t, err, "phone")
			_, err = gqlclient.Login(ctx, anon, p, new("123456"), nil)
			wantCode(t, err, "BAD_USER_INPUT")
		})
	}
	if len(ts.sms.codes) != 0 {
		t.Fatalf("codes sent to invalid phones: %v", ts.sms.codes)
	}
}

func TestSendCodeRateLimits(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, backend string) {
		ctx := t.Context()
		ts := startServer(t, backend)
		anon := ts.gql("")
		const phone = "13700000000"
		must(gqlclient.SendCode(ctx, anon, phone))(t)
		_, err := gqlclient.SendCode(ctx, anon, phone)
		wantCode(t, err, "RATE_LIMITED")
		e := gqlErrors(err)[0]
		if ms, _ := e.Extensions["retryAfterMs"].(float64); ms <= 0 || ms > 60000 {
			t.Fatalf("retryAfterMs %v", e.Extensions["retryAfterMs"])
		}
		// One a minute, ten a day.
		for i := 2; i <= 10; i++ {
			ts.clock.Add(61 * time.Second)
			must(gqlclient.SendCode(ctx, anon, phone))(t)
		}
		ts.clock.Add(61 * time.Second)
		_, err = gqlclient.SendCode(ctx, anon, phone)
		wantCode(t, err, "RATE_LIMITED")
		e = gqlErrors(err)[0]
		if ms, _ := e.Extensions["retryAfterMs"].(float64); ms < 60*60*1000 {
			t.Fatalf("11th code of the day: retry after %v ms, want hours", ms)
		}

	})
}

func TestSendCodePerAddressLimit(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, backend string) {
		ctx := t.Context()
		ts := startServer(t, backend)
		anon := ts.gql("")
		// Thirty an hour from one client address (the test's 127.0.0.1), whatever the phone.
		for i := range 30 {
			must(gqlclient.SendCode(ctx, anon, fmt.Sprintf("1360000%04d", i)))(t)
		}
		_, err := gqlclient.SendCode(ctx, anon, "13500000000")
		wantCode(t, err, "RATE_LIMITED")
		// The sustained rate is one every two minutes.
		ts.clock.Add(2 * time.Minute)
		must(gqlclient.SendCode(ctx, anon, "13500000000"))(t)
		_, err = gqlclient.SendCode(ctx, anon, "13500000001")
		wantCode(t, err, "RATE_LIMITED")
	})
}

func TestRateLimitsOff(t *testing.T) {
	t.Parallel()
	ts := startServer(t, "embedded", func(c *config.Config) { c.RateLimits = false })
	for range 3 {
		must(gqlclient.SendCode(t.Context(), ts.gql(""), "13700000000"))(t)
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
		c := ts.gql(token)
		must(gqlclient.Me(ctx, c))(t)
		if ttl := ts.redis().PTTL(ctx, key).Val(); ttl < 29*time.Minute || ttl > 30*time.Minute {
			t.Fatalf("TTL after a request %v, want about 30m", ttl)
		}
		// Expiry: after 30 idle minutes the token is anonymous.
		expire(t, ts, key, 30*time.Minute)
		if must(gqlclient.Me(ctx, c))(t).Me != nil {
			t.Fatal("expired token still logged in")
		}
	})
}

func TestUnknownTokenIsAnonymous(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	ts := startServer(t, "embedded")
	if must(gqlclient.Me(ctx, ts.gql("0123456789abcdef0123456789abcdef")))(t).Me != nil {
		t.Fatal("unknown token logged in")
	}
	_, err := gqlclient.UpdateProfile(ctx, ts.gql(""), gqlclient.UpdateProfileInput{NickName: new("x")})
	wantCode(t, err, "UNAUTHENTICATED")
	if gqlErrors(err)[0].Message == "" {
		t.Fatal("no message")
	}
	_, err = gqlclient.UpdateProfile(ctx, ts.gql(""), gqlclient.UpdateProfileInput{NickName: new("x")})
	wantCode(t, err, "UNAUTHENTICATED")
}

// Loading and sliding a session is one Redis round trip, and an instance
// reuses a session it read for HMDP_SESSION_CACHE_TTL without asking again.
func TestSessionRoundTrips(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, backend string) {
		ts := startServer(t, backend)
		ctx := t.Context()
		token := ts.login("13600000002")
		c := ts.gql(token)
		must(gqlclient.Me(ctx, c))(t) // loads the script on the server (EVALSHA, then EVAL on NOSCRIPT)
		counter := requestRoundTrips()
		ts.redis().AddHook(counter)
		for range 5 {
			must(gqlclient.Me(ctx, c))(t)
		}
		if n := counter.N(); n != 0 {
			t.Fatalf("%d Redis round trips for 5 requests within the session cache TTL, want 0", n)
		}
		for range 5 {
			ts.advance(ts.app.cfg.SessionCacheTTL + time.Millisecond)
			must(gqlclient.Me(ctx, c))(t)
		}
		if n := counter.N(); n != 5 {
			t.Fatalf("%d Redis round trips for 5 requests each after the TTL, want 5", n)
		}
	})
	t.Run("off", func(t *testing.T) {
		ts := startServer(t, "embedded", func(c *config.Config) { c.SessionCacheTTL = 0 })
		ctx := t.Context()
		token := ts.login("13600000002")
		c := ts.gql(token)
		must(gqlclient.Me(ctx, c))(t)
		counter := requestRoundTrips()
		ts.redis().AddHook(counter)
		for range 5 {
			must(gqlclient.Me(ctx, c))(t)
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
		ctx := t.Context()
		token := a.login("13600000003")
		ac, bc := a.gql(token), b.gql(token)
		must(gqlclient.Me(ctx, bc))(t) // b now holds the session
		must(gqlclient.UpdateProfile(ctx, ac, gqlclient.UpdateProfileInput{NickName: new("renamed")}))(t)
		testenv.Eventually(t, 10*time.Second, "the new nickname on the other instance", func() bool {
			me := must(gqlclient.Me(ctx, bc))(t).Me
			return me != nil && me.NickName == "renamed"
		})
		must(gqlclient.Logout(ctx, ac))(t)
		testenv.Eventually(t, 10*time.Second, "the logout on the other instance", func() bool {
			return must(gqlclient.Me(ctx, bc))(t).Me == nil
		})
	})
}

// logout is open to anonymous requests and says false when there was no
// session: none sent, an unknown token, or one already logged out.
func TestLogoutWithoutSession(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, backend string) {
		ctx := t.Context()
		ts := startServer(t, backend)
		logout := func(token string) bool {
			t.Helper()
			return must(gqlclient.Logout(ctx, ts.gql(token)))(t).Logout
		}
		if logout("") {
			t.Fatal("logout without a token = true")
		}
		if logout("0123456789abcdef0123456789abcdef") {
			t.Fatal("logout with an unknown token = true")
		}
		token := ts.login("13800000077")
		if !logout(token) {
			t.Fatal("logout of a live session = false")
		}
		if logout(token) {
			t.Fatal("second logout = true")
		}
	})
}
