package app

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/netip"
	"testing"

	"github.com/hmdp/hmdp/internal/config"
)

// The per-address limit of login codes keys on the client behind a trusted
// proxy, and ignores X-Forwarded-For from anyone else.
func TestRateLimitsKeyOnForwardedClient(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, backend string) {
		ts := startServer(t, backend, func(c *config.Config) {
			c.TrustedProxies = []netip.Prefix{mustPrefix(t, "10.0.0.0/8")}
		})
		send := func(peer, xff, phone string) {
			t.Helper()
			client := &http.Client{Transport: handlerTransport{h: ts.app.Handler(), remoteAddr: peer}}
			req := gqlRequest(t, ts.URL, sendCodeMutation, map[string]any{"p": phone})
			if xff != "" {
				req.Header.Set("X-Forwarded-For", xff)
			}
			if r := ts.sendWith(client, req); len(r.Errors) > 0 {
				t.Fatalf("sendCode: %+v", r.Errors)
			}
		}
		limited := func(addr string) bool {
			t.Helper()
			n, err := ts.redis().Exists(t.Context(), ts.app.cfg.RedisPrefix+"rl:{code}:ip:"+addr).Result()
			if err != nil {
				t.Fatal(err)
			}
			return n == 1
		}
		send("10.0.0.2:1000", "6.6.6.6, 198.51.100.7", "13800000101")
		if !limited("198.51.100.7") || limited("10.0.0.2") || limited("6.6.6.6") {
			t.Fatal("behind a trusted proxy, the limit is not the forwarded client's")
		}
		send("203.0.113.9:1000", "198.51.100.8", "13800000102")
		if !limited("203.0.113.9") || limited("198.51.100.8") {
			t.Fatal("an untrusted peer's X-Forwarded-For was believed")
		}
		send("[2001:db8:5:6:1::1]:1000", "", "13800000103")
		if !limited("2001:db8:5:6::/64") {
			t.Fatal("an IPv6 client is not limited per /64")
		}
	})
}

func mustPrefix(t *testing.T, s string) netip.Prefix {
	t.Helper()
	p, err := netip.ParsePrefix(s)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func gqlRequest(t *testing.T, url, query string, vars map[string]any) *http.Request {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"query": query, "variables": vars})
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, url+"/graphql", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	return req
}
