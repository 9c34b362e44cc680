package pubsub

import (
	"context"
	"log/slog"
	"sync"
	"time"
)

// Poster publishes fire-and-forget events without a Redis round trip in the
// caller's path: Post queues the event and one goroutine sends whatever has
// queued up as one pipeline. Under load many events share a round trip; when
// idle an event leaves at once. Events from one Poster reach Redis in the
// order they were posted.
//
// Use it for notifications whose state can also be read back (an order's
// status), not for anything that must not be lost: a full queue or a Redis
// error drops events, and says so in the log.
type Poster struct {
	b   *Broker
	log *slog.Logger
	max int

	mu     sync.RWMutex // guards closed against Post racing Close
	closed bool
	q      chan Message
	done   chan struct{}
}

// PosterOptions tune a Poster; zero values take the defaults.
type PosterOptions struct {
	Queue int           // events waiting before Post drops (default 10000)
	Batch int           // events per pipeline (default 256)
	Wait  time.Duration // bound on one pipeline (default 5 s)
	Log   *slog.Logger
}

// NewPoster starts a poster publishing through b. Close it before b.
func NewPoster(b *Broker, opt PosterOptions) *Poster {
	if opt.Queue <= 0 {
		opt.Queue = 10000
	}
	if opt.Batch <= 0 {
		opt.Batch = 256
	}
	if opt.Wait <= 0 {
		opt.Wait = 5 * time.Second
	}
	if opt.Log == nil {
		opt.Log = b.log
	}
	p := &Poster{b: b, log: opt.Log, max: opt.Batch, q: make(chan Message, opt.Queue), done: make(chan struct{})}
	go p.run(opt.Wait)
	return p
}

// Post queues payload for every subscriber of topic on every instance. It
// never blocks; false means the event was dropped (queue full or closed).
func (p *Poster) Post(topic string, payload []byte) bool {
	p.mu.RLock()
	defer p.mu.RUnlock()
	if p.closed {
		return false
	}
	select {
	case p.q <- Message{Topic: topic, Payload: payload}:
		return true
	default:
		p.log.Warn("pubsub: event queue full, event dropped", "topic", topic)
		return false
	}
}

// Close sends what is queued and stops.
func (p *Poster) Close() {
	p.mu.Lock()
	if !p.closed {
		p.closed = true
		close(p.q)
	}
	p.mu.Unlock()
	<-p.done
}

func (p *Poster) run(wait time.Duration) {
	defer close(p.done)
	batch := make([]Message, 0, p.max)
	for m := range p.q {
		batch = append(batch[:0], m)
	more:
		for len(batch) < p.max {
			select {
			case m, ok := <-p.q:
				if !ok {
					break more
				}
				batch = append(batch, m)
			default:
				break more
			}
		}
		ctx, cancel := context.WithTimeout(context.Background(), wait)
		if err := p.b.PublishMany(ctx, batch, p.max); err != nil {
			p.log.Warn("pubsub: events dropped, publish failed", "events", len(batch), "err", err)
		}
		cancel()
	}
}
