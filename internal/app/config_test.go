package app

import (
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"
)

func env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func TestConfigDefaults(t *testing.T) {
	c, err := LoadConfig(nil, env(nil))
	if err != nil {
		t.Fatal(err)
	}
	if c.Addr != ":8080" || c.RedisPrefix != "hmdp:" || c.DataDir != "./data" || !c.Seed ||
		!c.Introspection || !c.Playground || !c.RateLimits || c.MySQLDSN != "" || len(c.RedisAddrs) != 0 {
		t.Fatalf("defaults %+v", c)
	}
	// With a real database, seeding is off unless asked for.
	c, _ = LoadConfig(nil, env(map[string]string{"HMDP_MYSQL_DSN": "root@tcp(127.0.0.1:3306)/hmdp"}))
	if c.Seed {
		t.Fatal("seed on by default with HMDP_MYSQL_DSN")
	}
}

// One zone for every "today", Asia/Shanghai unless set; "Local" (the
// process's zone, which the setting exists to rule out) is refused.
func TestConfigTimeZone(t *testing.T) {
	c, err := LoadConfig(nil, env(nil))
	if err != nil || c.TimeZone == nil || c.TimeZone.String() != "Asia/Shanghai" {
		t.Fatalf("default %v %v", c.TimeZone, err)
	}
	c, err = LoadConfig(nil, env(map[string]string{"HMDP_TIME_ZONE": "America/New_York"}))
	if err != nil || c.TimeZone.String() != "America/New_York" {
		t.Fatalf("set %v %v", c.TimeZone, err)
	}
	if _, err := LoadConfig(nil, env(map[string]string{"HMDP_TIME_ZONE": "Local"})); err == nil {
		t.Fatal("Local accepted")
	}
}

func TestConfigValues(t *testing.T) {
	c, err := LoadConfig([]string{"-addr", "127.0.0.1:9000"}, env(map[string]string{
		"HMDP_ADDR":            ":7000",
		"HMDP_REDIS_ADDR":      "10.0.0.1:7000, 10.0.0.2:7000,10.0.0.3:7000",
		"HMDP_ADMIN_PHONES":    "13900000000,13900000001",
		"HMDP_RATE_LIMITS":     "off",
		"HMDP_SEED":            "false",
		"HMDP_ALLOWED_ORIGINS": "https://a.example.com/, http://localhost:5173",
	}))
	if err != nil {
		t.Fatal(err)
	}
	if c.Addr != "127.0.0.1:9000" {
		t.Errorf("flag did not win over env: %s", c.Addr)
	}
	if len(c.RedisAddrs) != 3 || c.RateLimits || c.Seed || len(c.AdminPhones) != 2 {
		t.Errorf("%+v", c)
	}
	if strings.Join(c.AllowedOrigins, " ") != "https://a.example.com http://localhost:5173" {
		t.Errorf("origins %v", c.AllowedOrigins)
	}
}

func TestConfigErrorsNameTheVariable(t *testing.T) {
	for k, v := range map[string]string{
		"HMDP_ADDR":              "8080",
		"HMDP_MYSQL_DSN":         "mysql://root@localhost/hmdp",
		"HMDP_REDIS_ADDR":        "localhost",
		"HMDP_REDIS_PREFIX":      "hmdp:{x}:",
		"HMDP_ADMIN_PHONES":      "12345",
		"HMDP_SEED":              "maybe",
		"HMDP_INTROSPECTION":     "2",
		"HMDP_PLAYGROUND":        "nope",
		"HMDP_RATE_LIMITS":       "sometimes",
		"HMDP_ALLOWED_ORIGINS":   "example.com",
		"HMDP_MAX_DEPTH":         "0",
		"HMDP_SHUTDOWN_GRACE":    "soon",
		"HMDP_TRUSTED_PROXIES":   "10.0.0.0/8, proxy.internal",
		"HMDP_READ_TIMEOUT":      "500ms",
		"HMDP_WRITE_TIMEOUT":     "never",
		"HMDP_WS_MAX_OPERATIONS": "0",
		"HMDP_TIME_ZONE":         "Mars/Olympus_Mons",
		"HMDP_PPROF_ADDR":        "6060",
	} {
		_, err := LoadConfig(nil, env(map[string]string{k: v}))
		if err == nil || !strings.HasPrefix(err.Error(), k+": ") || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s=%q: error %v, want one line starting with the variable", k, v, err)
		}
	}
	_, err := LoadConfig([]string{"-max-depth", "x"}, env(nil))
	if err == nil || !strings.HasPrefix(err.Error(), "-max-depth: ") {
		t.Errorf("bad flag: %v", err)
	}
}

