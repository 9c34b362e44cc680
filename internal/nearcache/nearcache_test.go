package nearcache

import (
	"context"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/hmdp/hmdp/internal/testenv"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// A value read before an invalidation must not be kept after it.
func TestPutAfterDropIsIgnored(t *testing.T) {
	n := New[string](time.Minute, 10)
	now := time.Now()
	epoch := n.Epoch() // a reader starts...
	n.Drop("1")        // ...the row changes meanwhile...
	n.Put("1", "old", true, epoch, now)
	if _, _, ok := n.Get("1", now); ok {
		t.Fatal("a value read before the invalidation was kept")
	}
	n.Put("1", "new", true, n.Epoch(), now)
	if v, found, ok := n.Get("1", now); !ok || !found || v != "new" {
		t.Fatalf("got %q %v %v", v, found, ok)
	}
	if _, _, ok := n.Get("1", now.Add(time.Minute+time.Nanosecond)); ok {
		t.Fatal("served after its TTL")
	}
}

func TestBounded(t *testing.T) {
	n := New[int](time.Minute, 3)
	now := time.Now()
	for i, id := range []string{"a", "b", "c", "d"} {
		n.Put(id, i, true, n.Epoch(), now)
	}
	n.mu.Lock()
	size := len(n.m)
	n.mu.Unlock()
	if size > 3 {
		t.Fatalf("%d entries, max 3", size)
	}
	if v, _, ok := n.Get("d", now); !ok || v != 3 {
		t.Fatal("the newest value is missing")
	}
}

// An announcement drops the id on every instance that follows the channel.
func TestAnnounceDropsEverywhere(t *testing.T) {
	testenv.ForEachRedis(t, func(t *testing.T, b testenv.RedisBackend) {
		ctx := context.Background()
		channel := b.Prefix + "near:test"
		a, c := New[string](time.Hour, 10), New[string](time.Hour, 10)
		for _, n := range []*Cache[string]{a, c} {
			if err := n.Follow(ctx, b.Client, channel); err != nil {
				t.Fatal(err)
			}
			defer n.Close()
			n.Put("7", "v", true, n.Epoch(), time.Now())
		}
		if err := Announce(ctx, b.Client, channel, "7"); err != nil {
			t.Fatal(err)
		}
		testenv.Eventually(t, 5*time.Second, "dropped on both after the announcement", func() bool {
			_, _, inA := a.Get("7", time.Now())
			_, _, inC := c.Get("7", time.Now())
			return !inA && !inC
		})
	})
}
