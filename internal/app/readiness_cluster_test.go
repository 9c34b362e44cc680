package app

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/hmdp/hmdp/internal/testenv"
)

// clusterNode is one master of a cluster of the test's own.
type clusterNode struct {
	addr   string
	client *redis.Client
	from   int // its slots, from..to
	to     int
}

// startOwnCluster starts a Redis Cluster of three masters (no replicas),
// each with a third of the slots, and waits for cluster_state:ok: a fault
// that downs the whole cluster cannot be made on the shared one of make
// test-cluster, whose other packages' tests run at the same time.
func startOwnCluster(t *testing.T) []clusterNode {
	t.Helper()
	ctx := t.Context()
	dir := t.TempDir()
	ranges := [][2]int{{0, 5460}, {5461, 10922}, {10923, 16383}}
	nodes := make([]clusterNode, len(ranges))
	for i, r := range ranges {
		// The bus port is given: the default, the port + 10000, is past
		// 65535 for a port from the ephemeral range.
		ln, err := new(net.ListenConfig).Listen(ctx, "tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		_, bus, _ := net.SplitHostPort(ln.Addr().String())
		_ = ln.Close()
		nodeDir := filepath.Join(dir, strconv.Itoa(i))
		if err := os.Mkdir(nodeDir, 0o700); err != nil {
			t.Fatal(err)
		}
		addr := testenv.StartRedisServer(t, "--cluster-enabled", "yes", "--cluster-port", bus,
			"--cluster-node-timeout", "2000", "--dir", nodeDir, "--logfile", filepath.Join(nodeDir, "log"))
		c := redis.NewClient(&redis.Options{Addr: addr})
		t.Cleanup(func() { _ = c.Close() })
		nodes[i] = clusterNode{addr: addr, client: c, from: r[0], to: r[1]}
		if err := c.Do(ctx, "CLUSTER", "SET-CONFIG-EPOCH", i+1).Err(); err != nil {
			t.Fatal(err)
		}
		if err := c.Do(ctx, "CLUSTER", "ADDSLOTSRANGE", r[0], r[1]).Err(); err != nil {
			t.Fatal(err)
		}
		if i > 0 {
			host, port, _ := net.SplitHostPort(addr)
			if err := nodes[0].client.Do(ctx, "CLUSTER", "MEET", host, port, bus).Err(); err != nil {
				t.Fatal(err)
			}
		}
	}
	waitClusterState(t, nodes, "ok", 20*time.Second)
	return nodes
}

// waitClusterState waits until every node says cluster_state:state.
func waitClusterState(t *testing.T, nodes []clusterNode, state string, within time.Duration) {
	t.Helper()
	testenv.Eventually(t, within, "every node says cluster_state:"+state, func() bool {
		for _, n := range nodes {
			info, err := n.client.ClusterInfo(t.Context()).Result()
			if err != nil || !strings.Contains(info, "cluster_state:"+state+"\r\n") {
				return false
			}
		}
		return true
	})
}

// waitReadyz polls /readyz every 20 ms, for at most 5 s, until it answers
// code and reports how long that took.
func waitReadyz(t *testing.T, url string, code int, check func(readiness) bool) time.Duration {
	t.Helper()
	const within = 5 * time.Second
	start := time.Now()
	var last readiness
	var lastCode int
	for time.Since(start) < within {
		if lastCode, last = readyz(t, url); lastCode == code && check(last) {
			return time.Since(start)
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("readyz not %d within %v: %d %+v", code, within, lastCode, last)
	return 0
}

// On a Redis Cluster a PING, and a write whose slot a healthy master owns,
// reach a live node while the cluster is down: /readyz asks every master
// for CLUSTER INFO and says 503, redis "cluster down", within a few
// seconds, and ready again once the slots have an owner. First one master
// alone has lost its slots (it says cluster_state:fail, the others, not
// told, still say ok and route its slots to it); then no node has them
// (every node says fail and refuses every key with CLUSTERDOWN), and a
// purchase answers UNAVAILABLE, retryable, not INTERNAL_SERVER_ERROR.
func TestNotReadyWhileClusterDown(t *testing.T) {
	t.Parallel()
	if os.Getenv("HMDP_TEST_REDIS_CLUSTER_DIR") == "" || testenv.RealMySQLDSN() == "" {
		t.Skip("a Redis Cluster test: make test-cluster (scripts/redis-cluster.sh) with HMDP_TEST_MYSQL_DSN")
	}
	nodes := startOwnCluster(t)
	cfg := testConfig(t, testenv.Real)
	cfg.RedisAddrs = nil
	for _, n := range nodes {
		cfg.RedisAddrs = append(cfg.RedisAddrs, n.addr)
	}
	ts := startServerWith(t, testenv.Real, cfg)
	if code, r := readyz(t, ts.URL); code != http.StatusOK || r.Status != "ready" || r.Redis != "ok" {
		t.Fatalf("readyz on a healthy cluster: %d %+v", code, r)
	}
	ctx := context.Background()
	slotOf := func(key string) int {
		slot, err := ts.redis().ClusterKeySlot(ctx, key).Result()
		if err != nil {
			t.Fatal(err)
		}
		return int(slot)
	}
	masterOf := func(key string) clusterNode {
		s := slotOf(key)
		for _, n := range nodes {
			if n.from <= s && s <= n.to {
				return n
			}
		}
		t.Fatalf("no node has the slot of %s", key)
		return clusterNode{}
	}
	// m holds a sale and not this instance's readiness key: the write of
	// /readyz succeeds while m is down, and only CLUSTER INFO can tell.
	var v int64
	var m clusterNode
	for range 20 {
		v = ts.createSale(10, time.Now().Add(-time.Minute), time.Now().Add(time.Hour))
		if m = masterOf(seckillKeys(ts, v).Buyers); m.addr != masterOf(ts.app.readyKey).addr {
			break
		}
	}
	if m.addr == masterOf(ts.app.readyKey).addr {
		t.Fatal("20 sales, all on the master of the readiness key")
	}
	// buyer's session is on another master: its purchase gets as far as
	// the sale's Lua script, which m refuses with CLUSTERDOWN.
	tokens := ts.users(8)
	buyer := ""
	for _, tok := range tokens {
		sum := sha256.Sum256([]byte(tok))
		if masterOf(cfg.RedisPrefix+"login:session:"+hex.EncodeToString(sum[:])).addr != m.addr {
			buyer = tok
			break
		}
	}
	if buyer == "" {
		t.Fatal("8 sessions, all on the sale's master")
	}
	buy := func() gqlResponse {
		return ts.do(buyer, seckillMutation, map[string]any{"v": strconv.FormatInt(v, 10)})
	}

	isDown := func(r readiness) bool { return r.Status == "not ready" && r.Redis == "cluster down" }
	isReady := func(r readiness) bool { return r.Status == "ready" && r.Redis == "ok" }
	if err := m.client.Do(ctx, "CLUSTER", "DELSLOTSRANGE", m.from, m.to).Err(); err != nil {
		t.Fatal(err)
	}
	down := waitReadyz(t, ts.URL, http.StatusServiceUnavailable, isDown)
	t.Logf("one master without its slots: /readyz 503 cluster down after %v", down)
	if r := buy(); r.code() != "UNAVAILABLE" || r.Errors[0].Extensions["retryAfterMs"] == nil {
		t.Fatalf("seckillVoucher with the sale's master down: %d %+v", r.Status, r.Errors)
	}
	if err := m.client.Do(ctx, "CLUSTER", "ADDSLOTSRANGE", m.from, m.to).Err(); err != nil {
		t.Fatal(err)
	}
	waitClusterState(t, nodes, "ok", 10*time.Second)
	up := waitReadyz(t, ts.URL, http.StatusOK, isReady)
	t.Logf("its slots back: /readyz 200 ready %v after cluster_state:ok everywhere", up)

	// No node owns m's slots: the whole cluster is down.
	for _, n := range nodes {
		if err := n.client.Do(ctx, "CLUSTER", "DELSLOTSRANGE", m.from, m.to).Err(); err != nil {
			t.Fatal(err)
		}
	}
	waitClusterState(t, nodes, "fail", 5*time.Second)
	down = waitReadyz(t, ts.URL, http.StatusServiceUnavailable, isDown)
	t.Logf("no owner of slots %d-%d: /readyz 503 cluster down %v after cluster_state:fail everywhere", m.from, m.to, down)
	if r := buy(); r.code() != "UNAVAILABLE" {
		t.Fatalf("seckillVoucher during CLUSTERDOWN: %d %+v", r.Status, r.Errors)
	}
	restored := time.Now()
	if err := m.client.Do(ctx, "CLUSTER", "ADDSLOTSRANGE", m.from, m.to).Err(); err != nil {
		t.Fatal(err)
	}
	waitClusterState(t, nodes, "ok", 10*time.Second)
	ok := time.Since(restored)
	up = waitReadyz(t, ts.URL, http.StatusOK, isReady)
	t.Logf("slots owned again: cluster_state:ok everywhere after %v, /readyz 200 ready %v later", ok, up)
	if r := buy(); r.code() != "" {
		t.Fatalf("seckillVoucher on the cluster restored: %d %+v", r.Status, r.Errors)
	}
}
