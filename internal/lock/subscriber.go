package lock

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
)

// subscriber shares one Pub/Sub connection among all waiters of a Locker and
// hands each release message to one waiter of that lock (like the semaphore
// Redisson's lock entry uses), so a release wakes one retry per process, not
// a herd. A message that finds nobody parked is kept as a permit for the
// next waiter to park, so a release that lands while every waiter is busy
// retrying is not lost.
type subscriber struct {
	client redis.UniversalClient
	log    *slog.Logger

	mu      sync.Mutex
	ps      *redis.PubSub            // nil until the first waiter joins
	live    map[string]*channelState // channels with waiters
	pending map[string][]*channelState
	done    chan struct{} // closed when the dispatcher goroutine ends
	stop    chan struct{} // closed when close begins
	closed  bool
}

type channelState struct {
	members int
	parked  []*waiter // FIFO: the longest-waiting is woken first
	permit  bool
	ready   chan struct{} // closed once Redis confirmed the SUBSCRIBE
}

type waiter struct {
	channel string
	state   *channelState
	wake    chan struct{} // capacity 1
}

func newSubscriber(client redis.UniversalClient, log *slog.Logger) *subscriber {
	return &subscriber{
		client:  client,
		log:     log,
		live:    map[string]*channelState{},
		pending: map[string][]*channelState{},
		stop:    make(chan struct{}),
	}
}

// join registers a waiter for channel, subscribing when it is the first. The
// waiter must wait for ready() before its next attempt to take the lock, so a
// release published in between cannot slip past it.
func (s *subscriber) join(channel string) *waiter {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ps == nil && !s.closed {
		s.ps = s.client.Subscribe(context.Background())
		s.done = make(chan struct{})
		go s.dispatch(s.ps, s.done)
	}
	st := s.live[channel]
	if st == nil {
		st = &channelState{ready: make(chan struct{})}
		s.live[channel] = st
		if s.closed {
			close(st.ready) // no listener any more: waiters rely on their timers
		} else {
			s.pending[channel] = append(s.pending[channel], st)
			// Written under s.mu so SUBSCRIBE/UNSUBSCRIBE of one channel reach
			// Redis in the order the waiters came and went. A failed write is
			// retried by go-redis when it reconnects (it resubscribes).
			if err := s.ps.Subscribe(context.Background(), channel); err != nil {
				s.log.Warn("lock: subscribe failed", "channel", channel, "err", err)
			}
		}
	}
	st.members++
	return &waiter{channel: channel, state: st, wake: make(chan struct{}, 1)}
}

// ready is closed once the waiter's subscription is active.
func (w *waiter) ready() <-chan struct{} { return w.state.ready }

// park waits for a release message, the fallback timeout d, or ctx. It
// returns ctx.Err() when ctx ended, else nil (time to try again).
func (s *subscriber) park(ctx context.Context, w *waiter, d time.Duration) error {
	s.mu.Lock()
	if w.state.permit {
		w.state.permit = false
		s.mu.Unlock()
		return nil
	}
	w.state.parked = append(w.state.parked, w)
	s.mu.Unlock()

	t := time.NewTimer(d)
	defer t.Stop()
	var err error
	select {
	case <-w.wake:
	case <-t.C:
	case <-ctx.Done():
		err = ctx.Err()
	}
	s.mu.Lock()
	w.state.parked = remove(w.state.parked, w)
	s.mu.Unlock()
	select {
	case <-w.wake: // woken as we left for another reason: the retry uses it
	default:
	}
	return err
}

// leave unregisters w. A waiter that gives up without the lock passes a wake
// on, in case it had been handed the one meant for the release it missed.
func (s *subscriber) leave(w *waiter, acquired bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	w.state.members--
	if !acquired {
		s.notifyLocked(w.state)
	}
	if w.state.members == 0 && s.live[w.channel] == w.state {
		delete(s.live, w.channel)
		if s.ps != nil && !s.closed {
			if err := s.ps.Unsubscribe(context.Background(), w.channel); err != nil {
				s.log.Warn("lock: unsubscribe failed", "channel", w.channel, "err", err)
			}
		}
	}
}

// notifyLocked wakes the longest-parked waiter, or leaves a permit.
func (s *subscriber) notifyLocked(st *channelState) {
	if len(st.parked) == 0 {
		st.permit = true
		return
	}
	w := st.parked[0]
	st.parked = st.parked[1:]
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

// dispatch reads the Pub/Sub connection until close.
func (s *subscriber) dispatch(ps *redis.PubSub, done chan struct{}) {
	defer close(done)
	backoff := 50 * time.Millisecond
	for {
		msg, err := ps.Receive(context.Background())
		if err != nil {
			if s.receiveFailed() {
				return
			}
			s.log.Warn("lock: pub/sub receive failed", "err", err)
			select {
			case <-time.After(backoff):
			case <-s.stop:
				return
			}
			backoff = min(2*backoff, 2*time.Second)
			continue
		}
		backoff = 50 * time.Millisecond
		s.handle(msg)
	}
}

// receiveFailed reports whether the subscriber is closed; while it is not,
// messages may have been missed while the connection was down, so every
// waiter tries again (go-redis resubscribes on reconnect).
func (s *subscriber) receiveFailed() (closed bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.closed {
		s.wakeAllLocked()
	}
	return s.closed
}

// handle passes a release message to a waiter of its lock, and a confirmed
// SUBSCRIBE to the waiters that wait for it.
func (s *subscriber) handle(msg any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch m := msg.(type) {
	case *redis.Message:
		if st := s.live[m.Channel]; st != nil {
			s.notifyLocked(st)
		}
	case *redis.Subscription:
		if m.Kind == "subscribe" {
			s.subscribedLocked(m.Channel)
		}
	}
}

// subscribedLocked marks the oldest pending subscription of channel ready.
// Confirmations come back in the order the SUBSCRIBEs were sent; extra ones
// (go-redis resubscribing after a reconnect) find no pending entry and are
// ignored.
func (s *subscriber) subscribedLocked(channel string) {
	q := s.pending[channel]
	if len(q) == 0 {
		return
	}
	close(q[0].ready)
	if len(q) == 1 {
		delete(s.pending, channel)
	} else {
		s.pending[channel] = q[1:]
	}
}

// wakeAllLocked lets every waiter try again: each parked one is woken and
// each channel keeps a permit for the next.
func (s *subscriber) wakeAllLocked() {
	for _, st := range s.live {
		st.permit = true
		for len(st.parked) > 0 {
			s.notifyLocked(st)
		}
	}
}

// close stops the dispatcher and waits for it to end.
func (s *subscriber) close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	close(s.stop)
	ps, done := s.ps, s.done
	for ch, q := range s.pending { // nobody will confirm these now
		for _, st := range q {
			close(st.ready)
		}
		delete(s.pending, ch)
	}
	s.wakeAllLocked()
	s.mu.Unlock()
	if ps == nil {
		return nil
	}
	err := ps.Close()
	<-done
	return err
}

func remove(ws []*waiter, w *waiter) []*waiter {
	for i, x := range ws {
		if x == w {
			return append(ws[:i], ws[i+1:]...)
		}
	}
	return ws
}
