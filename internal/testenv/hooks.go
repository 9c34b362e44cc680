package testenv

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/redis/go-redis/v9"
)

// The go-redis hooks tests use to count and fail what reaches Redis. Add
// them with client.AddHook (or AddHook, to see a Cluster's nodes). The
// commands go-redis sends to set up a new connection (HELLO, AUTH, SELECT,
// CLIENT ...) are not counted: they come with whatever call needed the
// connection, and a busy machine opens more of them.

// setup reports whether cmd is one of go-redis's connection set-up commands.
func setup(cmd redis.Cmder) bool {
	switch strings.ToLower(cmd.Name()) {
	case "hello", "auth", "select", "client", "readonly":
		return true
	}
	return false
}

// Commands counts the commands, alone or pipelined, that Match accepts
// (every command when Match is nil).
type Commands struct {
	Match func(ctx context.Context, cmd redis.Cmder) bool
	n     atomic.Int64
}

// Named matches the commands called name ("publish", "xreadgroup"), as the
// Match of Commands.
func Named(name string) func(context.Context, redis.Cmder) bool {
	return func(_ context.Context, cmd redis.Cmder) bool { return strings.EqualFold(cmd.Name(), name) }
}

// PublishesOn matches the PUBLISH commands whose channel contains part
// ("feed:"), as the Match of Commands: a count of one kind of message, not of
// every cache invalidation sent beside it.
func PublishesOn(part string) func(context.Context, redis.Cmder) bool {
	return func(_ context.Context, cmd redis.Cmder) bool {
		args := cmd.Args()
		if !strings.EqualFold(cmd.Name(), "publish") || len(args) < 2 {
			return false
		}
		channel, _ := args[1].(string)
		return strings.Contains(channel, part)
	}
}

// N is how many have been counted.
func (c *Commands) N() int64 { return c.n.Load() }

// Reset starts the count again and returns what it was.
func (c *Commands) Reset() int64 { return c.n.Swap(0) }

func (c *Commands) count(ctx context.Context, cmd redis.Cmder) {
	if !setup(cmd) && (c.Match == nil || c.Match(ctx, cmd)) {
		c.n.Add(1)
	}
}

// DialHook passes dials through.
func (c *Commands) DialHook(next redis.DialHook) redis.DialHook { return next }

// ProcessHook counts a command.
func (c *Commands) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		c.count(ctx, cmd)
		return next(ctx, cmd)
	}
}

// ProcessPipelineHook counts each command of a pipeline.
func (c *Commands) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []redis.Cmder) error {
		for _, cmd := range cmds {
			c.count(ctx, cmd)
		}
		return next(ctx, cmds)
	}
}

// RoundTrips counts the round trips (a command, or a whole pipeline) whose
// context Match accepts (every one when Match is nil), and keeps their names
// so that a test over its bound can say which one was extra.
type RoundTrips struct {
	Match func(ctx context.Context) bool
	n     atomic.Int64
	mu    sync.Mutex
	seen  []string
}

// N is how many have been counted.
func (r *RoundTrips) N() int64 { return r.n.Load() }

// Since names the round trips counted after the first n ("GET k" or
// "pipeline[GET k, ...]"), for a failure message.
func (r *RoundTrips) Since(n int64) []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	if n >= int64(len(r.seen)) {
		return nil
	}
	return append([]string(nil), r.seen[n:]...)
}

func (r *RoundTrips) count(ctx context.Context, name func() string) {
	if r.Match == nil || r.Match(ctx) {
		r.mu.Lock()
		r.seen = append(r.seen, name())
		r.n.Add(1)
		r.mu.Unlock()
	}
}

// roundTripName is a command's name and first key, short enough to log.
func roundTripName(cmd redis.Cmder) string {
	args := cmd.Args()
	if len(args) > 1 {
		return fmt.Sprintf("%v %v", args[0], args[1])
	}
	return cmd.Name()
}

// DialHook passes dials through.
func (r *RoundTrips) DialHook(next redis.DialHook) redis.DialHook { return next }

// ProcessHook counts a command.
func (r *RoundTrips) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		if !setup(cmd) {
			r.count(ctx, func() string { return roundTripName(cmd) })
		}
		return next(ctx, cmd)
	}
}

// ProcessPipelineHook counts a pipeline once (not a connection's set-up).
func (r *RoundTrips) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []redis.Cmder) error {
		if len(cmds) > 0 && !setup(cmds[0]) {
			r.count(ctx, func() string {
				names := make([]string, len(cmds))
				for i, cmd := range cmds {
					names[i] = roundTripName(cmd)
				}
				return "pipeline[" + strings.Join(names, ", ") + "]"
			})
		}
		return next(ctx, cmds)
	}
}

// ErrInjected is the error Fail makes commands fail with.
var ErrInjected = errors.New("injected: connection reset")

// Fail makes the next Fail.Arm(n) single commands called Name (and, when Key
// is set, whose first key is Key) fail with ErrInjected without reaching
// Redis, as an outage would; pipelines pass.
type Fail struct {
	Name, Key string
	left      atomic.Int64
}

// Arm makes the next n matching commands fail.
func (f *Fail) Arm(n int64) { f.left.Store(n) }

// Remaining is the armed failures not yet made, less the matching commands
// let through since: -1 once one more passed after the last failure.
func (f *Fail) Remaining() int64 { return f.left.Load() }

// DialHook passes dials through.
func (f *Fail) DialHook(next redis.DialHook) redis.DialHook { return next }

// ProcessPipelineHook passes pipelines through.
func (f *Fail) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return next
}

// ProcessHook fails a matching command while failures are armed.
func (f *Fail) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		args := cmd.Args()
		if strings.EqualFold(cmd.Name(), f.Name) && (f.Key == "" || len(args) > 1 && args[1] == f.Key) && f.left.Add(-1) >= 0 {
			cmd.SetErr(ErrInjected)
			return ErrInjected
		}
		return next(ctx, cmd)
	}
}
