package ratelimit_test

import (
	"context"
	"fmt"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"

	"github.com/hmdp/hmdp/internal/ratelimit"
)

// A limit of 3 per minute allows a burst of 3, then one event every 20 s.
// A refused event says how long to wait. The limiter decides by Redis's
// clock, not the caller's (here an in-process Redis whose clock the example
// sets, so the output is exact).
func ExampleLimiter_Allow() {
	mr := miniredis.NewMiniRedis()
	if err := mr.Start(); err != nil {
		panic(err)
	}
	defer mr.Close()
	rdb := redis.NewClient(&redis.Options{Addr: mr.Addr()})
	defer rdb.Close()
	start := time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC)
	mr.SetTime(start)

	ctx := context.Background()
	limiter := ratelimit.New(rdb, "app:", true)
	perPhone := ratelimit.Limit{Events: 3, Per: time.Minute}
	for i := 1; i <= 4; i++ {
		res, err := limiter.Allow(ctx, "sms:13800000000", perPhone)
		if err != nil {
			panic(err)
		}
		fmt.Printf("event %d: allowed=%v retry after %v\n", i, res.Allowed, res.RetryAfter)
	}
	// Each key has its own limit.
	res, _ := limiter.Allow(ctx, "sms:13900000000", perPhone)
	fmt.Println("another phone:", res.Allowed)

	mr.SetTime(start.Add(20 * time.Second)) // 20 s later by Redis's clock
	res, _ = limiter.Allow(ctx, "sms:13800000000", perPhone)
	fmt.Println("20 s later:", res.Allowed)
	// Output:
	// event 1: allowed=true retry after 0s
	// event 2: allowed=true retry after 0s
	// event 3: allowed=true retry after 0s
	// event 4: allowed=false retry after 20s
	// another phone: true
	// 20 s later: true
}
