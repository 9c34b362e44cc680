package follow

import (
	"context"
	"slices"
	"testing"

	"github.com/hmdp/hmdp/internal/testenv"
)

// FollowerCount and FollowersAmong answer from the Redis set, and the same
// after the set is lost (rebuilt from tb_follow).
func TestFollowerCountAndAmong(t *testing.T) {
	testenv.ForEachBackend(t, func(t *testing.T, b testenv.Backends) {
		ctx := context.Background()
		sets := NewSets(SetsConfig{DB: b.DB.Client, Redis: b.Redis.Client, Prefix: b.Redis.Prefix})
		s := New(Config{DB: b.DB.Client, Redis: b.Redis.Client, Prefix: b.Redis.Prefix, Sets: sets})
		u := users(t, b, 6)
		for _, f := range u[1:4] {
			if err := s.Set(ctx, f, u[0], true); err != nil {
				t.Fatal(err)
			}
		}
		for _, lost := range []bool{false, true} {
			if lost {
				testenv.DeleteKeys(ctx, b.Redis.Client, b.Redis.Prefix)
			}
			if n, err := sets.FollowerCount(ctx, u[0]); err != nil || n != 3 {
				t.Fatalf("lost=%v: %d followers, %v; want 3", lost, n, err)
			}
			if n, err := sets.FollowerCount(ctx, u[5]); err != nil || n != 0 {
				t.Fatalf("lost=%v: %d followers of a lone user, %v", lost, n, err)
			}
			got, err := sets.FollowersAmong(ctx, u[0], []int64{u[5], u[2], u[0], u[3], u[1], u[4]})
			if want := []bool{false, true, false, true, true, false}; err != nil || !slices.Equal(got, want) {
				t.Fatalf("lost=%v: %v, %v; want %v", lost, got, err, want)
			}
		}
	})
}
