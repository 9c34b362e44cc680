package outbox

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/hmdp/hmdp/internal/lock"
	"github.com/hmdp/hmdp/internal/rediscache"
	"github.com/hmdp/hmdp/internal/testenv"
)

// item is the cached type of TestFailedDeleteIsRetried.
type item struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
}

// source is the "database" behind that test's cache: rows by id.
type source struct {
	mu   sync.Mutex
	rows map[int64]item
}

func (s *source) set(it item) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.rows[it.ID] = it
}

func (s *source) load(_ context.Context, id int64) (item, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	it, ok := s.rows[id]
	return it, ok, nil
}

// newCache builds a Redis cache over src on the test's Redis, as one server
// instance would.
func newCache(t *testing.T, b testenv.RedisBackend, src *source) *rediscache.Cache[int64, item] {
	t.Helper()
	l := lock.New(b.Client, b.Prefix)
	t.Cleanup(func() { _ = l.Close() })
	c := rediscache.New[int64, item](b.Client, rediscache.Config{
		Name: "item", Prefix: b.Prefix, Locker: l, Registerer: prometheus.NewRegistry(),
	}, src.load)
	if err := c.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	return c
}

// A delete that fails after commit stays in the outbox and is retried until
// it succeeds; the reader then sees the new value.
func TestFailedDeleteIsRetried(t *testing.T) {
	testenv.ForEachBackend(t, func(t *testing.T, b testenv.Backends) {
		src := &source{rows: map[int64]item{1: {ID: 1, Name: "item 1"}}}
		c := newCache(t, b.Redis, src)
		ob := New(b.DB.Client, Config{Interval: 50 * time.Millisecond})
		ob.Handle("item.changed", c.InvalidateID)
		ctx := context.Background()
		if v, _, _ := c.Get(ctx, 1); v.Name != "item 1" {
			t.Fatal(v)
		}
		hook := &testenv.Fail{Name: "del"}
		hook.Arm(2)
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
		if hook.Remaining() >= 0 {
			t.Fatalf("the second injected failure was not hit: %d left", hook.Remaining())
		}
		if v, _, _ := c.Get(ctx, 1); v.Name != "changed" {
			t.Fatalf("after retry: %+v", v)
		}
	})
}

// A row whose writer died before running it (still in the table) is run by the poller.
func TestOutboxRunsOrphanedRows(t *testing.T) {
	testenv.ForEachBackend(t, func(t *testing.T, b testenv.Backends) {
		ob := New(b.DB.Client, Config{Interval: 50 * time.Millisecond})
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
