package main

import (
	"os"
	"strings"
	"syscall"
)

// New goroutines start with the runtime's minimum stack (2 KB) instead of the
// average stack in use, which the runtime otherwise adopts at each GC. Here
// that average is set by deep request goroutines, while most goroutines of a
// busy server are idle websocket ones that never need more: measured, about
// 2 KB less per open subscription (docs/BENCHMARKS.md). Goroutines that do
// need more grow as usual. An operator's own GODEBUG setting wins.
//
// adaptivestackstart is read once, when the runtime starts: a later
// os.Setenv("GODEBUG") only reaches the runtime's atomic settings, and this is
// not one, nor a recognised //go:debug directive. So the process re-executes
// itself (same pid, arguments and environment) with the setting added; if
// that fails it simply runs on with the runtime's default.
func init() {
	godebug, set := os.LookupEnv("GODEBUG")
	if strings.Contains(godebug, "adaptivestackstart=") {
		return
	}
	exe, err := os.Executable()
	if err != nil {
		return
	}
	if set && godebug != "" {
		godebug += ","
	}
	env := []string{"GODEBUG=" + godebug + "adaptivestackstart=0"}
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GODEBUG=") {
			env = append(env, kv)
		}
	}
	_ = syscall.Exec(exe, os.Args, env) //nolint:gosec // our own binary, our own arguments
}
