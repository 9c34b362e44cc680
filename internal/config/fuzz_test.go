package config

import (
	"strings"
	"testing"
)

// FuzzLoad sets two variables to arbitrary values: Load must
// never panic, and must return either a usable configuration or one line
// that names one of the two variables.
func FuzzLoad(f *testing.F) {
	f.Add(uint8(0), ":8080", uint8(1), "")
	f.Add(uint8(1), "root@tcp(127.0.0.1:3306)/hmdp", uint8(5), "maybe")
	f.Add(uint8(2), "a:1,b:2,,c", uint8(3), "{x}")
	f.Add(uint8(10), "https://a.example, *", uint8(11), "-1")
	f.Add(uint8(16), "1m0s", uint8(17), "720h1ns")
	f.Add(uint8(13), "99999999999999999999", uint8(14), "1e3")
	f.Add(uint8(20), "\x00\n", uint8(4), "  ")
	f.Fuzz(func(t *testing.T, i uint8, v1 string, j uint8, v2 string) {
		a, b := settings[int(i)%len(settings)].env, settings[int(j)%len(settings)].env
		env := map[string]string{a: v1}
		if b != a {
			env[b] = v2
		}
		c, err := Load(nil, func(k string) string { return env[k] })
		if err != nil {
			msg := err.Error()
			if !strings.HasPrefix(msg, a+": ") && !strings.HasPrefix(msg, b+": ") {
				t.Fatalf("error %q names neither %s nor %s", msg, a, b)
			}
			if strings.ContainsAny(msg, "\r\n") {
				t.Fatalf("error %q is not one line", msg)
			}
			return
		}
		if c.Addr == "" || c.DataDir == "" || c.MaxDepth <= 0 || c.MaxComplexity <= 0 || c.FeedPushLimit <= 0 ||
			c.MaxBodyBytes <= 0 || c.ShutdownGrace <= 0 || c.SessionTTL < 1e9 || c.SessionCacheTTL < 0 ||
			c.NearCacheTTL < 0 || c.OrderClaimIdle <= 0 || c.LogLevel == "" {
			t.Fatalf("accepted %s=%q %s=%q as %+v", a, v1, b, v2, c)
		}
		if strings.ContainsAny(c.RedisPrefix, "{} \t\n") {
			t.Fatalf("prefix %q", c.RedisPrefix)
		}
	})
}
