// Package lua holds every Lua script the server runs on Redis.
//
// Scripts take all their keys through KEYS (so they work on Redis Cluster, where
// all keys of one call must share a hash tag) and user data through ARGV.
package lua

import (
	"embed"
	"fmt"
	"sync"

	"github.com/redis/go-redis/v9"
)

//go:embed *.lua
var files embed.FS

var (
	mu      sync.Mutex
	scripts = map[string]*redis.Script{}
)

// Script returns the script in NAME.lua. redis.Script runs it with EVALSHA and
// falls back to EVAL (which also loads it) when the server answers NOSCRIPT, so
// each script body crosses the network once per server.
func Script(name string) *redis.Script {
	mu.Lock()
	defer mu.Unlock()
	if s, ok := scripts[name]; ok {
		return s
	}
	src, err := files.ReadFile(name + ".lua")
	if err != nil {
		panic(fmt.Sprintf("lua: no script %q", name))
	}
	s := redis.NewScript(string(src))
	scripts[name] = s
	return s
}
