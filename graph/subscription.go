package graph

import (
	"context"
	"errors"

	"github.com/99designs/gqlgen/graphql/handler/transport"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/hmdp/hmdp/internal/pubsub"
)

// subscriptionEnded returns the callback that tells a websocket client why
// the server ended its subscription (an error message instead of a plain
// complete): extensions.code SUBSCRIPTION_CLOSED, reason slow_consumer or
// shutdown.
func subscriptionEnded(ctx context.Context) func(error) {
	return func(err error) {
		reason := "shutdown"
		if errors.Is(err, pubsub.ErrSlowConsumer) {
			reason = "slow_consumer"
		}
		transport.AddSubscriptionError(ctx, &gqlerror.Error{
			Message:    err.Error(),
			Extensions: map[string]any{"code": "SUBSCRIPTION_CLOSED", "reason": reason},
		})
	}
}
