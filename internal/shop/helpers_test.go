package shop

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/hmdp/hmdp/ent"
	"github.com/hmdp/hmdp/internal/database"
	"github.com/hmdp/hmdp/internal/lock"
	"github.com/hmdp/hmdp/internal/testenv"
)

// queries counts the SQL statements an ent client sends (through ent's debug
// driver), so tests can prove how often MySQL is asked.
type queries struct{ byID, types, all atomic.Int64 }

// shopByID is the shape of a single-shop load (Shop.Get).
const shopByID = "FROM `tb_shop` WHERE `tb_shop`.`id` = "

func (q *queries) log(args ...any) {
	s := fmt.Sprint(args...)
	q.all.Add(1)
	if strings.Contains(s, shopByID) {
		q.byID.Add(1)
	}
	if strings.Contains(s, "`tb_shop_type`") {
		q.types.Add(1)
	}
}

// env is one back end: a seeded database whose queries are counted, and Redis.
type env struct {
	db    *database.DB
	redis testenv.RedisBackend
	q     *queries
}

func forEach(t *testing.T, fn func(t *testing.T, e env)) {
	t.Helper()
	run := func(t *testing.T, open func(testing.TB, ...ent.Option) *database.DB, r func(testing.TB) testenv.RedisBackend) {
		t.Helper()
		q := &queries{}
		db := open(t, ent.Debug(), ent.Log(q.log))
		if _, err := db.Seed(context.Background(), time.Now()); err != nil {
			t.Fatal(err)
		}
		fn(t, env{db: db, redis: r(t), q: q})
	}
	testenv.ForEachKind(t, func(t *testing.T, kind string) {
		if kind == testenv.Real {
			run(t, testenv.NewMySQL, testenv.NewRealRedis)
			return
		}
		run(t, testenv.NewSQLite, testenv.NewEmbeddedRedis)
	})
}

// instance starts one service as one server process would (its own
// singleflight, near cache, locker and registry) on the shared back ends.
func (e env) instance(t *testing.T, edit func(*Config)) *Service {
	t.Helper()
	l := lock.New(e.redis.Client, e.redis.Prefix)
	t.Cleanup(func() { _ = l.Close() })
	cfg := Config{DB: e.db.Client, Redis: e.redis.Client, Locker: l, Prefix: e.redis.Prefix,
		NearTTL: time.Second, Registerer: prometheus.NewRegistry(), OutboxInterval: 50 * time.Millisecond}
	if edit != nil {
		edit(&cfg)
	}
	s := New(cfg)
	if err := s.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

func ptr[T any](v T) *T { return &v }
