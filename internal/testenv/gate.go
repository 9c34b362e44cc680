package testenv

import (
	"context"
	"sync"
	"sync/atomic"

	"github.com/redis/go-redis/v9"
)

// PipelineGate is a go-redis hook for tests of batching: it counts the
// pipelines whose first command is named cmd (go-redis's own connection
// set-up is a pipeline too) and holds the first of them until Open is closed,
// so that work arriving meanwhile queues up behind it.
type PipelineGate struct {
	cmd     string
	n       atomic.Int64
	Entered chan struct{} // closed when the first pipeline reaches the gate
	Open    chan struct{} // close to let it through
}

// NewPipelineGate returns a closed gate for pipelines of cmd ("publish").
func NewPipelineGate(cmd string) *PipelineGate {
	return &PipelineGate{cmd: cmd, Entered: make(chan struct{}), Open: make(chan struct{})}
}

// Pipelines is how many pipelines of cmd have been sent.
func (g *PipelineGate) Pipelines() int64 { return g.n.Load() }

// DialHook passes dials through.
func (g *PipelineGate) DialHook(next redis.DialHook) redis.DialHook { return next }

// ProcessHook passes single commands through.
func (g *PipelineGate) ProcessHook(next redis.ProcessHook) redis.ProcessHook { return next }

// ProcessPipelineHook counts pipelines of cmd and holds the first until Open.
func (g *PipelineGate) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []redis.Cmder) error {
		if len(cmds) == 0 || cmds[0].Name() != g.cmd {
			return next(ctx, cmds)
		}
		if g.n.Add(1) == 1 {
			close(g.Entered)
			<-g.Open
		}
		return next(ctx, cmds)
	}
}

// AddHook adds hook to client or, on a Redis Cluster, to every node's own
// client instead: every command reaches a node's client, whether sent
// through the cluster client or to one node directly (as pubsub does with
// PUBLISH), so the hook sees each round trip to a node exactly once.
func AddHook(client redis.UniversalClient, hook redis.Hook) {
	cc, ok := client.(*redis.ClusterClient)
	if !ok {
		client.AddHook(hook)
		return
	}
	var hooked sync.Map // *redis.Client -> struct{}: each node once
	add := func(node *redis.Client) {
		if _, dup := hooked.LoadOrStore(node, struct{}{}); !dup {
			node.AddHook(hook)
		}
	}
	cc.OnNewNode(add)
	_ = cc.ForEachShard(context.Background(), func(_ context.Context, node *redis.Client) error {
		add(node)
		return nil
	})
}
