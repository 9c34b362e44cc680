package seckill

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/hmdp/hmdp/internal/apperr"
	"github.com/hmdp/hmdp/internal/testenv"
)

// startRedis runs a throw-away redis-server on a free loopback port (a
// replica of master when master is not ""), stopped with the test. It skips
// without redis-server on the PATH (outside CI: CI installs it).
func startRedis(t testing.TB, master string) string {
	t.Helper()
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("redis-server not installed under CI")
		}
		t.Skip("redis-server not installed")
	}
	l, err := new(net.ListenConfig).Listen(t.Context(), "tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := strconv.Itoa(l.Addr().(*net.TCPAddr).Port)
	_ = l.Close()
	dir := t.TempDir()
	args := []string{"--port", port, "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir,
		"--logfile", filepath.Join(dir, "log")}
	if master != "" {
		h, p, _ := net.SplitHostPort(master)
		args = append(args, "--replicaof", h, p)
	}
	// Not t.Context(): the cleanup below kills it, after the cleanups
	// registered later, which may still use it.
	cmd := exec.CommandContext(context.WithoutCancel(t.Context()), bin, args...)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	addr := "127.0.0.1:" + port
	c := redis.NewClient(&redis.Options{Addr: addr})
	defer func() { _ = c.Close() }()
	testenv.Eventually(t, 10*time.Second, "redis-server on "+addr, func() bool {
		info, err := c.Info(context.Background(), "replication").Result()
		return err == nil && (master == "" || strings.Contains(info, "master_link_status:up"))
	})
	return addr
}

// replicated returns Backends on a fresh master with replicas replicas (all
// synced) and the replicas' clients. MySQL is the real one when configured.
func replicated(t testing.TB, replicas int) (testenv.Backends, []*redis.Client) {
	t.Helper()
	master := startRedis(t, "")
	var rs []*redis.Client
	for range replicas {
		c := redis.NewClient(&redis.Options{Addr: startRedis(t, master)})
		t.Cleanup(func() { _ = c.Close() })
		rs = append(rs, c)
	}
	mc := redis.NewClient(&redis.Options{Addr: master})
	t.Cleanup(func() { _ = mc.Close() })
	db := testenv.NewSQLite(t)
	if testenv.RealMySQLDSN() != "" {
		db = testenv.NewMySQL(t)
	}
	return testenv.Backends{Name: "replicated", DB: db, Redis: testenv.RedisBackend{Name: "real", Client: mc, Prefix: "t" + testenv.RandomHex(4) + ":"}}, rs
}

// With WaitReplicas an admission is acknowledged only once the replica has
// it (read from the replica right after the answer), and refused with
// UNAVAILABLE when no replica confirms it in time.
func TestWaitReplicas(t *testing.T) {
	t.Run("replica-confirms", func(t *testing.T) {
		ctx := context.Background()
		b, rs := replicated(t, 1)
		cfg := fast
		cfg.WaitReplicas = 1
		f := newService(t, b, cfg)
		v := f.sale(t, 1000, time.Now().Add(-time.Minute), time.Now().Add(time.Hour))
		k := KeysOf(b.Redis.Prefix, v)
		var wg sync.WaitGroup
		var bad atomic.Int64
		for u := int64(1); u <= 200; u++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				id, err := f.s.Seckill(ctx, u, v)
				if err != nil {
					t.Error(err)
					return
				}
				got, err := rs[0].HGet(ctx, k.Buyers, strconv.FormatInt(u, 10)).Int64()
				if err != nil || got != id {
					bad.Add(1)
				}
			}()
		}
		wg.Wait()
		if n := bad.Load(); n > 0 {
			t.Fatalf("%d acknowledged admissions not yet on the replica", n)
		}
	})
	t.Run("no-replica", func(t *testing.T) {
		ctx := context.Background()
		b, _ := replicated(t, 0)
		cfg := fast
		cfg.WaitReplicas, cfg.WaitTimeout = 1, 50*time.Millisecond
		f := newService(t, b, cfg)
		v := f.sale(t, 10, time.Now().Add(-time.Minute), time.Now().Add(time.Hour))
		_, err := f.s.Seckill(ctx, 1, v)
		wantCode(t, err, apperr.Unavailable)
		if got := value(f.s.metrics.requests.WithLabelValues("unconfirmed")); got != 1 {
			t.Fatalf("unconfirmed counter %v", got)
		}
	})
}

// BenchmarkAdmitWait measures admissions per second on a master with one
// replica, without and with WaitReplicas=1 (64 concurrent buyers).
func BenchmarkAdmitWait(b *testing.B) {
	for _, n := range []int{0, 1} {
		b.Run(fmt.Sprintf("wait-replicas-%d", n), func(b *testing.B) {
			bk, _ := replicated(b, 1)
			cfg := fast
			cfg.WaitReplicas = n
			f := newService(b, bk, cfg)
			v := f.sale(b, b.N+1, time.Now().Add(-time.Minute), time.Now().Add(time.Hour))
			ctx := context.Background()
			var user atomic.Int64
			b.SetParallelism(32) // 64 goroutines on 2 cores
			b.ResetTimer()
			start := time.Now()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					if _, err := f.s.Seckill(ctx, user.Add(1), v); err != nil {
						b.Error(err)
						return
					}
				}
			})
			b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "admits/s")
		})
	}
}
