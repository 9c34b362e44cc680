package lock_test

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/hmdp/hmdp/internal/embedded"
	"github.com/hmdp/hmdp/internal/lock"
)

// The simple lock: SET NX PX to take it, a compare-and-delete script to
// release it. Whoever tries while it is held (another request, another
// instance) is refused, or waits up to its wait time.
func ExampleSimple() {
	ctx := context.Background()
	r, err := embedded.StartRedis() // an in-process Redis; use redisx.Open for a real one
	if err != nil {
		panic(err)
	}
	defer r.Conn.Close()
	locker := lock.New(r.Conn.Client, "app:")
	defer locker.Close()

	mu := locker.Simple("order:42")
	h, err := mu.TryLock(ctx, 0, 10*time.Second) // no wait, 10 s lease
	if err != nil {
		panic(err)
	}
	_, err = mu.TryLock(ctx, 0, 10*time.Second)
	fmt.Println("second attempt:", err)
	fmt.Println("unlock:", h.Unlock(ctx))
	fmt.Println("unlock again:", errors.Is(h.Unlock(ctx), lock.ErrNotHeld))
	// Output:
	// second attempt: lock "order:42": lock: not acquired
	// unlock: <nil>
	// unlock again: true
}

// The reentrant lock: the owner that holds it may take it again (the owner
// travels in the context), and it is released when the last hold is
// unlocked. Each first acquisition gets a fencing token larger than every
// earlier holder's.
func ExampleReentrant() {
	r, err := embedded.StartRedis()
	if err != nil {
		panic(err)
	}
	defer r.Conn.Close()
	locker := lock.New(r.Conn.Client, "app:")
	defer locker.Close()
	mu := locker.Reentrant("shop:1")

	ctx := lock.WithOwner(context.Background()) // one owner, like a Java thread
	outer, err := mu.TryLock(ctx, time.Second, 0)
	if err != nil {
		panic(err)
	}
	// Nested code passes the hold's context along and re-enters.
	inner, err := mu.TryLock(outer.Context(), 0, 0)
	if err != nil {
		panic(err)
	}
	fmt.Println("re-entered, same token:", inner.Token() == outer.Token())

	// Another owner is refused while either hold remains.
	_, err = mu.TryLock(context.Background(), 0, 0)
	fmt.Println("other owner:", errors.Is(err, lock.ErrNotAcquired))
	_ = inner.Unlock(ctx)
	_, err = mu.TryLock(context.Background(), 0, 0)
	fmt.Println("after one unlock:", errors.Is(err, lock.ErrNotAcquired))
	_ = outer.Unlock(ctx)

	next, err := mu.TryLock(context.Background(), 0, 0)
	if err != nil {
		panic(err)
	}
	fmt.Println("next holder's token is larger:", next.Token() > outer.Token())
	_ = next.Unlock(ctx)
	// Output:
	// re-entered, same token: true
	// other owner: true
	// after one unlock: true
	// next holder's token is larger: true
}

// Taken without a lease, a reentrant lock is kept alive by the watchdog for
// as long as it is held; taken with one, it expires when the lease runs out
// and the hold says so: Lost is closed and the hold's context is canceled
// with ErrLockLost, so work running under that context stops.
func ExampleReentrant_watchdog() {
	r, err := embedded.StartRedis() // its keys expire with the wall clock
	if err != nil {
		panic(err)
	}
	defer r.Conn.Close()
	// A short lease renewed often, to see it within the example; servers
	// keep the default 30 s lease renewed every 10 s.
	locker := lock.New(r.Conn.Client, "app:", lock.WithWatchdog(1500*time.Millisecond, 300*time.Millisecond))
	defer locker.Close()
	ctx := context.Background()

	watched, err := locker.Reentrant("report").TryLock(ctx, 0, 0) // lease 0: the watchdog renews it
	if err != nil {
		panic(err)
	}
	fixed, err := locker.Reentrant("export").TryLock(ctx, 0, 300*time.Millisecond) // not renewed
	if err != nil {
		panic(err)
	}
	time.Sleep(2 * time.Second) // longer than both leases

	held := func(h *lock.Hold) string {
		select {
		case <-h.Lost():
			return fmt.Sprint("lost: ", errors.Is(context.Cause(h.Context()), lock.ErrLockLost))
		default:
			return "held"
		}
	}
	fmt.Println("watchdog:", held(watched))
	fmt.Println("fixed lease:", held(fixed))
	fmt.Println("unlock:", watched.Unlock(ctx))
	// Output:
	// watchdog: held
	// fixed lease: lost: true
	// unlock: <nil>
}

// WithLock is the usual way in: run a function while holding a reentrant
// lock, so that one instance does the work while the others wait for it.
func ExampleLocker_WithLock() {
	r, err := embedded.StartRedis()
	if err != nil {
		panic(err)
	}
	defer r.Conn.Close()
	locker := lock.New(r.Conn.Client, "app:")
	defer locker.Close()

	err = locker.WithLock(context.Background(), "rebuild:shop:1", 3*time.Second, func(ctx context.Context) error {
		// ctx is canceled if the lock is lost; pass it to the work.
		fmt.Println("rebuilding under the lock")
		return nil
	})
	fmt.Println("err:", err)
	// Output:
	// rebuilding under the lock
	// err: <nil>
}

// Redlock: one lock over independent Redis servers, held when a majority of
// them granted it within the lease. Here one of three servers is down and
// the lock is still taken.
func ExampleNewRedlock() {
	var nodes []*lock.Locker
	for i := range 3 {
		r, err := embedded.StartRedis()
		if err != nil {
			panic(err)
		}
		defer r.Conn.Close()
		if i == 2 {
			r.Server.Close() // this one is down
		}
		l := lock.New(r.Conn.Client, "app:")
		defer l.Close()
		nodes = append(nodes, l)
	}
	rl := lock.NewRedlock(nodes)

	h, err := rl.TryLock(context.Background(), "payout:7", 0, 5*time.Second)
	if err != nil {
		panic(err)
	}
	fmt.Println("held by a majority")
	_, err = rl.TryLock(context.Background(), "payout:7", 0, 5*time.Second)
	fmt.Println("second attempt:", errors.Is(err, lock.ErrNotAcquired))
	fmt.Println("unlock:", h.Unlock(context.Background()))
	// Output:
	// held by a majority
	// second attempt: true
	// unlock: <nil>
}
