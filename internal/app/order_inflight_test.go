package app

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"
)

// An acknowledged order reads PENDING until it reads persisted, never null,
// and payOrder right after buying answers PAID or the retryable "still being
// placed", never NOT_FOUND or "the order is UNPAID: only unpaid orders can be
// paid". Half the buyers poll order(id) every 20 ms from
// the acknowledgement on, half pay at once and again every 20 ms while the
// order is still being placed. Before the fix, without any fault, pollers
// read null for about half of the orders, and payers got NOT_FOUND or that
// CONFLICT several times in a hundred: the order was persisted between
// order(id)'s read of MySQL and its look at Redis.
func TestOrderNeverMissingWhilePersisted(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, backend string) {
		ts := startServer(t, backend)
		const buyers = 100
		tokens := ts.users(buyers)
		v := ts.createSale(buyers, time.Now().Add(-time.Minute), time.Now().Add(time.Hour))

		var mu sync.Mutex
		var wrong []string
		report := func(format string, args ...any) {
			mu.Lock()
			defer mu.Unlock()
			wrong = append(wrong, fmt.Sprintf(format, args...))
		}
		var wg sync.WaitGroup
		sem := make(chan struct{}, 16)
		for i, tok := range tokens {
			wg.Go(func() {
				sem <- struct{}{}
				defer func() { <-sem }()
				id := ts.seckill(tok, v)
				deadline := time.Now().Add(20 * time.Second)
				for time.Now().Before(deadline) {
					if i%2 == 0 {
						o := ts.order(tok, id)
						switch {
						case o == nil:
							report("order %s read null", id)
						case o.Status == "UNPAID":
							return
						case o.Status != "PENDING":
							report("order %s read %s", id, o.Status)
							return
						}
					} else {
						r := ts.do(tok, payMutation, map[string]any{"id": id, "p": "ALIPAY"})
						switch {
						case len(r.Errors) == 0:
							return
						case r.code() == "CONFLICT" && strings.Contains(r.Errors[0].Message, "still being placed"):
						default:
							report("payOrder(%s): %s %s", id, r.code(), r.Errors[0].Message)
							return
						}
					}
					time.Sleep(20 * time.Millisecond)
				}
				report("order %s: not persisted within 20 s", id)
			})
		}
		wg.Wait()
		if len(wrong) > 0 {
			t.Fatalf("%d wrong answers of %d buyers:\n%s", len(wrong), buyers, strings.Join(wrong, "\n"))
		}
	})
}