// Sentinel settings go together, exclude HMDP_REDIS_ADDR, and WAIT needs a
// Redis that can have replicas; each error names the variable.
func TestConfigSentinelAndWaitReplicas(t *testing.T) {
	c, err := LoadConfig(nil, env(map[string]string{
		"HMDP_REDIS_SENTINELS":       "10.0.0.1:26379, 10.0.0.2:26379",
		"HMDP_REDIS_MASTER":          "hmdp",
		"HMDP_SECKILL_WAIT_REPLICAS": "1",
		"HMDP_SECKILL_WAIT_TIMEOUT":  "250ms",
	}))
	if err != nil {
		t.Fatal(err)
	}
	if len(c.RedisSentinels) != 2 || c.RedisMaster != "hmdp" || c.SeckillWaitReplicas != 1 || c.SeckillWaitTimeout.Milliseconds() != 250 {
		t.Fatalf("%+v", c)
	}
	if c, _ := LoadConfig(nil, env(map[string]string{"HMDP_REDIS_ADDR": "10.0.0.1:6379", "HMDP_SECKILL_WAIT_REPLICAS": "2"})); c.SeckillWaitReplicas != 2 {
		t.Fatalf("single server with WAIT: %+v", c)
	}
	for _, tc := range []struct {
		env  map[string]string
		name string
	}{
		{map[string]string{"HMDP_REDIS_SENTINELS": "10.0.0.1:26379"}, "HMDP_REDIS_SENTINELS"},
		{map[string]string{"HMDP_REDIS_MASTER": "hmdp"}, "HMDP_REDIS_MASTER"},
		{map[string]string{"HMDP_REDIS_SENTINELS": "sentinel", "HMDP_REDIS_MASTER": "hmdp"}, "HMDP_REDIS_SENTINELS"},
		{map[string]string{"HMDP_REDIS_SENTINELS": "10.0.0.1:26379", "HMDP_REDIS_MASTER": "hmdp", "HMDP_REDIS_ADDR": "10.0.0.1:6379"}, "HMDP_REDIS_SENTINELS"},
		{map[string]string{"HMDP_SECKILL_WAIT_REPLICAS": "1"}, "HMDP_SECKILL_WAIT_REPLICAS"},
		{map[string]string{"HMDP_REDIS_ADDR": "10.0.0.1:7000,10.0.0.2:7000", "HMDP_SECKILL_WAIT_REPLICAS": "1"}, "HMDP_SECKILL_WAIT_REPLICAS"},
		{map[string]string{"HMDP_REDIS_ADDR": "10.0.0.1:6379", "HMDP_SECKILL_WAIT_REPLICAS": "-1"}, "HMDP_SECKILL_WAIT_REPLICAS"},
		{map[string]string{"HMDP_SECKILL_WAIT_TIMEOUT": "0s"}, "HMDP_SECKILL_WAIT_TIMEOUT"},
	} {
		_, err := LoadConfig(nil, env(tc.env))
		if err == nil || !strings.HasPrefix(err.Error(), tc.name+": ") {
			t.Errorf("%v: error %v, want one naming %s", tc.env, err, tc.name)
		}
	}
}

