package seckill

import (
	"context"
	"errors"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/hmdp/hmdp/ent"
	entorder "github.com/hmdp/hmdp/ent/order"
	"github.com/hmdp/hmdp/ent/schema/enum"
	"github.com/hmdp/hmdp/internal/apperr"
	"github.com/hmdp/hmdp/internal/audit"
)

// Changed is told, after the commit, that a sale's stock, window or
// voucher status changed in MySQL (updateVoucher, setVoucherOnSale). The
// Redis state is dropped and rebuilt from MySQL at once: the rebuild is the
// one path that computes the state from MySQL and the order stream together
// (stock = MySQL's minus the entries not yet persisted), and it runs under
// the rebuild lock with a new epoch, so consumers and admissions meanwhile
// are handled as after any lost key (ARCHITECTURE.md "Redis may lose any
// key"). A failed rebuild is only logged: the next attempt rebuilds it.
func (s *Service) Changed(ctx context.Context, sv *ent.SeckillVoucher) {
	ctx = context.WithoutCancel(ctx)
	k := KeysOf(s.prefix, sv.ID)
	s.noSale.Drop(strconv.FormatInt(sv.ID, 10))
	if err := s.rdb.Del(ctx, k.State).Err(); err != nil {
		s.log.ErrorContext(ctx, "changed flash sale's state not dropped; Redis keeps the old stock and window until it expires or is lost", "voucher", sv.ID, "err", err)
		return
	}
	if err := s.rebuild(ctx, sv.ID); err != nil {
		s.log.WarnContext(ctx, "changed flash sale's state not rebuilt; the next attempt rebuilds it", "voucher", sv.ID, "err", err)
	}
	s.consumers.undrop(sv.ID)
	s.consumers.watch(sv.ID, sv.EndTime)
	s.announceUnits(ctx, sv.ID) // more stock, or a window open again: no instance may answer sold out from memory
}

// Numbers is a sale's live numbers as an operator sees them (GraphQL
// SaleNumbers).
type Numbers struct {
	VoucherID int64
	// RedisStock is what the sale can still admit; nil when Redis holds no
	// state for it (never written, expired or lost: the next attempt rebuilds it).
	RedisStock *int
	// MySQLStock is tb_seckill_voucher.stock: units not yet persisted as orders.
	MySQLStock int
	// Admitted counts the buyers Redis holds (admitted and not released); nil without state.
	Admitted *int
	// Pending counts accepted orders not yet persisted (the order stream's
	// length): an order just persisted counts until its consumer removes
	// its entry, a moment after the commit.
	Pending int
	// Orders counts the sale's orders in MySQL by status (persisted ones).
	Orders []StatusCount
	// Persisted is their sum.
	Persisted int
	// Rejected counts accepted orders ended without being persisted, by
	// reason (the sale's rejections hash: it lives as long as the sale's
	// state, at least a day); RejectedTotal is their number.
	Rejected      []ReasonCount
	RejectedTotal int
	// DeadLetters is the length of the sale's dead-letter stream.
	DeadLetters int
	Begin, End  time.Time
	// At is when these were read.
	At time.Time
}

// StatusCount is a number of orders in one status.
type StatusCount struct {
	Status enum.OrderStatus
	Count  int
}

// ReasonCount is a number of rejections for one reason.
type ReasonCount struct {
	Reason string
	Count  int
}

// maxRejectedRead bounds the rejections read to count reasons.
const maxRejectedRead = 10_000

