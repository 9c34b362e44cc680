package reconcile

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"
	"github.com/redis/go-redis/v9"

	entorder "github.com/hmdp/hmdp/ent/order"
	"github.com/hmdp/hmdp/ent/schema/enum"
	"github.com/hmdp/hmdp/internal/apperr"
	"github.com/hmdp/hmdp/internal/idgen"
	"github.com/hmdp/hmdp/internal/like"
	"github.com/hmdp/hmdp/internal/lock"
	"github.com/hmdp/hmdp/internal/ratelimit"
	"github.com/hmdp/hmdp/internal/seckill"
	"github.com/hmdp/hmdp/internal/signin"
	"github.com/hmdp/hmdp/internal/testenv"
)

type env struct {
	b        testenv.Backends
	sk       *seckill.Service
	job      *Job
	reg      *prometheus.Registry
	mu       sync.Mutex
	rejected []seckill.Rejected
}

func newEnv(t *testing.T, b testenv.Backends) *env {
	t.Helper()
	log := slog.New(slog.NewJSONHandler(io.Discard, nil))
	locks := lock.New(b.Redis.Client, b.Redis.Prefix)
	t.Cleanup(func() { _ = locks.Close() })
	e := &env{b: b, reg: prometheus.NewRegistry()}
	e.sk = seckill.New(seckill.Config{DB: b.DB.Client, Redis: b.Redis.Client, Prefix: b.Redis.Prefix,
		IDs: idgen.New(b.Redis.Client, b.Redis.Prefix, "order", 0), Locks: locks, Log: log,
		Limiter: ratelimit.New(b.Redis.Client, b.Redis.Prefix, false), SoldOutTTL: -1,
		Consumer: seckill.ConsumerConfig{Block: 100 * time.Millisecond, ClaimIdle: 500 * time.Millisecond,
			ClaimEvery: 50 * time.Millisecond, Refresh: 100 * time.Millisecond, MaxBackoff: 200 * time.Millisecond}})
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		e.sk.Stop(ctx)
	})
	e.job = New(Config{DB: b.DB.Client, Redis: b.Redis.Client, Prefix: b.Redis.Prefix, Log: log, Registerer: e.reg,
		Settle: 50 * time.Millisecond, OnRejected: func(_ context.Context, rs []seckill.Rejected) {
			e.mu.Lock()
			defer e.mu.Unlock()
			e.rejected = append(e.rejected, rs...)
		}})
	return e
}

func (e *env) sale(t *testing.T, stock int) int64 {
	t.Helper()
	ctx := context.Background()
	sv := testenv.Sale{Stock: stock}.MustCreate(t, ctx, e.b.DB.Client)
	e.sk.Publish(ctx, sv)
	return sv.ID
}

func (e *env) waitPersisted(t *testing.T, v int64, n int) {
	t.Helper()
	ctx := context.Background()
	testenv.Eventually(t, 30*time.Second, fmt.Sprintf("%d orders of sale %d persisted", n, v), func() bool {
		got, _ := e.b.DB.Client.Order.Query().Where(entorder.VoucherID(v)).Count(ctx)
		left, _ := e.b.Redis.Client.XLen(ctx, seckill.KeysOf(e.b.Redis.Prefix, v).Orders).Result()
		return got == n && left == 0
	})
}