// Replicas and the binlog: values, and errors naming the variable.
func TestConfigReplicasAndBinlog(t *testing.T) {
	c, err := LoadConfig(nil, env(map[string]string{
		"HMDP_MYSQL_DSN":          "root@tcp(db:3306)/hmdp",
		"HMDP_MYSQL_REPLICA_DSNS": "ro@tcp(r1:3306)/hmdp, ro@tcp(r2:3306)/hmdp",
		"HMDP_BINLOG":             "on",
	}))
	if err != nil {
		t.Fatal(err)
	}
	if len(c.ReplicaDSNs) != 2 || c.ReplicaMaxLag != 5*time.Second || c.ReadYourWrites != 2*time.Second || c.Binlog != "on" {
		t.Errorf("%+v", c)
	}
	if c, _ := LoadConfig(nil, env(nil)); c.Binlog != "auto" || c.ReplicaDSNs != nil {
		t.Errorf("defaults: binlog %q, replicas %v", c.Binlog, c.ReplicaDSNs)
	}
	for _, e := range []map[string]string{
		{"HMDP_MYSQL_REPLICA_DSNS": "ro@tcp(r1:3306)/hmdp"}, // no primary
		{"HMDP_MYSQL_DSN": "root@tcp(db:3306)/hmdp", "HMDP_MYSQL_REPLICA_DSNS": "mysql://r1/hmdp"},
		{"HMDP_REPLICA_MAX_LAG": "-1s"},
		{"HMDP_READ_YOUR_WRITES": "soon"},
		{"HMDP_BINLOG": "maybe"},
		{"HMDP_BINLOG": "on"}, // embedded: no binlog
	} {
		var k string
		for name := range e {
			if name != "HMDP_MYSQL_DSN" {
				k = name
			}
		}
		_, err := LoadConfig(nil, env(e))
		if err == nil || !strings.HasPrefix(err.Error(), k+": ") {
			t.Errorf("%v: error %v, want one starting with %s", e, err, k)
		}
	}
}

// Hot shops: ids parsed and validated, the top N and window bounded; each
// error names the variable.
func TestConfigHotShops(t *testing.T) {
	c, err := LoadConfig(nil, env(nil))
	if err != nil || len(c.HotShops) != 0 || c.HotShopsTop != 10 || c.HotShopsWindow != 10*time.Minute {
		t.Fatalf("defaults %v %d %v %v", c.HotShops, c.HotShopsTop, c.HotShopsWindow, err)
	}
	c, err = LoadConfig(nil, env(map[string]string{"HMDP_HOT_SHOPS": " 1, 7,12 ", "HMDP_HOT_SHOPS_TOP": "0", "HMDP_HOT_SHOPS_WINDOW": "5m"}))
	if err != nil || len(c.HotShops) != 3 || c.HotShops[1] != 7 || c.HotShopsTop != 0 || c.HotShopsWindow != 5*time.Minute {
		t.Fatalf("set %v %d %v %v", c.HotShops, c.HotShopsTop, c.HotShopsWindow, err)
	}
	for k, v := range map[string]string{
		"HMDP_HOT_SHOPS":        "1,x",
		"HMDP_HOT_SHOPS_TOP":    "-1",
		"HMDP_HOT_SHOPS_WINDOW": "30s",
	} {
		_, err := LoadConfig(nil, env(map[string]string{k: v}))
		if err == nil || !strings.HasPrefix(err.Error(), k+": ") {
			t.Errorf("%s=%q: error %v, want one starting with the variable", k, v, err)
		}
	}
	if _, err := LoadConfig(nil, env(map[string]string{"HMDP_HOT_SHOPS": "0"})); err == nil {
		t.Error("shop id 0 accepted")
	}
}

// HMDP_PPROF_ADDR serves Go's profiler on its own listener.
func TestPprofListener(t *testing.T) {
	addr, stop, err := servePprof("127.0.0.1:0", slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	resp, err := http.Get("http://" + addr + "/debug/pprof/cmdline")
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("status %d", resp.StatusCode)
	}
	if _, _, err := servePprof(addr, slog.New(slog.DiscardHandler)); err == nil || !strings.HasPrefix(err.Error(), "HMDP_PPROF_ADDR: ") {
		t.Fatalf("a taken address: %v", err)
	}
}
