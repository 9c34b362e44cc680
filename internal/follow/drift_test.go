package follow

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	entfollow "github.com/hmdp/hmdp/ent/follow"
	"github.com/hmdp/hmdp/internal/testenv"
)

// listener records what it hears and fails while fail > 0.
type listener struct {
	fail  atomic.Int64
	mu    sync.Mutex
	heard []bool
}

func (l *listener) FollowChanged(_ context.Context, _, _ int64, follows bool) error {
	if l.fail.Add(-1) >= 0 {
		return errors.New("injected: listener")
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.heard = append(l.heard, follows)
	return nil
}

func (l *listener) last() (bool, int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.heard) == 0 {
		return false, 0
	}
	return l.heard[len(l.heard)-1], len(l.heard)
}

// A follow or unfollow whose after-commit mirroring fails (a set apply, or
// the listener) still succeeds, being committed, and the next read is right:
// both sets were dropped and are rebuilt from MySQL, and the listener heard
// the pair's state. Before, the sets kept the old state for good and a retry
// changed nothing.
func TestFailedApplyIsRepairedBeforeTheNextRead(t *testing.T) {
	testenv.ForEachBackend(t, func(t *testing.T, b testenv.Backends) {
		ctx := context.Background()
		l := &listener{}
		s := New(Config{DB: b.DB.Client, Redis: b.Redis.Client, Prefix: b.Redis.Prefix, Listener: l})
		u := users(t, b, 2)
		check := func(want bool) {
			t.Helper()
			f, err := s.FollowedBy(ctx, u[0], []int64{u[1]})
			if err != nil {
				t.Fatal(err)
			}
			c, err := s.Counts(ctx, []int64{u[0], u[1]})
			if err != nil {
				t.Fatal(err)
			}
			n := int64(0)
			if want {
				n = 1
			}
			if f[0] != want || c[0] != (Counts{Followers: 0, Following: n}) || c[1] != (Counts{Followers: n, Following: 0}) {
				t.Fatalf("followed %v counts %v, want %v", f, c, want)
			}
			if got, _ := l.last(); got != want {
				t.Fatalf("listener last heard %v, want %v", got, want)
			}
		}
		check(false) // builds the (empty) sets
		for i, follows := range []bool{true, false, true} {
			if i == 1 {
				l.fail.Store(1) // the listener fails this time, not the sets
			} else {
				s.hook = func(step string) error {
					if step == "apply" {
						return errors.New("injected: apply")
					}
					return nil
				}
			}
			if err := s.Set(ctx, u[0], u[1], follows); err != nil {
				t.Fatalf("a committed change reported %v", err)
			}
			s.hook = nil
			check(follows)
		}
		if n, _ := s.Outbox().Pending(ctx); n != 0 {
			t.Fatalf("%d outbox rows left", n)
		}
	})
}

// When the repair fails too (Redis unreachable for a while), the outbox row
// stays and the poller repairs the sets once Redis is back.
func TestFailedRepairIsRetriedByTheOutbox(t *testing.T) {
	testenv.ForEachBackend(t, func(t *testing.T, b testenv.Backends) {
		ctx := context.Background()
		l := &listener{}
		s := New(Config{DB: b.DB.Client, Redis: b.Redis.Client, Prefix: b.Redis.Prefix, Listener: l})
		u := users(t, b, 2)
		if _, err := s.Counts(ctx, u); err != nil { // builds the sets
			t.Fatal(err)
		}
		var dropFailures atomic.Int64
		dropFailures.Store(2)
		s.hook = func(step string) error { // every apply fails, and the first two drops
			if step == "apply" || dropFailures.Add(-1) >= 0 {
				return errors.New("injected: " + step)
			}
			return nil
		}
		if err := s.Set(ctx, u[0], u[1], true); err != nil {
			t.Fatal(err)
		}
		if n, _ := s.Outbox().Pending(ctx); n != 1 {
			t.Fatalf("outbox rows %d, want the failed repair's", n)
		}
		s.Start()
		t.Cleanup(s.Close)
		testenv.Eventually(t, 10*time.Second, "the poller repairs", func() bool {
			n, _ := s.Outbox().Pending(ctx)
			return n == 0
		})
		c, err := s.Counts(ctx, u)
		if err != nil || c[0] != (Counts{Followers: 0, Following: 1}) || c[1] != (Counts{Followers: 1, Following: 0}) {
			t.Fatalf("counts %v %v", c, err)
		}
		if got, n := l.last(); !got || n != 1 {
			t.Fatalf("listener heard %v (%d times)", got, n)
		}
	})
}

// Many users follow and unfollow one author at once (and the author them)
// while a third of the after-commit applies fail: afterwards every count and
// "followed by me" matches tb_follow, with no outbox row left.
func TestConcurrentFollowsWithFailingAppliesConverge(t *testing.T) {
	testenv.ForEachBackend(t, func(t *testing.T, b testenv.Backends) {
		ctx := context.Background()
		s := New(Config{DB: b.DB.Client, Redis: b.Redis.Client, Prefix: b.Redis.Prefix})
		u := users(t, b, 31)
		author, fans := u[0], u[1:]
		var n atomic.Int64
		s.hook = func(step string) error {
			if step == "apply" && n.Add(1)%3 == 0 {
				return errors.New("injected: apply")
			}
			return nil
		}
		var wg sync.WaitGroup
		for i, f := range fans {
			wg.Go(func() {
				for k := range 4 + i%2 { // follow, unfollow, ...: an odd count ends following
					if _, err := s.Counts(ctx, []int64{author, f}); err != nil { // rebuilds race with the writes
						t.Error(err)
					}
					if err := s.Set(ctx, f, author, k%2 == 0); err != nil {
						t.Error(err)
					}
					if err := s.Set(ctx, author, f, k%2 == 1); err != nil {
						t.Error(err)
					}
				}
			})
		}
		wg.Wait()
		followers, err := b.DB.Client.Follow.Query().Where(entfollow.FollowUserID(author)).Count(ctx)
		if err != nil {
			t.Fatal(err)
		}
		followees, err := b.DB.Client.Follow.Query().Where(entfollow.UserID(author)).Count(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if followers != len(fans)/2 || followees != len(fans)/2 {
			t.Fatalf("MySQL: %d followers, %d followees", followers, followees)
		}
		c, err := s.Counts(ctx, []int64{author})
		if err != nil || c[0] != (Counts{Followers: int64(followers), Following: int64(followees)}) {
			t.Fatalf("counts %v %v, MySQL %d/%d", c, err, followers, followees)
		}
		for i, f := range fans {
			by, err := s.FollowedBy(ctx, f, []int64{author})
			if err != nil || by[0] != (i%2 == 1) {
				t.Fatalf("fan %d follows: %v %v", f, by, err)
			}
			back, err := s.FollowedBy(ctx, author, []int64{f})
			if err != nil || back[0] != (i%2 == 0) {
				t.Fatalf("author follows %d: %v %v", f, back, err)
			}
		}
		if p, _ := s.Outbox().Pending(ctx); p != 0 {
			t.Fatalf("%d outbox rows left", p)
		}
	})
}
