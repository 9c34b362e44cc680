package seckill

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/hmdp/hmdp/internal/apperr"
)

// replicaWaiter makes admissions durable across a Redis failover: an
// admission is acknowledged only after WAIT says enough replicas have it.
//
// WAIT waits for the writes of its own connection, and admissions run on
// the batcher's connections, so the waiter writes a marker on its connection
// and waits for that: replication is in order, so a replica that has the
// marker has every admission acknowledged before it was written. Callers
// group-commit: while one round is on the wire the next callers gather, and
// one INCR+WAIT then confirms them all, so under load the cost is one round
// per replica acknowledgement, not one per admission.
type replicaWaiter struct {
	rdb     redis.UniversalClient
	key     string
	n       int
	timeout time.Duration

	mu      sync.Mutex
	next    *waitRound // gathering callers; nil when none waits
	running bool       // a goroutine is sending rounds
}

type waitRound struct {
	done chan struct{}
	err  error
}

// newReplicaWaiter returns nil when n is 0 (no waiting).
func newReplicaWaiter(rdb redis.UniversalClient, prefix string, n int, timeout time.Duration) *replicaWaiter {
	if n <= 0 {
		return nil
	}
	if timeout <= 0 {
		timeout = time.Second
	}
	return &replicaWaiter{rdb: rdb, key: prefix + "seckill:replicated", n: n, timeout: timeout}
}

// confirmReplicated returns once WaitReplicas replicas have every write made
// before it was called (nil when waiting is off), or UNAVAILABLE.
func (s *Service) confirmReplicated(ctx context.Context) error {
	if s.replicas == nil {
		return nil
	}
	err := s.replicas.wait(ctx)
	if err != nil {
		s.metrics.requests.WithLabelValues("unconfirmed").Inc()
		s.log.Warn("flash-sale admission not confirmed by replicas", "err", err)
		if ctx.Err() != nil {
			return ctx.Err()
		}
		// The admission may still be kept (and become an order): the client
		// is told to look before trying again.
		return apperr.New(apperr.Unavailable, "the flash-sale attempt could not be confirmed; check your orders before trying again")
	}
	return nil
}

func (w *replicaWaiter) wait(ctx context.Context) error {
	w.mu.Lock()
	r := w.next
	if r == nil {
		r = &waitRound{done: make(chan struct{})}
		w.next = r
	}
	if !w.running {
		w.running = true
		go w.loop(context.WithoutCancel(ctx)) // a round serves every caller: one leaving must not cancel it
	}
	w.mu.Unlock()
	select {
	case <-r.done:
		return r.err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// loop sends one round at a time until no caller waits.
func (w *replicaWaiter) loop(ctx context.Context) {
	for {
		w.mu.Lock()
		r := w.next
		w.next = nil
		if r == nil {
			w.running = false
			w.mu.Unlock()
			return
		}
		w.mu.Unlock()
		r.err = w.round(ctx)
		close(r.done)
	}
}

// round writes the marker and WAITs for it on one connection (a pipeline
// keeps both on the same one).
func (w *replicaWaiter) round(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, w.timeout+3*time.Second)
	defer cancel()
	var got *redis.Cmd
	_, err := w.rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
		p.Incr(ctx, w.key)
		got = p.Do(ctx, "WAIT", w.n, w.timeout.Milliseconds())
		return nil
	})
	if err != nil {
		return fmt.Errorf("wait for replicas: %w", err)
	}
	n, err := got.Int64()
	if err != nil {
		return fmt.Errorf("wait for replicas: %w", err)
	}
	if n < int64(w.n) {
		return fmt.Errorf("%d of %d replicas acknowledged within %s", n, w.n, w.timeout)
	}
	return nil
}
