package pubsub

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hmdp/hmdp/internal/testenv"
)

// Ending a group ends each of its subscriptions with the reason (told through
// onEnd before the channel closes) and no other; a subscription made after
// End ends at once; End's channel closes once the subscriptions' contexts end.
func TestGroupEndsItsSubscriptions(t *testing.T) {
	testenv.ForEachRedis(t, func(t *testing.T, b testenv.RedisBackend) {
		br, _ := newBroker(t, b, Options{})
		reason := errors.New("session ended")
		g := NewGroup()
		var calls atomic.Int64
		dec := countingDecoder(&calls)
		type sub struct {
			ch     <-chan *event
			told   chan error
			cancel context.CancelFunc
		}
		listen := func(ctx context.Context) sub {
			ctx, cancel := context.WithCancel(ctx)
			told := make(chan error, 1)
			ch, err := Listen(ctx, br, "k", "t", dec, func(err error) { told <- err })
			if err != nil {
				t.Fatal(err)
			}
			return sub{ch, told, cancel}
		}
		inGroup := []sub{listen(WithGroup(context.Background(), g)), listen(WithGroup(context.Background(), g))}
		outside := listen(context.Background())
		defer outside.cancel()
		if g.Len() != 2 {
			t.Fatalf("group holds %d", g.Len())
		}
		idle := g.End(reason)
		for _, s := range inGroup {
			if err := <-s.told; !errors.Is(err, reason) {
				t.Fatalf("told %v", err)
			}
			if _, ok := <-s.ch; ok {
				t.Fatal("channel still open")
			}
		}
		select {
		case <-idle:
			t.Fatal("idle before the subscriptions' contexts ended")
		default:
		}
		for _, s := range inGroup {
			s.cancel()
		}
		select {
		case <-idle:
		case <-time.After(5 * time.Second):
			t.Fatal("not idle after the contexts ended")
		}
		late := listen(WithGroup(context.Background(), g))
		defer late.cancel()
		if err := <-late.told; !errors.Is(err, reason) {
			t.Fatalf("late subscription told %v", err)
		}
		// The subscription outside the group still gets events.
		if err := br.Publish(context.Background(), "t", []byte("7")); err != nil {
			t.Fatal(err)
		}
		if e := next(t, outside.ch); e.N != 7 {
			t.Fatalf("got %d", e.N)
		}
	})
}
