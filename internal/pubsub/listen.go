package pubsub

import (
	"context"
	"errors"
)

// Decoder turns an event's payload into a T. Make one per event type and
// share it: a delivery is decoded once for all the subscribers of the topic
// that use the same Decoder, and they all receive that one value, so they
// must treat it as read-only.
type Decoder[T any] struct {
	decode func([]byte) (T, error)
}

// NewDecoder returns a Decoder; events it fails on are logged and skipped.
func NewDecoder[T any](decode func([]byte) (T, error)) *Decoder[T] {
	return &Decoder[T]{decode: decode}
}

// delivery is one event on its way to a topic's subscribers, with the value
// of the last Decoder that decoded it.
type delivery struct {
	payload []byte
	by      any // the Decoder that produced v (or err)
	v       any
	err     error
}

// Listen subscribes to topic (as Broker.Subscribe does, counted under kind)
// and returns a channel of its events decoded by dec. The broker is the
// channel's only producer and there is no goroutine per subscriber: the
// broker's dispatcher decodes an event and offers it to each subscriber's
// buffered channel without blocking; a subscriber whose buffer is full is
// dropped. The channel closes when ctx ends (which also unsubscribes) or when
// the broker ends the subscription; then, before the channel closes, onEnd
// gets the reason (ErrSlowConsumer, ErrClosed, or what a Group carried by ctx
// was ended with), so the caller can show it to
// the client. onEnd runs with the broker locked: it must be short and must
// not call the broker. It costs no goroutine per subscriber. Listening on a
// closed broker is such an end: the channel comes back closed, onEnd having
// had ErrClosed.
func Listen[T any](ctx context.Context, b *Broker, kind, topic string, dec *Decoder[T], onEnd func(error)) (<-chan T, error) {
	out := &typedSink[T]{ctx: ctx, ch: make(chan T, b.buffer), dec: dec, onEnd: onEnd}
	// Subscribing may take a Redis round trip down go-redis's deep call
	// chain. It runs on a goroutine that ends at once, so the caller's stack
	// (gqlgen's goroutine, parked for the life of the subscription) does not
	// grow for it and keep the growth: measured, 3 KB less per subscription.
	var sub *Sub
	var err error
	done := make(chan struct{})
	go func() {
		defer close(done)
		sub, err = b.subscribe(ctx, kind, topic, out)
	}()
	<-done
	if errors.Is(err, ErrClosed) {
		// Subscribed while the server shuts down: ended at once for the same
		// reason as the subscriptions Close ended, so the client is told the
		// same (reconnect), not a failure.
		out.end(err)
		return out.ch, nil
	}
	if err != nil {
		return nil, err
	}
	// The registration goes when ctx ends; a subscription's ctx always does
	// (gqlgen cancels it when the operation completes), so nothing stays.
	context.AfterFunc(ctx, sub.Close)
	if g := groupFrom(ctx); g != nil {
		g.add(ctx, sub)
	}
	return out.ch, nil
}

type typedSink[T any] struct {
	ctx   context.Context
	ch    chan T
	dec   *Decoder[T]
	onEnd func(error)
}

func (s *typedSink[T]) offer(d *delivery) bool {
	if d.by != any(s.dec) {
		d.by = s.dec
		d.v, d.err = s.dec.decode(d.payload)
	}
	if d.err != nil {
		return true // skipped: the broker logs it once
	}
	select {
	case s.ch <- d.v.(T):
		return true
	default:
		return false
	}
}

func (s *typedSink[T]) end(reason error) {
	// onEnd runs before the close, so whoever sees the channel closed also
	// sees what onEnd recorded.
	if reason != nil && s.onEnd != nil {
		s.onEnd(reason)
	}
	close(s.ch)
}
