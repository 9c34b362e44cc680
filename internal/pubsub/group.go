package pubsub

import (
	"context"
	"sync"
)

// Group gathers the subscriptions made (through Listen) with a context that
// carries it, so that they can be ended together, each told why: a websocket
// whose session ended ends every subscription it holds this way before it
// closes. The zero Group is not usable; use NewGroup.
type Group struct {
	mu     sync.Mutex
	subs   map[*Sub]struct{}
	reason error // set by End; later subscriptions end at once with it
	idle   chan struct{}
}

// NewGroup returns an empty group.
func NewGroup() *Group { return &Group{subs: map[*Sub]struct{}{}} }

type groupKey struct{}

// WithGroup returns ctx carrying g: Listen adds the subscriptions made with
// it (or a context derived from it) to g.
func WithGroup(ctx context.Context, g *Group) context.Context {
	return context.WithValue(ctx, groupKey{}, g)
}

func groupFrom(ctx context.Context) *Group {
	g, _ := ctx.Value(groupKey{}).(*Group)
	return g
}

// Len is the number of live subscriptions in the group.
func (g *Group) Len() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return len(g.subs)
}

// End ends every subscription of the group with reason (their onEnd is told,
// then their channels close) and every later one at once. It returns a
// channel that closes when the group's subscriptions have all gone, that is
// when their contexts ended: their readers have finished with them.
func (g *Group) End(reason error) <-chan struct{} {
	g.mu.Lock()
	if g.reason == nil {
		g.reason = reason
	}
	subs := make([]*Sub, 0, len(g.subs))
	for s := range g.subs {
		subs = append(subs, s)
	}
	if g.idle == nil {
		g.idle = make(chan struct{})
		if len(g.subs) == 0 {
			close(g.idle)
		}
	}
	idle := g.idle
	g.mu.Unlock()
	for _, s := range subs {
		s.End(reason)
	}
	return idle
}

// add puts s in the group until ctx ends; after End it ends s instead.
func (g *Group) add(ctx context.Context, s *Sub) {
	g.mu.Lock()
	if reason := g.reason; reason != nil {
		g.mu.Unlock()
		//nolint:contextcheck // unsubscribing uses the shared connection, which no caller may cut short
		s.End(reason)
		return
	}
	g.subs[s] = struct{}{}
	g.mu.Unlock()
	context.AfterFunc(ctx, func() {
		g.mu.Lock()
		defer g.mu.Unlock()
		delete(g.subs, s)
		if len(g.subs) == 0 && g.idle != nil {
			select {
			case <-g.idle:
			default:
				close(g.idle)
			}
		}
	})
}
