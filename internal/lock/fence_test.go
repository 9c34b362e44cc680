package lock

import (
	"context"
	"testing"
	"time"

	"github.com/hmdp/hmdp/internal/testenv"
)

// Each new tenure of a lock gets a larger token than every earlier one, even
// after its counter key is lost (it is reseeded from the server clock).
func TestFencingTokensGrow(t *testing.T) {
	testenv.ForEachRedis(t, func(t *testing.T, b testenv.RedisBackend) {
		bg := context.Background()
		r := newLocker(t, b.Client, b.Prefix).Reentrant("fenced")
		var last int64
		next := func() int64 {
			h := must[*Hold](t)(r.TryLock(bg, 0, time.Minute))
			if err := h.Unlock(bg); err != nil {
				t.Fatal(err)
			}
			return h.Token()
		}
		for i := range 5 {
			if i == 3 {
				b.Client.Del(bg, b.Key("lock:{fenced}:fence")) // Redis lost the counter
			}
			tok := next()
			if tok <= last {
				t.Fatalf("token %d after %d: fencing tokens must only grow", tok, last)
			}
			last = tok
		}
	})
}

// A holder whose lock expired holds a smaller token than the holder after it.
func TestStaleHolderHasSmallerToken(t *testing.T) {
	testenv.ForEachRedis(t, func(t *testing.T, b testenv.RedisBackend) {
		realTime(t, b)
		bg := context.Background()
		r := newLocker(t, b.Client, b.Prefix).Reentrant("stale")
		stale := must[*Hold](t)(r.TryLock(bg, 0, 300*time.Millisecond))
		fresh := must[*Hold](t)(r.TryLock(bg, 10*time.Second, time.Minute)) // after the expiry
		defer func() { _ = fresh.Unlock(bg) }()
		if stale.Token() >= fresh.Token() {
			t.Fatalf("stale token %d, fresh %d", stale.Token(), fresh.Token())
		}
		w := fencedWriter{}
		if !w.write(fresh.Token()) || w.write(stale.Token()) {
			t.Fatal("the stale holder's write got through")
		}
	})
}
