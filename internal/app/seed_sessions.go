package app

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"log/slog"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/hmdp/hmdp/internal/config"
)

// SessionSeed says which sessions SeedSessions makes: Count users with the
// phones First, First+1, ..., each logged in once.
type SessionSeed struct {
	Count   int
	First   int64 // first phone, as a number (e.g. 15000000000)
	Workers int   // logins at once (default 32)
}

// SeedSessions logs Count phones in the way a verified login code does
// (registering unknown phones) and writes one "token phone" line per session
// to out, in phone order. Load tests (make bench-http) use it to have many
// distinct logged-in users without going through the rate-limited codes.
func SeedSessions(ctx context.Context, cfg config.Config, log *slog.Logger, seed SessionSeed, out io.Writer) error {
	if seed.Count <= 0 {
		return fmt.Errorf("seed-sessions: -n must be positive, got %d", seed.Count)
	}
	if seed.Workers <= 0 {
		seed.Workers = 32
	}
	RouteDriverLogs(log)
	a, err := New(ctx, cfg, log, Options{})
	if err != nil {
		return err
	}
	defer a.Close() //nolint:contextcheck // Close takes no context: it bounds its own shutdown steps

	tokens := make([]string, seed.Count)
	var next atomic.Int64
	var wg sync.WaitGroup
	errs := make(chan error, seed.Workers)
	for range seed.Workers {
		wg.Go(func() {
			for {
				i := next.Add(1) - 1
				if i >= int64(seed.Count) || ctx.Err() != nil {
					return
				}
				phone := strconv.FormatInt(seed.First+i, 10)
				tok, err := a.auth.LoginWithoutCode(ctx, phone)
				if err != nil {
					errs <- fmt.Errorf("seed-sessions: phone %s: %w", phone, err)
					next.Store(int64(seed.Count)) // the others stop too
					return
				}
				tokens[i] = tok
			}
		})
	}
	wg.Wait()
	close(errs)
	if err := <-errs; err != nil {
		return err
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	w := bufio.NewWriter(out)
	for i, tok := range tokens {
		_, _ = fmt.Fprintf(w, "%s %d\n", tok, seed.First+int64(i))
	}
	return w.Flush()
}
