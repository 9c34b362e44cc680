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
	keys []string
	args []any
	cmd  *redis.Cmd
	done chan struct{}
}

// BatchOptions tune a Batcher; zero values take the defaults.
type BatchOptions struct {
	Max      int           // calls per pipeline (default 128)
	InFlight int           // pipelines on the wire at once (default 1)
	Timeout  time.Duration // bound on one pipeline (default 5 s)
}

// NewBatcher returns a batcher of script on rdb.
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
	if err := ctx.Err(); err != nil {
		cmd := redis.NewCmd(ctx)
		cmd.SetErr(err)
		return cmd
	}
	c := &call{keys: keys, args: args, done: make(chan struct{})}
	b.mu.Lock()
	b.queue = append(b.queue, c)
	lead := b.running < b.inFlight
	if lead {
		b.running++
	}
	b.mu.Unlock()
	if lead {
		b.send()
	}
	<-c.done
	return c.cmd
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
			close(c.done)
		}
	}()
	ctx, cancel := context.WithTimeout(context.Background(), b.timeout)
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
	if err := b.script.Load(ctx, b.rdb).Err(); err != nil {
		for _, c := range again {
			c.cmd.SetErr(err)
		}
		return
	}
	b.pipeline(ctx, again)
}

func (b *Batcher) pipeline(ctx context.Context, batch []*call) {
	pipe := b.rdb.Pipeline()
	for _, c := range batch {
		c.cmd = pipe.EvalSha(ctx, b.script.Hash(), c.keys, c.args...)
	}
	_, _ = pipe.Exec(ctx) // each command carries its own error
}
