package rediscache_test

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/hmdp/hmdp/internal/embedded"
	"github.com/hmdp/hmdp/internal/lock"
	"github.com/hmdp/hmdp/internal/rediscache"
)

type shop struct{ Name string }

// A read-through cache with the default Mutex strategy: the first read of an
// id loads it from the database (one loader across all instances, under a
// lock) and caches it; later reads come from Redis. An id the database does
// not have is cached as a null marker, so repeated reads of it (cache
// penetration, 穿透) do not reach the database either.
func Example() {
	ctx := context.Background()
	r, err := embedded.StartRedis() // an in-process Redis; use redisx.Open for a real one
	if err != nil {
		panic(err)
	}
	defer r.Conn.Close()
	locker := lock.New(r.Conn.Client, "app:")
	defer locker.Close()

	db := map[int64]shop{1: {Name: "Tea House"}} // stands in for MySQL
	var loads atomic.Int64
	shops := rediscache.New(r.Conn.Client, rediscache.Config{Name: "shop", Prefix: "app:", Locker: locker},
		func(ctx context.Context, id int64) (shop, bool, error) {
			loads.Add(1)
			s, found := db[id]
			return s, found, nil
		})
	defer shops.Close()

	for _, id := range []int64{1, 1, 99, 99} {
		s, found, err := shops.Get(ctx, id)
		fmt.Printf("%d: %q found=%v err=%v\n", id, s.Name, found, err)
	}
	fmt.Println("database reads:", loads.Load())

	// After a write commits, invalidate: the next read loads the new row.
	db[1] = shop{Name: "Tea House (renovated)"}
	if err := shops.Invalidate(ctx, 1); err != nil {
		panic(err)
	}
	s, _, _ := shops.Get(ctx, 1)
	fmt.Println("after the update:", s.Name)
	// Output:
	// 1: "Tea House" found=true err=<nil>
	// 1: "Tea House" found=true err=<nil>
	// 99: "" found=false err=<nil>
	// 99: "" found=false err=<nil>
	// database reads: 2
	// after the update: Tea House (renovated)
}

// With LogicalExpiry a hot key never waits for the database: the value
// carries its own expiry, and an expired value is served at once while one
// background rebuild replaces it. Preload hot keys before the first read.
func Example_logicalExpiry() {
	ctx := context.Background()
	r, err := embedded.StartRedis()
	if err != nil {
		panic(err)
	}
	defer r.Conn.Close()
	locker := lock.New(r.Conn.Client, "app:")
	defer locker.Close()

	var name atomic.Value // stands in for MySQL
	name.Store("Tea House")
	now := time.Now()
	var clock atomic.Int64 // the cache's clock, moved by the example
	clock.Store(now.UnixNano())
	shops := rediscache.New(r.Conn.Client, rediscache.Config{
		Name: "shop", Prefix: "app:", Locker: locker,
		Strategy: rediscache.LogicalExpiry,
		TTL:      time.Minute, // the logical lifetime
		Now:      func() time.Time { return time.Unix(0, clock.Load()) },
	}, func(ctx context.Context, id int64) (shop, bool, error) {
		return shop{Name: name.Load().(string)}, true, nil
	})
	defer shops.Close()

	if err := shops.Preload(ctx, 1); err != nil {
		panic(err)
	}
	name.Store("Tea House (renovated)")
	clock.Store(now.Add(2 * time.Minute).UnixNano()) // past the logical expiry

	s, _, _ := shops.Get(ctx, 1)
	fmt.Println("expired, served at once:", s.Name)
	for s.Name != "Tea House (renovated)" { // the rebuild runs in the background
		time.Sleep(10 * time.Millisecond)
		s, _, _ = shops.Get(ctx, 1)
	}
	fmt.Println("after the rebuild:", s.Name)
	// Output:
	// expired, served at once: Tea House
	// after the rebuild: Tea House (renovated)
}

// A Bloom filter over the ids that exist rejects the others before Redis or
// the database is asked. Give it to a cache as Config.Bloom, and Add each
// new id once its row is committed.
func ExampleNewBloom() {
	ctx := context.Background()
	r, err := embedded.StartRedis()
	if err != nil {
		panic(err)
	}
	defer r.Conn.Close()

	ids := rediscache.NewBloom(r.Conn.Client, "app:", "shop", rediscache.BloomConfig{Expected: 1000},
		func(ctx context.Context, add func(ids ...string) error) error {
			return add("1", "2", "3") // every existing id, read from the database in batches
		})
	if err := ids.Fill(ctx); err != nil {
		panic(err)
	}
	if err := ids.Add(ctx, "4"); err != nil { // a shop created later
		panic(err)
	}
	for _, id := range []string{"2", "4", "99999"} {
		maybe, _ := ids.MightContain(ctx, id)
		fmt.Printf("%s might exist: %v\n", id, maybe)
	}
	// Output:
	// 2 might exist: true
	// 4 might exist: true
	// 99999 might exist: false
}
