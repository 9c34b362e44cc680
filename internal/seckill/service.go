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
	"github.com/hmdp/hmdp/internal/nearcache"
	"github.com/hmdp/hmdp/internal/ratelimit"
	"github.com/hmdp/hmdp/internal/tracing"
	"github.com/hmdp/hmdp/lua"
)

var admit = lua.Script("seckill_admit")

// Config holds the service's dependencies and tunables; zero values take
// the defaults.
type Config struct {
	DB     *ent.Client
	Redis  redis.UniversalClient
	Prefix string // Redis key prefix ("hmdp:")
	// IDs numbers the orders (default: idgen's "order" sequence under Prefix).
	IDs     *idgen.Generator
	Locks   *lock.Locker
	Limiter *ratelimit.Limiter
	Log     *slog.Logger // default slog.Default()
	// Registerer receives the metrics (nil: not registered).
	Registerer prometheus.Registerer
	// Now is the clock of the sale window (default time.Now).
	Now func() time.Time
	// OnPersisted is called after each batch the consumers persist, with the
	// orders it created (the order service announces their new status);
	// nil: no one is told.
	OnPersisted func(context.Context, []Persisted)
	// OnRejected is called with the accepted orders the consumers ended
	// without persisting them (their buyers released in Redis); nil: no one
	// is told.
	OnRejected func(context.Context, []Rejected)

	// PerUser limits attempts per user (default 5 per second).
	PerUser ratelimit.Limit
	// RebuildPerUser limits, per user and across sales, the attempts that
	// find a sale's state missing in Redis and so read MySQL (default
	// DefaultRebuildPerUser): ids that name no sale cannot make one user
	// cost a MySQL read each (missing.go).
	RebuildPerUser ratelimit.Limit
	// SoldOutTTL is how long an instance answers "sold out" without asking
	// Redis after seeing it (default DefaultSoldOutTTL; negative: never).
	// A unit given back clears it on every instance at once (soldout.go).
	SoldOutTTL time.Duration
	// Consumer tunes the stream consumers.
	Consumer ConsumerConfig
	// WaitReplicas > 0 acknowledges an admission only once that many Redis
	// replicas have it (WAIT, see wait.go), waiting at most WaitTimeout
	// (default 1 s). On a Cluster it waits on the master of the sale's slot.
	// Without it, acknowledged admissions are watched until persisted, so
	// one Redis loses is ended visibly (acked.go).
	WaitReplicas int
	WaitTimeout  time.Duration
	// Tokens configures the anti-bot tokens (token.go).
	Tokens TokenConfig
	// Tracing spans an order's life: its admission, whose trace the stream
	// entry carries, and the batch that persists it (trace.go). nil: off.
	Tracing *tracing.Tracing
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
	// now is this instance's clock, used only to pick the sales whose
	// streams it consumes (those that ended less than a day ago: being a few
	// seconds off there only shifts when a consumer starts or stops). Whether
	// a sale is open is never decided by it: seckill_admit.lua reads Redis's
	// clock, so every instance opens and closes a sale at the same moment.
	now func() time.Time

	admit       *lua.Batcher                   // concurrent admissions share round trips
	soldOut     *nearcache.Cache[*soldOutMark] // vouchers seen sold out; nil when off
	noSale      *nearcache.Cache[struct{}]     // ids seen naming no flash sale (missing.go)
	consumers   *consumers
	onPersisted func(context.Context, []Persisted)
	replicas    *replicaWaiter // nil: admissions are not waited for
	acked       *ackLedger     // acknowledged admissions not yet seen persisted (without replicas)
	onRejected  func(context.Context, []Rejected)
	hooks       hooks
	tracing     *tracing.Tracing
}

// hooks let tests fail a step (nil in production).
type hooks struct {
	insert func([]entry) error // in the batch's transaction, before its writes
	probe  func() error        // before the MySQL probe of a failed batch
	// settled runs after a batch is done and its epoch checked
	settled func()
}

