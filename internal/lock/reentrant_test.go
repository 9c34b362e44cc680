package lock

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/hmdp/hmdp/internal/testenv"
)

func TestReentrantDepthThreeAndBack(t *testing.T) {
	testenv.ForEachRedis(t, func(t *testing.T, b testenv.RedisBackend) {
		bg := context.Background()
		r := newLocker(t, b.Client, b.Prefix).Reentrant("deep")
		key := b.Key("lock:{deep}")
		count := func() int64 {
			n, _ := b.Client.HGet(bg, key, firstOwnerField(bg, t, b, key)).Int64()
			return n
		}
		other := func() error { // a different owner: a fresh context
			h, err := r.TryLock(bg, 0, 0)
			if err == nil {
				_ = h.Unlock(bg)
			}
			return err
		}

		h1 := must[*Hold](t)(r.TryLock(bg, 0, 0))
		h2 := must[*Hold](t)(r.TryLock(h1.Context(), 0, 0)) // nested call: same owner
		h3 := must[*Hold](t)(r.TryLock(h2.Context(), 0, 0))
		if got := count(); got != 3 {
			t.Fatalf("hold count %d, want 3", got)
		}
		if h2.Token() != h1.Token() || h3.Token() != h1.Token() {
			t.Fatal("re-entries must share the first acquisition's fencing token")
		}
		mustNotAcquired(t, other())

		for i, h := range []*Hold{h3, h2} {
			if err := h.Unlock(bg); err != nil {
				t.Fatal(err)
			}
			if got, want := count(), int64(2-i); got != want {
				t.Fatalf("hold count %d, want %d", got, want)
			}
			mustNotAcquired(t, other())
			if h1.Context().Err() != nil {
				t.Fatal("an inner unlock ended the outer hold")
			}
		}
		mustNotHeld(t, h2.Unlock(bg)) // a hold unlocks once; it must not eat h1's count
		if got := count(); got != 1 {
			t.Fatalf("hold count %d after a repeated unlock, want 1", got)
		}

		if err := h1.Unlock(bg); err != nil {
			t.Fatal(err)
		}
		if b.Client.Exists(bg, key).Val() != 0 {
			t.Fatal("last unlock left the key")
		}
		if !errors.Is(context.Cause(h1.Context()), ErrReleased) {
			t.Fatalf("cause %v, want ErrReleased", context.Cause(h1.Context()))
		}
		if err := other(); err != nil {
			t.Fatalf("another owner cannot take the released lock: %v", err)
		}
	})
}

// WithOwner makes independent calls one owner, the way one Java thread is.
func TestWithOwnerSharesReentrancy(t *testing.T) {
	testenv.ForEachRedis(t, func(t *testing.T, b testenv.RedisBackend) {
		bg := context.Background()
		r := newLocker(t, b.Client, b.Prefix).Reentrant("owned")
		me := WithOwner(bg)
		h1 := must[*Hold](t)(r.TryLock(me, 0, time.Minute))
		h2 := must[*Hold](t)(r.TryLock(me, 0, time.Minute))
		_, err := r.TryLock(WithOwner(bg), 0, time.Minute)
		mustNotAcquired(t, err)
		for _, h := range []*Hold{h2, h1} {
			if err := h.Unlock(bg); err != nil {
				t.Fatal(err)
			}
		}
	})
}

// firstOwnerField is the owner field of a reentrant lock hash (the field
// that is not "fence").
func firstOwnerField(ctx context.Context, t *testing.T, b testenv.RedisBackend, key string) string {
	t.Helper()
	for f := range b.Client.HGetAll(ctx, key).Val() {
		if f != "fence" {
			return f
		}
	}
	return ""
}
