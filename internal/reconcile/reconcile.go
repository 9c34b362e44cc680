// Package reconcile compares the Redis copies of MySQL facts with MySQL and
// repairs what is safe to repair (ARCHITECTURE.md "MySQL is the truth").
//
// What it compares:
//
//   - each flash sale open or ended less than a day ago (or the one asked
//     for): its Redis stock, buyers and order stream against
//     tb_seckill_voucher.stock and tb_voucher_order (sales.go);
//   - the like zsets, follow sets and sign-in bitmaps that exist in Redis
//     against blog_like, tb_follow and tb_sign (copies.go), found with SCAN
//     (COUNT 100, never KEYS), at most Config.MaxKeys a run, resuming where
//     the previous run stopped.
//
// A difference becomes a Finding only when it is seen twice, Config.Settle
// apart (longer than any write's step after its commit may take: a
// cancellation's release, a refund's returned unit, a like's mirror), and
// the same both times. Each finding is counted (hmdp_reconcile_findings_total
// by kind) and logged as one JSON line; it is repaired unless the run is a
// dry run, by a script that changes Redis only if Redis still holds what was
// seen. Each kind's rule, and why it is safe, is beside its Kind.
package reconcile

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/redis/go-redis/v9"

	"github.com/hmdp/hmdp/ent"
	"github.com/hmdp/hmdp/internal/seckill"
)

// Kind is what a finding is about.
type Kind string

// The kinds of findings, and what is repaired.
const (
	// SaleStock: the Redis stock is not MySQL's stock minus the orders still
	// in the stream. Repaired by adding the difference, only when both looks
	// saw the same Redis stock, buyer count, stream length and epoch, and
	// only if they are still the same when written (reconcile_stock.lua): an
	// admission, release, rejection, acknowledgement or rebuild in between
	// leaves it for a quieter run. Never when the difference would be
	// negative past zero (Redis oversold: the consumers' no_stock_in_mysql
	// rejections settle it), nor in a run that repairs the sale's buyers.
	SaleStock Kind = "sale_stock"
	// SaleBuyerWithoutOrder: a buyer in Redis whose order is neither in the
	// stream nor in MySQL. The stream is the witness, as for the consumers:
	// an admission adds the buyer and the entry together, a consumer removes
	// the entry only after its commit, a rejection removes it together with
	// the buyer; and the stream is read (with the buyers, atomically) before
	// MySQL. So such an order was lost by Redis (ARCHITECTURE.md 3.6). The
	// buyer is released and the unit returned, only if Redis still holds
	// that order for the buyer, and the order is recorded rejected (reason
	// seckill.ReasonLost) and announced, so its buyer sees it end; if the
	// buyer has a live order in MySQL, Redis points at it instead.
	SaleBuyerWithoutOrder Kind = "sale_buyer_without_order"
	// SaleBuyerOfCancelledOrder: a buyer in Redis whose order MySQL has
	// cancelled (the release after the cancellation's commit was lost).
	// Repaired as the release would have: buyer forgotten and unit returned,
	// only if Redis still holds that order, so of the job and a late release
	// one acts.
	SaleBuyerOfCancelledOrder Kind = "sale_buyer_of_cancelled_order"
	// SaleOrderWithoutBuyer: a live order in MySQL whose buyer Redis does
	// not hold (Redis would admit the buyer again, and MySQL then refuse the
	// order as duplicate_buyer). Repaired by recording the buyer, only if
	// Redis holds no order for them: a purchase meanwhile wins.
	SaleOrderWithoutBuyer Kind = "sale_order_without_buyer"
	// LikeMissing, LikeExtra: a blog's like zset lacks a like of blog_like,
	// or has one blog_like lacks. Repaired by rebuilding the zset from MySQL
	// with the like service's version guard (like_rebuild.lua): a like or
	// unlike applied meanwhile makes the rebuild write nothing.
	LikeMissing Kind = "like_missing"
	LikeExtra   Kind = "like_extra"
	// FollowMissing, FollowExtra: the same for a follows or followers set
	// and tb_follow (set_rebuild.lua).
	FollowMissing Kind = "follow_missing"
	FollowExtra   Kind = "follow_extra"
	// SignInMissing: a month bitmap lacks a day of tb_sign (or its make-up
	// bit). Repaired with SETBIT: bits are only ever set, so nothing a
	// concurrent sign-in writes can be undone. SignInExtra: it has a day
	// tb_sign lacks. Repaired by deleting the bitmap: the next read rebuilds
	// it from MySQL (a bitmap without its marker bit is never trusted).
	SignInMissing Kind = "signin_missing"
	SignInExtra   Kind = "signin_extra"
)

// Kinds lists every kind (the metric's labels).
var Kinds = []Kind{SaleStock, SaleBuyerWithoutOrder, SaleBuyerOfCancelledOrder, SaleOrderWithoutBuyer,
	LikeMissing, LikeExtra, FollowMissing, FollowExtra, SignInMissing, SignInExtra}

