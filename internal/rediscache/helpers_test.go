package rediscache

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/hmdp/hmdp/internal/lock"
	"github.com/hmdp/hmdp/internal/testenv"
)

// item is the cached type of these tests.
type item struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
}

// source is the "database": rows by id, counting loads, each load taking delay.
type source struct {
	mu    sync.Mutex
	rows  map[int64]item
	loads atomic.Int64
	delay time.Duration
	// gate, when set, blocks every load until it is closed.
	gate chan struct{}
}

func newSource(n int) *source {
	s := &source{rows: map[int64]item{}}
	for i := int64(1); i <= int64(n); i++ {
		s.rows[i] = item{ID: i, Name: fmt.Sprintf("item %d", i)}
	}
	return s
}

func (s *source) set(it item) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.rows[it.ID] = it
}

func (s *source) load(ctx context.Context, id int64) (item, bool, error) {
	s.loads.Add(1)
	if s.gate != nil {
		select {
		case <-s.gate:
		case <-ctx.Done():
			return item{}, false, ctx.Err()
		}
	}
	time.Sleep(s.delay)
	s.mu.Lock()
	defer s.mu.Unlock()
	it, ok := s.rows[id]
	return it, ok, nil
}

// clock is a settable clock for logical expiry.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.now }
func (c *clock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// newCache builds a cache on the test's Redis, as one server instance would.
func newCache(t *testing.T, b testenv.RedisBackend, reg *prometheus.Registry, src *source, edit func(*Config)) *Cache[int64, item] {
	t.Helper()
	l := lock.New(b.Client, b.Prefix)
	t.Cleanup(func() { _ = l.Close() })
	cfg := Config{
		Name:       "item",
		Prefix:     b.Prefix,
		Locker:     l,
		Registerer: reg,
	}
	if edit != nil {
		edit(&cfg)
	}
	c := New[int64, item](b.Client, cfg, src.load)
	if err := c.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	return c
}

func requests(reg *prometheus.Registry, result string) float64 {
	mfs, _ := reg.Gather()
	for _, mf := range mfs {
		if mf.GetName() != "hmdp_cache_requests_total" {
			continue
		}
		for _, m := range mf.GetMetric() {
			var c, r string
			for _, l := range m.GetLabel() {
				switch l.GetName() {
				case "cache":
					c = l.GetValue()
				case "result":
					r = l.GetValue()
				}
			}
			if c == "item" && r == result {
				return m.GetCounter().GetValue()
			}
		}
	}
	return 0
}
