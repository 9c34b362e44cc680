package app

import (
	"errors"
	"fmt"
	"net/http"
	"net/netip"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/hmdp/hmdp/internal/config"
	"github.com/hmdp/hmdp/internal/edge"
	"github.com/hmdp/hmdp/internal/testenv"
)

// residentBytes is this process's resident set size (VmRSS).
func residentBytes(t *testing.T) int64 {
	t.Helper()
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Skip("no /proc/self/status:", err)
	}
	for line := range strings.SplitSeq(string(status), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			return kb << 10
		}
	}
	t.Fatal("no VmRSS")
	return 0
}

// defaultConfig is the configuration of an empty environment.
func defaultConfig(t *testing.T) config.Config {
	t.Helper()
	cfg, err := config.Load(nil, func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// from is the header of a client at addr behind the trusted local proxy.
func from(addr string) http.Header { return http.Header{"X-Forwarded-For": {addr}} }

// expectClose4429 fails unless err is a close with 4429 whose text has want.
func expectClose4429(t *testing.T, what string, err error, want string) {
	t.Helper()
	var ce *websocket.CloseError
	if !errors.As(err, &ce) || ce.Code != edge.CloseTooManySockets || !strings.Contains(ce.Text, want) {
		t.Fatalf("%s: want close %d %q, got %v", what, edge.CloseTooManySockets, want, err)
	}
}

// The attack: 300 anonymous sockets from one address,
// each starting 100 blogComments subscriptions. Before the caps all were
// accepted: 30 000 subscriptions, 31 000 goroutines, 1 GB. Now the address
// holds HMDP_WS_MAX_SOCKETS_PER_ADDRESS sockets (the rest closed with 4429)
// with HMDP_WS_MAX_ANONYMOUS_OPERATIONS operations each, and people at other
// addresses, logged in or not, still connect.
func TestAdversarialWebsockets(t *testing.T) {
	forEachBackend(t, func(t *testing.T, backend string) {
		ts := startServer(t, backend, func(c *config.Config) {
			c.TrustedProxies = []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}
			c.WSMaxSocketsPerAddress = defaultConfig(t).WSMaxSocketsPerAddress
		})
		cfg := ts.app.cfg
		token := ts.login("13400000091")
		runtime.GC()
		rssBefore, goroutinesBefore := residentBytes(t), runtime.NumGoroutine()

		const sockets, perSocket = 300, 100
		attacker := from("203.0.113.9")
		var open []*wsClient
		for i := range sockets {
			c, err := dialWS(t, ts.URL, "graphql-transport-ws", map[string]any{}, attacker)
			if err != nil {
				if len(open) < cfg.WSMaxSocketsPerAddress {
					t.Fatalf("socket %d refused under the cap: %v", i, err)
				}
				expectClose4429(t, fmt.Sprintf("socket %d", i), err, "from this address")
				continue
			}
			open = append(open, c)
			for j := range perSocket {
				c.subscribe(strconv.Itoa(j), `subscription($b: ID!) { blogComments(blogId: $b) { id } }`, map[string]any{"b": "1"})
			}
		}
		if len(open) != cfg.WSMaxSocketsPerAddress {
			t.Fatalf("%d sockets open from one address, want %d", len(open), cfg.WSMaxSocketsPerAddress)
		}
		// Each socket runs its first few subscriptions; the rest are refused.
		for i, c := range open {
			for refused := 0; refused < perSocket-cfg.WSMaxAnonymousOperations; {
				m, err := c.next(10 * time.Second)
				if err != nil {
					t.Fatalf("socket %d, waiting for refusals: %v (%d so far)", i, err, refused)
				}
				if m.Type == "next" && strings.Contains(string(m.Payload), "TOO_MANY_OPERATIONS") {
					refused++
				}
			}
		}
		runtime.GC()
		rssGrowth, goroutineGrowth := residentBytes(t)-rssBefore, runtime.NumGoroutine()-goroutinesBefore
		t.Logf("%d sockets, %d subscriptions running: RSS +%d MB, goroutines +%d", len(open), len(open)*cfg.WSMaxAnonymousOperations, rssGrowth>>20, goroutineGrowth)
		if goroutineGrowth > 2000 {
			t.Errorf("goroutines grew by %d", goroutineGrowth)
		}
		if rssGrowth > 150<<20 {
			t.Errorf("RSS grew by %d MB", rssGrowth>>20)
		}

		// Others are still served: logged in or not, from their own address.
		c, err := dialWS(t, ts.URL, "graphql-transport-ws", map[string]any{"authorization": "Bearer " + token}, from("198.51.100.20"))
		if err != nil {
			t.Fatalf("a logged-in user during the attack: %v", err)
		}
		if r := c.result(c.send(`{ me { nickName } }`), 5*time.Second); len(r.Errors) > 0 || strings.Contains(string(r.Data), "null") {
			t.Fatalf("a logged-in user during the attack: %s %+v", r.Data, r.Errors)
		}
		if _, err := dialWS(t, ts.URL, "graphql-ws", nil, from("198.51.100.21")); err != nil {
			t.Fatalf("an anonymous visitor at another address: %v", err)
		}
		// The attacker's sockets gone, its address has its places back.
		for _, c := range open {
			_ = c.conn.Close()
		}
		testenv.Eventually(t, 5*time.Second, "the address's places back", func() bool {
			c, err := dialWS(t, ts.URL, "graphql-transport-ws", nil, attacker)
			if err == nil {
				_ = c.conn.Close()
			}
			return err == nil
		})
	})
}

// Anonymous sockets from many addresses are capped in total
// (HMDP_WS_MAX_ANONYMOUS_SOCKETS), all sockets too (HMDP_WS_MAX_SOCKETS);
// a logged-in user still connects while the anonymous cap is full.
func TestAdversarialWebsocketTotals(t *testing.T) {
	forEachBackend(t, func(t *testing.T, backend string) {
		ts := startServer(t, backend, func(c *config.Config) {
			c.TrustedProxies = []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}
			c.WSMaxAnonymousSockets, c.WSMaxSockets = 3, 5
		})
		token := ts.login("13400000092")
		for i := range 3 {
			if _, err := dialWS(t, ts.URL, "graphql-transport-ws", nil, from(fmt.Sprintf("203.0.113.%d", i+1))); err != nil {
				t.Fatalf("anonymous socket %d: %v", i, err)
			}
		}
		_, err := dialWS(t, ts.URL, "graphql-transport-ws", nil, from("203.0.113.50"))
		expectClose4429(t, "a fourth anonymous socket", err, "anonymous websockets")
		auth := map[string]any{"authorization": "Bearer " + token}
		if _, err := dialWS(t, ts.URL, "graphql-transport-ws", auth, from("198.51.100.1")); err != nil {
			t.Fatalf("a logged-in user with the anonymous cap full: %v", err)
		}
		// The refused socket's place is given back when it closes: 3
		// anonymous + 1 logged in = 4 open, one more allowed in all.
		testenv.Eventually(t, 5*time.Second, "a fifth socket", func() bool {
			_, err := dialWS(t, ts.URL, "graphql-transport-ws", auth, from("198.51.100.2"))
			return err == nil
		})
		_, err = dialWS(t, ts.URL, "graphql-transport-ws", auth, from("198.51.100.3"))
		expectClose4429(t, "a sixth socket", err, "on this server")
	})
}
