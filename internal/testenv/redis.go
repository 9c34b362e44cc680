// Package testenv gives tests the back ends they run against: the embedded
// ones always, the real ones when HMDP_TEST_REDIS_ADDR / HMDP_TEST_MYSQL_DSN are set.
package testenv

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"os"
	"strings"
	"testing"

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

// DeleteKeys removes every key starting with prefix (SCAN, never FLUSHDB).
func DeleteKeys(ctx context.Context, c redis.UniversalClient, prefix string) {
	del := func(ctx context.Context, node *redis.Client) error {
		it := node.Scan(ctx, 0, prefix+"*", 500).Iterator()
		for it.Next(ctx) {
			node.Del(ctx, it.Val())
		}
		return it.Err()
	}
	if cc, ok := c.(*redis.ClusterClient); ok {
		_ = cc.ForEachMaster(ctx, del)
		return
	}
	if nc, ok := c.(*redis.Client); ok {
		_ = del(ctx, nc)
	}
}

// ForEachRedis runs fn as a subtest on the embedded Redis and, when configured, the real one.
func ForEachRedis(t *testing.T, fn func(t *testing.T, b RedisBackend)) {
	t.Helper()
	t.Run("embedded", func(t *testing.T) { fn(t, NewEmbeddedRedis(t)) })
	if RealRedisAddr() != "" {
		t.Run("real", func(t *testing.T) { fn(t, NewRealRedis(t)) })
	}
}

// NewRedisClient connects to addrs, comma-separated: one address is a single
// server, several are a Redis Cluster (scripts/redis-cluster.sh makes one).
func NewRedisClient(addrs string) redis.UniversalClient {
	list := strings.Split(addrs, ",")
	return redis.NewUniversalClient(&redis.UniversalOptions{Addrs: list, IsClusterMode: len(list) > 1})
}
