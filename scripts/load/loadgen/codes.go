package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// First phones of the load run's subscribers and buyers.
const (
	firstSubscriber = 13700000000
	firstBuyer      = 13800000000
)

// codesMain asks for a login code for every phone the load run uses (the
// admin, the feed subscribers and the flash-sale buyers). The codes land in
// the instances' logs; scripts/load/run.sh collects them for the run mode.
func codesMain(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("codes", flag.ContinueOnError)
	base := fs.String("url", "", "base URL of the server (the balancer), without /graphql")
	users := fs.Int("users", 3000, "flash-sale buyers: phones 13800000000 on")
	subs := fs.Int("subs", 10, "feed subscribers: phones 13700000000 on")
	admin := fs.String("admin", "", "the admin's phone")
	parallel := fs.Int("parallel", 6, "requests in flight at once")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *base == "" || *admin == "" {
		return errors.New("codes needs -url and -admin")
	}
	phones := []string{*admin}
	for i := range *subs {
		phones = append(phones, strconv.Itoa(firstSubscriber+i))
	}
	for i := range *users {
		phones = append(phones, strconv.Itoa(firstBuyer+i))
	}
	g := &gqlClient{http: newClient(*parallel, 60*time.Second), url: strings.TrimSuffix(*base, "/") + "/graphql"}
	var failed atomic.Int64
	var wg sync.WaitGroup
	next := make(chan string)
	for range max(*parallel, 1) {
		wg.Go(func() {
			for p := range next {
				if r := g.do(ctx, `mutation LoadSendCode($p: String!) { sendCode(phone: $p) }`, map[string]any{"p": p}, ""); len(r.Errors) > 0 {
					failed.Add(1)
				}
			}
		})
	}
	for _, p := range phones {
		next <- p
	}
	close(next)
	wg.Wait()
	if n := failed.Load(); n > 0 {
		return fmt.Errorf("%d sendCode calls failed", n)
	}
	return ctx.Err()
}
