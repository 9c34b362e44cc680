// Package testenv gives tests the back ends they run against: the embedded
// ones always, the real ones when HMDP_TEST_REDIS_ADDR / HMDP_TEST_MYSQL_DSN are set.
package testenv

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"
)

// RedisBackend is one Redis a test runs against. Prefix is unique to the test,
// so tests sharing a real server never see each other's keys.
type RedisBackend struct {
	Name   string // "embedded" or "real"
	Client redis.UniversalClient
	Prefix string
	// Mini is the embedded server (nil on the real back end), for tests that
	// move its clock or make it fail.
	Mini *miniredis.Miniredis
}

// Key returns the test's prefix followed by parts.
func (b RedisBackend) Key(parts ...string) string { return b.Prefix + strings.Join(parts, ":") }

// RandomHex returns n random bytes as hex.
func RandomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// RealRedisAddr is the real Redis the tests may use ("" when none).
func RealRedisAddr() string { return os.Getenv("HMDP_TEST_REDIS_ADDR") }

// RealRedisIsCluster reports whether RealRedisAddr is a Redis Cluster (its
// nodes' addresses, comma-separated: make test-cluster).
func RealRedisIsCluster() bool { return strings.Contains(RealRedisAddr(), ",") }

// NewEmbeddedRedis starts a miniredis that stops with the test.
func NewEmbeddedRedis(t testing.TB) RedisBackend {
	t.Helper()
	m := miniredis.RunT(t)
	c := redis.NewClient(&redis.Options{Addr: m.Addr()})
	t.Cleanup(func() { _ = c.Close() })
	return RedisBackend{Name: "embedded", Client: c, Prefix: "t" + RandomHex(4) + ":", Mini: m}
}

// NewRealRedis connects to HMDP_TEST_REDIS_ADDR and removes the test's keys when it ends.
// It skips the test when the variable is not set.
func NewRealRedis(t testing.TB) RedisBackend {
	t.Helper()
	addr := RealRedisAddr()
	if addr == "" {
		skipOutsideCI(t, "HMDP_TEST_REDIS_ADDR")
	}
	c := NewRedisClient(addr)
	if err := c.Ping(context.Background()).Err(); err != nil {
		t.Fatalf("HMDP_TEST_REDIS_ADDR=%s: %v", addr, err)
	}
	b := RedisBackend{Name: "real", Client: c, Prefix: "t" + RandomHex(4) + ":"}
	t.Cleanup(func() {
		DeleteKeys(context.Background(), c, b.Prefix)
		_ = c.Close()
	})
	return b
}

// Keys lists every key starting with prefix (SCAN on every master of a
// Cluster, never KEYS).
func Keys(ctx context.Context, c redis.UniversalClient, prefix string) ([]string, error) {
	var (
		mu   sync.Mutex
		keys []string
	)
	scan := func(ctx context.Context, node *redis.Client) error {
		it := node.Scan(ctx, 0, prefix+"*", 500).Iterator()
		for it.Next(ctx) {
			mu.Lock()
			keys = append(keys, it.Val())
			mu.Unlock()
		}
		return it.Err()
	}
	var err error
	switch cc := c.(type) {
	case *redis.ClusterClient:
		err = cc.ForEachMaster(ctx, scan)
	case *redis.Client:
		err = scan(ctx, cc)
	default:
		err = fmt.Errorf("testenv.Keys: a %T", c)
	}
	return keys, err
}

// DeleteKeys removes every key starting with prefix (SCAN, never FLUSHDB).
func DeleteKeys(ctx context.Context, c redis.UniversalClient, prefix string) {
	keys, _ := Keys(ctx, c, prefix)
	for _, k := range keys {
		c.Del(ctx, k)
	}
}

