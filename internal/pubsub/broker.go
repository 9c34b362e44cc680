// Package pubsub is the cross-instance event broker behind every GraphQL
// subscription. Events are published on Redis Pub/Sub; each server instance
// holds one Redis subscription and fans events out to its own local
// subscribers. A Redis channel is subscribed while the instance has a local
// subscriber to its topic and unsubscribed when the last one leaves.
//
// Each local subscriber has a bounded buffer. The broadcaster never blocks: a
// subscriber whose buffer is full is dropped (its channel closes and Err
// reports ErrSlowConsumer), so one slow client cannot hold up the others.
package pubsub

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/redis/go-redis/v9"
)

// Reasons a subscription ends other than its owner closing it.
var (
	ErrSlowConsumer = errors.New("subscriber too slow: events were arriving faster than it read them")
	ErrClosed       = errors.New("server shutting down")
)

// DefaultBuffer is the per-subscriber buffer when Options.Buffer is zero.
// Events wait in it only while that client's socket write is blocked, and
// every open subscription pays for it (8 bytes an event): 16 is ample for a
// feed or an order's status changes and 384 bytes less per subscription
// than 64.
const DefaultBuffer = 16

// Options tune a Broker.
type Options struct {
	Buffer int // events a subscriber may fall behind before it is dropped
	Log    *slog.Logger
	// ConfirmTimeout bounds Subscribe's wait for Redis (default 5 s).
	ConfirmTimeout time.Duration
}

// Broker publishes and delivers events. It is safe for concurrent use.
type Broker struct {
	client redis.UniversalClient
	prefix string
	buffer int
	wait   time.Duration
	log    *slog.Logger
	active *prometheus.GaugeVec
	// slow counts subscribers dropped for falling behind: the operator's
	// sign that clients (or this instance's writes to them) are too slow.
	slow *prometheus.CounterVec

	mu      sync.Mutex
	ps      *redis.PubSub // nil until the first subscriber
	topics  map[string]*topic
	pending map[string][]*topic // per Redis channel, topics awaiting SUBSCRIBE confirmation, in order
	closed  bool
	stop    chan struct{}
	done    chan struct{} // closed when the dispatcher ends
}

type topic struct {
	subs  map[*Sub]struct{}
	ready chan struct{} // closed once Redis confirmed the SUBSCRIBE
}

// New returns a broker whose Redis channels are prefix+"events:"+topic. The
// gauge hmdp_subscriptions_active{kind} and the counter
// hmdp_subscriptions_dropped_total{kind} are registered on reg (when not nil).
func New(client redis.UniversalClient, prefix string, reg prometheus.Registerer, opt Options) *Broker {
	if opt.Buffer <= 0 {
		opt.Buffer = DefaultBuffer
	}
	if opt.ConfirmTimeout <= 0 {
		opt.ConfirmTimeout = 5 * time.Second
	}
	if opt.Log == nil {
		opt.Log = slog.New(slog.DiscardHandler)
	}
	b := &Broker{
		client:  client,
		prefix:  prefix + "events:",
		buffer:  opt.Buffer,
		wait:    opt.ConfirmTimeout,
		log:     opt.Log,
		topics:  map[string]*topic{},
		pending: map[string][]*topic{},
		stop:    make(chan struct{}),
		active: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "hmdp_subscriptions_active", Help: "Open subscriptions on this instance, by kind.",
		}, []string{"kind"}),
		slow: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "hmdp_subscriptions_dropped_total", Help: "Subscriptions ended because the subscriber fell behind (slow consumers), by kind.",
		}, []string{"kind"}),
	}
	if reg != nil {
		reg.MustRegister(b.active, b.slow)
	}
	return b
}

// Message is one event for PublishMany.
type Message struct {
	Topic   string
	Payload []byte
}

// Publish sends payload to every subscriber of topic on every instance.
func (b *Broker) Publish(ctx context.Context, topic string, payload []byte) error {
	return b.publisher(ctx).Publish(ctx, b.prefix+topic, payload).Err()
}

// PublishMany sends the messages in pipelined batches of batch (one round
// trip per batch), in order.
func (b *Broker) PublishMany(ctx context.Context, msgs []Message, batch int) error {
	if batch <= 0 {
		batch = 500
	}
	c := b.publisher(ctx)
	for len(msgs) > 0 {
		n := min(batch, len(msgs))
		pipe := c.Pipeline()
		for _, m := range msgs[:n] {
			pipe.Publish(ctx, b.prefix+m.Topic, m.Payload)
		}
		if _, err := pipe.Exec(ctx); err != nil {
			return err
		}
		msgs = msgs[n:]
	}
	return nil
}

// publisher is where to PUBLISH. On a Redis Cluster a message published on
// any node reaches the subscribers on all of them, but go-redis sends a
// keyless command such as PUBLISH to a random node, and messages published
// on different nodes can overtake each other on the cluster bus. So every
// message goes through one node (the master of the broker's prefix, found
// again after a failover), which keeps them in the order they were sent.
func (b *Broker) publisher(ctx context.Context) redis.UniversalClient {
	if cc, ok := b.client.(*redis.ClusterClient); ok {
		if node, err := cc.MasterForKey(ctx, b.prefix); err == nil {
			return node
		}
	}
	return b.client
}

