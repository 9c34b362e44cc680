package redisx

import (
	"context"
	"errors"
	"io"
	"net"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/hmdp/hmdp/internal/apperr"
)

// ErrUnavailable is what a Redis call answers, without being sent, while
// Redis is unreachable (Breaker). Nothing was done, so the client may retry.
var ErrUnavailable = &apperr.Error{
	Code:         apperr.Unavailable,
	Message:      "the service is briefly unavailable (its data store does not answer); nothing was done, retry in a moment",
	RetryAfterMs: DefaultProbeEvery.Milliseconds(),
}

// ErrFull is what a write answers while Redis is at its memory limit and
// refuses writes (maxmemory with noeviction: an "OOM command not allowed"
// reply). Nothing was written; it is retryable, not the client's fault.
var ErrFull = &apperr.Error{
	Code:         apperr.Unavailable,
	Message:      "the service is briefly unavailable (its data store is full); nothing was done, retry in a moment",
	RetryAfterMs: DefaultProbeEvery.Milliseconds(),
}

// ErrClusterDown is what a call answers when a Redis Cluster node refuses it
// with CLUSTERDOWN (the cluster is failed, or the key's slot has no owner).
// The node refused before running it, so nothing was done: retryable.
var ErrClusterDown = &apperr.Error{
	Code:         apperr.Unavailable,
	Message:      "the service is briefly unavailable (its data store's cluster is down); nothing was done, retry in a moment",
	RetryAfterMs: DefaultProbeEvery.Milliseconds(),
}

// ErrTimeout is what a call answers when Redis did not answer it within
// CallTimeout: retryable, but a write may or may not have been made.
var ErrTimeout = &apperr.Error{
	Code:         apperr.Unavailable,
	Message:      "the service did not answer in time (its data store is slow or unreachable); what was asked may or may not have been done: check before retrying",
	RetryAfterMs: DefaultProbeEvery.Milliseconds(),
}

// timeoutError is a call that ran out of CallTimeout, seen as ErrTimeout.
type timeoutError struct{ cause error }

func (e timeoutError) Error() string        { return ErrTimeout.Error() + " (" + e.cause.Error() + ")" }
func (e timeoutError) Unwrap() []error      { return []error{ErrTimeout, e.cause} }
func (e timeoutError) Is(target error) bool { return target == ErrTimeout }

// timedOut reports whether err is a timeout (not yet seen as ErrTimeout) of
// a call whose caller (ctx) had not given up.
func timedOut(ctx context.Context, err error) bool {
	if err == nil || ctx.Err() != nil || errors.Is(err, ErrTimeout) {
		return false
	}
	var nerr net.Error
	return errors.Is(err, context.DeadlineExceeded) || errors.As(err, &nerr) && nerr.Timeout()
}

// fullError is an OOM reply from Redis seen as ErrFull.
type fullError struct{ reply error }

func (e fullError) Error() string        { return ErrFull.Error() + " (" + e.reply.Error() + ")" }
func (e fullError) Unwrap() []error      { return []error{ErrFull, e.reply} }
func (e fullError) Is(target error) bool { return target == ErrFull }

// Full reports whether err is Redis refusing a write at its memory limit.
func Full(err error) bool { return errors.Is(err, ErrFull) || isOOM(err) }

func isOOM(err error) bool { return err != nil && redis.IsOOMError(err) && !errors.Is(err, ErrFull) }

// clusterDownError is a CLUSTERDOWN reply seen as ErrClusterDown.
type clusterDownError struct{ reply error }

func (e clusterDownError) Error() string {
	return ErrClusterDown.Error() + " (" + e.reply.Error() + ")"
}
func (e clusterDownError) Unwrap() []error      { return []error{ErrClusterDown, e.reply} }
func (e clusterDownError) Is(target error) bool { return target == ErrClusterDown }

// ClusterDown reports whether err is a Redis Cluster node refusing a call
// with CLUSTERDOWN.
func ClusterDown(err error) bool { return errors.Is(err, ErrClusterDown) || isClusterDown(err) }

func isClusterDown(err error) bool {
	return err != nil && redis.HasErrorPrefix(err, "CLUSTERDOWN") && !errors.Is(err, ErrClusterDown)
}

