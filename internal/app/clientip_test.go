package app

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/netip"
	"testing"
)

func TestClientAddress(t *testing.T) {
	cfg, err := LoadConfig(nil, env(map[string]string{"HMDP_TRUSTED_PROXIES": "10.0.0.0/8, 192.168.1.5, fd00::/8"}))
	if err != nil {
		t.Fatal(err)
	}
	tp := cfg.TrustedProxies
	for _, c := range []struct {
		peer string
		xff  []string
		want string
	}{
		// No trusted peer: X-Forwarded-For is the client's word and ignored.
		{"203.0.113.7:5000", nil, "203.0.113.7"},
		{"203.0.113.7:5000", []string{"198.51.100.1"}, "203.0.113.7"},
		// A trusted peer: the first untrusted hop from the right is the client;
		// what the client wrote left of it does not count.
		{"10.1.2.3:5000", []string{"198.51.100.1"}, "198.51.100.1"},
		{"10.1.2.3:5000", []string{"1.1.1.1, 198.51.100.1, 10.9.9.9"}, "198.51.100.1"},
		{"10.1.2.3:5000", []string{"1.1.1.1", "198.51.100.1, 192.168.1.5"}, "198.51.100.1"},
		{"192.168.1.5:80", []string{"198.51.100.1:4711"}, "198.51.100.1"},
		// Every hop trusted: the leftmost is the client.
		{"10.1.2.3:5000", []string{"10.4.4.4, 10.5.5.5"}, "10.4.4.4"},
		// A trusted peer without the header, or with garbage, is itself the client (or the last good hop).
		{"10.1.2.3:5000", nil, "10.1.2.3"},
		{"10.1.2.3:5000", []string{"nonsense, 10.5.5.5"}, "10.5.5.5"},
		{"192.168.1.6:80", []string{"198.51.100.1"}, "192.168.1.6"},
		// IPv6 clients count per /64, whether peers or forwarded.
		{"[2001:db8:1:2:aaaa::1]:5000", nil, "2001:db8:1:2::/64"},
		{"[fd00::1]:5000", []string{"2001:db8:1:2:ffff::9"}, "2001:db8:1:2::/64"},
		{"[fd00::1]:5000", []string{"[2001:db8:1:3::9]:443"}, "2001:db8:1:3::/64"},
		// IPv4 in IPv6 is IPv4.
		{"[::ffff:10.1.2.3]:5000", []string{"198.51.100.1"}, "198.51.100.1"},
	} {
		r, _ := http.NewRequestWithContext(context.Background(), http.MethodGet, "/graphql", nil)
		r.RemoteAddr = c.peer
		for _, v := range c.xff {
			r.Header.Add("X-Forwarded-For", v)
		}
		if got := tp.clientAddress(r); got != c.want {
			t.Errorf("peer %s, X-Forwarded-For %q: %q, want %q", c.peer, c.xff, got, c.want)
		}
	}
}

// The per-address limit of login codes keys on the client behind a trusted
// proxy, and ignores X-Forwarded-For from anyone else.
func TestRateLimitsKeyOnForwardedClient(t *testing.T) {
	forEachBackend(t, func(t *testing.T, backend string) {
		ts := startServer(t, backend, func(c *Config) {
			c.TrustedProxies = trustedProxies{mustPrefix(t, "10.0.0.0/8")}
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
			n, err := ts.redis().Exists(t.Context(), ts.app.cfg.RedisPrefix+"rl:code:ip:"+addr).Result()
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
	req, err := http.NewRequest(http.MethodPost, url+"/graphql", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	return req
}
