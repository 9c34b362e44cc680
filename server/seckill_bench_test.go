package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hmdp/hmdp/internal/seckill"
	"github.com/hmdp/hmdp/internal/testenv"
	"github.com/hmdp/hmdp/lua"
)

// Flash-sale admission benchmark (docs/BENCHMARKS.md, "Flash sale"):
// seckillVoucher through GraphQL over HTTP by distinct users, 50 clients at
// once, against the bare EVALSHA of the same script at the same concurrency;
// then GraphQL again, paced open-loop at 70% of the rate the latest
// closed-loop run reached, for its p99 (latency counted from each request's
// scheduled start, so falling behind shows).
// Real MySQL/Redis when HMDP_TEST_MYSQL_DSN / HMDP_TEST_REDIS_ADDR are set.

type benchSale struct {
	app    *App
	url    string
	tokens []string
	users  []int64
}

// newBenchSale starts a server with rate limits off and logs 2000 users in.
// It lives for the whole benchmark run (sub-benchmarks share it).
func newBenchSale(b *testing.B) *benchSale {
	cfg, err := LoadConfig(nil, func(string) string { return "" })
	if err != nil {
		b.Fatal(err)
	}
	cfg.DataDir, cfg.Seed, cfg.RateLimits = b.TempDir(), true, false
	cfg.AdminPhones = []string{"13900000000"}
	if testenv.RealMySQLDSN() != "" && testenv.RealRedisAddr() != "" {
		cfg.MySQLDSN = testenv.NewMySQLDatabase(b)
		cfg.RedisAddrs = strings.Split(testenv.RealRedisAddr(), ",")
		cfg.RedisPrefix = "bench" + testenv.RandomHex(4) + ":"
	}
	sms := &smsBox{codes: map[string]string{}}
	app, err := NewApp(context.Background(), cfg, slog.New(slog.NewJSONHandler(io.Discard, nil)), Options{Sender: sms})
	if err != nil {
		b.Fatal(err)
	}
	hs := httptest.NewServer(app.Handler())
	s := &benchSale{app: app, url: hs.URL}
	b.Cleanup(func() {
		hs.Close()
		testenv.DeleteKeys(context.Background(), app.redis.Client, cfg.RedisPrefix)
		app.Close()
	})
	ctx := context.Background()
	const n = 2000
	s.tokens = make([]string, n)
	s.users = make([]int64, n)
	var wg sync.WaitGroup
	var next atomic.Int64
	for range 16 {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < n; i = int(next.Add(1) - 1) {
				phone := fmt.Sprintf("136%08d", i)
				if err := app.auth.SendCode(ctx, phone, "10.0.0.1"); err != nil {
					b.Error(err)
					return
				}
				tok, u, err := app.auth.LoginWithCode(ctx, phone, sms.code(phone))
				if err != nil {
					b.Error(err)
					return
				}
				s.tokens[i], s.users[i] = tok, u.ID
			}
		})
	}
	wg.Wait()
	return s
}

// sale makes a flash-sale voucher big enough for every user.
func (s *benchSale) sale(b *testing.B) int64 {
	ctx := context.Background()
	db := s.app.db.Client
	v, err := db.Voucher.Create().SetShopID(1).SetTitle("bench").SetPayValue(1).SetActualValue(2).SetType(1).Save(ctx)
	if err != nil {
		b.Fatal(err)
	}
	sv, err := db.SeckillVoucher.Create().SetID(v.ID).SetStock(len(s.tokens)).
		SetBeginTime(time.Now().Add(-time.Minute)).SetEndTime(time.Now().Add(time.Hour)).Save(ctx)
	if err != nil {
		b.Fatal(err)
	}
	s.app.seckill.Publish(ctx, sv)
	return sv.ID
}

// run sends n attempts (user i % users, a new sale every len(users)
// attempts) with benchClients clients; rate > 0 paces them open-loop at rate
// per second, latency counted from each request's scheduled time.
func (s *benchSale) run(b *testing.B, n int, rate float64, do func(user int, voucher int64) error) (perSecond float64) {
	sales := make([]int64, (n+len(s.tokens)-1)/len(s.tokens))
	for i := range sales {
		sales[i] = s.sale(b)
	}
	lat := make([]time.Duration, n)
	var next atomic.Int64
	var wg sync.WaitGroup
	b.ResetTimer()
	start := time.Now()
	for range benchClients {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < n; i = int(next.Add(1) - 1) {
				t0 := time.Now()
				if rate > 0 {
					t0 = start.Add(time.Duration(float64(i) / rate * float64(time.Second)))
					time.Sleep(time.Until(t0))
				}
				if err := do(i%len(s.tokens), sales[i/len(s.tokens)]); err != nil {
					b.Error(err)
					return
				}
				lat[i] = time.Since(t0)
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	b.StopTimer()
	perSecond = float64(n) / elapsed.Seconds()
	// Let the consumers persist this run's orders before the next run starts
	// (untimed), so each run sees the same background load: its own.
	for deadline := time.Now().Add(time.Minute); ; {
		left, err := s.app.seckill.Backlog(context.Background())
		if err != nil {
			b.Fatal(err)
		}
		if left == 0 {
			break
		}
		if time.Now().After(deadline) {
			b.Fatalf("%d orders still not persisted", left)
		}
		time.Sleep(10 * time.Millisecond)
	}
	b.ReportMetric(perSecond, "req/s")
	slices.Sort(lat)
	b.ReportMetric(float64(lat[n/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(lat[n*99/100].Microseconds())/1000, "p99-ms")
	return perSecond
}

func (s *benchSale) graphql(user int, voucher int64) error {
	body, _ := json.Marshal(map[string]any{"query": seckillMutation, "variables": map[string]any{"v": strconv.FormatInt(voucher, 10)}})
	req, _ := http.NewRequest(http.MethodPost, s.url+"/graphql", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+s.tokens[user])
	res, err := benchClient.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	if !bytes.Contains(raw, []byte(`"PENDING"`)) {
		return fmt.Errorf("not accepted: %s", raw)
	}
	return nil
}

var benchClient = &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: benchClients * 2}}

func BenchmarkSeckillAdmission(b *testing.B) {
	s := newBenchSale(b)
	admit := lua.Script("seckill_admit")
	var peak float64
	var seq atomic.Int64 // order ids of the bare runs (each sub-benchmark runs more than once)
	b.Run("bare-evalsha", func(b *testing.B) {
		s.run(b, max(b.N, 1000), 0, func(user int, v int64) error {
			k := seckill.KeysOf(s.app.cfg.RedisPrefix, v)
			code, err := admit.Run(context.Background(), s.app.redis.Client, []string{k.State, k.Buyers, k.Orders},
				s.users[user], seq.Add(1), time.Now().UnixMilli(), v).Int64()
			if err == nil && code != 0 {
				err = fmt.Errorf("admit returned %d", code)
			}
			return err
		})
	})
	b.Run("graphql-http", func(b *testing.B) {
		peak = s.run(b, max(b.N, 1000), 0, s.graphql) // the latest closed-loop rate
	})
	b.Run("graphql-http-at-70pct-of-peak", func(b *testing.B) {
		if peak == 0 {
			b.Skip("needs the graphql-http run first")
		}
		s.run(b, max(b.N, 1000), 0.7*peak, s.graphql)
	})
}
