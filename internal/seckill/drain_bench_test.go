package seckill

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/hmdp/hmdp/internal/testenv"
)

// BenchmarkDrain measures how fast accepted orders reach MySQL: b.N entries
// waiting in a voucher's stream, then one instance's consumers started and
// timed until all are persisted. "batch-1" is the one-insert-per-transaction
// baseline (the original project's consumer: XREADGROUP COUNT 1, one order
// per transaction); "batch-200" is the default. Real MySQL/Redis when
// HMDP_TEST_MYSQL_DSN / HMDP_TEST_REDIS_ADDR are set.
func BenchmarkDrain(b *testing.B) {
	for _, batch := range []int64{1, 200} {
		b.Run("batch-"+strconv.FormatInt(batch, 10), func(b *testing.B) {
			bk := testenv.Backends{Name: "embedded", DB: testenv.NewSQLite(b), Redis: testenv.NewEmbeddedRedis(b)}
			if testenv.RealMySQLDSN() != "" && testenv.RealRedisAddr() != "" {
				bk = testenv.Backends{Name: "real", DB: testenv.NewMySQL(b), Redis: testenv.NewRealRedis(b)}
			}
			cfg := fast
			cfg.Consumer.Batch = batch
			f := newService(b, bk, cfg)
			n := max(b.N, 500)
			v := f.sale(b, n, time.Now().Add(-time.Minute), time.Now().Add(time.Hour))
			ctx := context.Background()
			k := KeysOf(bk.Redis.Prefix, v)
			base := time.Now().UnixNano()
			for i := 0; i < n; i += 1000 {
				_, err := bk.Redis.Client.Pipelined(ctx, func(p redis.Pipeliner) error {
					for j := i; j < min(i+1000, n); j++ {
						p.XAdd(ctx, &redis.XAddArgs{Stream: k.Orders, Values: map[string]any{
							"order": base + int64(j), "user": j + 1, "voucher": v}})
					}
					return nil
				})
				if err != nil {
					b.Fatal(err)
				}
			}
			b.ResetTimer()
			start := time.Now()
			f.s.Start()
			for {
				c, err := bk.DB.Client.Order.Query().Where(orderVoucher(v)).Count(ctx)
				if err != nil {
					b.Fatal(err)
				}
				if c == n {
					break
				}
				time.Sleep(2 * time.Millisecond)
			}
			b.StopTimer()
			b.ReportMetric(float64(n)/time.Since(start).Seconds(), "orders/s")
			f.s.Stop(ctx)
		})
	}
}
