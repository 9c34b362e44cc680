// Command loadgen is the load generator of make load (scripts/load/run.sh),
// make soak (scripts/load/soak.sh) and the open-loop rows of make
// bench-http (scripts/bench/run.sh). It
// replaces k6, which is AGPL-licensed and may not be used here; being a Go
// program of this module it builds in seconds from the module cache.
//
//	loadgen codes -url URL -users N -subs N -admin PHONE
//	    asks a login code for the admin, N subscribers (137…) and N buyers (138…)
//	loadgen run -url URL -codes FILE -summary FILE -failures FILE [-started FILE] ...
//	    the load run behind the balancer: browsing, logins and a flash sale,
//	    posts and websocket feed subscribers, at constant arrival rates
//	loadgen soak -url URL -codes FILE [-rate 200 -users 300 -subs 200 -duration 10m]
//	    the steady load of make soak: a mix of the app's operations by
//	    logged-in users and visitors, and feed subscribers, at one rate
//	loadgen open -url URL -rate N -duration D
//	    an open loop of shop(id) requests; prints one RESULT line
//
// Arrival-rate scenarios start each iteration on schedule however slow the
// earlier ones are, with at most -max-vus in flight; an iteration due while
// that many are in flight is dropped and counted (k6's constant-arrival-rate
// executor and its dropped_iterations).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"
)

const usage = `usage: loadgen codes|run|soak|open [flags] (loadgen MODE -h lists a mode's flags)`

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, usage)
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	var err error
	switch os.Args[1] {
	case "codes":
		err = codesMain(ctx, os.Args[2:])
	case "run":
		err = runMain(ctx, os.Args[2:], os.Stdout)
	case "open":
		err = openMain(ctx, os.Args[2:], os.Stdout)
	case "soak":
		err = soakMain(ctx, os.Args[2:], os.Stdout)
	default:
		fmt.Fprintln(os.Stderr, usage)
		stop()
		os.Exit(2)
	}
	stop()
	if errors.Is(err, flag.ErrHelp) {
		return // -h: the flags were listed
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "loadgen:", err)
		os.Exit(1)
	}
}

// newClient is an HTTP client keeping up to conns connections open to the
// one host it talks to (k6 gives each VU its own; here they share a pool).
// Responses are not asked compressed, as k6 did not ask either.
func newClient(conns int, timeout time.Duration) *http.Client {
	return &http.Client{
		Timeout: timeout,
		Transport: &http.Transport{
			Proxy:               nil,
			DialContext:         (&net.Dialer{Timeout: timeout, KeepAlive: 30 * time.Second}).DialContext,
			MaxIdleConns:        conns,
			MaxIdleConnsPerHost: conns,
			IdleConnTimeout:     90 * time.Second,
			DisableCompression:  true,
		},
	}
}
