package pubsub

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"
	"go.uber.org/goleak"

	"github.com/hmdp/hmdp/internal/testenv"
)

// TestMain proves every dispatcher and subscribing goroutine ends.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func newBroker(t *testing.T, b testenv.RedisBackend, opt Options) (*Broker, *prometheus.Registry) {
	t.Helper()
	reg := prometheus.NewRegistry()
	br := New(b.Client, b.Prefix, reg, opt)
	t.Cleanup(func() { _ = br.Close() })
	return br, reg
}

func recv(t *testing.T, s *Sub) []byte {
	t.Helper()
	select {
	case p, ok := <-s.C:
		if !ok {
			t.Fatalf("closed: %v", s.Err())
		}
		return p
	case <-time.After(5 * time.Second):
		t.Fatal("no event")
	}
	return nil
}

func nothing(t *testing.T, s *Sub) {
	t.Helper()
	select {
	case p := <-s.C:
		t.Fatalf("unexpected event %q", p)
	case <-time.After(100 * time.Millisecond):
	}
}

// Two instances (brokers) on one Redis: an event reaches every subscriber of
// its topic on both, once, and no subscriber of another topic.
func TestFanOutAcrossInstances(t *testing.T) {
	testenv.ForEachRedis(t, func(t *testing.T, b testenv.RedisBackend) {
		ctx := context.Background()
		b1, reg := newBroker(t, b, Options{})
		b2, _ := newBroker(t, b, Options{})
		var subs []*Sub
		for i := range 6 {
			br := b1
			if i%2 == 1 {
				br = b2
			}
			s, err := br.Subscribe(ctx, "test", "a")
			if err != nil {
				t.Fatal(err)
			}
			subs = append(subs, s)
		}
		other, err := b2.Subscribe(ctx, "test", "b")
		if err != nil {
			t.Fatal(err)
		}
		if got := gauge(t, b1.active.WithLabelValues("test")); got != 3 {
			t.Fatalf("active on b1 = %v, want 3", got)
		}
		if mfs, _ := reg.Gather(); len(mfs) != 1 || mfs[0].GetName() != "hmdp_subscriptions_active" {
			t.Fatalf("metric not registered: %v", mfs)
		}
		if err := b1.Publish(ctx, "a", []byte("x1")); err != nil {
			t.Fatal(err)
		}
		for _, s := range subs {
			if p := recv(t, s); string(p) != "x1" {
				t.Fatalf("got %q", p)
			}
		}
		for _, s := range subs {
			nothing(t, s) // exactly once
		}
		nothing(t, other)
		if err := b2.PublishMany(ctx, []Message{{"b", []byte("y")}, {"a", []byte("x2")}}, 1); err != nil {
			t.Fatal(err)
		}
		if p := recv(t, other); string(p) != "y" {
			t.Fatalf("got %q", p)
		}
		for _, s := range subs {
			if p := recv(t, s); string(p) != "x2" {
				t.Fatalf("got %q", p)
			}
		}
		for _, s := range subs {
			s.Close()
			s.Close() // idempotent
		}
		if _, ok := <-subs[0].C; ok || subs[0].Err() != nil {
			t.Fatal("closed by its owner: channel closes with no error")
		}
		if got := gauge(t, b1.active.WithLabelValues("test")); got != 0 {
			t.Fatalf("active on b1 = %v, want 0", got)
		}
	})
}