// refused wraps an OOM or CLUSTERDOWN reply (kept in the error chain) as
// ErrFull or ErrClusterDown, so a request that hits it answers UNAVAILABLE
// rather than INTERNAL_SERVER_ERROR; ok is false for any other error.
func refused(err error) (wrapped error, ok bool) {
	switch {
	case isOOM(err):
		return fullError{err}, true
	case isClusterDown(err):
		return clusterDownError{err}, true
	}
	return err, false
}

// asRefused applies refused to a pipelined cmd's error.
func asRefused(cmd redis.Cmder) {
	if r, ok := refused(cmd.Err()); ok {
		cmd.SetErr(r)
	}
}

// DefaultProbeEvery is how often an open Breaker pings Redis (Breaker.ProbeEvery).
const DefaultProbeEvery = time.Second

// Breaker is a go-redis hook that fails calls fast while Redis is unreachable
// (and makes Redis's "full" replies ErrFull, retryable, rather than internal).
//
// Without it, every call during a network partition waits for its own
// timeout (3 s, twice with go-redis's retry), and calls queued behind a
// stalled pipeline (lua.Batcher) wait for that one first: requests took 5
// to 10 s each. With it, a call takes at most CallTimeout, and the first
// call that fails on the network (a timeout, a refused or reset connection),
// when no call has succeeded since it started, opens the breaker: from then
// on every call answers ErrUnavailable at once, while a background PING every
// ProbeEvery looks for Redis, and the first answer closes it. A call that
// Redis answers, even with an error reply, proves it reachable.
type Breaker struct {
	probe      func(ctx context.Context) error
	probeEvery time.Duration

	lastOK  atomic.Int64 // unix ns of the last call Redis answered
	open    atomic.Bool
	mu      sync.Mutex
	probing bool
	life    context.Context // the probe's, ended by Close
	stop    context.CancelFunc
	opened  atomic.Int64 // times opened (tests, metrics)
}

// probeKey marks the breaker's own PING, which must pass while it is open.
type probeKey struct{}

// NewBreaker returns a closed breaker whose probe is c's PING; add it to c
// with c.AddHook. probeEvery <= 0 takes DefaultProbeEvery.
func NewBreaker(c redis.UniversalClient, probeEvery time.Duration) *Breaker {
	if probeEvery <= 0 {
		probeEvery = DefaultProbeEvery
	}
	b := &Breaker{probeEvery: probeEvery}
	b.life, b.stop = context.WithCancel(context.Background())
	b.probe = func(ctx context.Context) error {
		return c.Ping(context.WithValue(ctx, probeKey{}, true)).Err()
	}
	b.lastOK.Store(time.Now().UnixNano())
	return b
}

// Open reports whether calls are being failed fast now.
func (b *Breaker) Open() bool { return b.open.Load() }

// Opened is how many times the breaker has opened.
func (b *Breaker) Opened() int64 { return b.opened.Load() }

// Close stops the probing.
func (b *Breaker) Close() { b.stop() }

// DialHook fails dials fast while open and counts a failed dial.
func (b *Breaker) DialHook(next redis.DialHook) redis.DialHook {
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		if b.refuse(ctx) {
			return nil, ErrUnavailable
		}
		start := time.Now()
		c, err := next(ctx, network, addr)
		b.observe(ctx, start, err)
		return c, err
	}
}

// ProcessHook guards single commands, each bounded by CallTimeout.
func (b *Breaker) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		if b.refuse(ctx) {
			cmd.SetErr(ErrUnavailable)
			return ErrUnavailable
		}
		start := time.Now()
		cctx, cancel := bound(ctx, cmd)
		err := next(cctx, cmd)
		cancel()
		b.observe(ctx, start, err)
		if r, ok := refused(err); ok {
			err = r // go-redis sets cmd's error from this return value
			cmd.SetErr(err)
		} else if timedOut(ctx, err) {
			err = timeoutError{err}
			cmd.SetErr(err)
		}
		return err
	}
}

