package config

import (
	"strings"
	"testing"
	"time"

	"github.com/hmdp/hmdp/internal/ratelimit"
)

func env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func TestConfigDefaults(t *testing.T) {
	t.Parallel()
	c, err := Load(nil, env(nil))
	if err != nil {
		t.Fatal(err)
	}
	if c.Addr != ":8080" || c.RedisPrefix != "hmdp:" || c.DataDir != "./data" || !c.Seed ||
		!c.Introspection || !c.Playground || !c.RateLimits || c.MySQLDSN != "" || len(c.RedisAddrs) != 0 {
		t.Fatalf("defaults %+v", c)
	}
	// With a real database, seeding is off unless asked for.
	c, _ = Load(nil, env(map[string]string{"HMDP_MYSQL_DSN": "root@tcp(127.0.0.1:3306)/hmdp"}))
	if c.Seed {
		t.Fatal("seed on by default with HMDP_MYSQL_DSN")
	}
}

// One zone for every "today", Asia/Shanghai unless set; "Local" (the
// process's zone, which the setting exists to rule out) is refused.
func TestConfigTimeZone(t *testing.T) {
	t.Parallel()
	c, err := Load(nil, env(nil))
	if err != nil || c.TimeZone == nil || c.TimeZone.String() != "Asia/Shanghai" {
		t.Fatalf("default %v %v", c.TimeZone, err)
	}
	c, err = Load(nil, env(map[string]string{"HMDP_TIME_ZONE": "America/New_York"}))
	if err != nil || c.TimeZone.String() != "America/New_York" {
		t.Fatalf("set %v %v", c.TimeZone, err)
	}
	if _, err := Load(nil, env(map[string]string{"HMDP_TIME_ZONE": "Local"})); err == nil {
		t.Fatal("Local accepted")
	}
}

