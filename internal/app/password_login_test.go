package app

import (
	"fmt"
	"testing"
	"time"

	"github.com/hmdp/hmdp/internal/config"
)

const passwordLogin = `mutation($p: String!, $pw: String!) { login(phone: $p, password: $pw) { token } }`

// Wrong passwords are limited per phone: after five, even the right one is
// refused for a while with RATE_LIMITED and retryAfterMs; other phones are
// not affected until the client's address spends its own budget.
func TestPasswordLoginFailuresAreLimited(t *testing.T) {
	forEachBackend(t, func(t *testing.T, backend string) {
		ts := startServer(t, backend)
		const phone = "13500000021"
		tok := ts.login(phone)
		ts.setFirstPassword(tok, phone, "correct horse")
		login := func(p, pw string) gqlResponse {
			return ts.do("", passwordLogin, map[string]any{"p": p, "pw": pw})
		}
		for i := range 5 {
			if r := login(phone, fmt.Sprintf("wrong %d", i)); r.code() != "BAD_USER_INPUT" {
				t.Fatalf("wrong password %d: %+v", i, r.Errors)
			}
		}
		r := login(phone, "correct horse")
		if r.code() != "RATE_LIMITED" {
			t.Fatalf("sixth attempt: %+v %s", r.Errors, r.Data)
		}
		if ms, _ := r.Errors[0].Extensions["retryAfterMs"].(float64); ms <= 0 || ms > float64(15*time.Minute/time.Millisecond) {
			t.Fatalf("retryAfterMs %v", r.Errors[0].Extensions["retryAfterMs"])
		}
		// Another phone from the same address still gets answers, until the
		// address has spent its budget (30 wrong passwords in 15 minutes).
		for i := 5; i < 30; i++ {
			if r := login(fmt.Sprintf("135000001%02d", i), "guess"); r.code() != "BAD_USER_INPUT" {
				t.Fatalf("attempt %d from the address: %+v", i, r.Errors)
			}
		}
		if r := login("13500000199", "guess"); r.code() != "RATE_LIMITED" {
			t.Fatalf("31st wrong password from one address: %+v", r.Errors)
		}
		if backend == "embedded" {
			ts.advance(15 * time.Minute)
			if r := login(phone, "correct horse"); len(r.Errors) > 0 {
				t.Fatalf("after the window: %+v", r.Errors)
			}
		}
	})
}

// An unknown phone costs a password check like a known one, so timing does
// not reveal which phones have accounts.
func TestPasswordLoginUnknownPhoneCostsTheSame(t *testing.T) {
	ts := startServer(t, "embedded", func(c *config.Config) { c.RateLimits = false })
	const phone = "13500000022"
	tok := ts.login(phone)
	ts.setFirstPassword(tok, phone, "correct horse")
	timeOf := func(p string) time.Duration {
		best := time.Hour
		for range 3 {
			start := time.Now()
			if r := ts.do("", passwordLogin, map[string]any{"p": p, "pw": "wrong"}); r.code() != "BAD_USER_INPUT" {
				t.Fatalf("%s: %+v", p, r.Errors)
			}
			best = min(best, time.Since(start))
		}
		return best
	}
	timeOf("13500000023") // the dummy hash is made on first use
	known, unknown := timeOf(phone), timeOf("13500000024")
	if unknown < known/2 {
		t.Fatalf("unknown phone answered in %v, known in %v: the difference tells accounts apart", unknown, known)
	}
}