// ProcessPipelineHook guards pipelines and transactions, each bounded by
// CallTimeout unless it holds a blocking command.
func (b *Breaker) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []redis.Cmder) error {
		if b.refuse(ctx) {
			for _, c := range cmds {
				c.SetErr(ErrUnavailable)
			}
			return ErrUnavailable
		}
		start := time.Now()
		cctx, cancel := bound(ctx, cmds...)
		err := next(cctx, cmds)
		cancel()
		b.observe(ctx, start, err)
		if err != nil {
			for _, c := range cmds {
				asRefused(c)
				if timedOut(ctx, c.Err()) {
					c.SetErr(timeoutError{c.Err()})
				}
			}
			if r, ok := refused(err); ok {
				return r
			}
			if timedOut(ctx, err) {
				return timeoutError{err}
			}
		}
		return err
	}
}

// CallTimeout bounds a call, its retries included (go-redis retries a timed
// out read once more: 6 s in all at a 3-s read timeout), unless the caller's
// deadline is sooner or the call blocks on purpose.
const CallTimeout = 3 * time.Second

// blocking are the commands that wait on the server by design, for a time
// their caller chose.
var blocking = map[string]bool{"xread": true, "xreadgroup": true, "blpop": true, "brpop": true, "brpoplpush": true,
	"blmove": true, "blmpop": true, "bzpopmin": true, "bzpopmax": true, "bzmpop": true, "wait": true, "waitaof": true}

// bound is ctx with CallTimeout, unless one of cmds blocks.
func bound(ctx context.Context, cmds ...redis.Cmder) (context.Context, context.CancelFunc) {
	for _, c := range cmds {
		if blocking[c.Name()] {
			return ctx, func() {}
		}
	}
	if dl, ok := ctx.Deadline(); ok && time.Until(dl) <= CallTimeout {
		return ctx, func() {}
	}
	return context.WithTimeout(ctx, CallTimeout)
}

// refuse reports whether a call is to fail fast (the probe always passes).
func (b *Breaker) refuse(ctx context.Context) bool {
	return b.open.Load() && ctx.Value(probeKey{}) == nil
}

// observe records a call under ctx that started at start and ended with err.
func (b *Breaker) observe(ctx context.Context, start time.Time, err error) {
	if !unreachable(err) {
		b.lastOK.Store(time.Now().UnixNano())
		return
	}
	if ctx.Err() != nil {
		return // the caller's deadline, not Redis's silence
	}
	if b.lastOK.Load() > start.UnixNano() {
		return // another call got through meanwhile: this one was unlucky, not Redis gone
	}
	b.trip() //nolint:contextcheck // the probe outlives the call that tripped it: it runs on the breaker's own context, ended by Close
}

// trip opens the breaker and starts the probe, unless it is open already.
func (b *Breaker) trip() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.probing {
		return
	}
	b.probing = true
	b.open.Store(true)
	b.opened.Add(1)
	go b.probeUntilAnswered()
}

// probeUntilAnswered pings Redis every probeEvery until it answers, then
// closes the breaker.
func (b *Breaker) probeUntilAnswered() {
	t := time.NewTicker(b.probeEvery)
	defer t.Stop()
	for {
		select {
		case <-b.life.Done():
			return
		case <-t.C:
		}
		ctx, cancel := context.WithTimeout(b.life, b.probeEvery)
		err := b.probe(ctx)
		cancel()
		if !unreachable(err) {
			b.mu.Lock()
			b.lastOK.Store(time.Now().UnixNano())
			b.open.Store(false)
			b.probing = false
			b.mu.Unlock()
			return
		}
	}
}

// unreachable reports whether err says Redis could not be reached or did not
// answer, as opposed to an answer (redis.Nil and error replies included) or
// the caller giving up (its context).
func unreachable(err error) bool {
	if err == nil || errors.Is(err, redis.Nil) || errors.Is(err, context.Canceled) || errors.Is(err, ErrUnavailable) {
		return false
	}
	var rerr redis.Error
	if errors.As(err, &rerr) {
		return false // Redis answered, with an error reply
	}
	var nerr net.Error
	return errors.As(err, &nerr) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET) || errors.Is(err, net.ErrClosed)
}
