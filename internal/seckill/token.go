package seckill

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/hmdp/hmdp/internal/apperr"
	"github.com/hmdp/hmdp/internal/ratelimit"
	"github.com/hmdp/hmdp/lua"
)

// Anti-bot tokens (秒杀地址隐藏): with TokenConfig.Required, an attempt needs
// a token that IssueToken hands out only while the sale is open, one user
// and one sale at a time, and that the admission script uses up. A script
// that fires before the start gets SALE_NOT_STARTED from IssueToken and has
// no token to attempt with; a replayed or expired token is refused; and a
// user can fetch tokens only as fast as the token limit allows.

var issueToken = lua.Script("seckill_token")

// TokenConfig configures the anti-bot tokens; zero values take the defaults.
type TokenConfig struct {
	// Required makes SeckillWithToken refuse attempts without a token
	// (HMDP_SECKILL_TOKEN=on). Off, a token is still checked when given.
	Required bool
	// TTL is how long a token stays valid (default DefaultTokenTTL).
	TTL time.Duration
	// PerUser limits the tokens a user may fetch (default DefaultTokenPerUser).
	PerUser ratelimit.Limit
}

// DefaultTokenTTL is the default lifetime of a token.
const DefaultTokenTTL = 10 * time.Second

// DefaultTokenPerUser is the default limit of tokens fetched per user.
var DefaultTokenPerUser = ratelimit.Limit{Events: 5, Per: 10 * time.Second}

func (c *TokenConfig) defaults() {
	if c.TTL <= 0 {
		c.TTL = DefaultTokenTTL
	}
	if c.PerUser.Events <= 0 || c.PerUser.Per <= 0 {
		c.PerUser = DefaultTokenPerUser
	}
}

// Token is a single-use pass for one attempt on one sale.
type Token struct {
	Value     string
	ExpiresAt time.Time
}

// IssueToken hands userID a token for voucherID's sale, replacing any earlier
// one: SALE_NOT_STARTED, SALE_ENDED or OUT_OF_STOCK when the sale is not open
// for it, RATE_LIMITED past the token limit.
func (s *Service) IssueToken(ctx context.Context, userID, voucherID int64) (Token, error) {
	if s.knownSoldOut(voucherID) {
		return Token{}, apperr.New(apperr.OutOfStock, "sold out")
	}
	if s.limiter != nil {
		res, err := s.limiter.Allow(ctx, "seckill-token:user:"+strconv.FormatInt(userID, 10), s.cfg.Tokens.PerUser)
		if err != nil {
			return Token{}, err
		}
		if !res.Allowed {
			return Token{}, apperr.RateLimit("flash-sale tokens", res.RetryAfter.Milliseconds())
		}
	}
	var rnd [16]byte
	_, _ = rand.Read(rnd[:])
	value := hex.EncodeToString(rnd[:])
	k := KeysOf(s.prefix, voucherID)
	keys := []string{k.State, k.Buyers, k.Token(userID)}
	for attempt := 0; ; attempt++ {
		res, err := issueToken.Run(ctx, s.rdb, keys, value, s.cfg.Tokens.TTL.Milliseconds()).Result()
		if err != nil {
			return Token{}, fmt.Errorf("seckill token: %w", err)
		}
		if v, ok := res.([]any); ok && len(v) == 2 {
			if exp, ok := v[1].(int64); ok {
				return Token{Value: value, ExpiresAt: time.UnixMilli(exp)}, nil
			}
		}
		switch code, _ := res.(int64); code {
		case notStarted:
			return Token{}, apperr.New(apperr.SaleNotStarted, "the sale has not started")
		case ended:
			return Token{}, apperr.New(apperr.SaleEnded, "the sale has ended")
		case outOfStock:
			return Token{}, apperr.New(apperr.OutOfStock, "sold out")
		case stateMissing:
			if attempt == 2 {
				return Token{}, errors.New("seckill token: sale state still missing after rebuilding it")
			}
			if err := s.rebuildFor(ctx, userID, voucherID); err != nil {
				return Token{}, err
			}
		default:
			return Token{}, fmt.Errorf("seckill token: unexpected result %v", res)
		}
	}
}

// errBadToken is the answer to a token that is wrong, used or expired.
func errBadToken(ttl time.Duration) error {
	return apperr.BadInput("token", "is not valid for this sale: a token from seckillToken works once, for its own user and voucher, within %s", ttl)
}
