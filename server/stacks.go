package main

import (
	"os"
	"strings"
)

// New goroutines start with the runtime's minimum stack (2 KB) instead of the
// average stack in use, which the runtime otherwise adopts at each GC. Here
// that average is set by deep request goroutines, while most goroutines of a
// busy server are idle websocket ones that never need more: measured, about
// 2 KB less per open subscription (docs/BENCHMARKS.md). Goroutines that do
// need more grow as usual. An operator's own GODEBUG setting wins.
//
// The runtime re-reads GODEBUG when it changes (runtime.reparsedebugvars);
// this runs before main, before the first GC could raise the starting size.
func init() {
	godebug := os.Getenv("GODEBUG")
	if strings.Contains(godebug, "adaptivestackstart=") {
		return
	}
	if godebug != "" {
		godebug += ","
	}
	_ = os.Setenv("GODEBUG", godebug+"adaptivestackstart=0")
}
