package order

import (
	"context"
	"encoding/json"
	"log/slog"
	"strconv"

	"github.com/hmdp/hmdp/ent/schema/enum"
	"github.com/hmdp/hmdp/internal/idgen"
	"github.com/hmdp/hmdp/internal/pubsub"
	"github.com/hmdp/hmdp/internal/seckill"
)

// Updates carries order status changes to the orderUpdates subscriptions of
// the order's buyer, on whichever server instance they are connected to.
type Updates struct {
	broker *pubsub.Broker
	poster *pubsub.Poster
	log    *slog.Logger
}

// UpdatesConfig holds the dependencies of Updates; zero values take the defaults.
type UpdatesConfig struct {
	// Broker carries the changes to the subscriptions, on every instance.
	Broker *pubsub.Broker
	// Poster sends the changes, so announcing an order costs the request
	// (an admission) no Redis round trip of its own.
	Poster *pubsub.Poster
	Log    *slog.Logger // default slog.Default()
}

// NewUpdates returns the notifier to give New (Config.Notifier) and
// AnnouncePersisted, and the source of subscriptions.
func NewUpdates(cfg UpdatesConfig) *Updates {
	if cfg.Log == nil {
		cfg.Log = slog.Default()
	}
	return &Updates{broker: cfg.Broker, poster: cfg.Poster, log: cfg.Log}
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

// AnnounceRejected returns the seckill.Config.OnRejected callback that tells
// n of the accepted orders the stream consumers ended unpersisted: REJECTED,
// with the reason, so no buyer waits on a PENDING order that will never come.
func AnnounceRejected(n StatusNotifier) func(context.Context, []seckill.Rejected) {
	return func(ctx context.Context, rs []seckill.Rejected) {
		for _, r := range rs {
			n.OrderChanged(ctx, rejectedOrder(r.OrderID, r.VoucherID, r.UserID, r.Reason))
		}
	}
}

func rejectedOrder(id, voucherID, userID int64, reason string) *Order {
	return &Order{ID: id, VoucherID: voucherID, UserID: userID, Status: enum.OrderRejected,
		CreateTime: idgen.Time(id), RejectReason: &reason}
}
