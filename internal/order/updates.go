package order

import (
	"context"
	"encoding/json"
	"log/slog"
	"strconv"

	"github.com/hmdp/hmdp/internal/pubsub"
)

// Updates carries order status changes to the orderUpdates subscriptions of
// the order's buyer, on whichever server instance they are connected to.
type Updates struct {
	broker *pubsub.Broker
	poster *pubsub.Poster
	log    *slog.Logger
}

// NewUpdates returns the notifier to give New, and the source of
// subscriptions. Changes are sent through poster, so announcing an order
// costs the request (an admission) no Redis round trip of its own.
func NewUpdates(b *pubsub.Broker, poster *pubsub.Poster, log *slog.Logger) *Updates {
	return &Updates{broker: b, poster: poster, log: log}
}

// Topic is the pubsub topic of userID's order events.
func Topic(userID int64) string { return "orders:" + strconv.FormatInt(userID, 10) }

// OrderChanged publishes o to its buyer. The order's state stays readable
// through order(id), so a lost notification is logged, not returned.
func (u *Updates) OrderChanged(ctx context.Context, o *Order) {
	payload, err := json.Marshal(o)
	if err != nil {
		u.log.ErrorContext(ctx, "order: encode status change", "order", o.ID, "err", err)
		return
	}
	if !u.poster.Post(Topic(o.UserID), payload) {
		u.log.ErrorContext(ctx, "order: status change not published", "order", o.ID, "status", o.Status)
	}
}

// Subscribe streams userID's order changes until ctx ends; onEnd hears why the
// broker ended it early (a slow consumer, shutdown).
func (u *Updates) Subscribe(ctx context.Context, userID int64, onEnd func(error)) (<-chan *Order, error) {
	sub, err := u.broker.Subscribe(ctx, "orderUpdates", Topic(userID))
	if err != nil {
		return nil, err
	}
	return pubsub.Stream(ctx, sub, func(_ context.Context, p []byte) (*Order, bool) {
		var o Order
		if err := json.Unmarshal(p, &o); err != nil {
			u.log.ErrorContext(ctx, "order: bad event", "err", err)
			return nil, false
		}
		return &o, true
	}, onEnd), nil
}
