package seckill

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/hmdp/hmdp/internal/apperr"
	"github.com/hmdp/hmdp/internal/ratelimit"
	"github.com/hmdp/hmdp/internal/testenv"
)

func wantBadToken(t *testing.T, err error) {
	t.Helper()
	if e, ok := apperr.As(err); !ok || e.Code != apperr.BadUserInput || e.Field != "token" {
		t.Fatalf("want BAD_USER_INPUT on token, got %v", err)
	}
}

// With tokens required: no token is refused; a token is handed out only
// while the sale is open and in stock; it works once, for its own user and
// sale, until it expires; a new one replaces the last.
func TestTokensGateAttempts(t *testing.T) {
	testenv.ForEachBackend(t, func(t *testing.T, b testenv.Backends) {
		cfg := fast
		cfg.Tokens = TokenConfig{Required: true, TTL: 2 * time.Second}
		f := newService(t, b, cfg)
		ctx := context.Background()
		now := time.Now()
		early := f.sale(t, 5, now.Add(time.Hour), now.Add(2*time.Hour))
		_, err := f.s.IssueToken(ctx, 1, early)
		wantCode(t, err, apperr.SaleNotStarted)
		over := f.sale(t, 5, now.Add(-2*time.Hour), now.Add(-time.Hour))
		_, err = f.s.IssueToken(ctx, 1, over)
		wantCode(t, err, apperr.SaleEnded)
		_, err = f.s.IssueToken(ctx, 1, 999_999)
		wantCode(t, err, apperr.NotFound)

		v := f.sale(t, 2, now.Add(-time.Minute), now.Add(time.Hour))
		_, err = f.s.Seckill(ctx, 1, v)
		wantBadToken(t, err)
		tok, err := f.s.IssueToken(ctx, 1, v)
		if err != nil || len(tok.Value) != 32 || tok.ExpiresAt.Before(now.Add(time.Second)) {
			t.Fatalf("token %+v %v", tok, err)
		}
		_, err = f.s.SeckillWithToken(ctx, 1, v, "0123456789abcdef0123456789abcdef")
		wantBadToken(t, err)
		_, err = f.s.SeckillWithToken(ctx, 2, v, tok.Value) // someone else's
		wantBadToken(t, err)
		other := f.sale(t, 5, now.Add(-time.Minute), now.Add(time.Hour))
		_, err = f.s.SeckillWithToken(ctx, 1, other, tok.Value) // another sale's
		wantBadToken(t, err)
		// The wrong attempts above did not use the token up.
		if id, err := f.s.SeckillWithToken(ctx, 1, v, tok.Value); err != nil || id <= 0 {
			t.Fatalf("attempt with the token: %d %v", id, err)
		}
		_, err = f.s.SeckillWithToken(ctx, 1, v, tok.Value) // replayed
		wantBadToken(t, err)

		// A new token replaces the last; a token expires.
		first, _ := f.s.IssueToken(ctx, 2, v)
		second, err := f.s.IssueToken(ctx, 2, v)
		if err != nil || second.Value == first.Value {
			t.Fatalf("second token %+v %v", second, err)
		}
		_, err = f.s.SeckillWithToken(ctx, 2, v, first.Value)
		wantBadToken(t, err)
		if m := b.Redis.Mini; m != nil {
			m.FastForward(3 * time.Second)
		} else {
			time.Sleep(2100 * time.Millisecond)
		}
		_, err = f.s.SeckillWithToken(ctx, 2, v, second.Value)
		wantBadToken(t, err)

		third, err := f.s.IssueToken(ctx, 2, v)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.s.SeckillWithToken(ctx, 2, v, third.Value); err != nil {
			t.Fatal(err)
		}
		_, err = f.s.IssueToken(ctx, 3, v) // both units taken
		wantCode(t, err, apperr.OutOfStock)
	})
}

// One token replayed by many goroutines at once buys once.
func TestTokenIsUsedOnce(t *testing.T) {
	testenv.ForEachBackend(t, func(t *testing.T, b testenv.Backends) {
		cfg := fast
		cfg.Tokens = TokenConfig{Required: true}
		f := newService(t, b, cfg)
		ctx := context.Background()
		v := f.sale(t, 100, time.Now().Add(-time.Minute), time.Now().Add(time.Hour))
		tok, err := f.s.IssueToken(ctx, 1, v)
		if err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		var mu sync.Mutex
		var ok, bad int
		for range 50 {
			wg.Go(func() {
				_, err := f.s.SeckillWithToken(ctx, 1, v, tok.Value)
				mu.Lock()
				defer mu.Unlock()
				if err == nil {
					ok++
				} else if e, isApp := apperr.As(err); isApp && e.Field == "token" {
					bad++
				} else {
					t.Error(err)
				}
			})
		}
		wg.Wait()
		if ok != 1 || bad != 49 {
			t.Fatalf("%d attempts admitted, %d refused; want 1 and 49", ok, bad)
		}
	})
}

// Fetching tokens is rate limited per user; with tokens not required an
// attempt without one is admitted, and a token given is still checked.
func TestTokenLimitAndOptionalTokens(t *testing.T) {
	testenv.ForEachBackend(t, func(t *testing.T, b testenv.Backends) {
		cfg := fast
		cfg.Tokens = TokenConfig{PerUser: ratelimit.Limit{Events: 2, Per: time.Minute}}
		f := newService(t, b, cfg)
		ctx := context.Background()
		v := f.sale(t, 10, time.Now().Add(-time.Minute), time.Now().Add(time.Hour))
		for range 2 {
			if _, err := f.s.IssueToken(ctx, 1, v); err != nil {
				t.Fatal(err)
			}
		}
		_, err := f.s.IssueToken(ctx, 1, v)
		if e, ok := apperr.As(err); !ok || e.Code != apperr.RateLimited || e.RetryAfterMs <= 0 {
			t.Fatalf("third token: %v", err)
		}
		if _, err := f.s.Seckill(ctx, 1, v); err != nil {
			t.Fatalf("attempt without a token, tokens optional: %v", err)
		}
		_, err = f.s.SeckillWithToken(ctx, 2, v, "forged")
		wantBadToken(t, err)
	})
}
