package lua

import (
	"context"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
)

// Batcher runs one script for many concurrent callers with as few round
// trips as it can (automatic pipelining): calls that arrive while a pipeline
// is on the wire go together in the next one. A lone call leaves at once, so
// it waits for nothing; under load, 50 concurrent callers cost a handful of
// round trips instead of 50. On a machine where each socket write is
// expensive this, not Redis, decides the rate.
//
// Each call is still its own EVALSHA, atomic on its own; pipelining only
// shares the network between them.
type Batcher struct {
	rdb      redis.UniversalClient
	script   *redis.Script
	max      int
	inFlight int
	timeout  time.Duration

	mu      sync.Mutex
	queue   []*call
	running int // goroutines sending pipelines
}

type call struct {
	ctx    context.Context // the caller's values without its cancellation
	script *redis.Script   // nil: args is a plain command
	keys   []string
	args   []any
	cmd    *redis.Cmd
	done   chan struct{}   // nil when nobody waits (Send)
	then   func(err error) // Send's callback
}

// BatchOptions tune a Batcher; zero values take the defaults.
type BatchOptions struct {
	Max      int           // calls per pipeline (default 128)
	InFlight int           // pipelines on the wire at once (default 1)
	Timeout  time.Duration // bound on one pipeline (default 5 s)
}

// NewBatcher returns a batcher of script on rdb; with a nil script it only
// serves RunScript and Send.
func NewBatcher(rdb redis.UniversalClient, script *redis.Script, opt BatchOptions) *Batcher {
	if opt.Max <= 0 {
		opt.Max = 128
	}
	if opt.InFlight <= 0 {
		opt.InFlight = 1
	}
	if opt.Timeout <= 0 {
		opt.Timeout = 5 * time.Second
	}
	return &Batcher{rdb: rdb, script: script, max: opt.Max, inFlight: opt.InFlight, timeout: opt.Timeout}
}

// Run runs the script with keys and args and returns its answer. Once
// queued, a call is sent even if ctx ends: the caller then still learns what
// the script did, which for a purchase matters more than returning early.
func (b *Batcher) Run(ctx context.Context, keys []string, args ...any) *redis.Cmd {
	return b.RunScript(ctx, b.script, keys, args...)
}

// RunScript is Run for any script: one batcher can carry the calls of
// several scripts in the same pipelines.
func (b *Batcher) RunScript(ctx context.Context, script *redis.Script, keys []string, args ...any) *redis.Cmd {
	if err := ctx.Err(); err != nil {
		cmd := redis.NewCmd(ctx)
		cmd.SetErr(err)
		return cmd
	}
	c := &call{ctx: context.WithoutCancel(ctx), script: script, keys: keys, args: args, done: make(chan struct{})}
	if b.enqueue(c) {
		b.send() //nolint:contextcheck // a batch serves many callers: one caller's context must not fail the others
	}
	<-c.done
	return c.cmd
}

// Send queues a plain command (such as PEXPIRE key ms) that no request waits
// for: it rides in the next pipeline, and then, if not nil, gets the
// command's error on the batcher's goroutine (so it must be quick).
func (b *Batcher) Send(ctx context.Context, then func(err error), args ...any) {
	if b.enqueue(&call{ctx: context.WithoutCancel(ctx), args: args, then: then}) {
		go b.send() //nolint:contextcheck // the call carries ctx's values; a batch serves many callers
	}
}

// enqueue queues c and reports whether the caller must start sending.
func (b *Batcher) enqueue(c *call) (lead bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.queue = append(b.queue, c)
	if lead = b.running < b.inFlight; lead {
		b.running++
	}
	return lead
}

// send sends one pipeline of what is queued and, if more has queued up
// meanwhile, hands on to a new goroutine, so the caller whose goroutine
// this is gets back to its own request.
func (b *Batcher) send() {
	b.mu.Lock()
	if len(b.queue) == 0 {
		b.running--
		b.mu.Unlock()
		return
	}
	n := min(len(b.queue), b.max)
	batch := b.queue[:n:n]
	if b.queue = b.queue[n:]; len(b.queue) == 0 {
		b.queue = nil
	}
	b.mu.Unlock()

	b.exec(batch)

	b.mu.Lock()
	if len(b.queue) == 0 {
		b.running--
		b.mu.Unlock()
		return
	}
	b.mu.Unlock()
	go b.send()
}

func (b *Batcher) exec(batch []*call) {
	defer func() {
		for _, c := range batch {
			if c.then != nil {
				c.then(c.cmd.Err())
			}
			if c.done != nil {
				close(c.done)
			}
		}
	}()
	// The pipeline carries the first call's context values (a request's, for
	// logs and hooks), never its cancellation: it serves every call in it.
	ctx, cancel := context.WithTimeout(batch[0].ctx, b.timeout)
	defer cancel()
	b.pipeline(ctx, batch)
	// NOSCRIPT (a restarted or flushed Redis, a new Cluster node) is per
	// command: send again only the calls that did not run.
	var again []*call
	for _, c := range batch {
		if redis.HasErrorPrefix(c.cmd.Err(), "NOSCRIPT") {
			again = append(again, c)
		}
	}
	if len(again) == 0 {
		return
	}
	loaded := map[*redis.Script]error{}
	for _, c := range again {
		if _, ok := loaded[c.script]; !ok {
			loaded[c.script] = c.script.Load(ctx, b.rdb).Err()
		}
	}
	var retry []*call
	for _, c := range again {
		if err := loaded[c.script]; err != nil {
			c.cmd.SetErr(err)
			continue
		}
		retry = append(retry, c)
	}
	b.pipeline(ctx, retry)
}

func (b *Batcher) pipeline(ctx context.Context, batch []*call) {
	pipe := b.rdb.Pipeline()
	for _, c := range batch {
		if c.script == nil {
			c.cmd = pipe.Do(ctx, c.args...)
		} else {
			c.cmd = pipe.EvalSha(ctx, c.script.Hash(), c.keys, c.args...)
		}
	}
	_, _ = pipe.Exec(ctx) // each command carries its own error
}
