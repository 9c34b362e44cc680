package app

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/hmdp/hmdp/internal/testenv"
)

func readyz(t *testing.T, url string) (int, readiness) {
	t.Helper()
	code, body := get(t, url+"/readyz")
	var r readiness
	if err := json.Unmarshal([]byte(body), &r); err != nil {
		t.Fatalf("readyz %d %q: %v", code, body, err)
	}
	return code, r
}

// With MySQL unreachable the instance still serves sessions, rate limits and
// flash-sale admission (all in Redis): /readyz stays 200 and says degraded.
func TestReadyButDegradedWithoutMySQL(t *testing.T) {
	t.Parallel()
	if testenv.RealMySQLDSN() == "" || testenv.RealRedisAddr() == "" {
		t.Skip("needs HMDP_TEST_MYSQL_DSN and HMDP_TEST_REDIS_ADDR")
	}
	cfg := testConfig(t, "real")
	proxy := mysqlThroughProxy(t, &cfg)
	ts := startServerWith(t, "real", cfg)
	token := ts.login("13800000088")
	if code, r := readyz(t, ts.URL); code != 200 || r.Status != "ready" || r.Database != "ok" || r.Redis != "ok" {
		t.Fatalf("readyz with everything up: %d %+v", code, r)
	}
	proxy.Stop()
	if code, r := readyz(t, ts.URL); code != 200 || r.Status != "degraded" || r.Database != "unreachable" || r.Redis != "ok" {
		t.Fatalf("readyz with MySQL cut: %d %+v", code, r)
	}
	if db, rd := metricValue(t, ts, `hmdp_ready{backend="database"}`), metricValue(t, ts, `hmdp_ready{backend="redis"}`); db != 0 || rd != 1 {
		t.Fatalf(`hmdp_ready with MySQL cut: database %v, redis %v`, db, rd)
	}
	// The session (Redis) still works.
	// Sessions (Redis) still work: a request with the token is not refused
	// as "session store unavailable".
	if r := ts.do(token, `mutation { logout }`, nil); r.Status != 200 || len(r.Errors) > 0 {
		t.Fatalf("logout with MySQL cut: %d %+v", r.Status, r.Errors)
	}
}

// Without Redis the instance cannot serve its core paths: 503, on both back ends.
func TestNotReadyWithoutRedis(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, backend string) {
		cfg := testConfig(t, backend)
		var cut func()
		if backend == "real" {
			if len(cfg.RedisAddrs) > 1 {
				t.Skip("a cluster cannot be proxied by one address")
			}
			proxy := testenv.NewProxy(t, cfg.RedisAddrs[0])
			cfg.RedisAddrs = []string{proxy.Addr()}
			cut = proxy.Stop
		}
		ts := startServerWith(t, backend, cfg)
		if cut == nil {
			cut = ts.app.miniRedis.Close
		}
		cut()
		code, r := readyz(t, ts.URL)
		if code != http.StatusServiceUnavailable || r.Status != "not ready" || r.Redis != "unreachable" || r.Database != "ok" {
			t.Fatalf("readyz with Redis cut: %d %+v", code, r)
		}
		if backend == "real" { // the embedded Redis has no breaker
			testenv.Eventually(t, 15*time.Second, "hmdp_redis_breaker_open 1 with Redis cut", func() bool {
				readyz(t, ts.URL) // a failing call, should the breaker need one more
				return metricValue(t, ts, "hmdp_redis_breaker_open") == 1
			})
			if v := metricValue(t, ts, "hmdp_redis_breaker_opened_total"); v < 1 {
				t.Fatalf("hmdp_redis_breaker_opened_total = %v with the breaker open", v)
			}
		}
	})
}

// Redis at its memory limit with noeviction answers PING and refuses every
// write: /readyz says so (503, redis "full"; it said ready before), and a
// request that needs a write answers UNAVAILABLE, retryable (it was
// INTERNAL_SERVER_ERROR). Once Redis has room again, the instance is ready.
func TestNotReadyWhenRedisIsFull(t *testing.T) {
	t.Parallel()
	if testenv.RealMySQLDSN() == "" {
		t.Skip("needs HMDP_TEST_MYSQL_DSN")
	}
	addr := testenv.StartRedisServer(t, "--maxmemory-policy", "noeviction")
	cfg := testConfig(t, "real")
	cfg.RedisAddrs = []string{addr}
	ts := startServerWith(t, "real", cfg)
	if code, r := readyz(t, ts.URL); code != http.StatusOK || r.Redis != "ok" {
		t.Fatalf("readyz with room: %d %+v", code, r)
	}
	ctx := t.Context()
	rdb := redis.NewClient(&redis.Options{Addr: addr})
	defer rdb.Close()
	used, err := rdb.Info(ctx, "memory").Result()
	if err != nil {
		t.Fatal(err)
	}
	var usedBytes int64
	for _, line := range strings.Split(used, "\r\n") {
		if v, ok := strings.CutPrefix(line, "used_memory:"); ok {
			usedBytes, _ = strconv.ParseInt(v, 10, 64)
		}
	}
	// Over the limit at once (as after a burst of writes): every write is
	// refused until memory is freed or the limit raised.
	if err := rdb.ConfigSet(ctx, "maxmemory", strconv.FormatInt(usedBytes/2, 10)).Err(); err != nil {
		t.Fatal(err)
	}
	if err := rdb.Set(ctx, "probe", "1", 0).Err(); !redis.IsOOMError(err) {
		t.Fatalf("a write over the limit: %v", err)
	}
	if code, r := readyz(t, ts.URL); code != http.StatusServiceUnavailable || r.Status != "not ready" || r.Redis != "full" {
		t.Fatalf("readyz with Redis full: %d %+v", code, r)
	}
	if r := ts.do("", `mutation { sendCode(phone: "13800000091") }`, nil); r.code() != "UNAVAILABLE" {
		t.Fatalf("sendCode with Redis full: %d %+v", r.Status, r.Errors)
	}
	if err := rdb.ConfigSet(ctx, "maxmemory", "0").Err(); err != nil {
		t.Fatal(err)
	}
	if code, r := readyz(t, ts.URL); code != http.StatusOK || r.Redis != "ok" {
		t.Fatalf("readyz with room again: %d %+v", code, r)
	}
}
