package app

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/hmdp/hmdp/internal/seckill"
	"github.com/hmdp/hmdp/internal/testenv"
)

// MySQL is unreachable for 10 s in the middle of a sale: admission goes on
// (it needs only Redis), the consumers retry with backoff, and once MySQL is
// back the backlog drains with every invariant intact.
func TestFlashSaleSurvivesMySQLOutage(t *testing.T) {
	t.Parallel()
	if testenv.RealMySQLDSN() == "" || testenv.RealRedisAddr() == "" {
		t.Skip("needs HMDP_TEST_MYSQL_DSN and HMDP_TEST_REDIS_ADDR")
	}
	cfg := testConfig(t, "real")
	direct, err := sql.Open("mysql", cfg.MySQLDSN)
	if err != nil {
		t.Fatal(err)
	}
	defer direct.Close()
	proxy := mysqlThroughProxy(t, &cfg)

	ts := startSaleServer(t, "real", cfg, fastSeckill)
	v := ts.createSale(100, time.Now().Add(-time.Second), time.Now().Add(time.Hour))
	tokens := ts.users(300)
	before := buy(t, []*testServer{ts}, tokens[:40], 1, 20, v)
	persisted := func() int {
		var n int
		if err := direct.QueryRowContext(t.Context(), "SELECT COUNT(*) FROM tb_voucher_order WHERE voucher_id = ?", v).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	for persisted() < 40 {
		time.Sleep(20 * time.Millisecond)
	}

	proxy.Stop()
	cutAt := time.Now()
	during := buy(t, []*testServer{ts}, tokens[40:], 1, 20, v)
	if during.codes["ok"] != 60 || during.codes["OUT_OF_STOCK"] != 200 {
		t.Fatalf("during the outage: %v", during.codes)
	}
	if n := persisted(); n != 40 {
		t.Fatalf("%d orders persisted while MySQL was unreachable", n)
	}
	time.Sleep(time.Until(cutAt.Add(10 * time.Second)))
	if n := persisted(); n != 40 {
		t.Fatalf("%d orders persisted while MySQL was unreachable", n)
	}
	proxy.Start(t)

	for id, tok := range during.accepted {
		before.accepted[id] = tok
	}
	drained(t, ts, v, 100, 100, before.accepted)
}

// try posts one seckillVoucher and reports the order id, "" when refused with
// an error code; a transport error (the server was killed) is returned as err.
func try(ctx context.Context, url, token string, voucherID int64) (string, error) {
	body, _ := json.Marshal(map[string]any{"query": seckillMutation, "variables": map[string]any{"v": strconv.FormatInt(voucherID, 10)}})
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, url+"/graphql", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return "", err
	}
	defer res.Body.Close()
	var out gqlResponse
	if err := json.NewDecoder(res.Body).Decode(&out); err != nil {
		return "", err
	}
	if out.code() != "" {
		return "", nil
	}
	var d struct{ SeckillVoucher struct{ OrderID string } }
	if err := json.Unmarshal(out.Data, &d); err != nil || d.SeckillVoucher.OrderID == "" {
		return "", errors.New("no order id")
	}
	return d.SeckillVoucher.OrderID, nil
}

