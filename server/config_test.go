package main

import (
	"strings"
	"testing"
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
		"HMDP_ADDR":            "8080",
		"HMDP_MYSQL_DSN":       "mysql://root@localhost/hmdp",
		"HMDP_REDIS_ADDR":      "localhost",
		"HMDP_REDIS_PREFIX":    "hmdp:{x}:",
		"HMDP_ADMIN_PHONES":    "12345",
		"HMDP_SEED":            "maybe",
		"HMDP_INTROSPECTION":   "2",
		"HMDP_PLAYGROUND":      "nope",
		"HMDP_RATE_LIMITS":     "sometimes",
		"HMDP_ALLOWED_ORIGINS": "example.com",
		"HMDP_MAX_DEPTH":       "0",
		"HMDP_SHUTDOWN_GRACE":  "soon",
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