func (e *env) redisStock(t *testing.T, v int64) int64 {
	t.Helper()
	n, err := e.b.Redis.Client.HGet(context.Background(), seckill.KeysOf(e.b.Redis.Prefix, v).State, "stock").Int64()
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func kinds(rep Report) map[Kind]int {
	out := map[Kind]int{}
	for _, f := range rep.Findings {
		out[f.Kind]++
	}
	return out
}

// dump is every key under the test's prefix with its value, to show a dry
// run changed nothing (on a Cluster, from every master's keys).
func dump(t *testing.T, b testenv.Backends) map[string]string {
	t.Helper()
	ctx := context.Background()
	keys, err := testenv.Keys(ctx, b.Redis.Client, b.Redis.Prefix)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, k := range keys {
		typ := b.Redis.Client.Type(ctx, k).Val()
		var v any
		switch typ {
		case "string":
			v = b.Redis.Client.Get(ctx, k).Val()
		case "hash":
			v = b.Redis.Client.HGetAll(ctx, k).Val()
		case "set":
			v = b.Redis.Client.SMembers(ctx, k).Val()
		case "zset":
			v = b.Redis.Client.ZRangeWithScores(ctx, k, 0, -1).Val()
		case "stream":
			v = b.Redis.Client.XRange(ctx, k, "-", "+").Val()
		}
		out[k] = fmt.Sprint(typ, v)
	}
	return out
}

// Each kind of drift is found, reported and repaired; a dry run reports
// without changing anything; a second run finds nothing.
func TestFindsAndRepairsEachDrift(t *testing.T) {
	testenv.ForEachBackend(t, func(t *testing.T, b testenv.Backends) {
		e := newEnv(t, b)
		ctx := context.Background()
		rdb, db := b.Redis.Client, b.DB.Client

		stockSale, lostSale, buyerSale := e.sale(t, 10), e.sale(t, 10), e.sale(t, 10)
		e.sk.Start()
		for _, v := range []int64{stockSale, lostSale, buyerSale} {
			for u := int64(1); u <= 3; u++ {
				if _, err := e.sk.Seckill(ctx, u, v); err != nil {
					t.Fatal(err)
				}
			}
			e.waitPersisted(t, v, 3)
		}
		stopCtx, cancel := context.WithTimeout(ctx, 5*time.Second)
		e.sk.Stop(stopCtx)
		cancel()
		if rep, err := e.job.Run(ctx, Options{}); err != nil || len(rep.Findings) != 0 || rep.Sales != 3 {
			t.Fatalf("before any drift: %+v %v", rep, err)
		}

		// A Redis stock off by one.
		if err := rdb.HIncrBy(ctx, seckill.KeysOf(b.Redis.Prefix, stockSale).State, "stock", 1).Err(); err != nil {
			t.Fatal(err)
		}
		// A buyer without order and without stream entry (Redis lost the
		// entry after admitting it: the unit was taken).
		lk := seckill.KeysOf(b.Redis.Prefix, lostSale)
		const lostUser, lostOrder = 50, 990001
		if err := rdb.HSet(ctx, lk.Buyers, lostUser, lostOrder).Err(); err != nil {
			t.Fatal(err)
		}
		if err := rdb.HIncrBy(ctx, lk.State, "stock", -1).Err(); err != nil {
			t.Fatal(err)
		}
		// An order in MySQL whose buyer Redis forgot.
		bk := seckill.KeysOf(b.Redis.Prefix, buyerSale)
		forgot, err := rdb.HGet(ctx, bk.Buyers, "2").Result()
		if err != nil {
			t.Fatal(err)
		}
		if err := rdb.HDel(ctx, bk.Buyers, "2").Err(); err != nil {
			t.Fatal(err)
		}
		// A like set copy missing a member.
		likes := like.New(like.Config{DB: db, Redis: rdb, Prefix: b.Redis.Prefix})
		t.Cleanup(likes.Close)
		for u := int64(1); u <= 3; u++ {
			if err := db.BlogLike.Create().SetBlogID(100).SetUserID(u).SetCreateTime(time.UnixMilli(1_700_000_000_000 + u)).Exec(ctx); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := likes.Infos(ctx, 1, []int64{100}); err != nil { // builds the copy
			t.Fatal(err)
		}
		likeKey := b.Redis.Prefix + "blog:{100}:likes"
		if n, err := rdb.ZRem(ctx, likeKey, fmt.Sprintf("%019d", 2)).Result(); err != nil || n != 1 {
			t.Fatalf("ZREM: %d %v", n, err)
		}
		// A follow copy with an extra member.
		for _, f := range []int64{2, 3} {
			if err := db.Follow.Create().SetUserID(1).SetFollowUserID(f).Exec(ctx); err != nil {
				t.Fatal(err)
			}
		}
		followKey := b.Redis.Prefix + "follows:{1}"
		if err := rdb.SAdd(ctx, followKey, "~", "2", "3", "4").Err(); err != nil {
			t.Fatal(err)
		}
		// A sign-in bit missing.
		signs := signin.New(signin.Config{DB: db, Redis: rdb, Prefix: b.Redis.Prefix, Location: time.UTC})
		now := time.Now().UTC()
		for _, d := range []int{1, 2} {
			if err := db.Sign.Create().SetUserID(7).SetYear(now.Year()).SetMonth(int(now.Month())).
				SetDate(time.Date(now.Year(), now.Month(), d, 0, 0, 0, 0, time.UTC)).SetIsBackup(0).Exec(ctx); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := signs.Status(ctx, 7, nil); err != nil { // builds the copy
			t.Fatal(err)
		}
		signKey := b.Redis.Prefix + "sign:{7}:" + now.Format("200601")
		if err := rdb.SetBit(ctx, signKey, 1, 0).Err(); err != nil { // day 2
			t.Fatal(err)
		}

		want := map[Kind]int{SaleStock: 1, SaleBuyerWithoutOrder: 1, SaleOrderWithoutBuyer: 1,
			LikeMissing: 1, FollowExtra: 1, SignInMissing: 1}
		before := dump(t, b)
		rep, err := e.job.Run(ctx, Options{DryRun: true})
		if err != nil || fmt.Sprint(kinds(rep)) != fmt.Sprint(want) {
			t.Fatalf("dry run found %v (%v), want %v: %+v", kinds(rep), err, want, rep.Findings)
		}
		for _, f := range rep.Findings {
			if f.Repaired {
				t.Fatalf("dry run repaired %+v", f)
			}
		}
		if after := dump(t, b); fmt.Sprint(after) != fmt.Sprint(before) {
			t.Fatalf("the dry run changed Redis:\nbefore %v\nafter  %v", before, after)
		}

		rep, err = e.job.Run(ctx, Options{})
		if err != nil || fmt.Sprint(kinds(rep)) != fmt.Sprint(want) {
			t.Fatalf("run found %v (%v), want %v", kinds(rep), err, want)
		}
		for _, f := range rep.Findings {
			if !f.Repaired {
				t.Fatalf("not repaired: %+v", f)
			}
			switch f.Kind {
			case SaleStock:
				if f.Redis != 8 || f.MySQL != 7 {
					t.Fatalf("stock finding %+v, want Redis 8 MySQL 7", f)
				}
			case SaleBuyerWithoutOrder:
				if f.User != lostUser || f.Order != lostOrder {
					t.Fatalf("lost buyer finding %+v", f)
				}
			case LikeMissing:
				if f.Member != 2 {
					t.Fatalf("like finding %+v", f)
				}
			case FollowExtra:
				if f.Member != 4 || f.User != 1 {
					t.Fatalf("follow finding %+v", f)
				}
			case SignInMissing:
				if f.Member != 1 || f.User != 7 {
					t.Fatalf("sign-in finding %+v", f)
				}
			default:
			}
		}
		var m dto.Metric
		if err := e.job.findings.WithLabelValues(string(SaleStock), "true").Write(&m); err != nil || m.GetCounter().GetValue() != 1 {
			got := m.GetCounter().GetValue()
			t.Fatalf("hmdp_reconcile_findings_total{kind=sale_stock,repaired=true} = %v", got)
		}
		if e.redisStock(t, stockSale) != 7 || e.redisStock(t, lostSale) != 7 {
			t.Fatalf("stocks after the repair: %d %d, want 7 7", e.redisStock(t, stockSale), e.redisStock(t, lostSale))
		}
		if _, err := rdb.HGet(ctx, lk.Buyers, strconv.Itoa(lostUser)).Result(); !errors.Is(err, redis.Nil) {
			t.Fatalf("the lost order's buyer is still held: %v", err)
		}
		if v, r, err := e.sk.RejectedOrder(ctx, lostUser, lostOrder, []int64{lostSale}); err != nil || v != lostSale || r != seckill.ReasonLost {
			t.Fatalf("lost order shown as %d %q %v", v, r, err)
		}
		if len(e.rejected) != 1 || e.rejected[0].OrderID != lostOrder {
			t.Fatalf("buyers told %v", e.rejected)
		}
		if got, _ := rdb.HGet(ctx, bk.Buyers, "2").Result(); got != forgot {
			t.Fatalf("forgotten buyer holds %q, want %s", got, forgot)
		}
		if ok, _ := rdb.ZScore(ctx, likeKey, fmt.Sprintf("%019d", 2)).Result(); ok == 0 {
			t.Fatal("like not back in the copy")
		}
		if rdb.SIsMember(ctx, followKey, "4").Val() {
			t.Fatal("extra follow still in the copy")
		}
		if rdb.GetBit(ctx, signKey, 1).Val() != 1 {
			t.Fatal("sign-in bit not back")
		}

		rep, err = e.job.Run(ctx, Options{})
		if err != nil || len(rep.Findings) != 0 {
			t.Fatalf("second run found %v (%v)", rep.Findings, err)
		}
		// The released lost buyer may buy again; the forgotten one may not.
		e.sk.Start()
		if _, err := e.sk.Seckill(ctx, lostUser, lostSale); err != nil {
			t.Fatal(err)
		}
		if _, err := e.sk.Seckill(ctx, 2, buyerSale); apperr.CodeOf(err) != apperr.AlreadyOrdered {
			t.Fatalf("forgotten buyer buys again: %v", err)
		}
	})
}

// Purchases from many goroutines while the job runs again and again: every
// acknowledged order is persisted, none is sold twice, nothing is dead-lettered,
// and the job never repairs anything (there was no drift to repair).
func TestSafeDuringASale(t *testing.T) {
	testenv.ForEachBackend(t, func(t *testing.T, b testenv.Backends) {
		e := newEnv(t, b)
		ctx := context.Background()
		const stock, buyers, workers = 150, 300, 24
		v := e.sale(t, stock)
		e.sk.Start()

		stop := make(chan struct{})
		var runs atomic.Int64
		var jobErr error
		var jobWG sync.WaitGroup
		jobWG.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				rep, err := e.job.Run(ctx, Options{})
				if err != nil {
					jobErr = err
					return
				}
				runs.Add(1)
				for _, f := range rep.Findings {
					jobErr = fmt.Errorf("finding during a clean sale: %+v", f)
					return
				}
			}
		})

		var mu sync.Mutex
		accepted := map[int64]int64{} // order -> user
		var next atomic.Int64
		var wg sync.WaitGroup
		for range workers {
			wg.Go(func() {
				for {
					u := next.Add(1)
					if u > buyers {
						return
					}
					id, err := e.sk.Seckill(ctx, u, v)
					if apperr.CodeOf(err) == apperr.OutOfStock {
						continue
					}
					if err != nil {
						t.Error(err)
						return
					}
					mu.Lock()
					accepted[id] = u
					mu.Unlock()
					time.Sleep(time.Millisecond) // spread the sale over the job's runs
				}
			})
		}
		wg.Wait()
		e.waitPersisted(t, v, stock)
		time.Sleep(200 * time.Millisecond)
		close(stop)
		jobWG.Wait()
		if jobErr != nil {
			t.Fatal(jobErr)
		}
		if runs.Load() < 3 {
			t.Fatalf("the job ran %d times during the sale", runs.Load())
		}
		if len(accepted) != stock {
			t.Fatalf("%d orders accepted, want %d", len(accepted), stock)
		}
		orders, err := b.DB.Client.Order.Query().Where(entorder.VoucherID(v)).All(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range orders {
			if accepted[o.ID] != o.UserID || o.Status != enum.OrderUnpaid {
				t.Fatalf("order %+v was not accepted as such", o)
			}
		}
		if len(orders) != stock {
			t.Fatalf("%d orders in MySQL, want %d", len(orders), stock)
		}
		sv, _ := b.DB.Client.SeckillVoucher.Get(ctx, v)
		if sv.Stock != 0 || e.redisStock(t, v) != 0 {
			t.Fatalf("stock MySQL %d Redis %d, want 0 0", sv.Stock, e.redisStock(t, v))
		}
		if n, _ := b.Redis.Client.XLen(ctx, seckill.KeysOf(b.Redis.Prefix, v).Dead).Result(); n != 0 {
			t.Fatalf("%d dead letters", n)
		}
	})
}