// serverProcess is the real binary running as a subprocess.
// kill -9 a server in the middle of a sale, start it again: every order a
// client saw accepted is persisted once, nothing is oversold, and the
// restarted process takes over what the dead one had read but not persisted.
func TestFlashSaleSurvivesKill9(t *testing.T) {
	t.Parallel()
	bin := buildServer(t)
	forEachBackend(t, func(t *testing.T, backend string) {
		cfg := sharedConfig(t, backend)
		// This in-test instance makes the sale and the tokens, then stops its
		// consumers: only the subprocesses persist.
		ts := startSaleServer(t, backend, cfg, fastSeckill)
		v := ts.createSale(100, time.Now().Add(-time.Second), time.Now().Add(time.Hour))
		tokens := ts.users(400)
		ts.app.seckill.Stop(context.Background())

		env := processEnv(cfg, "HMDP_ORDER_CLAIM_IDLE=1s")
		proc := startProcess(t, bin, env)

		var mu sync.Mutex
		accepted := map[string]bool{}
		var next, okCount atomic.Int64
		var killed atomic.Bool
		var wg sync.WaitGroup
		sale := func(url string, from, to int) {
			for range 20 {
				wg.Go(func() {
					for i := from + int(next.Add(1)-1); i < to; i = from + int(next.Add(1)-1) {
						id, err := try(t.Context(), url, tokens[i%len(tokens)], v)
						if err != nil {
							continue // killed mid-request: the client never saw it accepted
						}
						if id != "" {
							mu.Lock()
							accepted[id] = true
							mu.Unlock()
							if okCount.Add(1) == 50 && killed.CompareAndSwap(false, true) {
								_ = proc.cmd.Process.Signal(syscall9())
							}
						}
					}
				})
			}
			wg.Wait()
		}
		sale(proc.url, 0, 400)
		if !killed.Load() {
			t.Fatalf("the sale ended before the kill (%d accepted)", okCount.Load())
		}
		_ = proc.cmd.Wait()

		proc = startProcess(t, bin, env)
		next.Store(0)
		sale(proc.url, 0, 800) // everyone again: second attempts are refused
		mu.Lock()
		defer mu.Unlock()
		var rows int
		deadline := time.Now().Add(30 * time.Second)
		for {
			if err := ts.app.db.SQL.QueryRowContext(t.Context(), "SELECT COUNT(*) FROM tb_voucher_order WHERE voucher_id = ?", v).Scan(&rows); err != nil {
				t.Fatal(err)
			}
			left, _ := ts.redis().XLen(context.Background(), seckillKeys(ts, v).Orders).Result()
			if rows == 100 && left == 0 || time.Now().After(deadline) {
				break
			}
			time.Sleep(50 * time.Millisecond)
		}
		// Stock 100 and 400 buyers: all 100 units sold, including any whose
		// client lost the answer to the kill.
		drained(t, ts, v, 100, 100, nil)
		ids := map[string]bool{}
		r, err := ts.app.db.SQL.QueryContext(t.Context(), "SELECT id FROM tb_voucher_order WHERE voucher_id = ?", v)
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		for r.Next() {
			var id int64
			_ = r.Scan(&id)
			ids[strconv.FormatInt(id, 10)] = true
		}
		for id := range accepted {
			if !ids[id] {
				t.Errorf("order %s was accepted but is not in MySQL", id)
			}
		}
	})
}

func syscall9() os.Signal { return os.Kill }

func seckillKeys(ts *testServer, v int64) seckill.Keys {
	return seckill.KeysOf(ts.app.cfg.RedisPrefix, v)
}

// SIGTERM in the middle of a sale: the server drains requests, its consumers
// finish the batches they hold, and it exits leaving no entry pending with a
// consumer that is gone (nothing waits for a takeover).
func TestFlashSaleGracefulStopLeavesNothingPending(t *testing.T) {
	t.Parallel()
	bin := buildServer(t)
	forEachBackend(t, func(t *testing.T, backend string) {
		cfg := sharedConfig(t, backend)
		ts := startSaleServer(t, backend, cfg, fastSeckill)
		v := ts.createSale(1000, time.Now().Add(-time.Second), time.Now().Add(time.Hour))
		tokens := ts.users(300)
		ts.app.seckill.Stop(context.Background())
		proc := startProcess(t, bin, processEnv(cfg, "HMDP_ORDER_CLAIM_IDLE=1h"))
		var wg sync.WaitGroup
		var next, ok atomic.Int64
		var termed atomic.Bool
		for range 20 {
			wg.Go(func() {
				for i := int(next.Add(1) - 1); i < len(tokens); i = int(next.Add(1) - 1) {
					if id, err := try(t.Context(), proc.url, tokens[i], v); err == nil && id != "" {
						if ok.Add(1) == 100 && termed.CompareAndSwap(false, true) {
							_ = proc.cmd.Process.Signal(syscall.SIGTERM)
						}
					}
				}
			})
		}
		wg.Wait()
		if err := proc.cmd.Wait(); err != nil {
			t.Fatalf("server exited with %v", err)
		}
		p, err := ts.redis().XPending(context.Background(), seckillKeys(ts, v).Orders, seckill.Group).Result()
		if err != nil {
			t.Fatal(err)
		}
		if p.Count != 0 {
			t.Fatalf("%d entries left pending by the stopped server", p.Count)
		}
		if ok.Load() < 100 {
			t.Fatalf("only %d accepted", ok.Load())
		}
	})
}
