package lua

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"go.uber.org/goleak"

	"github.com/hmdp/hmdp/internal/testenv"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

var incr = redis.NewScript(`return redis.call('INCR', KEYS[1])`)

// Calls made while a pipeline is on the wire share the next one, and each
// caller gets its own call's answer.
func TestBatcherSharesRoundTrips(t *testing.T) {
	testenv.ForEachRedis(t, func(t *testing.T, rb testenv.RedisBackend) {
		ctx := context.Background()
		key := rb.Key("{n}")
		if err := incr.Load(ctx, rb.Client).Err(); err != nil {
			t.Fatal(err)
		}
		g := testenv.NewPipelineGate("evalsha")
		rb.Client.AddHook(g)
		b := NewBatcher(rb.Client, incr, BatchOptions{Max: 128, InFlight: 1})

		const n = 200
		got := make(chan int64, n)
		var wg sync.WaitGroup
		run := func() {
			v, err := b.Run(ctx, []string{key}).Int64()
			if err != nil {
				t.Error(err)
			}
			got <- v
		}
		wg.Go(run)
		<-g.Entered // the first call is on the wire, alone
		var queued sync.WaitGroup
		for range n - 1 {
			queued.Add(1)
			wg.Go(func() { queued.Done(); run() })
		}
		queued.Wait()
		for { // wait until all 199 are queued behind it
			b.mu.Lock()
			q := len(b.queue)
			b.mu.Unlock()
			if q == n-1 {
				break
			}
			time.Sleep(time.Millisecond)
		}
		close(g.Open)
		wg.Wait()
		close(got)
		seen := map[int64]bool{}
		for v := range got {
			if v < 1 || v > n || seen[v] {
				t.Fatalf("answer %d twice or out of range", v)
			}
			seen[v] = true
		}
		if p := g.Pipelines(); p != 3 { // 1, then 128 + 71
			t.Fatalf("%d pipelines for %d calls, want 3", p, n)
		}
	})
}

// A Redis that lost its scripts answers NOSCRIPT; the batch loads the script
// and sends those calls again, and each runs exactly once.
func TestBatcherReloadsScript(t *testing.T) {
	testenv.ForEachOwnRedis(t, func(t *testing.T, rb testenv.RedisBackend) {
		ctx := context.Background()
		key := rb.Key("{reload}")
		b := NewBatcher(rb.Client, incr, BatchOptions{})
		for i := int64(1); i <= 3; i++ {
			if err := rb.Client.ScriptFlush(ctx).Err(); err != nil {
				t.Fatal(err)
			}
			if v, err := b.Run(ctx, []string{key}).Int64(); err != nil || v != i {
				t.Fatalf("run %d: %d, %v", i, v, err)
			}
		}
	})
}

// A call whose context has already ended is not sent.
func TestBatcherCancelledCall(t *testing.T) {
	testenv.ForEachRedis(t, func(t *testing.T, rb testenv.RedisBackend) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		key := rb.Key("{cancelled}")
		err := NewBatcher(rb.Client, incr, BatchOptions{}).Run(ctx, []string{key}).Err()
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("err %v, want context.Canceled", err)
		}
		if n, _ := rb.Client.Exists(context.Background(), key).Result(); n != 0 {
			t.Fatal("a cancelled call ran")
		}
	})
}

// Scripts that read Redis's clock (TIME) before they write, as
// ratelimit_gcra and seckill_admit do, run through the Batcher's pipelined
// EVALSHA too: Redis 7 replicates scripts by their effects, so writes may
// follow TIME.
func TestBatcherRunsScriptsThatReadTime(t *testing.T) {
	testenv.ForEachRedis(t, func(t *testing.T, rb testenv.RedisBackend) {
		ctx := context.Background()
		b := NewBatcher(rb.Client, Script("ratelimit_gcra"), BatchOptions{})
		key := rb.Key("{gcra}")
		var wg sync.WaitGroup
		var mu sync.Mutex
		allowed := 0
		for range 20 {
			wg.Go(func() {
				res, err := b.Run(ctx, []string{key}, time.Hour.Milliseconds(), 5).Int64Slice()
				if err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				allowed += int(res[0])
				mu.Unlock()
			})
		}
		wg.Wait()
		if allowed != 5 {
			t.Fatalf("%d of 20 allowed, want the burst of 5", allowed)
		}
	})
}

var double = redis.NewScript(`return 2 * redis.call('INCR', KEYS[1])`)

// One batcher carries calls of several scripts and plain commands; after
// SCRIPT FLUSH each script is loaded again and every call still gets its own
// answer.
func TestBatcherMixesScriptsAndCommands(t *testing.T) {
	testenv.ForEachOwnRedis(t, func(t *testing.T, rb testenv.RedisBackend) {
		ctx := context.Background()
		b := NewBatcher(rb.Client, nil, BatchOptions{})
		a, d, p := rb.Key("{a}"), rb.Key("{d}"), rb.Key("{p}")
		for round := range 2 {
			if err := rb.Client.ScriptFlush(ctx).Err(); err != nil {
				t.Fatal(err)
			}
			var wg sync.WaitGroup
			for range 50 {
				wg.Go(func() {
					if err := b.RunScript(ctx, incr, []string{a}).Err(); err != nil {
						t.Error(err)
					}
				})
				wg.Go(func() {
					if v, err := b.RunScript(ctx, double, []string{d}).Int64(); err != nil || v%2 != 0 {
						t.Error(v, err)
					}
				})
			}
			wg.Wait()
			if got := rb.Client.Get(ctx, a).Val(); got != []string{"50", "100"}[round] {
				t.Fatalf("round %d: incr ran %s times", round, got)
			}
		}
		// Send: nobody waits, the callback gets the command's error.
		rb.Client.Set(ctx, p, "x", 0)
		errs := make(chan error, 2)
		b.Send(ctx, func(err error) { errs <- err }, "pexpire", p, 60000)
		b.Send(ctx, func(err error) { errs <- err }, "incr", p) // not an integer: an error
		if err := <-errs; err != nil {
			t.Fatalf("pexpire: %v", err)
		}
		if err := <-errs; err == nil {
			t.Fatal("incr of a string: no error")
		}
		if ttl := rb.Client.PTTL(ctx, p).Val(); ttl <= 0 || ttl > time.Minute {
			t.Fatalf("pexpire not applied: ttl %v", ttl)
		}
	})
}
