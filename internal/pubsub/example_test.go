package pubsub_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/hmdp/hmdp/internal/embedded"
	"github.com/hmdp/hmdp/internal/pubsub"
)

// Two server instances share one Redis: an event published on one reaches
// the subscribers on every instance.
func Example() {
	ctx := context.Background()
	r, err := embedded.StartRedis() // an in-process Redis; use redisx.Open for a real one
	if err != nil {
		panic(err)
	}
	defer r.Conn.Close()
	instanceA := pubsub.New(r.Conn.Client, "app:", nil, pubsub.Options{})
	defer instanceA.Close()
	instanceB := pubsub.New(r.Conn.Client, "app:", nil, pubsub.Options{})
	defer instanceB.Close()

	sub, err := instanceB.Subscribe(ctx, "orders", "order:42")
	if err != nil {
		panic(err)
	}
	defer sub.Close()
	// Subscribe returned once Redis confirmed it, so this event is delivered.
	if err := instanceA.Publish(ctx, "order:42", []byte("paid")); err != nil {
		panic(err)
	}
	fmt.Println(string(<-sub.C))
	// Output: paid
}

type orderStatus struct {
	Order  int64  `json:"order"`
	Status string `json:"status"`
}

// Listen delivers decoded events on a channel, as GraphQL subscriptions
// want them. The channel closes when ctx ends or the broker ends the
// subscription; onEnd says why in the latter case.
func ExampleListen() {
	r, err := embedded.StartRedis()
	if err != nil {
		panic(err)
	}
	defer r.Conn.Close()
	broker := pubsub.New(r.Conn.Client, "app:", nil, pubsub.Options{})
	defer broker.Close()

	// One decoder per event type, shared by all its subscribers.
	statuses := pubsub.NewDecoder(func(p []byte) (orderStatus, error) {
		var s orderStatus
		err := json.Unmarshal(p, &s)
		return s, err
	})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	events, err := pubsub.Listen(ctx, broker, "orders", "order:42", statuses,
		func(reason error) { fmt.Println("ended:", reason) })
	if err != nil {
		panic(err)
	}

	_ = broker.Publish(ctx, "order:42", []byte(`{"order":42,"status":"paid"}`))
	_ = broker.Publish(ctx, "order:42", []byte(`{"order":42,"status":"used"}`))
	fmt.Println(<-events)
	fmt.Println(<-events)

	_ = broker.Close() // a server shutting down ends its subscriptions
	_, open := <-events
	fmt.Println("open:", open)
	// Output:
	// {42 paid}
	// {42 used}
	// ended: server shutting down
	// open: false
}

// A Poster publishes fire-and-forget events off the caller's path: Post
// queues and returns at once, and queued events leave in one pipeline.
func ExamplePoster() {
	ctx := context.Background()
	r, err := embedded.StartRedis()
	if err != nil {
		panic(err)
	}
	defer r.Conn.Close()
	broker := pubsub.New(r.Conn.Client, "app:", nil, pubsub.Options{})
	defer broker.Close()
	poster := pubsub.NewPoster(broker, pubsub.PosterOptions{})
	defer poster.Close() // before the broker: deferred calls run last first

	sub, err := broker.Subscribe(ctx, "feed", "feed:7")
	if err != nil {
		panic(err)
	}
	defer sub.Close()
	for _, blog := range []string{"blog 1", "blog 2", "blog 3"} {
		poster.Post("feed:7", []byte(blog))
	}
	for range 3 {
		fmt.Println(string(<-sub.C)) // in the order posted
	}
	// Output:
	// blog 1
	// blog 2
	// blog 3
}
