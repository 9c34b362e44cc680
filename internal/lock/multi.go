package lock

import (
	"context"
	"errors"
	"math/rand/v2"
	"sync"
	"time"
)

// Multi is one lock over several independent Redis servers, each reached
// through its own Locker (its own client). On each node it is the simple
// lock (SET NX PX with one random value shared by all nodes).
//
// NewMulti makes Redisson's MultiLock: held only when every node granted it.
// NewRedlock makes Redlock: held when a majority granted it within the lease
// minus the clock drift allowance. Either way, an attempt that falls short is
// undone on every node before the next one, so no partial lock is left behind.
//
// Each node gets nodeTimeout per call; Multi stops waiting for a node after
// that whether or not its client honours context deadlines (go-redis does
// only with ContextTimeoutEnabled), so a dead or hung node costs one timeout,
// not the client's read timeout. A call Multi gave up on finishes in the
// background and undoes itself if it succeeded late.
type Multi struct {
	nodes       []*Locker
	quorum      int
	kind        string
	nodeTimeout time.Duration
	retryDelay  time.Duration
}

// MultiOption configures a Multi.
type MultiOption func(*Multi)

// WithNodeTimeout bounds each call to one node (default 200 ms). Keep it far
// below the lease: Redlock's validity is the lease minus the time spent.
func WithNodeTimeout(d time.Duration) MultiOption { return func(m *Multi) { m.nodeTimeout = d } }

// WithRetryDelay is the mean pause between attempts while waiting (default
// 50 ms; each pause is random in [d/2, 3d/2) so contenders fall out of step).
func WithRetryDelay(d time.Duration) MultiOption { return func(m *Multi) { m.retryDelay = d } }

// NewMulti returns a lock that needs all nodes.
func NewMulti(nodes []*Locker, opts ...MultiOption) *Multi {
	return newMulti(nodes, len(nodes), kindMulti, opts)
}

// NewRedlock returns a lock that needs a majority of nodes (N/2+1).
func NewRedlock(nodes []*Locker, opts ...MultiOption) *Multi {
	return newMulti(nodes, len(nodes)/2+1, kindRedlock, opts)
}

func newMulti(nodes []*Locker, quorum int, kind string, opts []MultiOption) *Multi {
	if len(nodes) == 0 {
		panic("lock: a multi-node lock needs nodes")
	}
	m := &Multi{nodes: nodes, quorum: quorum, kind: kind, nodeTimeout: 200 * time.Millisecond, retryDelay: 50 * time.Millisecond}
	for _, o := range opts {
		o(m)
	}
	return m
}

// TryLock takes the lock called name on the nodes for lease (lease <= 0: the
// first node's watchdog lease; there is no renewal), trying again until wait
// has passed (wait <= 0: one attempt). The Hold's context is canceled with
// ErrLockLost when the validity (lease minus acquisition time minus drift)
// runs out before Unlock.
func (m *Multi) TryLock(ctx context.Context, name string, wait, lease time.Duration) (*Hold, error) {
	if lease <= 0 {
		lease = m.nodes[0].lease
	}
	ks := make([]keys, len(m.nodes))
	for i, n := range m.nodes {
		ks[i] = n.keys(name)
	}
	value := randomHex(16)
	met := m.nodes[0].metrics
	deadline := time.Now().Add(wait)
	for first := true; ; first = false {
		start := time.Now()
		granted, answered := m.round(ctx, func(ctx context.Context, i int) (bool, error) {
			return setNX(ctx, m.nodes[i].client, ks[i].lock, value, lease)
		}, func(i int) { m.undo(ks[i], i, value) }) //nolint:contextcheck // a late success is undone even after ctx has ended
		n := 0
		for _, g := range granted {
			if g {
				n++
			}
		}
		// Redlock's drift allowance: 1% of the lease plus 2 ms for timer granularity.
		validity := lease - time.Since(start) - lease/100 - 2*time.Millisecond
		if n >= m.quorum && validity > 0 {
			met.acquisitions.WithLabelValues(m.kind).Inc()
			return m.hold(ctx, ks, value, start.Add(validity)), nil
		}
		// Undo every node that granted it or may have (it answered with an
		// error after the command was sent); the ones that never answered
		// undo themselves.
		m.releaseAll(ks, value, func(i int) bool { return granted[i] || answered[i] != nil }) //nolint:contextcheck // undone even after ctx has ended
		if first && wait > 0 {
			met.waits.WithLabelValues(m.kind).Inc()
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		left := time.Until(deadline)
		if left <= 0 {
			return nil, notAcquired(name)
		}
		pause := m.retryDelay/2 + rand.N(m.retryDelay) //nolint:gosec // G404: retry jitter needs spread, not unpredictability
		t := time.NewTimer(min(pause, left))
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return nil, ctx.Err()
		}
	}
}

