package edge

import (
	"context"
	"net/http"
	"testing"

	"github.com/hmdp/hmdp/internal/config"
)

func TestClientAddress(t *testing.T) {
	t.Parallel()
	cfg, err := config.Load(nil, func(k string) string {
		return map[string]string{"HMDP_TRUSTED_PROXIES": "10.0.0.0/8, 192.168.1.5, fd00::/8"}[k]
	})
	if err != nil {
		t.Fatal(err)
	}
	tp := trustedProxies(cfg.TrustedProxies)
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