// Sub is one local subscriber. Read C until it closes, then Err tells why
// (nil when the owner called Close).
type Sub struct {
	C <-chan []byte // nil for the subscribers of Listen, which have their own channel

	b     *Broker
	kind  string
	topic string
	out   sink
	err   error // set under b.mu before out ends
	gone  bool  // removed from the broker
}

// sink is where a subscriber's events go; the broker calls it under b.mu.
// offer must not block: false means the subscriber's buffer is full. end
// closes the subscriber's channel; reason is why the broker ended it (nil when
// its owner did).
type sink interface {
	offer(d *delivery) bool
	end(reason error)
}

// rawSink delivers payloads as they came (Broker.Subscribe).
type rawSink chan []byte

func (c rawSink) offer(d *delivery) bool {
	select {
	case c <- d.payload:
		return true
	default:
		return false
	}
}

func (c rawSink) end(error) { close(c) }

// Err is the reason the subscription ended; valid once C is closed.
func (s *Sub) Err() error {
	s.b.mu.Lock()
	defer s.b.mu.Unlock()
	return s.err
}

// End unsubscribes and tells the subscriber why (Listen's onEnd gets
// reason); safe to call more than once and after a drop.
func (s *Sub) End(reason error) {
	s.b.mu.Lock()
	defer s.b.mu.Unlock()
	s.b.removeLocked(s, reason)
}

// Close unsubscribes; safe to call more than once and after a drop.
func (s *Sub) Close() {
	s.b.mu.Lock()
	defer s.b.mu.Unlock()
	s.b.removeLocked(s, nil)
}

// Subscribe adds a local subscriber to topic, counted under kind in the
// metric. It returns once Redis confirmed the subscription (or ctx ended), so
// an event published after Subscribe returns is delivered.
func (b *Broker) Subscribe(ctx context.Context, kind, name string) (*Sub, error) {
	return b.SubscribeBuffered(ctx, kind, name, b.buffer)
}

// SubscribeBuffered is Subscribe with a buffer of its own size, for a
// server-side consumer (not a client) that may fall behind a burst for a
// moment, such as a relay doing a round trip per event.
func (b *Broker) SubscribeBuffered(ctx context.Context, kind, name string, buffer int) (*Sub, error) {
	ch := make(chan []byte, max(buffer, 1))
	s, err := b.subscribe(ctx, kind, name, rawSink(ch))
	if err != nil {
		return nil, err
	}
	s.C = ch
	return s, nil
}

func (b *Broker) subscribe(ctx context.Context, kind, name string, out sink) (*Sub, error) {
	b.mu.Lock()
	if b.closed {
		b.mu.Unlock()
		return nil, ErrClosed
	}
	if b.ps == nil {
		b.ps = b.client.Subscribe(context.Background()) //nolint:contextcheck // the shared subscription outlives its first subscriber
		b.done = make(chan struct{})
		go b.dispatch(b.ps, b.done) //nolint:contextcheck,gosec // dispatch serves every subscriber until Close, past this caller's context
	}
	t := b.topics[name]
	if t == nil {
		t = &topic{subs: map[*Sub]struct{}{}, ready: make(chan struct{})}
		b.topics[name] = t
		ch := b.prefix + name
		b.pending[ch] = append(b.pending[ch], t)
		// Written under b.mu so SUBSCRIBE/UNSUBSCRIBE of one channel reach
		// Redis in the order subscribers came and went. go-redis resubscribes
		// after a reconnect.
		if err := b.ps.Subscribe(context.Background(), ch); err != nil { //nolint:contextcheck // a write on the shared connection: no caller's context may abort it
			// No confirmation will come for this write: forget the topic.
			// (go-redis may resubscribe after reconnecting; an unexpected
			// confirmation finds nothing pending and is ignored.)
			b.pending[ch] = b.pending[ch][:len(b.pending[ch])-1]
			if len(b.pending[ch]) == 0 {
				delete(b.pending, ch)
			}
			delete(b.topics, name)
			_ = b.ps.Unsubscribe(context.Background(), ch) //nolint:contextcheck // as SUBSCRIBE above
			b.mu.Unlock()
			return nil, fmt.Errorf("pubsub: subscribe %s: %w", ch, err)
		}
	}
	s := &Sub{b: b, kind: kind, topic: name, out: out}
	t.subs[s] = struct{}{}
	b.active.WithLabelValues(kind).Inc()
	ready := t.ready
	b.mu.Unlock()

	timer := time.NewTimer(b.wait)
	defer timer.Stop()
	select {
	case <-ready:
		return s, nil
	case <-ctx.Done():
		s.Close() //nolint:contextcheck // Close unsubscribes with its own context: ctx may have ended
		return nil, ctx.Err()
	case <-timer.C:
		// The confirmation was lost (the connection broke): drop the
		// entry, or it would take the confirmation of a later SUBSCRIBE.
		b.mu.Lock()
		b.dropPendingLocked(b.prefix+name, t)
		b.mu.Unlock()
		s.Close() //nolint:contextcheck // Close unsubscribes with its own context: ctx may have ended
		return nil, errors.New("pubsub: redis did not confirm the subscription")
	}
}

