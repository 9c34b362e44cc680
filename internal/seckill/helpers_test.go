package seckill

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/hmdp/hmdp/ent"
	"github.com/hmdp/hmdp/internal/idgen"
	"github.com/hmdp/hmdp/internal/lock"
	"github.com/hmdp/hmdp/internal/ratelimit"
	"github.com/hmdp/hmdp/internal/testenv"
)

var fast = Config{
	PerUser: ratelimit.Limit{Events: 1000, Per: time.Second},
	Consumer: ConsumerConfig{Block: 100 * time.Millisecond, ClaimIdle: 200 * time.Millisecond,
		ClaimEvery: 50 * time.Millisecond, Refresh: 100 * time.Millisecond, MaxBackoff: 200 * time.Millisecond},
}

type fixture struct {
	b   testenv.Backends
	s   *Service
	reg *prometheus.Registry
}

// newService builds a service on the test's back ends (consumers not started).
func newService(t testing.TB, b testenv.Backends, cfg Config) *fixture {
	t.Helper()
	log := slog.New(slog.NewJSONHandler(io.Discard, nil))
	if testing.Verbose() {
		log = slog.New(slog.NewJSONHandler(tw{t}, nil))
	}
	locks := lock.New(b.Redis.Client, b.Redis.Prefix)
	t.Cleanup(func() { _ = locks.Close() })
	reg := prometheus.NewRegistry()
	cfg.DB, cfg.Redis, cfg.Prefix = b.DB.Client, b.Redis.Client, b.Redis.Prefix
	cfg.IDs = idgen.New(b.Redis.Client, b.Redis.Prefix, "order", 0)
	cfg.Locks, cfg.Limiter, cfg.Log, cfg.Registerer = locks, ratelimit.New(b.Redis.Client, b.Redis.Prefix, true), log, reg
	s := New(cfg)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		s.Stop(ctx)
	})
	return &fixture{b: b, s: s, reg: reg}
}

type tw struct{ t testing.TB }

func (w tw) Write(p []byte) (int, error) { w.t.Log(string(p)); return len(p), nil }

// sale creates shop 1 (if needed), a flash-sale voucher and its Redis state.
func (f *fixture) sale(t testing.TB, stock int, begin, end time.Time) int64 {
	t.Helper()
	ctx := context.Background()
	sv := testenv.Sale{Stock: stock, Begin: begin.Truncate(time.Second), End: end.Truncate(time.Second)}.
		MustCreate(t, ctx, f.b.DB.Client)
	f.s.Publish(ctx, sv)
	return sv.ID
}

// waitPersisted waits until MySQL has n orders of voucher v and its stream is empty.
func (f *fixture) waitPersisted(t *testing.T, v int64, n int) {
	t.Helper()
	ctx := context.Background()
	deadline := time.Now().Add(20 * time.Second)
	for {
		got, err := f.b.DB.Client.Order.Query().Where(orderVoucher(v)).Count(ctx)
		if err != nil {
			t.Fatal(err)
		}
		left, err := f.b.Redis.Client.XLen(ctx, KeysOf(f.b.Redis.Prefix, v).Orders).Result()
		if err != nil {
			t.Fatal(err)
		}
		if got == n && left == 0 {
			return
		}
		if got > n {
			t.Fatalf("%d orders persisted, want %d", got, n)
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d orders persisted, %d left in the stream; want %d", got, left, n)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func (f *fixture) mysqlStock(t *testing.T, v int64) int {
	t.Helper()
	sv, err := f.b.DB.Client.SeckillVoucher.Get(context.Background(), v)
	if err != nil {
		t.Fatal(err)
	}
	return sv.Stock
}

var _ = ent.IsNotFound

// cutMySQL makes the consumers' batch inserts and MySQL probes fail, as when
// MySQL is unreachable, until the returned function restores them: a batch
// read meanwhile stays in its consumer's memory, retried.
func (f *fixture) cutMySQL() (restore func()) {
	var mu sync.Mutex
	down := true
	failing := func() error {
		mu.Lock()
		defer mu.Unlock()
		if down {
			return errors.New("injected: MySQL unreachable")
		}
		return nil
	}
	f.s.hooks.insert = func([]entry) error { return failing() }
	f.s.hooks.probe = failing
	return func() {
		mu.Lock()
		defer mu.Unlock()
		down = false
	}
}
