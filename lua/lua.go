// Package lua holds every Lua script the server runs on Redis.
//
// Scripts take all their keys through KEYS (so they work on Redis Cluster, where
// all keys of one call must share a hash tag) and user data through ARGV.
//
// Each script is resolved once, into a package-level value beside its caller:
//
//	var admit = lua.Script("seckill_admit")
//
// so a missing file stops the program at start (Script panics during package
// initialisation) and no call looks a script up by name. TestEveryScriptIsUsed
// checks that every file here is resolved by some package-level value.
package lua

import (
	"embed"
	"fmt"
	"runtime"
	"sync"

	"github.com/redis/go-redis/v9"
)

//go:embed *.lua
var files embed.FS

var (
	mu      sync.Mutex
	scripts = map[string]*redis.Script{}
	callers = map[string][]string{} // script name → functions that resolved it
	names   = map[string]string{}   // SHA1 → script name
)

// Script returns the script in NAME.lua; it panics when there is no such file.
// Call it in a package-level var declaration, not per call. redis.Script runs
// it with EVALSHA and falls back to EVAL (which also loads it) when the server
// answers NOSCRIPT, so each script body crosses the network once per server.
func Script(name string) *redis.Script {
	caller := callerName()
	mu.Lock()
	defer mu.Unlock()
	callers[name] = append(callers[name], caller)
	if s, ok := scripts[name]; ok {
		return s
	}
	src, err := files.ReadFile(name + ".lua")
	if err != nil {
		panic(fmt.Sprintf("lua: no script %q (lua/%s.lua), asked by %s", name, name, caller))
	}
	s := redis.NewScript(string(src))
	scripts[name] = s
	names[s.Hash()] = name
	return s
}

// NameOf is the name of the script whose SHA1 is hash ("" for none of
// these), for naming EVALSHA calls in traces (internal/tracing).
func NameOf(hash string) string {
	mu.Lock()
	defer mu.Unlock()
	return names[hash]
}

// callerName is the function that called Script: "<package path>.init" for a
// package-level value.
func callerName() string {
	pc := make([]uintptr, 1)
	if runtime.Callers(3, pc) == 0 {
		return "?"
	}
	f, _ := runtime.CallersFrames(pc).Next()
	return f.Function
}
