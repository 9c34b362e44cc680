package like

import (
	"context"
	"slices"
	"testing"

	"github.com/hmdp/hmdp/internal/testenv"
)

// Every like copy in Redis expires: a like on a blog whose set is not in
// Redis creates only the version counter (with a TTL), a rebuilt set has the
// set's TTL, and a change or a drop keeps every key expiring. Before, a like
// created a partial set with no TTL, and rebuilt sets never expired.
func TestLikeCopiesExpire(t *testing.T) {
	testenv.ForEachBackend(t, func(t *testing.T, b testenv.Backends) {
		ctx := context.Background()
		s, blogID, users := setup(t, b, 3, nil)
		checkTTLs := func(what string, wantKeys int) {
			t.Helper()
			keys := testenv.KeyTTLs(t, b.Redis.Client, b.Redis.Prefix+"blog:")
			if len(keys) != wantKeys {
				t.Fatalf("%s: %d keys, want %d: %v", what, len(keys), wantKeys, keys)
			}
			for k, ttl := range keys {
				if ttl <= 0 || ttl > DefaultSetTTL*11/10 {
					t.Errorf("%s: %s has TTL %v", what, k, ttl)
				}
			}
		}
		if err := s.Set(ctx, users[1], blogID, true); err != nil {
			t.Fatal(err)
		}
		checkTTLs("after a like of a blog whose set is not in Redis", 1)
		infos, err := s.Infos(ctx, users[1], []int64{blogID}) // rebuilt, like included
		if err != nil || !infos[0].LikedByMe || !slices.Equal(infos[0].Top, []int64{users[1]}) {
			t.Fatalf("infos after the rebuild: %+v, %v", infos, err)
		}
		checkTTLs("after the rebuild", 2)
		if err := s.Set(ctx, users[2], blogID, true); err != nil { // applied to the set
			t.Fatal(err)
		}
		if infos, err := s.Infos(ctx, 0, []int64{blogID}); err != nil || !slices.Equal(infos[0].Top, []int64{users[1], users[2]}) {
			t.Fatalf("infos after a like applied to the set: %+v, %v", infos, err)
		}
		checkTTLs("after a like applied to the set", 2)
		if err := s.drop(ctx, blogID); err != nil {
			t.Fatal(err)
		}
		checkTTLs("after a drop", 1)
	})
}