// Finding is one difference seen twice.
type Finding struct {
	Kind Kind   `json:"kind"`
	Key  string `json:"key"` // the Redis key
	// Sale, User, Order, Member say what it is about (0 when not).
	Sale   int64 `json:"sale,omitempty"`
	User   int64 `json:"user,omitempty"`
	Order  int64 `json:"order,omitempty"`
	Member int64 `json:"member,omitempty"`
	// Redis and MySQL are the two values compared, where there are values.
	Redis int64 `json:"redis,omitempty"`
	MySQL int64 `json:"mysql,omitempty"`
	// Repaired: the repair was made (false in a dry run, or when Redis
	// moved meanwhile: the next run looks again).
	Repaired bool `json:"repaired"`
}

// Report is what one run found.
type Report struct {
	DryRun   bool      `json:"dryRun"`
	Sales    int       `json:"sales"`  // sales compared
	Copies   int       `json:"copies"` // Redis copies compared
	Findings []Finding `json:"findings"`
}

// Options are one run's.
type Options struct {
	DryRun bool
	// Sale, when not 0, compares only that sale (and no copies).
	Sale int64
}

// Defaults of Config.
const (
	DefaultSettle       = 5 * time.Second
	DefaultMaxKeys      = 1000
	DefaultMaxSaleItems = 100_000
	DefaultMaxSales     = 1000
)

// Config holds the job's dependencies and bounds; zero values take the defaults.
type Config struct {
	DB     *ent.Client
	Redis  redis.UniversalClient
	Prefix string
	Log    *slog.Logger // default slog.Default()
	// Registerer receives hmdp_reconcile_findings_total (nil: not registered).
	Registerer prometheus.Registerer
	// Settle is the wait between the two looks (DefaultSettle).
	Settle time.Duration
	// MaxKeys bounds the Redis copies compared per run (DefaultMaxKeys).
	MaxKeys int
	// MaxSaleItems bounds a sale's buyers, stream entries and orders; a
	// bigger sale is skipped, with a warning (DefaultMaxSaleItems).
	MaxSaleItems int
	// MaxSales bounds the sales compared per run (DefaultMaxSales).
	MaxSales int
	// OnRejected tells the buyers of lost orders (SaleBuyerWithoutOrder).
	OnRejected func(context.Context, []seckill.Rejected)
	Now        func() time.Time // default time.Now
}

// Job is the reconciliation job.
type Job struct {
	cfg      Config
	log      *slog.Logger
	findings *prometheus.CounterVec
	runs     *prometheus.CounterVec

	mu      sync.Mutex  // one run at a time in this process
	cursors scanCursors // where the copies' SCAN resumes
}

// New returns the job.
func New(cfg Config) *Job {
	if cfg.Log == nil {
		cfg.Log = slog.Default()
	}
	if cfg.Settle <= 0 {
		cfg.Settle = DefaultSettle
	}
	if cfg.MaxKeys <= 0 {
		cfg.MaxKeys = DefaultMaxKeys
	}
	if cfg.MaxSaleItems <= 0 {
		cfg.MaxSaleItems = DefaultMaxSaleItems
	}
	if cfg.MaxSales <= 0 {
		cfg.MaxSales = DefaultMaxSales
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	j := &Job{cfg: cfg, log: cfg.Log, cursors: scanCursors{}}
	j.findings = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "hmdp_reconcile_findings_total",
		Help: "Differences between Redis copies and MySQL the reconciliation job found (seen twice), by kind and whether repaired.",
	}, []string{"kind", "repaired"})
	j.runs = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "hmdp_reconcile_runs_total", Help: "Reconciliation runs, by result (ok, error).",
	}, []string{"result"})
	for _, k := range Kinds {
		j.findings.WithLabelValues(string(k), "true")
		j.findings.WithLabelValues(string(k), "false")
	}
	if cfg.Registerer != nil {
		cfg.Registerer.MustRegister(j.findings, j.runs)
	}
	return j
}

// Run compares and repairs once (see the package comment).
func (j *Job) Run(ctx context.Context, opt Options) (Report, error) {
	j.mu.Lock()
	defer j.mu.Unlock()
	rep := Report{DryRun: opt.DryRun, Findings: []Finding{}}
	err := j.sales(ctx, opt, &rep)
	if err == nil && opt.Sale == 0 {
		err = j.copies(ctx, opt, &rep)
	}
	result := "ok"
	if err != nil {
		result = "error"
	}
	j.runs.WithLabelValues(result).Inc()
	j.log.InfoContext(ctx, "reconciliation run", "dry_run", opt.DryRun, "sales", rep.Sales, "copies", rep.Copies,
		"findings", len(rep.Findings), "err", err)
	return rep, err
}

// report counts and logs a finding (after its repair was tried).
func (j *Job) report(ctx context.Context, rep *Report, f Finding) {
	rep.Findings = append(rep.Findings, f)
	j.findings.WithLabelValues(string(f.Kind), fmt.Sprint(f.Repaired)).Inc()
	j.log.WarnContext(ctx, "reconciliation finding", "kind", f.Kind, "key", f.Key, "sale", f.Sale, "user", f.User,
		"order", f.Order, "member", f.Member, "redis", f.Redis, "mysql", f.MySQL, "repaired", f.Repaired, "dry_run", rep.DryRun)
}

// settle waits between the two looks.
func (j *Job) settle(ctx context.Context) error {
	t := time.NewTimer(j.cfg.Settle)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
