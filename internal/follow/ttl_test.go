package follow

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/hmdp/hmdp/internal/testenv"
)

// Every copy in Redis expires: rebuilt sets, sets a change was applied to,
// version counters bumped by changes and by repairs. A change to a set not
// in Redis does not create it, and common follows with ids that are not users
// answer nothing and write nothing.
func TestFollowCopiesExpire(t *testing.T) {
	testenv.ForEachBackend(t, func(t *testing.T, b testenv.Backends) {
		ctx := context.Background()
		s := New(Config{DB: b.DB.Client, Redis: b.Redis.Client, Prefix: b.Redis.Prefix})
		u := users(t, b, 3)
		if err := s.Set(ctx, u[0], u[1], true); err != nil { // sets not in Redis yet: none created
			t.Fatal(err)
		}
		if n := len(testenv.KeyTTLs(t, b.Redis.Client, b.Redis.Prefix+"follow")); n != 2 {
			t.Fatalf("%d follow keys after the first follow, want the 2 version counters: %v", n, testenv.KeyTTLs(t, b.Redis.Client, b.Redis.Prefix))
		}
		if ids, err := s.Common(ctx, u[0], u[2]); err != nil || len(ids) != 0 { // rebuilt
			t.Fatalf("common: %v, %v", ids, err)
		}
		if err := s.Set(ctx, u[2], u[1], true); err != nil { // applied to a rebuilt set
			t.Fatal(err)
		}
		if err := s.repair(ctx, keyPair(u[0], u[1])); err != nil { // dropped, versions bumped
			t.Fatal(err)
		}
		if ids, err := s.Common(ctx, u[0], u[2]); err != nil || !slices.Equal(ids, []int64{u[1]}) {
			t.Fatalf("common: %v, %v", ids, err)
		}
		for _, unknown := range []int64{7_123_456_789, 7_123_456_790} {
			if ids, err := s.Common(ctx, u[0], unknown); err != nil || len(ids) != 0 {
				t.Fatalf("common with %d: %v, %v", unknown, ids, err)
			}
		}
		keys := testenv.KeyTTLs(t, b.Redis.Client, b.Redis.Prefix)
		if len(keys) == 0 {
			t.Fatal("no keys")
		}
		for k, ttl := range keys {
			if ttl < 0 || ttl > DefaultSetTTL*11/10 {
				t.Errorf("%s: TTL %v", k, ttl)
			}
			if slices.ContainsFunc([]string{"7123456789", "7123456790"}, func(id string) bool { return strings.Contains(k, id) }) {
				t.Errorf("%s names a user that does not exist", k)
			}
		}
	})
}

func keyPair(follower, author int64) string {
	return strconv.FormatInt(follower, 10) + ":" + strconv.FormatInt(author, 10)
}