// Numbers returns voucherID's live numbers for an admin: one Redis round
// trip (all keys share the sale's hash tag, so one MULTI), and a count of
// its MySQL orders by status (index idx_voucher_status). Admission refusals
// (sold out, one per customer, rate limits) are not kept per sale: they are
// the instance-wide hmdp_seckill_requests_total.
func (s *Service) Numbers(ctx context.Context, voucherID int64) (*Numbers, error) {
	if _, err := audit.Operator(ctx); err != nil {
		return nil, err
	}
	sv, err := s.db.SeckillVoucher.Get(ctx, voucherID)
	if ent.IsNotFound(err) {
		return nil, apperr.New(apperr.NotFound, "voucher %d is not a flash sale", voucherID)
	}
	if err != nil {
		return nil, err
	}
	k := KeysOf(s.prefix, voucherID)
	var stock *redis.StringCmd
	var buyers, pending, dead, rejected *redis.IntCmd
	var reasons *redis.StringSliceCmd
	_, err = s.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		stock = p.HGet(ctx, k.State, "stock")
		buyers = p.HLen(ctx, k.Buyers)
		pending = p.XLen(ctx, k.Orders)
		dead = p.XLen(ctx, k.Dead)
		rejected = p.HLen(ctx, k.Rejected)
		return nil
	})
	if err != nil && !errors.Is(err, redis.Nil) {
		return nil, err
	}
	n := &Numbers{VoucherID: voucherID, MySQLStock: sv.Stock, Pending: int(pending.Val()), DeadLetters: int(dead.Val()),
		RejectedTotal: int(rejected.Val()), Begin: sv.BeginTime, End: sv.EndTime, Rejected: []ReasonCount{}}
	if v, err := stock.Int(); err == nil {
		n.RedisStock = &v
		if b := int(buyers.Val()); b > 0 {
			b-- // the sentinel
			n.Admitted = &b
		}
	}
	if n.RejectedTotal > 0 && n.RejectedTotal <= maxRejectedRead {
		reasons = s.rdb.HVals(ctx, k.Rejected)
		if err := reasons.Err(); err != nil && !errors.Is(err, redis.Nil) {
			return nil, err
		}
		byReason := map[string]int{}
		for _, v := range reasons.Val() {
			if _, r, ok := strings.Cut(v, ":"); ok {
				byReason[r]++
			}
		}
		for r, c := range byReason {
			n.Rejected = append(n.Rejected, ReasonCount{Reason: r, Count: c})
		}
		sort.Slice(n.Rejected, func(i, j int) bool { return n.Rejected[i].Reason < n.Rejected[j].Reason })
	}
	var rows []struct {
		Status enum.OrderStatus `json:"status"`
		Count  int              `json:"count"`
	}
	err = s.db.Order.Query().Where(entorder.VoucherID(voucherID)).GroupBy(entorder.FieldStatus).
		Aggregate(ent.Count()).Scan(ctx, &rows)
	if err != nil {
		return nil, err
	}
	n.Orders = []StatusCount{}
	for _, r := range rows {
		n.Orders = append(n.Orders, StatusCount{Status: r.Status, Count: r.Count})
		n.Persisted += r.Count
	}
	sort.Slice(n.Orders, func(i, j int) bool { return n.Orders[i].Status < n.Orders[j].Status })
	n.At = s.now()
	return n, nil
}

// DefaultDeadLetterList and MaxDeadLetterList size one page of AdminDeadLetters.
const (
	DefaultDeadLetterList = 20
	MaxDeadLetterList     = 100
)

// AdminDeadLetters lists dead letters of voucherID for an admin (GraphQL
// deadLetters): first (default 20, 1 to MaxDeadLetterList) after the id
// after, oldest first.
func (s *Service) AdminDeadLetters(ctx context.Context, voucherID int64, first *int, after *string) ([]*DeadLetter, error) {
	if _, err := audit.Operator(ctx); err != nil {
		return nil, err
	}
	n := DefaultDeadLetterList
	if first != nil {
		if *first < 1 || *first > MaxDeadLetterList {
			return nil, apperr.BadInput("first", "must be 1 to %d", MaxDeadLetterList)
		}
		n = *first
	}
	a := ""
	if after != nil {
		a = *after
	}
	ds, err := s.DeadLetters(ctx, voucherID, a, n)
	if err != nil {
		return nil, err
	}
	out := make([]*DeadLetter, len(ds))
	for i := range ds {
		out[i] = &ds[i]
	}
	return out, nil
}

// AdminReplayDeadLetter is ReplayDeadLetter for an admin (GraphQL
// replayDeadLetter), acting as "user:<id>": anyone else is refused here,
// whatever the directive did (FORBIDDEN; UNAUTHENTICATED without a viewer).
// ReplayDeadLetter itself serves the hmdp deadletters command, whose actor
// is the operator at the server's console.
func (s *Service) AdminReplayDeadLetter(ctx context.Context, voucherID int64, id string) (*ActionResult, error) {
	actor, err := audit.Operator(ctx)
	if err != nil {
		return nil, err
	}
	return s.ReplayDeadLetter(ctx, actor, voucherID, id)
}

// AdminDiscardDeadLetter is DiscardDeadLetter for an admin (GraphQL
// discardDeadLetter), checked as AdminReplayDeadLetter is.
func (s *Service) AdminDiscardDeadLetter(ctx context.Context, voucherID int64, id string) (*ActionResult, error) {
	actor, err := audit.Operator(ctx)
	if err != nil {
		return nil, err
	}
	return s.DiscardDeadLetter(ctx, actor, voucherID, id)
}
