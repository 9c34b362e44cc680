package seckill

import (
	"context"
	"errors"
	"fmt"
	"strconv"
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
// marker has every admission the master held before it was written. Callers
// group-commit: while one round is on the wire the next callers gather, and
// one INCR+WAIT then confirms them all, so under load the cost is one round
// per replica acknowledgement, not one per admission.
//
// On a Cluster each master replicates only its own slots, so the round runs
// on the master of the sale's slot (ClusterClient.MasterForKey), one
// group-commit per master, with the marker under the sale's hash tag: a node
// that no longer serves the slot answers MOVED and the round fails rather
// than confirming on the wrong node.
//
// The round also reads each caller's buyer entry on that connection before
// the marker: a failover (or a restart without persistence) between the
// admission and the round would otherwise let a WAIT on the new master
// confirm a marker written after the admission was already gone.
type replicaWaiter struct {
	rdb     redis.UniversalClient
	cluster *redis.ClusterClient // nil: one master
	n       int
	timeout time.Duration

	mu     sync.Mutex
	shards map[string]*waitShard // by master address ("" for one master)
}

// waitShard is the group-commit of one master.
type waitShard struct {
	next    *waitRound // gathering callers; nil when none waits
	running bool       // a goroutine is sending rounds
}

type waitRound struct {
	node    pipeliner
	waiters []*admissionWait
	done    chan struct{}
}

// admissionWait is one admission to confirm: its buyer entry must still
// hold its order when the marker is written.
type admissionWait struct {
	buyers, marker string
	user, order    string
	err            error
}

// pipeliner is a client whose pipeline runs on one connection: a
// *redis.Client, which is also what Sentinel's failover client is.
type pipeliner interface {
	Pipelined(ctx context.Context, fn func(redis.Pipeliner) error) ([]redis.Cmder, error)
}

// newReplicaWaiter returns nil when n is 0 (no waiting).
func newReplicaWaiter(rdb redis.UniversalClient, n int, timeout time.Duration) *replicaWaiter {
	if n <= 0 {
		return nil
	}
	if timeout <= 0 {
		timeout = time.Second
	}
	cc, _ := rdb.(*redis.ClusterClient)
	return &replicaWaiter{rdb: rdb, cluster: cc, n: n, timeout: timeout, shards: map[string]*waitShard{}}
}

// errNotHeld is an admission its master no longer holds when the round ran.
var errNotHeld = errors.New("the admission is no longer on the master (failover or restart)")

// confirmReplicated returns once WaitReplicas replicas have userID's
// admission orderID to voucherID (nil when waiting is off), or UNAVAILABLE.
// Without waiting, the admission is noted so that its loss is noticed
// (acked.go).
func (s *Service) confirmReplicated(ctx context.Context, voucherID, userID, orderID int64) error {
	if s.replicas == nil {
		s.acked.note(voucherID, userID, orderID) //nolint:contextcheck // its checks outlive the request: they end with the service (Stop)
		return nil
	}
	k := KeysOf(s.prefix, voucherID)
	err := s.replicas.wait(ctx, &admissionWait{buyers: k.Buyers, marker: k.replicated(),
		user: strconv.FormatInt(userID, 10), order: strconv.FormatInt(orderID, 10)})
	if err != nil {
		s.metrics.requests.WithLabelValues("unconfirmed").Inc()
		s.log.Warn("flash-sale admission not confirmed by replicas", "voucher", voucherID, "order", orderID, "err", err)
		if ctx.Err() != nil {
			return ctx.Err()
		}
		// The admission may still be kept (and become an order): the client
		// is told to look before trying again.
		return apperr.New(apperr.Unavailable, "the flash-sale attempt could not be confirmed; check your orders before trying again")
	}
	return nil
}

func (w *replicaWaiter) wait(ctx context.Context, a *admissionWait) error {
	var node pipeliner = w.rdb
	addr := ""
	if w.cluster != nil {
		c, err := w.cluster.MasterForKey(ctx, a.buyers)
		if err != nil {
			return fmt.Errorf("wait for replicas: the sale's master: %w", err)
		}
		node, addr = c, c.Options().Addr
	}
	w.mu.Lock()
	sh := w.shards[addr]
	if sh == nil {
		sh = &waitShard{}
		w.shards[addr] = sh
	}
	r := sh.next
	if r == nil {
		r = &waitRound{node: node, done: make(chan struct{})}
		sh.next = r
	}
	r.waiters = append(r.waiters, a)
	if !sh.running {
		sh.running = true
		go w.loop(context.WithoutCancel(ctx), addr, sh) // a round serves every caller: one leaving must not cancel it
	}
	w.mu.Unlock()
	select {
	case <-r.done:
		return a.err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// loop sends one round at a time until no caller of the shard waits.
func (w *replicaWaiter) loop(ctx context.Context, addr string, sh *waitShard) {
	for {
		w.mu.Lock()
		r := sh.next
		sh.next = nil
		if r == nil {
			sh.running = false
			delete(w.shards, addr) // a master gone in a failover leaves no entry behind
			w.mu.Unlock()
			return
		}
		w.mu.Unlock()
		if err := w.round(ctx, r); err != nil {
			for _, a := range r.waiters {
				a.err = err
			}
		}
		close(r.done)
	}
}

// round reads the callers' buyer entries, writes the marker and WAITs for
// it, all on one connection (a pipeline on one node keeps them together).
func (w *replicaWaiter) round(ctx context.Context, r *waitRound) error {
	ctx, cancel := context.WithTimeout(ctx, w.timeout+3*time.Second)
	defer cancel()
	held := make([]*redis.StringCmd, len(r.waiters))
	var marker *redis.IntCmd
	var got *redis.Cmd
	_, _ = r.node.Pipelined(ctx, func(p redis.Pipeliner) error {
		for i, a := range r.waiters {
			held[i] = p.HGet(ctx, a.buyers, a.user)
		}
		marker = p.Incr(ctx, r.waiters[0].marker)
		got = p.Do(ctx, "WAIT", w.n, w.timeout.Milliseconds())
		return nil
	})
	if err := marker.Err(); err != nil {
		return fmt.Errorf("wait for replicas: marker: %w", err)
	}
	n, err := got.Int64()
	if err != nil {
		return fmt.Errorf("wait for replicas: %w", err)
	}
	if n < int64(w.n) {
		return fmt.Errorf("%d of %d replicas acknowledged within %s", n, w.n, w.timeout)
	}
	for i, a := range r.waiters {
		v, err := held[i].Result()
		switch {
		case err != nil && !errors.Is(err, redis.Nil):
			a.err = fmt.Errorf("wait for replicas: %w", err)
		case v != a.order:
			a.err = errNotHeld
		}
	}
	return nil
}
