package rediscache

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/hmdp/hmdp/internal/testenv"
)

// Two instances with near caches far longer than the default: an update
// invalidated on one is seen on the other at once, which only Pub/Sub can do.
func TestNearCacheInvalidatedOnEveryInstance(t *testing.T) {
	testenv.ForEachRedis(t, func(t *testing.T, b testenv.RedisBackend) {
		src := newSource(3)
		edit := func(cfg *Config) { cfg.NearTTL = time.Hour }
		reg, regC := prometheus.NewRegistry(), prometheus.NewRegistry()
		a := newCache(t, b, reg, src, edit)
		c := newCache(t, b, regC, src, edit)
		ctx := context.Background()
		for _, inst := range []*Cache[int64, item]{a, c} {
			if v, _, _ := inst.Get(ctx, 2); v.Name != "item 2" {
				t.Fatal(v)
			}
		}
		// Served from the near cache: Redis no longer matters.
		b.Client.Del(ctx, a.Key(2))
		loads := src.loads.Load()
		for _, inst := range []*Cache[int64, item]{a, c} {
			if v, _, _ := inst.Get(ctx, 2); v.Name != "item 2" {
				t.Fatal(v)
			}
		}
		if src.loads.Load() != loads {
			t.Fatal("near cache did not answer")
		}
		src.set(item{ID: 2, Name: "changed"})
		if err := a.Invalidate(ctx, 2); err != nil {
			t.Fatal(err)
		}
		if v, _, _ := a.Get(ctx, 2); v.Name != "changed" {
			t.Fatalf("writer instance: %+v", v)
		}
		testenv.Eventually(t, 2*time.Second, "other instance sees the change", func() bool {
			v, _, _ := c.Get(ctx, 2)
			return v.Name == "changed"
		})
		// Each instance hears every announcement, its own included: what
		// the near-cache alert compares (docs/OPERATIONS.md).
		testenv.Eventually(t, 2*time.Second, "both instances counted the invalidation received", func() bool {
			return counterValue(t, reg, `direction="received"`) == 1 && counterValue(t, regC, `direction="received"`) == 1
		})
		if sent, sentC := counterValue(t, reg, `direction="sent"`), counterValue(t, regC, `direction="sent"`); sent != 1 || sentC != 0 {
			t.Fatalf("invalidations sent: writer %v, other %v; want 1 and 0", sent, sentC)
		}
	})
}

// counterValue is hmdp_nearcache_invalidations_total{cache="item"} with the
// label pair want, as reg gathers it (0 when absent).
func counterValue(t *testing.T, reg *prometheus.Registry, want string) float64 {
	t.Helper()
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range mfs {
		if mf.GetName() != "hmdp_nearcache_invalidations_total" {
			continue
		}
		for _, m := range mf.GetMetric() {
			labels := ""
			for _, l := range m.GetLabel() {
				labels += l.GetName() + `="` + l.GetValue() + `",`
			}
			if strings.Contains(labels, want) {
				return m.GetCounter().GetValue()
			}
		}
	}
	return 0
}

// The near cache's own TTL bounds staleness when no message arrives.
func TestNearCacheExpires(t *testing.T) {
	testenv.ForEachRedis(t, func(t *testing.T, b testenv.RedisBackend) {
		src := newSource(3)
		clk := &clock{now: time.Now()}
		c := newCache(t, b, prometheus.NewRegistry(), src, func(cfg *Config) { cfg.NearTTL = time.Second; cfg.Now = clk.Now })
		ctx := context.Background()
		if _, _, err := c.Get(ctx, 1); err != nil {
			t.Fatal(err)
		}
		src.set(item{ID: 1, Name: "changed"})
		b.Client.Del(ctx, c.Key(1)) // a delete whose message was lost
		if v, _, _ := c.Get(ctx, 1); v.Name != "item 1" {
			t.Fatal("near entry should still be served")
		}
		clk.Add(1100 * time.Millisecond)
		if v, _, _ := c.Get(ctx, 1); v.Name != "changed" {
			t.Fatalf("after the near TTL: %+v", v)
		}
	})
}