// KeyTTLs is the TTL of every key starting with prefix (on every master of a
// Cluster); -1 is a key without one.
func KeyTTLs(t testing.TB, c redis.UniversalClient, prefix string) map[string]time.Duration {
	t.Helper()
	ctx := context.Background()
	var keys []string
	scan := func(ctx context.Context, n *redis.Client) error {
		it := n.Scan(ctx, 0, prefix+"*", 500).Iterator()
		for it.Next(ctx) {
			keys = append(keys, it.Val())
		}
		return it.Err()
	}
	var err error
	if cc, ok := c.(*redis.ClusterClient); ok {
		// One master at a time: keys is shared.
		var nodes []*redis.Client
		err = cc.ForEachMaster(ctx, func(_ context.Context, n *redis.Client) error { nodes = append(nodes, n); return nil })
		for _, n := range nodes {
			if err == nil {
				err = scan(ctx, n)
			}
		}
	} else {
		err = scan(ctx, c.(*redis.Client))
	}
	if err != nil {
		t.Fatal(err)
	}
	out := make(map[string]time.Duration, len(keys))
	for _, k := range keys {
		out[k] = c.PTTL(ctx, k).Val()
	}
	return out
}

// ForEachRedis runs fn as a subtest on the embedded Redis and, when configured, the real one.
func ForEachRedis(t *testing.T, fn func(t *testing.T, b RedisBackend)) {
	t.Helper()
	if EmbeddedWanted() {
		t.Run(Embedded, func(t *testing.T) { fn(t, NewEmbeddedRedis(t)) })
	}
	if RealRedisAddr() != "" {
		t.Run("real", func(t *testing.T) { fn(t, NewRealRedis(t)) })
	}
}

// ForEachOwnRedis is ForEachRedis for a test that changes the whole server
// (SCRIPT FLUSH, CONFIG SET): its "real" case runs on a redis-server of its
// own (StartRedisServer), never on the shared one, where other packages'
// tests run at the same time and would pay for the change (a flushed script
// costs them an extra round trip).
func ForEachOwnRedis(t *testing.T, fn func(t *testing.T, b RedisBackend)) {
	t.Helper()
	if EmbeddedWanted() {
		t.Run(Embedded, func(t *testing.T) { fn(t, NewEmbeddedRedis(t)) })
	}
	if RealRedisAddr() != "" {
		t.Run("real", func(t *testing.T) {
			c := redis.NewClient(&redis.Options{Addr: StartRedisServer(t)})
			t.Cleanup(func() { _ = c.Close() })
			fn(t, RedisBackend{Name: "real", Client: c, Prefix: "t" + RandomHex(4) + ":"})
		})
	}
}

// NewRedisClient connects to addrs, comma-separated: one address is a single
// server, several are a Redis Cluster (scripts/redis-cluster.sh makes one).
func NewRedisClient(addrs string) redis.UniversalClient {
	list := strings.Split(addrs, ",")
	return redis.NewUniversalClient(&redis.UniversalOptions{Addrs: list, IsClusterMode: len(list) > 1})
}

// StartRedisServer runs a throw-away redis-server (from PATH) on a free
// loopback port, with args added to its command line (say "--maxmemory",
// "2mb"), and returns its address; it is killed when the test ends. Without a
// redis-server binary the test is skipped.
func StartRedisServer(t testing.TB, args ...string) string {
	t.Helper()
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		t.Skip("needs redis-server on PATH")
	}
	ln, err := new(net.ListenConfig).Listen(t.Context(), "tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	_ = ln.Close()
	_, port, _ := net.SplitHostPort(addr)
	cmd := exec.Command(bin, append([]string{"--port", port, "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"}, args...)...) //nolint:noctx,gosec // killed in the cleanup below, not by a context; the arguments are the test's own
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	c := redis.NewClient(&redis.Options{Addr: addr})
	defer c.Close()
	Eventually(t, 10*time.Second, "redis-server answers on "+addr, func() bool { return c.Ping(t.Context()).Err() == nil })
	return addr
}