// Redis channels follow the local subscribers: subscribed while one exists,
// unsubscribed after the last leaves, and a topic can be joined again.
func TestRedisChannelsFollowSubscribers(t *testing.T) {
	testenv.ForEachRedis(t, func(t *testing.T, b testenv.RedisBackend) {
		ctx := context.Background()
		br, _ := newBroker(t, b, Options{})
		channels := func() []string {
			got, err := b.Client.PubSubChannels(ctx, b.Prefix+"events:*").Result()
			if err != nil {
				t.Fatal(err)
			}
			return got
		}
		waitChannels := func(n int) {
			t.Helper()
			deadline := time.Now().Add(5 * time.Second)
			for len(channels()) != n {
				if time.Now().After(deadline) {
					t.Fatalf("channels %v, want %d", channels(), n)
				}
				time.Sleep(10 * time.Millisecond)
			}
		}
		s1, _ := br.Subscribe(ctx, "k", "t1")
		s2, _ := br.Subscribe(ctx, "k", "t1")
		s3, _ := br.Subscribe(ctx, "k", "t2")
		waitChannels(2)
		s1.Close()
		waitChannels(2)
		s2.Close()
		waitChannels(1)
		s3.Close()
		waitChannels(0)
		s4, err := br.Subscribe(ctx, "k", "t1")
		if err != nil {
			t.Fatal(err)
		}
		_ = br.Publish(ctx, "t1", []byte("again"))
		if p := recv(t, s4); string(p) != "again" {
			t.Fatalf("got %q", p)
		}
		s4.Close()
	})
}

// A subscriber that does not read is dropped with ErrSlowConsumer once its
// buffer is full; the others keep receiving every event.
func TestSlowConsumerIsDropped(t *testing.T) {
	testenv.ForEachRedis(t, func(t *testing.T, b testenv.RedisBackend) {
		ctx := context.Background()
		br, _ := newBroker(t, b, Options{Buffer: 4})
		slow, _ := br.Subscribe(ctx, "k", "t")
		fast, _ := br.Subscribe(ctx, "k", "t")
		const n = 50
		for i := range n { // the fast one reads each event before the next is sent
			if err := br.Publish(ctx, "t", fmt.Appendf(nil, "%d", i)); err != nil {
				t.Fatal(err)
			}
			if p := recv(t, fast); string(p) != fmt.Sprint(i) {
				t.Fatalf("event %d = %s", i, p)
			}
		}
		count := 0
		for range slow.C {
			count++
		}
		if count != 4 || !errors.Is(slow.Err(), ErrSlowConsumer) {
			t.Fatalf("slow: %d buffered, err %v", count, slow.Err())
		}
		if got := gauge(t, br.active.WithLabelValues("k")); got != 1 {
			t.Fatalf("active = %v, want 1", got)
		}
		if got := counter(t, br.slow.WithLabelValues("k")); got != 1 {
			t.Fatalf("dropped = %v, want 1 (the slow one)", got)
		}
		fast.Close()
		if got := counter(t, br.slow.WithLabelValues("k")); got != 1 {
			t.Fatalf("dropped = %v after a Close, want 1: only slow consumers count", got)
		}
	})
}

func counter(t *testing.T, c prometheus.Counter) float64 {
	t.Helper()
	var m dto.Metric
	if err := c.Write(&m); err != nil {
		t.Fatal(err)
	}
	return m.GetCounter().GetValue()
}

func gauge(t *testing.T, g prometheus.Gauge) float64 {
	t.Helper()
	var m dto.Metric
	if err := g.Write(&m); err != nil {
		t.Fatal(err)
	}
	return m.GetGauge().GetValue()
}

// While Redis is unreachable Subscribe fails (nothing waits forever); once it
// is back, subscriptions and delivery work again.
func TestSubscribeWhileRedisIsDown(t *testing.T) {
	b := testenv.NewEmbeddedRedis(t)
	br, _ := newBroker(t, b, Options{ConfirmTimeout: 300 * time.Millisecond})
	ctx := context.Background()
	warm, err := br.Subscribe(ctx, "k", "warm")
	if err != nil {
		t.Fatal(err)
	}
	b.Mini.Close()
	if s, err := br.Subscribe(ctx, "k", "t"); err == nil {
		s.Close()
		t.Fatal("subscribed with Redis down")
	}
	if err := b.Mini.Restart(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	var s *Sub
	for s == nil {
		if s, err = br.Subscribe(ctx, "k", "t"); err != nil {
			if time.Now().After(deadline) {
				t.Fatalf("still failing after Redis came back: %v", err)
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	if err := br.Publish(ctx, "t", []byte("back")); err != nil {
		t.Fatal(err)
	}
	if p := recv(t, s); string(p) != "back" {
		t.Fatalf("got %q", p)
	}
	s.Close()
	warm.Close()
}
