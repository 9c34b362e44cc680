package redisx_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"

	"github.com/hmdp/hmdp/internal/apperr"
	"github.com/hmdp/hmdp/internal/redisx"
	"github.com/hmdp/hmdp/internal/testenv"
)

// Redis behind a partition (a black hole: connections stay open, nothing
// answers): once one call has timed out, every call answers UNAVAILABLE at
// once instead of waiting its own 3 s (and queueing behind stalled
// pipelines), and calls go through again within a probe interval of the
// partition healing. Before, each call of 50 took its full timeout.
func TestBreakerFailsFastWhileRedisIsUnreachable(t *testing.T) {
	addr := testenv.RealRedisAddr()
	if addr == "" || testenv.RealRedisIsCluster() { // none, or a Cluster: one proxy cannot stand for it
		if addr != "" {
			t.Log("HMDP_TEST_REDIS_ADDR is a Cluster: partitioning an embedded Redis instead")
		}
		m := miniredis.RunT(t)
		addr = m.Addr()
	}
	proxy := testenv.NewProxy(t, addr)
	ctx := context.Background()
	conn, err := redisx.Open(ctx, []string{proxy.Addr()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	rdb := conn.Client
	key := "t" + testenv.RandomHex(4) + ":breaker"
	t.Cleanup(func() { _ = rdb.Del(context.Background(), key).Err() })
	if err := rdb.Set(ctx, key, "1", time.Minute).Err(); err != nil {
		t.Fatal(err)
	}

	proxy.BlackHole()
	start := time.Now()
	err = rdb.Get(ctx, key).Err()
	if !errors.Is(err, redisx.ErrTimeout) || apperr.CodeOf(err) != apperr.Unavailable {
		t.Fatalf("first call in the partition: %v, want its own timeout, as UNAVAILABLE", err)
	}
	if took := time.Since(start); took > redisx.CallTimeout+time.Second {
		t.Errorf("the first call in the partition took %v, want at most about %v", took, redisx.CallTimeout)
	}
	if !conn.Breaker.Open() {
		t.Fatal("the breaker did not open after a call timed out")
	}

	var wg sync.WaitGroup
	slowest := make(chan time.Duration, 50)
	for range 50 {
		wg.Go(func() {
			s := time.Now()
			err := rdb.Get(ctx, key).Err()
			slowest <- time.Since(s)
			if apperr.CodeOf(err) != apperr.Unavailable {
				t.Errorf("a call in the partition: %v, want UNAVAILABLE", err)
			}
		})
	}
	wg.Wait()
	close(slowest)
	var worst time.Duration
	for d := range slowest {
		worst = max(worst, d)
	}
	if worst > 500*time.Millisecond {
		t.Errorf("the slowest of 50 calls in the partition took %v, want an immediate answer", worst)
	}

	proxy.Heal()
	testenv.Eventually(t, 5*time.Second, "calls go through after the partition heals", func() bool {
		return rdb.Get(ctx, key).Err() == nil
	})
	if conn.Breaker.Open() {
		t.Fatal("the breaker is still open")
	}
}

// An answer from Redis, even an error reply or a missing key, never opens
// the breaker, nor does a caller giving up.
func TestBreakerStaysClosedOnAnswers(t *testing.T) {
	m := miniredis.RunT(t)
	ctx := context.Background()
	conn, err := redisx.Open(ctx, []string{m.Addr()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	_ = conn.Client.Get(ctx, "missing").Err()        // redis.Nil
	_ = conn.Client.Do(ctx, "NO-SUCH-COMMAND").Err() // error reply
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	_ = conn.Client.Get(cctx, "x").Err() // the caller gave up
	if conn.Breaker.Opened() != 0 {
		t.Fatalf("opened %d times", conn.Breaker.Opened())
	}
}

// Redis at its memory limit with noeviction refuses writes with an OOM
// reply: that is ErrFull (UNAVAILABLE, retryable), for single commands,
// scripts and pipelines alike, reads still work, and the breaker stays
// closed (Redis answers). Before, the reply was an internal error.
func TestFullRedisIsUnavailable(t *testing.T) {
	addr := testenv.StartRedisServer(t, "--maxmemory", "2mb", "--maxmemory-policy", "noeviction")
	ctx := context.Background()
	conn, err := redisx.Open(ctx, []string{addr})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	rdb := conn.Client
	blob := strings.Repeat("x", 64<<10)
	var full error
	for i := 0; i < 1000 && full == nil; i++ {
		full = rdb.Set(ctx, fmt.Sprint("fill:", i), blob, 0).Err()
	}
	if apperr.CodeOf(full) != apperr.Unavailable || !errors.Is(full, redisx.ErrFull) {
		t.Fatalf("a write at the memory limit: %v, want ErrFull", full)
	}
	script := redis.NewScript(`return redis.call('SET', KEYS[1], ARGV[1])`)
	if err := script.Run(ctx, rdb, []string{"by-script"}, blob).Err(); !redisx.Full(err) || apperr.CodeOf(err) != apperr.Unavailable {
		t.Errorf("a script's write: %v, want ErrFull", err)
	}
	pipe := rdb.Pipeline()
	set := pipe.Set(ctx, "by-pipeline", blob, 0)
	_, err = pipe.Exec(ctx)
	if apperr.CodeOf(err) != apperr.Unavailable || apperr.CodeOf(set.Err()) != apperr.Unavailable {
		t.Errorf("a pipelined write: %v / %v, want ErrFull", err, set.Err())
	}
	if err := rdb.Get(ctx, "fill:0").Err(); err != nil {
		t.Errorf("a read at the memory limit: %v", err)
	}
	if conn.Breaker.Opened() != 0 {
		t.Error("the breaker opened on a full Redis, which answers")
	}
}

// A call whose connection breaks before its answer (a master killed or
// failed over mid-call reads as EOF or a reset) answers UNAVAILABLE, single
// or pipelined, not the raw network error (which reached buyers as
// INTERNAL_SERVER_ERROR, "seckill admit: EOF").
func TestCutConnectionIsUnavailable(t *testing.T) {
	m := miniredis.RunT(t)
	proxy := testenv.NewProxy(t, m.Addr())
	ctx := context.Background()
	conn, err := redisx.Open(ctx, []string{proxy.Addr()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	rdb := conn.Client
	if err := rdb.Set(ctx, "k", "1", time.Minute).Err(); err != nil {
		t.Fatal(err)
	}
	cut := func() { // the call is sent into a black hole, then its connection closes
		proxy.BlackHole()
		time.AfterFunc(200*time.Millisecond, proxy.Stop)
	}
	cut()
	if err := rdb.Get(ctx, "k").Err(); apperr.CodeOf(err) != apperr.Unavailable {
		t.Fatalf("a call whose connection broke: %v (code %s), want UNAVAILABLE", err, apperr.CodeOf(err))
	}
	proxy.Heal()
	proxy.Start(t)
	testenv.Eventually(t, 10*time.Second, "Redis answers again", func() bool { return rdb.Ping(ctx).Err() == nil })
	cut()
	cmds, _ := rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
		p.Get(ctx, "k")
		p.Incr(ctx, "n")
		return nil
	})
	for _, c := range cmds {
		if err := c.Err(); apperr.CodeOf(err) != apperr.Unavailable {
			t.Fatalf("a pipelined %s whose connection broke: %v (code %s), want UNAVAILABLE", c.Name(), err, apperr.CodeOf(err))
		}
	}
}
