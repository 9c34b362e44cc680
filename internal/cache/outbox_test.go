package cache

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/redis/go-redis/v9"

	"github.com/hmdp/hmdp/internal/testenv"
)

// failDel makes the next n DEL commands fail, as a Redis outage would.
type failDel struct{ n atomic.Int64 }

func (f *failDel) DialHook(next redis.DialHook) redis.DialHook { return next }
func (f *failDel) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return next
}
func (f *failDel) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		if strings.EqualFold(cmd.Name(), "del") && f.n.Add(-1) >= 0 {
			cmd.SetErr(errInjected)
			return errInjected
		}
		return next(ctx, cmd)
	}
}

// A delete that fails after commit stays in the outbox and is retried until
// it succeeds; the reader then sees the new value.
func TestFailedDeleteIsRetried(t *testing.T) {
	testenv.ForEachBackend(t, func(t *testing.T, b testenv.Backends) {
		src := newSource(3)
		c := newCache(t, b.Redis, prometheus.NewRegistry(), src, nil)
		ob := NewOutbox(b.DB.Client, OutboxConfig{Interval: 50 * time.Millisecond})
		ob.Handle("item.changed", c.InvalidateID)
		ctx := context.Background()
		if v, _, _ := c.Get(ctx, 1); v.Name != "item 1" {
			t.Fatal(v)
		}
		hook := &failDel{}
		hook.n.Store(2)
		b.Redis.Client.AddHook(hook)

		// The write: change the row and record the invalidation in one transaction.
		tx, err := b.DB.Client.Tx(ctx)
		if err != nil {
			t.Fatal(err)
		}
		src.set(item{ID: 1, Name: "changed"})
		row, err := ob.Record(ctx, tx, "item.changed", "1")
		if err != nil {
			t.Fatal(err)
		}
		if err := tx.Commit(); err != nil {
			t.Fatal(err)
		}
		if err := ob.Run(ctx, row); err == nil {
			t.Fatal("the injected delete failure was not reported")
		}
		if v, _, _ := c.Get(ctx, 1); v.Name != "item 1" {
			t.Fatalf("stale value expected while the delete is failing, got %+v", v)
		}
		if n, _ := ob.Pending(ctx); n != 1 {
			t.Fatalf("pending %d, want 1", n)
		}
		ob.Start()
		defer ob.Close()
		testenv.Eventually(t, 10*time.Second, "retried delete", func() bool {
			n, _ := ob.Pending(ctx)
			return n == 0
		})
		if hook.n.Load() >= 0 {
			t.Fatalf("the second injected failure was not hit: %d left", hook.n.Load())
		}
		if v, _, _ := c.Get(ctx, 1); v.Name != "changed" {
			t.Fatalf("after retry: %+v", v)
		}
	})
}

// A row whose writer died before running it (still in the table) is run by the poller.
func TestOutboxRunsOrphanedRows(t *testing.T) {
	testenv.ForEachBackend(t, func(t *testing.T, b testenv.Backends) {
		ob := NewOutbox(b.DB.Client, OutboxConfig{Interval: 50 * time.Millisecond})
		done := make(chan string, 1)
		ob.Handle("k", func(_ context.Context, arg string) error { done <- arg; return nil })
		ctx := context.Background()
		tx, _ := b.DB.Client.Tx(ctx)
		if _, err := ob.Record(ctx, tx, "k", "x"); err != nil {
			t.Fatal(err)
		}
		if err := tx.Commit(); err != nil {
			t.Fatal(err)
		}
		ob.Start()
		defer ob.Close()
		select {
		case arg := <-done:
			if arg != "x" {
				t.Fatal(arg)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("orphaned row never ran")
		}
		testenv.Eventually(t, 5*time.Second, "row deleted", func() bool { n, _ := ob.Pending(ctx); return n == 0 })
	})
}
