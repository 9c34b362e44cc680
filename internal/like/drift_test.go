package like

import (
	"context"
	"errors"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hmdp/hmdp/ent"
	entbloglike "github.com/hmdp/hmdp/ent/bloglike"
	"github.com/hmdp/hmdp/internal/testenv"
)

// failSteps makes the service's hook fail the named step the given number of
// times (then let it pass).
func failSteps(s *Service, step string, times int64) {
	var left atomic.Int64
	left.Store(times)
	s.hook = func(st string) error {
		if st == step && left.Add(-1) >= 0 {
			return errors.New("injected: " + st)
		}
		return nil
	}
}

// A like or unlike whose after-commit mirroring into Redis fails still
// succeeds (it is committed), and the next read is right: the set was dropped
// and is rebuilt from MySQL. Before, the set kept the old state for good and a
// retry changed nothing (the like was already there).
func TestFailedApplyIsRepairedBeforeTheNextRead(t *testing.T) {
	testenv.ForEachBackend(t, func(t *testing.T, b testenv.Backends) {
		ctx := context.Background()
		s, blogID, users := setup(t, b, 3, nil)
		if err := s.Set(ctx, users[1], blogID, true); err != nil {
			t.Fatal(err)
		}
		check := func(viewer int64, wantTop []int64, wantMine bool) {
			t.Helper()
			in, err := s.Infos(ctx, viewer, []int64{blogID})
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(in[0].Top, wantTop) || in[0].LikedByMe != wantMine {
				t.Fatalf("viewer %d: %+v, want top %v mine %v", viewer, in[0], wantTop, wantMine)
			}
		}
		check(users[2], []int64{users[1]}, false) // the set is built and complete
		failSteps(s, "apply", 1)
		if err := s.Set(ctx, users[2], blogID, true); err != nil {
			t.Fatalf("a committed like reported %v", err)
		}
		check(users[2], []int64{users[1], users[2]}, true)
		failSteps(s, "apply", 1)
		if err := s.Set(ctx, users[1], blogID, false); err != nil {
			t.Fatalf("a committed unlike reported %v", err)
		}
		check(users[1], []int64{users[2]}, false)
		if n, _ := s.Outbox().Pending(ctx); n != 0 {
			t.Fatalf("%d outbox rows left", n)
		}
	})
}

// When the drop fails too (Redis unreachable for a while), the outbox row
// stays and the poller drops the set once Redis is back.
func TestFailedDropIsRetriedByTheOutbox(t *testing.T) {
	testenv.ForEachBackend(t, func(t *testing.T, b testenv.Backends) {
		ctx := context.Background()
		s, blogID, users := setup(t, b, 2, nil)
		if _, err := s.Infos(ctx, users[1], []int64{blogID}); err != nil { // builds the empty set
			t.Fatal(err)
		}
		var dropFailures atomic.Int64
		dropFailures.Store(1)
		s.hook = func(step string) error { // every apply fails, and the first drop
			if step == "apply" || dropFailures.Add(-1) >= 0 {
				return errors.New("injected: " + step)
			}
			return nil
		}
		if err := s.Set(ctx, users[1], blogID, true); err != nil {
			t.Fatal(err)
		}
		if n, _ := s.Outbox().Pending(ctx); n != 1 {
			t.Fatalf("outbox rows %d, want the failed drop's", n)
		}
		s.Start()
		t.Cleanup(s.Close)
		testenv.Eventually(t, 10*time.Second, "the poller drops the set", func() bool {
			n, _ := s.Outbox().Pending(ctx)
			return n == 0
		})
		in, err := s.Infos(ctx, users[1], []int64{blogID})
		if err != nil || !in[0].LikedByMe || !slices.Equal(in[0].Top, []int64{users[1]}) {
			t.Fatalf("%+v %v", in, err)
		}
	})
}

// Many users like and unlike one blog at once while a third of the
// after-commit applies fail: once the writes are done, every viewer's read
// matches MySQL (top likers in order, liked by me), with no outbox row left.
func TestConcurrentLikesWithFailingAppliesConverge(t *testing.T) {
	testenv.ForEachBackend(t, func(t *testing.T, b testenv.Backends) {
		ctx := context.Background()
		s, blogID, users := setup(t, b, 40, nil)
		var n atomic.Int64
		s.hook = func(step string) error {
			if step == "apply" && n.Add(1)%3 == 0 {
				return errors.New("injected: apply")
			}
			return nil
		}
		var wg sync.WaitGroup
		for i, u := range users {
			wg.Go(func() {
				for k := range 4 + i%2 { // like, unlike, ...: an odd count ends liked
					if _, err := s.Infos(ctx, u, []int64{blogID}); err != nil { // rebuilds race with the writes
						t.Error(err)
					}
					if err := s.Set(ctx, u, blogID, k%2 == 0); err != nil {
						t.Error(err)
					}
				}
			})
		}
		wg.Wait()
		rows, err := b.DB.Client.BlogLike.Query().Where(entbloglike.BlogID(blogID)).
			Order(ent.Asc(entbloglike.FieldCreateTime, entbloglike.FieldUserID)).All(ctx)
		if err != nil {
			t.Fatal(err)
		}
		liked := map[int64]bool{}
		var top []int64
		for _, r := range rows {
			liked[r.UserID] = true
			if len(top) < TopN {
				top = append(top, r.UserID)
			}
		}
		if len(rows) == 0 || len(rows) == len(users) {
			t.Fatalf("%d likes: the test should leave some users liking and some not", len(rows))
		}
		for _, u := range users {
			in, err := s.Infos(ctx, u, []int64{blogID})
			if err != nil {
				t.Fatal(err)
			}
			if in[0].LikedByMe != liked[u] || !slices.Equal(in[0].Top, top) {
				t.Fatalf("viewer %d: %+v, MySQL says liked %v top %v", u, in[0], liked[u], top)
			}
		}
		if p, _ := s.Outbox().Pending(ctx); p != 0 {
			t.Fatalf("%d outbox rows left", p)
		}
	})
}
