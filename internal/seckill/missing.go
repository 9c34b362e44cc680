package seckill

import (
	"context"
	"strconv"
	"time"

	entseckillvoucher "github.com/hmdp/hmdp/ent/seckillvoucher"
	"github.com/hmdp/hmdp/internal/apperr"
	"github.com/hmdp/hmdp/internal/ratelimit"
)

// An attempt on a sale whose state is not in Redis is the only one that
// reaches MySQL: the state is rebuilt from it (state.go), under a lock, after
// a new epoch is written. Any id can be sent, so before any of that:
//
//  1. an id this instance saw naming no flash sale less than noSaleTTL ago
//     is NOT_FOUND at once (a negative cache, in process: nothing is written
//     to Redis for an id that names nothing);
//  2. the user's RebuildPerUser allowance, across all sales, is spent, or
//     the attempt is RATE_LIMITED (the per-sale limit of seckill_admit.lua
//     keys on the sale, so ids that name none would each get a fresh one);
//  3. one primary-key read tells whether the sale exists: if not, NOT_FOUND,
//     remembered in 1; no lock is taken, no epoch, fence or state written.
//
// Only then is the state rebuilt. A legitimate buyer misses the state once
// per sale after Redis lost it, far below the allowance.

// DefaultRebuildPerUser is the default of Config.RebuildPerUser: a burst of
// 10, then one every 6 seconds.
var DefaultRebuildPerUser = ratelimit.Limit{Events: 10, Per: time.Minute}

// noSaleTTL is how long an instance answers NOT_FOUND for an id it found
// naming no sale. Publish forgets the id here at once; another instance may
// answer NOT_FOUND for a sale created meanwhile for this long at most.
const noSaleTTL = 10 * time.Second

// rebuildFor rebuilds voucherID's missing sale state for an attempt by
// userID, after the checks above.
func (s *Service) rebuildFor(ctx context.Context, userID, voucherID int64) error {
	id := strconv.FormatInt(voucherID, 10)
	if _, found, ok := s.noSale.Get(id, time.Now()); ok && !found {
		return errNoSale(voucherID)
	}
	if s.limiter != nil {
		res, err := s.limiter.Allow(ctx, "seckill-rebuild:user:"+strconv.FormatInt(userID, 10), s.cfg.RebuildPerUser)
		if err != nil {
			return err
		}
		if !res.Allowed {
			return apperr.RateLimit("flash-sale attempts on sales not in Redis", res.RetryAfter.Milliseconds())
		}
	}
	epoch := s.noSale.Epoch()
	exists, err := s.db.SeckillVoucher.Query().Where(entseckillvoucher.ID(voucherID)).Exist(ctx)
	if err != nil {
		return err
	}
	if !exists {
		s.noSale.Put(id, struct{}{}, false, epoch, time.Now())
		return errNoSale(voucherID)
	}
	return s.rebuild(ctx, voucherID)
}

func errNoSale(voucherID int64) error {
	return apperr.New(apperr.NotFound, "voucher %d is not a flash-sale voucher", voucherID)
}

// countRefusal counts an attempt refused before admission (rebuildFor).
func (s *Service) countRefusal(err error) {
	switch apperr.CodeOf(err) {
	case apperr.NotFound:
		s.metrics.requests.WithLabelValues("not_found").Inc()
	case apperr.RateLimited:
		s.metrics.requests.WithLabelValues("rate_limited").Inc()
	default:
		// The rebuild failed (Redis, MySQL, its lock): not a refusal, and no
		// result of hmdp_seckill_requests_total.
	}
}
