package pubsub

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hmdp/hmdp/internal/testenv"
)

// DeliverLocal reaches this instance's subscribers of the named topics (one
// decode for all of them), not other topics' nor other instances', and
// drops a full subscriber as a Redis event would.
func TestDeliverLocal(t *testing.T) {
	testenv.ForEachRedis(t, func(t *testing.T, b testenv.RedisBackend) {
		br, _ := newBroker(t, b, Options{Buffer: 2})
		other, _ := newBroker(t, b, Options{})
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		var calls atomic.Int64
		dec := countingDecoder(&calls)
		var chans []<-chan *event
		for _, topic := range []string{"a", "b", "b"} {
			ch, err := Listen(ctx, br, "k", topic, dec, nil)
			if err != nil {
				t.Fatal(err)
			}
			chans = append(chans, ch)
		}
		outside, err := Listen(ctx, br, "k", "c", dec, nil)
		if err != nil {
			t.Fatal(err)
		}
		remote, err := Listen(ctx, other, "k", "a", dec, nil)
		if err != nil {
			t.Fatal(err)
		}
		br.DeliverLocal([]string{"a", "b", "nobody"}, []byte("7"))
		first := next(t, chans[0])
		for _, ch := range chans[1:] {
			if v := next(t, ch); v != first || v.N != 7 {
				t.Fatalf("got %v (%p), want the one decoded 7 (%p)", v, v, first)
			}
		}
		if n := calls.Load(); n != 1 {
			t.Fatalf("%d decodes, want 1", n)
		}
		select {
		case v := <-outside:
			t.Fatalf("topic c got %v", v)
		case v := <-remote:
			t.Fatalf("the other instance got %v", v)
		case <-time.After(200 * time.Millisecond):
		}
		// Nobody reads a: 2 buffered, the third drops it.
		for i := range 3 {
			br.DeliverLocal([]string{"a"}, fmt.Appendf(nil, "%d", i))
		}
		n := 0
		for range chans[0] {
			n++
		}
		if n != 2 {
			t.Fatalf("%d events before the drop, want 2", n)
		}
	})
}

// SubscribeBuffered holds as many events as asked before dropping.
func TestSubscribeBuffered(t *testing.T) {
	testenv.ForEachRedis(t, func(t *testing.T, b testenv.RedisBackend) {
		br, _ := newBroker(t, b, Options{Buffer: 2})
		s, err := br.SubscribeBuffered(context.Background(), "k", "t", 50)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		for i := range 50 {
			br.DeliverLocal([]string{"t"}, fmt.Appendf(nil, "%d", i))
		}
		for i := range 50 {
			if p := recv(t, s); string(p) != fmt.Sprint(i) {
				t.Fatalf("event %d = %s", i, p)
			}
		}
		if err := s.Err(); err != nil {
			t.Fatalf("dropped: %v", err)
		}
	})
}
