package database_test

import (
	"context"
	"testing"

	"github.com/hmdp/hmdp/ent/shop"
	"github.com/hmdp/hmdp/internal/database"
)

// BenchmarkLagTolerantRead: a shop search (the searchShops query) read from
// the primary vs from the replica through the router, 8 goroutines per CPU.
//
//	scripts/mariadb-replication.sh go test -run '^$' -bench LagTolerantRead ./internal/database
func BenchmarkLagTolerantRead(b *testing.B) {
	db, _, _ := openReplicated(b)
	for _, c := range []struct {
		name string
		ctx  context.Context
	}{
		{"primary", context.Background()},
		{"replica", database.LagTolerant(context.Background())},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.SetParallelism(8)
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					if _, err := db.Client.Shop.Query().Where(shop.NameContains("茶")).Limit(11).All(c.ctx); err != nil {
						b.Error(err)
						return
					}
				}
			})
		})
	}
}