// removeLocked takes s out of its topic and closes its channel with reason.
func (b *Broker) removeLocked(s *Sub, reason error) {
	if s.gone {
		return
	}
	s.gone = true
	s.err = reason
	// Counted before the subscriber can see its channel closed.
	b.active.WithLabelValues(s.kind).Dec()
	if errors.Is(reason, ErrSlowConsumer) {
		b.slow.WithLabelValues(s.kind).Inc()
	}
	s.out.end(reason)
	t := b.topics[s.topic]
	if t == nil {
		return
	}
	delete(t.subs, s)
	if len(t.subs) > 0 {
		return
	}
	delete(b.topics, s.topic)
	if b.ps != nil && !b.closed {
		if err := b.ps.Unsubscribe(context.Background(), b.prefix+s.topic); err != nil {
			b.log.Warn("pubsub: unsubscribe failed", "topic", s.topic, "err", err)
		}
	}
}

// dispatch reads the Redis subscription until the broker closes.
func (b *Broker) dispatch(ps *redis.PubSub, done chan struct{}) {
	defer close(done)
	backoff := 50 * time.Millisecond
	for {
		msg, err := ps.Receive(context.Background())
		if err != nil {
			select {
			case <-b.stop:
				return
			default:
			}
			b.log.Warn("pubsub: receive failed", "err", err)
			b.prunePending()
			select {
			case <-time.After(backoff):
			case <-b.stop:
				return
			}
			backoff = min(2*backoff, 2*time.Second)
			continue
		}
		backoff = 50 * time.Millisecond
		switch m := msg.(type) {
		case *redis.Message:
			b.deliver(m)
		case *redis.Subscription:
			if m.Kind == "subscribe" {
				b.confirm(m.Channel)
			}
		}
	}
}

func (b *Broker) deliver(m *redis.Message) {
	if len(m.Channel) < len(b.prefix) {
		return
	}
	b.DeliverLocal([]string{m.Channel[len(b.prefix):]}, []byte(m.Payload))
}

// DeliverLocal hands payload to this instance's subscribers of each topic,
// as if it had come from Redis, without a round trip: a relay that received
// one event for many local subscribers (a big author's post) delivers it
// here. The payload is decoded once for all of them (per Decoder).
func (b *Broker) DeliverLocal(topics []string, payload []byte) {
	d := delivery{payload: payload}
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, name := range topics {
		t := b.topics[name]
		if t == nil {
			continue
		}
		for s := range t.subs {
			if !s.out.offer(&d) {
				b.removeLocked(s, ErrSlowConsumer)
			}
		}
	}
	if d.err != nil {
		b.log.Error("pubsub: undecodable event", "topics", topics, "err", d.err)
	}
}

// confirm marks the oldest pending SUBSCRIBE of channel as active. Extra
// confirmations (go-redis resubscribing after a reconnect) find none pending.
func (b *Broker) confirm(channel string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	q := b.pending[channel]
	if len(q) == 0 {
		return
	}
	close(q[0].ready)
	if len(q) == 1 {
		delete(b.pending, channel)
	} else {
		b.pending[channel] = q[1:]
	}
}

func (b *Broker) dropPendingLocked(ch string, t *topic) {
	q := b.pending[ch]
	for i, x := range q {
		if x == t {
			q = append(q[:i:i], q[i+1:]...)
			break
		}
	}
	if len(q) == 0 {
		delete(b.pending, ch)
	} else {
		b.pending[ch] = q
	}
}

// prunePending forgets confirmations that can no longer come: after a broken
// connection go-redis resubscribes the channels it still has, once each, so
// only the live topic of each channel may still be waiting.
func (b *Broker) prunePending() {
	b.mu.Lock()
	defer b.mu.Unlock()
	for ch, q := range b.pending {
		live := b.topics[ch[len(b.prefix):]]
		var keep []*topic
		for _, t := range q {
			if t == live {
				keep = append(keep, t)
			}
		}
		if len(keep) == 0 {
			delete(b.pending, ch)
		} else {
			b.pending[ch] = keep
		}
	}
}

// Close ends every subscription with ErrClosed and stops the dispatcher.
func (b *Broker) Close() error {
	b.mu.Lock()
	if b.closed {
		b.mu.Unlock()
		return nil
	}
	b.closed = true
	close(b.stop)
	for _, t := range b.topics {
		for s := range t.subs {
			b.removeLocked(s, ErrClosed)
		}
	}
	for ch, q := range b.pending {
		for _, t := range q {
			close(t.ready)
		}
		delete(b.pending, ch)
	}
	ps, done := b.ps, b.done
	b.mu.Unlock()
	if ps == nil {
		return nil
	}
	err := ps.Close()
	<-done
	return err
}