func TestConfigValues(t *testing.T) {
	t.Parallel()
	c, err := Load([]string{"-addr", "127.0.0.1:9000"}, env(map[string]string{
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
	t.Parallel()
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
		_, err := Load(nil, env(map[string]string{k: v}))
		if err == nil || !strings.HasPrefix(err.Error(), k+": ") || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s=%q: error %v, want one line starting with the variable", k, v, err)
		}
	}
	_, err := Load([]string{"-max-depth", "x"}, env(nil))
	if err == nil || !strings.HasPrefix(err.Error(), "-max-depth: ") {
		t.Errorf("bad flag: %v", err)
	}
}

// Sentinel settings go together, exclude HMDP_REDIS_ADDR, and WAIT needs a
// Redis that can have replicas; each error names the variable.
func TestConfigSentinelAndWaitReplicas(t *testing.T) {
	t.Parallel()
	c, err := Load(nil, env(map[string]string{
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
	if c, _ := Load(nil, env(map[string]string{"HMDP_REDIS_ADDR": "10.0.0.1:6379", "HMDP_SECKILL_WAIT_REPLICAS": "2"})); c.SeckillWaitReplicas != 2 {
		t.Fatalf("single server with WAIT: %+v", c)
	}
	// On a Cluster the waiter waits on the master of each sale's slot.
	if c, err := Load(nil, env(map[string]string{"HMDP_REDIS_ADDR": "10.0.0.1:7000,10.0.0.2:7000", "HMDP_SECKILL_WAIT_REPLICAS": "1"})); err != nil || c.SeckillWaitReplicas != 1 {
		t.Fatalf("cluster with WAIT: %+v, %v", c, err)
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
		{map[string]string{"HMDP_REDIS_ADDR": "10.0.0.1:6379", "HMDP_SECKILL_WAIT_REPLICAS": "-1"}, "HMDP_SECKILL_WAIT_REPLICAS"},
		{map[string]string{"HMDP_SECKILL_WAIT_TIMEOUT": "0s"}, "HMDP_SECKILL_WAIT_TIMEOUT"},
	} {
		_, err := Load(nil, env(tc.env))
		if err == nil || !strings.HasPrefix(err.Error(), tc.name+": ") {
			t.Errorf("%v: error %v, want one naming %s", tc.env, err, tc.name)
		}
	}
}

// Replicas and the binlog: values, and errors naming the variable.
func TestConfigReplicasAndBinlog(t *testing.T) {
	t.Parallel()
	c, err := Load(nil, env(map[string]string{
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
	if c, _ := Load(nil, env(nil)); c.Binlog != "auto" || c.ReplicaDSNs != nil {
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
		_, err := Load(nil, env(e))
		if err == nil || !strings.HasPrefix(err.Error(), k+": ") {
			t.Errorf("%v: error %v, want one starting with %s", e, err, k)
		}
	}
}

// Hot shops: ids parsed and validated, the top N and window bounded; each
// error names the variable.
func TestConfigHotShops(t *testing.T) {
	t.Parallel()
	c, err := Load(nil, env(nil))
	if err != nil || len(c.HotShops) != 0 || c.HotShopsTop != 10 || c.HotShopsWindow != 10*time.Minute {
		t.Fatalf("defaults %v %d %v %v", c.HotShops, c.HotShopsTop, c.HotShopsWindow, err)
	}
	c, err = Load(nil, env(map[string]string{"HMDP_HOT_SHOPS": " 1, 7,12 ", "HMDP_HOT_SHOPS_TOP": "0", "HMDP_HOT_SHOPS_WINDOW": "5m"}))
	if err != nil || len(c.HotShops) != 3 || c.HotShops[1] != 7 || c.HotShopsTop != 0 || c.HotShopsWindow != 5*time.Minute {
		t.Fatalf("set %v %d %v %v", c.HotShops, c.HotShopsTop, c.HotShopsWindow, err)
	}
	for k, v := range map[string]string{
		"HMDP_HOT_SHOPS":        "1,x",
		"HMDP_HOT_SHOPS_TOP":    "-1",
		"HMDP_HOT_SHOPS_WINDOW": "30s",
	} {
		_, err := Load(nil, env(map[string]string{k: v}))
		if err == nil || !strings.HasPrefix(err.Error(), k+": ") {
			t.Errorf("%s=%q: error %v, want one starting with the variable", k, v, err)
		}
	}
	if _, err := Load(nil, env(map[string]string{"HMDP_HOT_SHOPS": "0"})); err == nil {
		t.Error("shop id 0 accepted")
	}
}

// HMDP_BLOG_RATE_LIMIT: default, value and refusals naming the variable.
func TestConfigBlogRateLimit(t *testing.T) {
	t.Parallel()
	c, err := Load(nil, env(map[string]string{}))
	if err != nil || c.BlogRateLimit != (ratelimit.Limit{Events: 20, Per: time.Hour}) {
		t.Fatalf("default %v, %v", c.BlogRateLimit, err)
	}
	c, err = Load(nil, env(map[string]string{"HMDP_BLOG_RATE_LIMIT": "5/10m"}))
	if err != nil || c.BlogRateLimit != (ratelimit.Limit{Events: 5, Per: 10 * time.Minute}) {
		t.Fatalf("5/10m: %v, %v", c.BlogRateLimit, err)
	}
	for _, v := range []string{"5", "0/1h", "-1/1h", "x/1h", "5/soon", "5/500ms", "5000/1s", "5/1h/2"} {
		if _, err := Load(nil, env(map[string]string{"HMDP_BLOG_RATE_LIMIT": v})); err == nil ||
			err.Error()[:len("HMDP_BLOG_RATE_LIMIT")] != "HMDP_BLOG_RATE_LIMIT" {
			t.Fatalf("%q: %v", v, err)
		}
	}
}

func TestSignMakeUpsSetting(t *testing.T) {
	t.Parallel()
	c, err := Load(nil, env(nil))
	if err != nil || c.SignMakeUpsPerMonth != 3 {
		t.Fatalf("default: %d %v", c.SignMakeUpsPerMonth, err)
	}
	c, err = Load([]string{"-sign-makeups-per-month", "0"}, env(map[string]string{"HMDP_SIGN_MAKEUPS_PER_MONTH": "5"}))
	if err != nil || c.SignMakeUpsPerMonth != 0 {
		t.Fatalf("flag 0 over the variable: %d %v", c.SignMakeUpsPerMonth, err)
	}
	for _, bad := range []string{"-1", "32", "three"} {
		_, err := Load(nil, env(map[string]string{"HMDP_SIGN_MAKEUPS_PER_MONTH": bad}))
		if err == nil || !strings.HasPrefix(err.Error(), "HMDP_SIGN_MAKEUPS_PER_MONTH: ") {
			t.Fatalf("%q: %v", bad, err)
		}
	}
}

// production refuses the embedded back ends unless
// allowed by name, and says which setting is missing.
func TestAdversarialConfigRefusesEmbeddedInProduction(t *testing.T) {
	prod := map[string]string{"HMDP_ENV": "production", "HMDP_SMS_SENDER": "log", "HMDP_PAY_PUBLIC_KEY": "jFgt1Uhuw8CYt9yHeGPuUYWWFvLt65hooGci4RQGnjQ="}
	with := func(kv ...string) map[string]string {
		m := map[string]string{}
		for k, v := range prod {
			m[k] = v
		}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return m
	}
	const dsn, redisAddr = "hmdp:pw@tcp(db:3306)/hmdp", "redis:6379"
	for _, c := range []struct {
		env  map[string]string
		want string // error prefix; empty = loads
	}{
		{with(), "HMDP_MYSQL_DSN: production needs a MySQL server"},
		{with("HMDP_REDIS_ADDR", redisAddr), "HMDP_MYSQL_DSN: production needs a MySQL server"},
		{with("HMDP_MYSQL_DSN", dsn), "HMDP_REDIS_ADDR: production needs a Redis server"},
		{with("HMDP_MYSQL_DSN", dsn, "HMDP_REDIS_ADDR", redisAddr), ""},
		{with("HMDP_MYSQL_DSN", dsn, "HMDP_REDIS_SENTINELS", "s1:26379", "HMDP_REDIS_MASTER", "m"), ""},
		{with("HMDP_ALLOW_EMBEDDED", "true"), ""},
		{with("HMDP_MYSQL_DSN", dsn, "HMDP_ALLOW_EMBEDDED", "true"), ""},
		{with("HMDP_ALLOW_EMBEDDED", "maybe"), "HMDP_ALLOW_EMBEDDED: "},
		{map[string]string{}, ""}, // development
	} {
		cfg, err := Load(nil, env(c.env))
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%v: %v", c.env, err)
		case c.want != "" && (err == nil || !strings.HasPrefix(err.Error(), c.want)):
			t.Errorf("%v: %v, want %q", c.env, err, c.want)
		case c.want != "" && c.want != "HMDP_ALLOW_EMBEDDED: " && !strings.Contains(err.Error(), "HMDP_ALLOW_EMBEDDED=true"):
			t.Errorf("%v: %v does not say how to allow it", c.env, err)
		case err == nil && c.env["HMDP_ALLOW_EMBEDDED"] == "true" && !cfg.AllowEmbedded:
			t.Errorf("%v: AllowEmbedded not set", c.env)
		}
	}
}
