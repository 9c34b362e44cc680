package pubsub

import (
	"context"
	"fmt"
	"testing"

	"github.com/hmdp/hmdp/internal/testenv"
)

// Events posted while a round trip is under way share the next one, and every
// subscriber sees all of them in the order they were posted.
func TestPosterBatchesAndKeepsOrder(t *testing.T) {
	testenv.ForEachRedis(t, func(t *testing.T, b testenv.RedisBackend) {
		ctx := context.Background()
		br, _ := newBroker(t, b, Options{Buffer: 1000})
		sub, err := br.Subscribe(ctx, "test", "posted")
		if err != nil {
			t.Fatal(err)
		}
		defer sub.Close()
		gate := testenv.NewPipelineGate("publish")
		testenv.AddHook(b.Client, gate)
		p := NewPoster(br, PosterOptions{Batch: 256})
		defer p.Close()

		const n = 500
		p.Post("posted", []byte("0"))
		<-gate.Entered // the first event is on its way alone
		for i := 1; i < n; i++ {
			if !p.Post("posted", fmt.Appendf(nil, "%d", i)) {
				t.Fatalf("event %d dropped", i)
			}
		}
		close(gate.Open)
		for i := range n {
			if got, want := string(recv(t, sub)), fmt.Sprint(i); got != want {
				t.Fatalf("event %d is %q, want %q", i, got, want)
			}
		}
		// The first event went alone; the 499 queued behind it need two
		// pipelines of at most 256.
		if got := gate.Pipelines(); got != 3 {
			t.Fatalf("%d pipelines for %d events, want 3", got, n)
		}
	})
}

// Close sends what is still queued; posting after Close drops, without panic.
func TestPosterCloseFlushes(t *testing.T) {
	testenv.ForEachRedis(t, func(t *testing.T, b testenv.RedisBackend) {
		ctx := context.Background()
		br, _ := newBroker(t, b, Options{Buffer: 1000})
		sub, err := br.Subscribe(ctx, "test", "flushed")
		if err != nil {
			t.Fatal(err)
		}
		defer sub.Close()
		p := NewPoster(br, PosterOptions{})
		for i := range 300 {
			p.Post("flushed", fmt.Appendf(nil, "%d", i))
		}
		p.Close()
		for i := range 300 {
			if got := string(recv(t, sub)); got != fmt.Sprint(i) {
				t.Fatalf("event %d is %q", i, got)
			}
		}
		if p.Post("flushed", []byte("late")) {
			t.Fatal("Post after Close reported success")
		}
		p.Close() // twice is fine
	})
}

// A full queue drops instead of blocking the caller.
func TestPosterDropsWhenFull(t *testing.T) {
	testenv.ForEachRedis(t, func(t *testing.T, b testenv.RedisBackend) {
		br, _ := newBroker(t, b, Options{})
		gate := testenv.NewPipelineGate("publish")
		testenv.AddHook(b.Client, gate)
		p := NewPoster(br, PosterOptions{Queue: 10, Batch: 1})
		defer p.Close()
		defer close(gate.Open)
		p.Post("full", []byte("x"))
		<-gate.Entered
		accepted := 1
		for range 100 {
			if p.Post("full", []byte("x")) {
				accepted++
			}
		}
		// One event is held in the gated pipeline, ten wait in the queue.
		if accepted != 11 {
			t.Fatalf("%d of 100 events accepted with a queue of 10", accepted)
		}
	})
}
