package app

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/go-sql-driver/mysql"

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
	if testenv.RealMySQLDSN() == "" || testenv.RealRedisAddr() == "" {
		t.Skip("needs HMDP_TEST_MYSQL_DSN and HMDP_TEST_REDIS_ADDR")
	}
	cfg := testConfig(t, "real")
	dsn, err := mysql.ParseDSN(cfg.MySQLDSN)
	if err != nil {
		t.Fatal(err)
	}
	proxy := newProxy(t, dsn.Addr)
	dsn.Addr = proxy.ln.Addr().String()
	cfg.MySQLDSN = dsn.FormatDSN()
	ts := startServerWith(t, "real", cfg)
	token := ts.login("13800000088")
	if code, r := readyz(t, ts.URL); code != 200 || r.Status != "ready" || r.Database != "ok" || r.Redis != "ok" {
		t.Fatalf("readyz with everything up: %d %+v", code, r)
	}
	proxy.cut()
	if code, r := readyz(t, ts.URL); code != 200 || r.Status != "degraded" || r.Database != "unreachable" || r.Redis != "ok" {
		t.Fatalf("readyz with MySQL cut: %d %+v", code, r)
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
	forEachBackend(t, func(t *testing.T, backend string) {
		cfg := testConfig(t, backend)
		var cut func()
		if backend == "real" {
			if len(cfg.RedisAddrs) > 1 {
				t.Skip("a cluster cannot be proxied by one address")
			}
			proxy := newProxy(t, cfg.RedisAddrs[0])
			cfg.RedisAddrs = []string{proxy.ln.Addr().String()}
			cut = proxy.cut
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
	})
}
