package pubsub

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hmdp/hmdp/internal/testenv"
)

type event struct{ N int }

// countingDecoder decodes "<n>" and counts its calls; "bad" fails.
func countingDecoder(calls *atomic.Int64) *Decoder[*event] {
	return NewDecoder(func(p []byte) (*event, error) {
		calls.Add(1)
		n, err := strconv.Atoi(string(p))
		return &event{n}, err
	})
}

func next[T any](t *testing.T, ch <-chan T) T {
	t.Helper()
	select {
	case v, ok := <-ch:
		if !ok {
			t.Fatal("closed")
		}
		return v
	case <-time.After(5 * time.Second):
		t.Fatal("no event")
	}
	var zero T
	return zero
}

// Subscribers of a topic that share a Decoder get the one value decoded once
// per event; an undecodable event is skipped, not delivered, and ends nobody.
func TestListenDecodesOncePerEvent(t *testing.T) {
	testenv.ForEachRedis(t, func(t *testing.T, b testenv.RedisBackend) {
		br, _ := newBroker(t, b, Options{})
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		var calls atomic.Int64
		dec := countingDecoder(&calls)
		var chans []<-chan *event
		for range 3 {
			ch, err := Listen(ctx, br, "k", "t", dec, nil)
			if err != nil {
				t.Fatal(err)
			}
			chans = append(chans, ch)
		}
		for _, p := range []string{"1", "bad", "2"} {
			if err := br.Publish(ctx, "t", []byte(p)); err != nil {
				t.Fatal(err)
			}
		}
		for _, want := range []int{1, 2} {
			first := next(t, chans[0])
			if first.N != want {
				t.Fatalf("got %d, want %d", first.N, want)
			}
			for _, ch := range chans[1:] {
				if v := next(t, ch); v != first {
					t.Fatalf("subscribers got different values %p %p", v, first)
				}
			}
		}
		if got := calls.Load(); got != 3 {
			t.Fatalf("%d decodes for 3 events and 3 subscribers, want 3", got)
		}
	})
}

// A subscriber that does not read is dropped once its buffer is full: onEnd
// hears ErrSlowConsumer before its channel closes; the others keep receiving.
func TestListenDropsSlowConsumer(t *testing.T) {
	testenv.ForEachRedis(t, func(t *testing.T, b testenv.RedisBackend) {
		br, _ := newBroker(t, b, Options{Buffer: 4})
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		var calls atomic.Int64
		dec := countingDecoder(&calls)
		var mu sync.Mutex
		var ended error
		slow, err := Listen(ctx, br, "k", "t", dec, func(err error) { mu.Lock(); ended = err; mu.Unlock() })
		if err != nil {
			t.Fatal(err)
		}
		fast, err := Listen(ctx, br, "k", "t", dec, nil)
		if err != nil {
			t.Fatal(err)
		}
		for i := range 50 {
			if err := br.Publish(ctx, "t", fmt.Appendf(nil, "%d", i)); err != nil {
				t.Fatal(err)
			}
			if v := next(t, fast); v.N != i {
				t.Fatalf("event %d = %d", i, v.N)
			}
		}
		count := 0
		for range slow {
			count++
		}
		mu.Lock()
		defer mu.Unlock()
		if count != 4 || !errors.Is(ended, ErrSlowConsumer) {
			t.Fatalf("slow: %d buffered, onEnd %v", count, ended)
		}
		if got := gauge(t, br.active.WithLabelValues("k")); got != 1 {
			t.Fatalf("active = %v, want 1", got)
		}
	})
}

// A cancelled context closes the channel and unsubscribes, without onEnd.
func TestListenEndsWithContext(t *testing.T) {
	testenv.ForEachRedis(t, func(t *testing.T, b testenv.RedisBackend) {
		br, _ := newBroker(t, b, Options{})
		ctx, cancel := context.WithCancel(context.Background())
		var calls atomic.Int64
		called := false
		ch, err := Listen(ctx, br, "k", "t", countingDecoder(&calls), func(error) { called = true })
		if err != nil {
			t.Fatal(err)
		}
		_ = br.Publish(context.Background(), "t", []byte("1")) // never read
		time.Sleep(50 * time.Millisecond)
		cancel()
		for range ch {
		}
		if called {
			t.Fatal("onEnd called for a cancelled context")
		}
		if got := gauge(t, br.active.WithLabelValues("k")); got != 0 {
			t.Fatalf("active = %v, want 0", got)
		}
	})
}

// Closing the broker ends every Listen channel with ErrClosed, and a Listen
// after the close ends at once the same way (a client subscribing while the
// server shuts down is told so, as those already subscribed are).
func TestListenEndsOnClose(t *testing.T) {
	testenv.ForEachRedis(t, func(t *testing.T, b testenv.RedisBackend) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		br := New(b.Client, b.Prefix, nil, Options{})
		var calls atomic.Int64
		var ended error
		ch, err := Listen(ctx, br, "k", "t", countingDecoder(&calls), func(err error) { ended = err })
		if err != nil {
			t.Fatal(err)
		}
		if err := br.Close(); err != nil {
			t.Fatal(err)
		}
		if _, ok := <-ch; ok {
			t.Fatal("channel still open")
		}
		if !errors.Is(ended, ErrClosed) {
			t.Fatalf("onEnd got %v", ended)
		}
		ended = nil
		late, err := Listen(ctx, br, "k", "t", countingDecoder(&calls), func(err error) { ended = err })
		if err != nil {
			t.Fatalf("listen after close: %v", err)
		}
		if _, ok := <-late; ok || !errors.Is(ended, ErrClosed) {
			t.Fatalf("listen after close: channel open %v, onEnd got %v; want closed, ErrClosed", ok, ended)
		}
	})
}
