package pubsub

import "context"

// Stream turns sub into a channel of T owned by one producer goroutine: it
// closes the channel when it ends, every send also watches ctx, and it
// unsubscribes on the way out. convert maps a payload to a value (keep=false
// skips the event). When the broker ends the subscription (a slow consumer,
// shutdown), onEnd gets the reason before the channel closes, so the caller
// can show it to the client.
func Stream[T any](ctx context.Context, sub *Sub, convert func(context.Context, []byte) (v T, keep bool), onEnd func(error)) <-chan T {
	out := make(chan T)
	go func() {
		defer close(out)
		defer sub.Close()
		for {
			select {
			case <-ctx.Done():
				return
			case p, ok := <-sub.C:
				if !ok {
					if err := sub.Err(); err != nil && onEnd != nil {
						onEnd(err)
					}
					return
				}
				v, keep := convert(ctx, p)
				if !keep {
					continue
				}
				select {
				case out <- v:
				case <-ctx.Done():
					return
				}
			}
		}
	}()
	return out
}