// New returns the service. Start the consumers with Start.
func New(cfg Config) *Service {
	if cfg.PerUser.Events == 0 {
		cfg.PerUser = ratelimit.Limit{Events: 5, Per: time.Second}
	}
	if cfg.RebuildPerUser.Events <= 0 || cfg.RebuildPerUser.Per <= 0 {
		cfg.RebuildPerUser = DefaultRebuildPerUser
	}
	if cfg.IDs == nil {
		cfg.IDs = idgen.New(cfg.Redis, cfg.Prefix, "order", 0)
	}
	if cfg.Log == nil {
		cfg.Log = slog.Default()
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	cfg.Consumer.defaults()
	cfg.Tokens.defaults()
	s := &Service{db: cfg.DB, rdb: cfg.Redis, prefix: cfg.Prefix, ids: cfg.IDs, locks: cfg.Locks, limiter: cfg.Limiter,
		log: cfg.Log, cfg: cfg, now: cfg.Now, onPersisted: cfg.OnPersisted, onRejected: cfg.OnRejected,
		tracing: cfg.Tracing}
	s.admit = lua.NewBatcher(cfg.Redis, admit, lua.BatchOptions{})
	if cfg.SoldOutTTL == 0 {
		cfg.SoldOutTTL = DefaultSoldOutTTL
	}
	if cfg.SoldOutTTL > 0 {
		s.soldOut = nearcache.New[*soldOutMark](cfg.SoldOutTTL, 10_000)
	}
	s.noSale = nearcache.New[struct{}](noSaleTTL, 10_000)
	s.metrics = newMetrics(cfg.Registerer)
	s.consumers = newConsumers(s)
	s.replicas = newReplicaWaiter(cfg.Redis, cfg.WaitReplicas, cfg.WaitTimeout)
	s.acked = newAckLedger(s)
	return s
}

// admission results of seckill_admit.lua
const (
	admitted       = 0
	notStarted     = 1
	ended          = 2
	outOfStock     = 3
	alreadyOrdered = 4
	rateLimited    = 5 // with the retry-after
	badToken       = 6
	stateMissing   = -1
)

// admitResult reads the script's answer: a code, or {5, retry after ms}.
func admitResult(res any) (code, retryMs int64, err error) {
	switch v := res.(type) {
	case int64:
		return v, 0, nil
	case []any:
		if len(v) == 2 {
			c, ok1 := v[0].(int64)
			r, ok2 := v[1].(int64)
			if ok1 && ok2 {
				return c, r, nil
			}
		}
	}
	return 0, 0, fmt.Errorf("seckill admit: unexpected result %v", res)
}

// perUser is the per-user limit as the admission script takes it: emission
// interval (ms) and burst; burst 0 when rate limits are off.
func (s *Service) perUser() (interval, burst int64) {
	if s.limiter != nil && !s.limiter.Enabled() {
		return 0, 0
	}
	l := s.cfg.PerUser
	return max(l.Per.Milliseconds()/int64(l.Events), 1), int64(l.Events)
}

// Seckill tries to buy one unit of voucherID for userID and returns the id of
// the accepted order, which a consumer persists shortly after. It is
// SeckillWithToken without a token.
func (s *Service) Seckill(ctx context.Context, userID, voucherID int64) (int64, error) {
	return s.SeckillWithToken(ctx, userID, voucherID, "")
}

// SeckillWithToken is Seckill with an anti-bot token from IssueToken: required
// when the tokens are (TokenConfig.Required), checked and used up whenever given.
func (s *Service) SeckillWithToken(ctx context.Context, userID, voucherID int64, token string) (orderID int64, err error) {
	if s.tracing.Enabled() {
		var end func(int64, error)
		ctx, end = s.startAdmission(ctx, voucherID)
		defer func() { end(orderID, err) }()
	}
	if token == "" && s.cfg.Tokens.Required {
		s.metrics.requests.WithLabelValues("bad_token").Inc()
		return 0, apperr.BadInput("token", "is required: get one from seckillToken once the sale has started")
	}
	if s.knownSoldOut(voucherID) {
		s.metrics.requests.WithLabelValues("out_of_stock").Inc()
		return 0, apperr.New(apperr.OutOfStock, "sold out")
	}
	orderID, err = s.ids.Next(ctx)
	if err != nil {
		return 0, err
	}
	k := KeysOf(s.prefix, voucherID)
	keys := []string{k.State, k.Buyers, k.Orders, k.Limit(userID)}
	interval, burst := s.perUser()
	args := []any{userID, orderID, voucherID, interval, burst}
	if token != "" {
		keys = append(keys, k.Token(userID))
		args = append(args, token)
	}
	if tp := s.tracing.Traceparent(ctx); tp != "" {
		// ARGV[7]: the stream entry carries the admission's trace to the
		// batch that persists it (ARGV[6], the token, is read only with KEYS[5]).
		if token == "" {
			args = append(args, "")
		}
		args = append(args, tp)
	}
	var code, retryMs int64
	epoch := s.soldOutEpoch()
	for attempt := 0; ; attempt++ {
		res, err := s.admit.Run(ctx, keys, args...).Result()
		if err != nil {
			return 0, fmt.Errorf("seckill admit: %w", err)
		}
		if code, retryMs, err = admitResult(res); err != nil {
			return 0, err
		}
		if code != stateMissing {
			break
		}
		if attempt == 2 {
			return 0, errors.New("seckill: sale state still missing after rebuilding it")
		}
		if err := s.rebuildFor(ctx, userID, voucherID); err != nil {
			s.countRefusal(err)
			return 0, err
		}
	}
	switch code {
	case rateLimited:
		s.metrics.requests.WithLabelValues("rate_limited").Inc()
		return 0, apperr.RateLimit("flash-sale attempts", retryMs)
	case badToken:
		s.metrics.requests.WithLabelValues("bad_token").Inc()
		return 0, errBadToken(s.cfg.Tokens.TTL)
	case admitted:
		if err := s.confirmReplicated(ctx, voucherID, userID, orderID); err != nil {
			return 0, err
		}
		s.metrics.requests.WithLabelValues("ok").Inc()
		return orderID, nil
	case notStarted:
		s.metrics.requests.WithLabelValues("not_started").Inc()
		return 0, apperr.New(apperr.SaleNotStarted, "the sale has not started")
	case ended:
		s.metrics.requests.WithLabelValues("ended").Inc()
		return 0, apperr.New(apperr.SaleEnded, "the sale has ended")
	case outOfStock:
		s.rememberSoldOut(voucherID, epoch)
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
	defer s.announceUnits(ctx, voucherID) // also after dropping the state: the rebuild may find units
	if err == nil {
		return
	}
	s.log.WarnContext(ctx, "cancelled unit not returned to Redis; dropping the sale state so it is rebuilt", "voucher", voucherID, "order", orderID, "err", err)
	if err := s.rdb.Del(ctx, k.State).Err(); err != nil {
		s.log.ErrorContext(ctx, "cannot drop the sale state either; Redis holds one unit less than MySQL until it is rebuilt", "voucher", voucherID, "err", err)
	}
}
