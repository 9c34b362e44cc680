package seckill

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/redis/go-redis/v9"

	"github.com/hmdp/hmdp/ent"
	"github.com/hmdp/hmdp/internal/apperr"
	"github.com/hmdp/hmdp/internal/idgen"
	"github.com/hmdp/hmdp/internal/lock"
	"github.com/hmdp/hmdp/internal/ratelimit"
	"github.com/hmdp/hmdp/lua"
)

// tb_voucher_order.status values this package writes or reads.
const (
	StatusUnpaid    = 1
	StatusCancelled = 4
)

var admit = lua.Script("seckill_admit")

// Config tunes the service; zero values take the defaults.
type Config struct {
	// PerUser limits attempts per user (default 5 per second).
	PerUser ratelimit.Limit
	// Consumer tunes the stream consumers.
	Consumer ConsumerConfig
}

// Service admits flash-sale attempts and runs this instance's stream consumers.
type Service struct {
	db      *ent.Client
	rdb     redis.UniversalClient
	prefix  string
	ids     *idgen.Generator
	locks   *lock.Locker
	limiter *ratelimit.Limiter
	log     *slog.Logger
	cfg     Config
	metrics *metrics
	// Now is the clock of the sale window (tests move it).
	Now func() time.Time

	admit       *lua.Batcher // concurrent admissions share round trips
	consumers   *consumers
	onPersisted func(context.Context, []Persisted)
}

// New returns the service; metrics go to reg. Start the consumers with Start.
func New(db *ent.Client, rdb redis.UniversalClient, prefix string, ids *idgen.Generator, locks *lock.Locker,
	limiter *ratelimit.Limiter, log *slog.Logger, reg prometheus.Registerer, cfg Config) *Service {
	if cfg.PerUser.Events == 0 {
		cfg.PerUser = ratelimit.Limit{Events: 5, Per: time.Second}
	}
	cfg.Consumer.defaults()
	s := &Service{db: db, rdb: rdb, prefix: prefix, ids: ids, locks: locks, limiter: limiter, log: log, cfg: cfg, Now: time.Now}
	s.admit = lua.NewBatcher(rdb, admit, lua.BatchOptions{})
	s.metrics = newMetrics(reg, s)
	s.consumers = newConsumers(s)
	return s
}

// admission results of seckill_admit.lua
const (
	admitted       = 0
	notStarted     = 1
	ended          = 2
	outOfStock     = 3
	alreadyOrdered = 4
	stateMissing   = -1
)

// Seckill tries to buy one unit of voucherID for userID and returns the id of
// the accepted order, which a consumer persists shortly after.
func (s *Service) Seckill(ctx context.Context, userID, voucherID int64) (int64, error) {
	lim, err := s.limiter.Allow(ctx, "seckill:user:"+strconv.FormatInt(userID, 10), s.cfg.PerUser)
	if err != nil {
		return 0, err
	}
	if !lim.Allowed {
		s.metrics.requests.WithLabelValues("rate_limited").Inc()
		return 0, apperr.RateLimit("flash-sale attempts", lim.RetryAfter.Milliseconds())
	}
	orderID, err := s.ids.Next(ctx)
	if err != nil {
		return 0, err
	}
	k := KeysOf(s.prefix, voucherID)
	keys := []string{k.State, k.Buyers, k.Orders}
	var code int64
	for attempt := 0; ; attempt++ {
		code, err = s.admit.Run(ctx, keys, userID, orderID, s.Now().UnixMilli(), voucherID).Int64()
		if err != nil {
			return 0, fmt.Errorf("seckill admit: %w", err)
		}
		if code != stateMissing {
			break
		}
		if attempt == 2 {
			return 0, errors.New("seckill: sale state still missing after rebuilding it")
		}
		if err := s.rebuild(ctx, voucherID); err != nil {
			return 0, err
		}
	}
	switch code {
	case admitted:
		s.metrics.requests.WithLabelValues("ok").Inc()
		return orderID, nil
	case notStarted:
		s.metrics.requests.WithLabelValues("not_started").Inc()
		return 0, apperr.New(apperr.SaleNotStarted, "the sale has not started")
	case ended:
		s.metrics.requests.WithLabelValues("ended").Inc()
		return 0, apperr.New(apperr.SaleEnded, "the sale has ended")
	case outOfStock:
		s.metrics.requests.WithLabelValues("out_of_stock").Inc()
		return 0, apperr.New(apperr.OutOfStock, "sold out")
	case alreadyOrdered:
		s.metrics.requests.WithLabelValues("already_ordered").Inc()
		return 0, apperr.New(apperr.AlreadyOrdered, "one per customer: you already have an order for this voucher")
	}
	return 0, fmt.Errorf("seckill admit: unexpected result %d", code)
}

// PendingOrder returns the order id userID holds in Redis for voucherID (0
// when none). Whether it is persisted yet is for the caller to check in MySQL.
func (s *Service) PendingOrder(ctx context.Context, userID, voucherID int64) (int64, error) {
	v, err := s.rdb.HGet(ctx, KeysOf(s.prefix, voucherID).Buyers, strconv.FormatInt(userID, 10)).Int64()
	if errors.Is(err, redis.Nil) {
		return 0, nil
	}
	return v, err
}

// HeldOrders returns, for each voucher, the order id userID holds in Redis
// (absent when none), with one pipelined round trip per Cluster node.
func (s *Service) HeldOrders(ctx context.Context, userID int64, voucherIDs []int64) (map[int64]int64, error) {
	cmds := make([]*redis.StringCmd, len(voucherIDs))
	_, err := s.rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
		for i, v := range voucherIDs {
			cmds[i] = p.HGet(ctx, KeysOf(s.prefix, v).Buyers, strconv.FormatInt(userID, 10))
		}
		return nil
	})
	if err != nil && !errors.Is(err, redis.Nil) {
		return nil, err
	}
	out := map[int64]int64{}
	for i, c := range cmds {
		if id, err := c.Int64(); err == nil {
			out[voucherIDs[i]] = id
		}
	}
	return out, nil
}

var release = lua.Script("seckill_release")

// Release gives a cancelled order's unit back to the Redis sale and forgets
// its buyer (MySQL has already taken the unit back: see order.Cancel). If
// Redis cannot be told, the state is dropped so the next attempt rebuilds it
// from MySQL rather than selling one unit too few.
func (s *Service) Release(ctx context.Context, userID, voucherID, orderID int64) {
	k := KeysOf(s.prefix, voucherID)
	err := release.Run(ctx, s.rdb, []string{k.State, k.Buyers}, userID, orderID, 1).Err()
	if err == nil {
		return
	}
	s.log.WarnContext(ctx, "cancelled unit not returned to Redis; dropping the sale state so it is rebuilt", "voucher", voucherID, "order", orderID, "err", err)
	if err := s.rdb.Del(ctx, k.State).Err(); err != nil {
		s.log.ErrorContext(ctx, "cannot drop the sale state either; Redis holds one unit less than MySQL until it is rebuilt", "voucher", voucherID, "err", err)
	}
}
