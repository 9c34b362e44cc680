package seckill

import (
	"context"
	"strconv"
	"time"

	"github.com/hmdp/hmdp/internal/nearcache"
)

// Once a sale is sold out, every further attempt would cost a rate-limit
// call, an order id and an admission script just to hear "sold out" again,
// and a popular sale gets most of its traffic then. So each instance
// remembers the vouchers it saw sold out for SoldOutTTL and answers
// OUT_OF_STOCK without asking Redis. A unit given back (Release) is announced
// on a channel every instance follows, which forgets the voucher at once, so
// it is on sale again everywhere; the TTL bounds what a lost announcement
// (a dropped subscription) can hide.

// DefaultSoldOutTTL is how long an instance trusts a sold-out answer.
const DefaultSoldOutTTL = time.Second

func (s *Service) releasedChannel() string { return s.prefix + "seckill:released" }

// FollowReleases subscribes to the units given back on any instance; it
// returns once following. StopFollowing ends it.
func (s *Service) FollowReleases(ctx context.Context) error {
	if s.soldOut == nil {
		return nil
	}
	return s.soldOut.Follow(ctx, s.rdb, s.releasedChannel())
}

// StopFollowing ends FollowReleases.
func (s *Service) StopFollowing() error {
	if s.soldOut == nil {
		return nil
	}
	return s.soldOut.Close()
}

// knownSoldOut reports whether this instance saw voucherID sold out less
// than SoldOutTTL ago, with no unit given back since.
func (s *Service) knownSoldOut(voucherID int64) bool {
	return s.SoldOutMark(voucherID) != nil
}

// soldOutMark is what an instance remembers of a sale it saw sold out: a new
// one each time, so a mark tells one stretch of "known sold out" from the next.
type soldOutMark struct{ seen time.Time }

// SoldOutMark is this instance's mark of voucherID's sale being known sold
// out (knownSoldOut), nil when it is not. While the same mark is returned,
// every attempt on the sale is answered OUT_OF_STOCK without asking Redis,
// whoever makes it: the response cache keeps that answer by it.
func (s *Service) SoldOutMark(voucherID int64) any {
	if s.soldOut == nil {
		return nil
	}
	m, _, ok := s.soldOut.Get(strconv.FormatInt(voucherID, 10), s.now())
	if !ok {
		return nil
	}
	return m
}

// CountSoldOutAnswer counts an attempt answered OUT_OF_STOCK from a kept
// answer (SoldOutMark), as Seckill counts its own.
func (s *Service) CountSoldOutAnswer() {
	s.metrics.requests.WithLabelValues("out_of_stock").Inc()
}

// soldOutEpoch is read before the admission script, so a release announced
// while it runs keeps the sold-out answer from being remembered.
func (s *Service) soldOutEpoch() uint64 {
	if s.soldOut == nil {
		return 0
	}
	return s.soldOut.Epoch()
}

func (s *Service) rememberSoldOut(voucherID int64, epoch uint64) {
	if s.soldOut != nil {
		now := s.now()
		s.soldOut.Put(strconv.FormatInt(voucherID, 10), &soldOutMark{seen: now}, true, epoch, now)
	}
}

// announceUnits tells every instance (this one too) that voucherID may have
// units again.
func (s *Service) announceUnits(ctx context.Context, voucherID int64) {
	if s.soldOut == nil {
		return
	}
	id := strconv.FormatInt(voucherID, 10)
	s.soldOut.Drop(id)
	if err := nearcache.Announce(ctx, s.rdb, s.releasedChannel(), id); err != nil {
		s.log.WarnContext(ctx, "unit given back not announced; other instances sell it again within the sold-out TTL", "voucher", voucherID, "err", err)
	}
}
