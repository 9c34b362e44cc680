package edge

import (
	"context"
	"testing"
	"time"

	"github.com/99designs/gqlgen/graphql"
)

// WaitEnded waits for the operations the server ended (Ending) until their
// contexts end (gqlgen ends one after writing what ended it), and not for
// the operations it did not end.
func TestWaitEndedWaitsOnlyForEndedOperations(t *testing.T) {
	t.Parallel()
	l := NewWebsocketLimits(WebsocketCaps{Operations: 10, AnonymousOperations: 10})
	sock := context.WithValue(t.Context(), socketKey{}, &socket{})
	start := func() (opCtx context.Context, end context.CancelFunc) {
		ctx, cancel := context.WithCancel(sock)
		l.Operations(ctx, func(ctx context.Context) graphql.ResponseHandler {
			opCtx = ctx
			return nil
		})
		return opCtx, cancel
	}
	ended, endEnded := start()
	_, endOther := start() // a subscription the server does not end
	defer endOther()

	if left := l.WaitEnded(time.Second); left != 0 {
		t.Fatalf("nothing ended: WaitEnded left %d", left)
	}
	Ending(ended)
	Ending(ended) // once only
	Ending(context.Background())
	if left := l.WaitEnded(50 * time.Millisecond); left != 1 {
		t.Fatalf("one ended, not yet over: WaitEnded left %d, want 1", left)
	}
	go func() { time.Sleep(100 * time.Millisecond); endEnded() }()
	began := time.Now()
	if left := l.WaitEnded(5 * time.Second); left != 0 {
		t.Fatalf("the ended operation is over: WaitEnded left %d", left)
	}
	if waited := time.Since(began); waited < 90*time.Millisecond || waited > 4*time.Second {
		t.Fatalf("WaitEnded returned after %v: want when the ended operation was over (~100 ms)", waited)
	}
	Ending(ended) // over: nothing to wait for
	if left := l.WaitEnded(0); left != 0 {
		t.Fatalf("Ending after the end counted: %d", left)
	}
}
