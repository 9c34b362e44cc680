package follow

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"

	"github.com/redis/go-redis/v9"

	"github.com/hmdp/hmdp/internal/apperr"
	"github.com/hmdp/hmdp/internal/testenv"
)

func users(t *testing.T, b testenv.Backends, n int) []int64 {
	t.Helper()
	var ids []int64
	for i := range n {
		ids = append(ids, b.DB.Client.User.Create().SetPhone(fmt.Sprintf("138%08d", i)).SaveX(context.Background()).ID)
	}
	return ids
}

// Concurrent repeated follows count once; common follows are the same by
// SINTER (single Redis) and by the in-app intersection used on a cluster,
// and both survive losing the sets.
func TestFollowSetsAndCommon(t *testing.T) {
	testenv.ForEachBackend(t, func(t *testing.T, b testenv.Backends) {
		ctx := context.Background()
		s := New(Config{DB: b.DB.Client, Redis: b.Redis.Client, Prefix: b.Redis.Prefix})
		u := users(t, b, 6)
		var wg sync.WaitGroup
		for range 5 {
			for _, target := range u[2:] {
				wg.Go(func() {
					if err := s.Set(ctx, u[0], target, true); err != nil {
						t.Error(err)
					}
				})
			}
		}
		wg.Wait()
		for _, target := range u[3:5] {
			if err := s.Set(ctx, u[1], target, true); err != nil {
				t.Fatal(err)
			}
		}
		if err := s.Set(ctx, u[0], u[0], true); !errors.Is(err, apperr.New(apperr.BadUserInput, "")) {
			t.Fatalf("self follow: %v", err)
		}
		if err := s.Set(ctx, u[0], 987654, true); !errors.Is(err, apperr.New(apperr.NotFound, "")) {
			t.Fatalf("unknown user: %v", err)
		}
		if n := b.DB.Client.Follow.Query().CountX(ctx); n != 6 {
			t.Fatalf("%d rows, want 6", n)
		}
		for _, lost := range []bool{false, true} {
			if lost {
				testenv.DeleteKeys(ctx, b.Redis.Client, b.Redis.Prefix)
			}
			modes := []bool{false, true}
			if _, onCluster := b.Redis.Client.(*redis.ClusterClient); onCluster {
				modes = []bool{true} // SINTER across users' slots is refused there
			}
			for _, cluster := range modes {
				s.cluster = cluster
				got, err := s.Common(ctx, u[0], u[1])
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(got, u[3:5]) {
					t.Fatalf("lost=%v cluster=%v: common %v, want %v", lost, cluster, got, u[3:5])
				}
			}
			counts, err := s.Counts(ctx, []int64{u[0], u[3]})
			if err != nil {
				t.Fatal(err)
			}
			if counts[0] != (Counts{Followers: 0, Following: 4}) || counts[1] != (Counts{Followers: 2, Following: 0}) {
				t.Fatalf("lost=%v: counts %v", lost, counts)
			}
			fb, err := s.FollowedBy(ctx, u[1], []int64{u[2], u[3], u[4]})
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(fb, []bool{false, true, true}) {
				t.Fatalf("lost=%v: followedBy %v", lost, fb)
			}
		}
	})
}
