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
// broker ended it early (a slow consumer, shutdown). The orders are shared by
// every subscription of the user: read-only.
func (u *Updates) Subscribe(ctx context.Context, userID int64, onEnd func(error)) (<-chan *Order, error) {
	return pubsub.Listen(ctx, u.broker, "orderUpdates", Topic(userID), orderEvents, onEnd)
}

var orderEvents = pubsub.NewDecoder(func(p []byte) (*Order, error) {
	var o Order
	return &o, json.Unmarshal(p, &o)
})
