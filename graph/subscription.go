package graph

import (
	"context"
	"errors"
	"sync"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/handler/transport"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/hmdp/hmdp/internal/apperr"
	"github.com/hmdp/hmdp/internal/auth"
	"github.com/hmdp/hmdp/internal/edge"
	"github.com/hmdp/hmdp/internal/pubsub"
)

// subscriptionEnd holds why the server ended a subscription. The broker ends
// subscriptions on its own goroutine; gqlgen reads a subscription's errors on
// the websocket goroutine, unlocked, as soon as the event stream ends, which
// may be through the context at the same moment. So the reason is kept here,
// under a lock, and handed to gqlgen by ReportSubscriptionEnd on gqlgen's own
// goroutine.
type subscriptionEnd struct {
	mu  sync.Mutex
	err *gqlerror.Error
}

type subscriptionEndKey struct{}

// ReportSubscriptionEnd is an operation interceptor: when a subscription's
// event stream ends and the server said why (subscriptionEnded), the client
// gets that reason as the subscription's error message instead of a plain
// complete.
func ReportSubscriptionEnd(ctx context.Context, next graphql.OperationHandler) graphql.ResponseHandler {
	if op := graphql.GetOperationContext(ctx).Operation; op == nil || op.Operation != ast.Subscription {
		return next(ctx)
	}
	end := &subscriptionEnd{}
	responses := next(context.WithValue(ctx, subscriptionEndKey{}, end))
	return func(ctx context.Context) *graphql.Response {
		r := responses(ctx)
		if r == nil {
			end.mu.Lock()
			err := end.err
			end.mu.Unlock()
			if err != nil {
				transport.AddSubscriptionError(ctx, err)
			}
		}
		return r
	}
}

// subscriptionEnded returns the callback that records why the server ended a
// subscription: extensions.code SUBSCRIPTION_CLOSED, reason slow_consumer,
// session_ended or shutdown. It runs before the subscription's channel closes.
func subscriptionEnded(ctx context.Context) func(error) {
	end, _ := ctx.Value(subscriptionEndKey{}).(*subscriptionEnd)
	return func(err error) {
		if end == nil {
			return // not served through ReportSubscriptionEnd (no websocket client to tell)
		}
		reason := "shutdown"
		switch {
		case errors.Is(err, pubsub.ErrSlowConsumer):
			reason = "slow_consumer"
		case errors.Is(err, auth.ErrSessionEnded):
			reason = "session_ended"
		}
		// Its goodbye is on its way: shutdown waits for it (edge.WaitEnded).
		edge.Ending(ctx)
		end.mu.Lock()
		defer end.mu.Unlock()
		if end.err == nil {
			end.err = &gqlerror.Error{
				Message:    err.Error(),
				Extensions: map[string]any{"code": string(apperr.SubscriptionClosed), "reason": reason},
			}
		}
	}
}
