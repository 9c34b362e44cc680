package feed

import (
	"context"
	"fmt"
	"testing"

	"github.com/redis/go-redis/v9"

	"github.com/hmdp/hmdp/ent"
	"github.com/hmdp/hmdp/internal/blog"
	"github.com/hmdp/hmdp/internal/testenv"
)

// benchBackends are the real servers when configured, else the embedded ones.
func benchBackends(b *testing.B) testenv.Backends {
	b.Helper()
	if testenv.RealMySQLDSN() != "" && testenv.RealRedisAddr() != "" {
		return testenv.Backends{Name: "real", DB: testenv.NewMySQL(b), Redis: testenv.NewRealRedis(b)}
	}
	return testenv.Backends{Name: "embedded", DB: testenv.NewSQLite(b), Redis: testenv.NewEmbeddedRedis(b)}
}

// BenchmarkPublishTo10kFollowers: one blog by an author with 10 000
// followers, until every inbox holds it (Published returns after the last
// pipeline, live events included). baseline: the same number of bare ZADDs in
// the same pipelined batches, the floor any push design pays.
func BenchmarkPublishTo10kFollowers(b *testing.B) {
	const followers = 10_000
	bk := benchBackends(b)
	ctx := context.Background()
	w := newWorldTB(b, bk, 1, followers+1)
	author := w.users[0]
	rows := make([]*ent.FollowCreate, 0, 1000)
	for i := 1; i <= followers; i++ {
		rows = append(rows, bk.DB.Client.Follow.Create().SetUserID(int64(1_000_000+i)).SetFollowUserID(author))
		if len(rows) == cap(rows) {
			bk.DB.Client.Follow.CreateBulk(rows...).ExecX(ctx)
			rows = rows[:0]
		}
	}
	if _, err := w.follows.FollowersOf(ctx, author); err != nil { // load the set once
		b.Fatal(err)
	}
	b.Run("baseline-zadd", func(b *testing.B) {
		for i := range b.N {
			for start := 0; start < followers; start += batchSize {
				pipe := bk.Redis.Client.Pipeline()
				for u := start; u < start+batchSize; u++ {
					pipe.ZAdd(ctx, fmt.Sprintf("%sbase:{%d}", bk.Redis.Prefix, u), redis.Z{Score: float64(i), Member: i})
				}
				if _, err := pipe.Exec(ctx); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
	b.Run("publish-"+bk.Name, func(b *testing.B) {
		for i := range b.N {
			bl, err := w.blogs.Create(ctx, author, blog.Input{Title: fmt.Sprint(i), Content: "c"})
			if err != nil {
				b.Fatal(err)
			}
			_ = bl
		}
	})
	n, _ := bk.Redis.Client.ZCard(ctx, w.feed.inboxKey(1_000_000+followers)).Result()
	if n == 0 {
		b.Fatal("the last follower's inbox is empty")
	}
}