// round runs call on every node at once and collects what comes back within
// nodeTimeout. granted[i] is a success; answered[i] is the error of a node
// that answered with one (nil for no error or no answer). A node that answers
// after the round closed gets late(i) instead, if it succeeded.
func (m *Multi) round(ctx context.Context, call func(context.Context, int) (bool, error), late func(int)) (granted []bool, answered []error) {
	type result struct {
		i   int
		ok  bool
		err error
	}
	var mu sync.Mutex
	closed := false
	results := make(chan result, len(m.nodes))
	for i := range m.nodes {
		go func() {
			nctx, cancel := context.WithTimeout(ctx, m.nodeTimeout)
			ok, err := call(nctx, i)
			cancel()
			mu.Lock()
			defer mu.Unlock()
			if !closed {
				results <- result{i, ok, err}
				return
			}
			if ok && late != nil {
				go late(i)
			}
		}()
	}
	granted = make([]bool, len(m.nodes))
	answered = make([]error, len(m.nodes))
	t := time.NewTimer(m.nodeTimeout)
	defer t.Stop()
	for got := 0; got < len(m.nodes); got++ {
		select {
		case r := <-results:
			granted[r.i], answered[r.i] = r.ok, r.err
		case <-t.C:
			got = len(m.nodes) // stop waiting for the slow ones
		}
	}
	mu.Lock()
	closed = true
	mu.Unlock()
	for {
		select {
		case r := <-results: // sent before we closed
			granted[r.i], answered[r.i] = r.ok, r.err
		default:
			return granted, answered
		}
	}
}

// releaseAll deletes the lock (if still ours) on the nodes which(i) selects,
// waiting at most one node timeout.
func (m *Multi) releaseAll(ks []keys, value string, which func(int) bool) (released int, errs []error) {
	granted, answered := m.round(context.Background(), func(ctx context.Context, i int) (bool, error) {
		if !which(i) {
			return false, nil
		}
		err := releaseSimple(ctx, m.nodes[i].client, ks[i], value)
		if errors.Is(err, ErrNotHeld) {
			return false, nil
		}
		return err == nil, err
	}, nil)
	for i, g := range granted {
		if g {
			released++
		}
		if answered[i] != nil {
			errs = append(errs, answered[i])
		}
	}
	return released, errs
}

// undo releases a late success on node i.
func (m *Multi) undo(k keys, i int, value string) {
	ctx, cancel := context.WithTimeout(context.Background(), m.nodeTimeout)
	defer cancel()
	_ = releaseSimple(ctx, m.nodes[i].client, k, value)
}

func (m *Multi) hold(ctx context.Context, ks []keys, value string, validUntil time.Time) *Hold {
	sig := newSignal(m.nodes[0].lostHook(m.kind, ks[0].name))
	expiry := time.AfterFunc(time.Until(validUntil), func() { sig.lose("validity ran out") })
	return newHold(ctx, ks[0].name, 0, sig, func(context.Context) error {
		expiry.Stop()
		defer sig.release()
		released, errs := m.releaseAll(ks, value, func(int) bool { return true }) //nolint:contextcheck // bounded by the node timeout, whatever Unlock's context
		if released >= m.quorum {
			return nil
		}
		if len(errs) > 0 {
			return errors.Join(errs...)
		}
		sig.lose("gone before unlock")
		return &NotHeldError{Name: ks[0].name}
	})
}
