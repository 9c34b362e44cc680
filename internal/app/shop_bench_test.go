package app

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hmdp/hmdp/internal/config"
)

// concurrently runs fn n times on workers goroutines and returns the elapsed time.
func concurrently(n, workers int, fn func() error) (time.Duration, error) {
	var next atomic.Int64
	var wg sync.WaitGroup
	var first atomic.Value
	start := time.Now()
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for next.Add(1) <= int64(n) {
				if err := fn(); err != nil {
					first.CompareAndSwap(nil, err)
					return
				}
			}
		}()
	}
	wg.Wait()
	if err, _ := first.Load().(error); err != nil {
		return 0, err
	}
	return time.Since(start), nil
}

// gqlPoster posts one fixed query over keep-alive connections.
type gqlPoster struct {
	h    *benchHTTP
	body []byte
}

func newPoster(ctx context.Context, url, query string, vars map[string]any, conns int) *gqlPoster {
	body, _ := json.Marshal(map[string]any{"query": query, "variables": vars})
	return &gqlPoster{h: newBenchHTTP(ctx, url, conns), body: body}
}

func (p *gqlPoster) post() error {
	status, raw, err := p.h.post(p.body)
	if err == nil && (status != http.StatusOK || bytes.Contains(raw, []byte(`"errors"`))) {
		err = fmt.Errorf("status %d: %s", status, raw)
	}
	return err
}

// stampedeConns is how many clients read one cold key at once.
const stampedeConns = 400

// BenchmarkShopCachedRead: a cached shop(id) through GraphQL over HTTP
// (keep-alive, 50 concurrent clients) against raw Redis GETs of the same key
// with 50 concurrent clients, the same number of operations, in the same
// run. The two alternate in ten rounds, so both see the same background load
// on a shared machine. x-redis-GET = GET time / GraphQL time: above 1,
// GraphQL is faster.
func BenchmarkShopCachedRead(b *testing.B) {
	for _, near := range []time.Duration{time.Second, 0} {
		name := "near=on"
		if near == 0 {
			name = "near=off"
		}
		b.Run(name, func(b *testing.B) {
			app, url, _ := benchServer(b, func(c *config.Config) { c.NearCacheTTL = near })
			p := newPoster(b.Context(), url, `query($id: ID!) { shop(id: $id) { id name avgPrice x y } }`, map[string]any{"id": "1"}, benchClients)
			defer p.h.close()
			if err := p.post(); err != nil { // warm the cache
				b.Fatal(err)
			}
			ctx := context.Background()
			key := app.shops.Cache().Key(1)
			rdb := app.redis.Client
			if n := rdb.Exists(ctx, key).Val(); n != 1 {
				b.Fatalf("%s not cached", key)
			}
			const rounds = 10
			n := max(b.N/rounds, 1)
			var gql, raw time.Duration
			b.ResetTimer()
			for range rounds {
				d, err := concurrently(n, benchClients, p.post)
				if err != nil {
					b.Fatal(err)
				}
				gql += d
				if d, err = concurrently(n, benchClients, func() error { return rdb.Get(ctx, key).Err() }); err != nil {
					b.Fatal(err)
				}
				raw += d
			}
			b.StopTimer()
			b.ReportMetric(float64(gql.Nanoseconds())/float64(n*rounds), "graphql-ns/op")
			b.ReportMetric(float64(raw.Nanoseconds())/float64(n*rounds), "redisGET-ns/op")
			b.ReportMetric(raw.Seconds()/gql.Seconds(), "x-redis-GET")
		})
	}
}

// BenchmarkShopColdStampede: 1000 concurrent shop(id) reads over HTTP of a
// key just invalidated; mysql-loads/1000-reads is the loads the cache made.
// The reads share stampedeConns connections (client and server ends must fit
// in the usual 1024 file descriptors), so up to that many are in the server
// at once.
func BenchmarkShopColdStampede(b *testing.B) {
	app, url, _ := benchServer(b, func(c *config.Config) { c.NearCacheTTL = time.Second })
	ctx := context.Background()
	posters := map[int]*gqlPoster{}
	for id := 1; id <= 14; id++ {
		posters[id] = newPoster(b.Context(), url, `query($id: ID!) { shop(id: $id) { id name } }`, map[string]any{"id": strconv.Itoa(id)}, stampedeConns)
	}
	loads := func() float64 {
		mfs, _ := app.registry.Gather()
		for _, mf := range mfs {
			if mf.GetName() != "hmdp_cache_loads_total" {
				continue
			}
			for _, m := range mf.GetMetric() {
				for _, l := range m.GetLabel() {
					if l.GetName() == "cache" && l.GetValue() == "shop" {
						return m.GetCounter().GetValue()
					}
				}
			}
		}
		return 0
	}
	var total float64
	b.ResetTimer()
	for i := range b.N {
		id := i%14 + 1
		b.StopTimer()
		if err := app.shops.Cache().Invalidate(ctx, int64(id)); err != nil {
			b.Fatal(err)
		}
		before := loads()
		b.StartTimer()
		if _, err := concurrently(1000, 1000, posters[id].post); err != nil {
			b.Fatal(err)
		}
		total += loads() - before
	}
	b.ReportMetric(total/float64(b.N), "mysql-loads/1000-reads")
}
