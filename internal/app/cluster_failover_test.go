package app

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/hmdp/hmdp/internal/testenv"
)

// The Redis Cluster master holding a sale's slot is killed (kill -9) in the
// middle of the sale: 200 buyers for 100 units through two instances, each
// buyer subscribed to orderUpdates and trying until it gets a final answer.
// Its replica takes over (scripts/redis-cluster.sh: node timeout 2000 ms)
// and the sale goes on. Afterwards, with HMDP_SECKILL_WAIT_REPLICAS=1, every
// acknowledged order is an order row or an ended (REJECTED, told on
// orderUpdates) order: none lost. Without it, every acknowledged order Redis
// lost is ended REJECTED with rejectReason lost, shown by order(id) and sent
// on orderUpdates; how many were lost is logged. Either way no unit is sold
// twice, no buyer has two orders, and no buyer was logged out.
//
// It kills a node of the cluster, so it runs alone:
// `make test-cluster-failover` (HMDP_TEST_REDIS_FAILOVER=1 under
// scripts/redis-cluster.sh, which exports HMDP_TEST_REDIS_CLUSTER_DIR).
func TestClusterMasterKilledMidSale(t *testing.T) {
	dir := os.Getenv("HMDP_TEST_REDIS_CLUSTER_DIR")
	if dir == "" || os.Getenv("HMDP_TEST_REDIS_FAILOVER") == "" {
		t.Skip("kills a Redis Cluster master: make test-cluster-failover (HMDP_TEST_REDIS_FAILOVER=1 under scripts/redis-cluster.sh)")
	}
	if testenv.RealMySQLDSN() == "" {
		t.Skip("needs HMDP_TEST_MYSQL_DSN")
	}
	redis.SetLogger(quietRedis{}) // go-redis logs every refused dial while the master is down
	for _, backlog := range []bool{false, true} {
		for _, wait := range []int{1, 0} {
			name := fmt.Sprintf("wait-replicas-%d", wait)
			if backlog {
				name = "mysql-backlog-replica-behind/" + name
			}
			t.Run(name, func(t *testing.T) { saleThroughMasterKill(t, dir, wait, backlog) })
		}
	}
}

type quietRedis struct{}

func (quietRedis) Printf(context.Context, string, ...any) {}

const orderRejectQuery = `query($id: ID!) { order(id: $id) { id status rejectReason } }`

// saleThroughMasterKill is one subtest. With backlog, MySQL is unreachable
// from the start of the sale until the new master is in place (the orders
// wait in Redis, as behind a slow MySQL), and the master's link to its
// replica is cut 150 ms before the kill (the replica behind, as across a
// slow network): what the master acknowledged in those 150 ms and no
// consumer persisted is lost with it, unless WAIT held it back.
func saleThroughMasterKill(t *testing.T, dir string, wait int, backlog bool) {
	t.Helper()
	ctx := context.Background()
	cfg := testConfig(t, testenv.Real)
	cfg.SeckillWaitReplicas, cfg.SeckillWaitTimeout = wait, 500*time.Millisecond
	var proxy *testenv.Proxy
	if backlog {
		proxy = mysqlThroughProxy(t, &cfg)
	}
	a := startSaleServer(t, testenv.Real, cfg, fastSeckill)
	cfg.Seed = false
	b := startSaleServer(t, testenv.Real, cfg, fastSeckill)
	servers := []*testServer{a, b}
	cc, ok := a.redis().(*redis.ClusterClient)
	if !ok {
		t.Fatal("HMDP_TEST_REDIS_ADDR is not a cluster")
	}
	waitClusterHealthy(t, cc)

	const stock, buyers = 100, 200
	v := a.createSale(stock, time.Now().Add(-time.Second), time.Now().Add(time.Hour))
	tokens := a.users(buyers)
	events := subscribeOrderUpdates(t, servers, tokens)

	master, err := cc.MasterForKey(ctx, seckillKeys(a, v).Buyers)
	if err != nil {
		t.Fatal(err)
	}
	slot, err := cc.ClusterKeySlot(ctx, seckillKeys(a, v).Buyers).Result()
	if err != nil {
		t.Fatal(err)
	}
	addr := master.Options().Addr
	_, port, _ := net.SplitHostPort(addr)
	node := filepath.Join(dir, port)
	var replica *redis.Client // the sale's master's
	if backlog {
		replica = redis.NewClient(&redis.Options{Addr: replicaFor(t, cc, slot)})
		defer replica.Close()
		proxy.Stop()
	}

	// Each buyer tries until it gets a final answer; a failed attempt (the
	// master down, UNAVAILABLE while not confirmed) is tried again.
	var (
		mu       sync.Mutex
		acked    = map[string]int{} // order id -> buyer
		answers  = map[string]int{}
		killed   bool
		atKill   int // acknowledged when the master died
		failover = make(chan failoverResult, 1)
		kill     sync.Once
		next     atomic.Int64
		wg       sync.WaitGroup
	)
	// Paced (5 buyers at a time, each then waiting 30 ms), so that the sale
	// is still on when the master dies, MySQL down or not.
	for range 5 {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < buyers; i = int(next.Add(1) - 1) {
				time.Sleep(30 * time.Millisecond)
				deadline := time.Now().Add(60 * time.Second)
				for time.Now().Before(deadline) {
					r := servers[i%2].do(tokens[i], seckillMutation, map[string]any{"v": strconv.FormatInt(v, 10)})
					code := r.code()
					mu.Lock()
					if code == "" {
						answers["ok"]++
					} else {
						answers[code]++
					}
					if code == "" {
						var d struct{ SeckillVoucher struct{ OrderID string } }
						_ = json.Unmarshal(r.Data, &d)
						acked[d.SeckillVoucher.OrderID] = i
						if len(acked) == 20 {
							kill.Do(func() {
								killed = true
								go func() { // replica is nil without backlog: not cut off
									failover <- killMaster(cc, master, replica, node, addr, slot, func() {
										mu.Lock()
										atKill = len(acked)
										mu.Unlock()
									})
								}()
							})
						}
					}
					mu.Unlock()
					if code == "" || code == "OUT_OF_STOCK" || code == "ALREADY_ORDERED" {
						break
					}
					time.Sleep(200 * time.Millisecond)
				}
			}
		})
	}
	wg.Wait()
	if !killed {
		t.Fatalf("the sale ended before the kill: %v", answers)
	}
	fo := <-failover
	if fo.err != nil {
		t.Fatal(fo.err)
	}
	took := fo.took
	if atKill >= stock {
		t.Fatalf("the sale was over before the master died (%d acknowledged): %v", atKill, answers)
	}
	if backlog {
		if err := replica.ConfigSet(ctx, "masterauth", "").Err(); err != nil {
			t.Fatal(err)
		}
		var n int
		if err := a.app.db.SQL.QueryRowContext(ctx, "SELECT COUNT(*) FROM tb_voucher_order WHERE voucher_id = ?", v).Scan(&n); err == nil {
			t.Fatalf("MySQL answered through the stopped proxy (%d orders)", n)
		}
		proxy.Start(t)
	}

	// Every acknowledged order is persisted or ended: the consumers drain
	// the stream, and without WAIT the instances end what Redis lost.
	rows := map[string]int64{} // order id -> user
	users := map[int64]bool{}
	var lost, rejected []string
	look := func() {
		clear(rows)
		clear(users)
		r, err := a.app.db.SQL.QueryContext(ctx, "SELECT id, user_id FROM tb_voucher_order WHERE voucher_id = ?", v)
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		for r.Next() {
			var id, user int64
			if err := r.Scan(&id, &user); err != nil {
				t.Fatal(err)
			}
			if users[user] {
				t.Fatalf("user %d has two orders", user)
			}
			rows[strconv.FormatInt(id, 10)], users[user] = user, true
		}
		lost, rejected = lost[:0], rejected[:0]
		for id, i := range acked {
			if _, ok := rows[id]; ok {
				continue
			}
			var o struct {
				Order *struct{ Status, RejectReason string }
			}
			servers[i%2].ok(tokens[i], orderRejectQuery, map[string]any{"id": id}, &o) //nolint:contextcheck // the request carries the test's context
			if o.Order == nil || o.Order.Status != "REJECTED" {
				lost = append(lost, id)
				continue
			}
			rejected = append(rejected, id)
		}
	}
	deadline := time.Now().Add(60 * time.Second)
	for look(); len(lost) > 0; look() {
		if time.Now().After(deadline) {
			t.Fatalf("%d acknowledged orders neither in MySQL nor ended (order(id) null or PENDING): %v", len(lost), lost)
		}
		time.Sleep(250 * time.Millisecond)
	}
	for _, id := range rejected {
		testenv.Eventually(t, 15*time.Second, "REJECTED of order "+id+" on its buyer's orderUpdates", func() bool {
			return events.saw(id, "REJECTED")
		})
	}
	if len(rows) > stock {
		t.Errorf("%d orders for %d units", len(rows), stock)
	}
	var mysqlStock int
	if err := a.app.db.SQL.QueryRowContext(ctx, "SELECT stock FROM tb_seckill_voucher WHERE voucher_id = ?", v).Scan(&mysqlStock); err != nil {
		t.Fatal(err)
	}
	if mysqlStock != stock-len(rows) {
		t.Errorf("MySQL stock %d with %d orders of %d units", mysqlStock, len(rows), stock)
	}
	if wait > 0 && len(rejected) > 0 {
		// With WAIT only MySQL may refuse an acknowledged order, never for
		// having been lost.
		for _, id := range rejected {
			var o struct {
				Order *struct{ RejectReason string }
			}
			i := acked[id]
			servers[i%2].ok(tokens[i], orderRejectQuery, map[string]any{"id": id}, &o)
			if o.Order != nil && o.Order.RejectReason == "lost" {
				t.Errorf("order %s acknowledged with WAIT was lost", id)
			}
		}
	}
	// Sessions live in Redis too: the replica kept them.
	for i, tok := range tokens {
		if r := servers[i%2].do(tok, meQuery, nil); r.code() != "" {
			t.Errorf("buyer %d logged out by the failover: %s", i, r.code())
			break
		}
	}
	t.Logf("backlog=%v wait-replicas=%d: new master %v after the kill, %d acknowledged before it; %d acknowledged in all, %d orders, %d acknowledged orders lost and ended REJECTED (lost); answers %v",
		backlog, wait, took.Round(time.Millisecond), atKill, len(acked), len(rows), len(rejected), answers)
	fmt.Printf("CLUSTER FAILOVER backlog=%v wait-replicas=%d acked=%d orders=%d lost_and_ended=%d failover=%v\n",
		backlog, wait, len(acked), len(rows), len(rejected), took.Round(time.Millisecond))
}

// waitClusterHealthy waits until every master says cluster_state:ok and
// has a replica in sync (the previous subtest's restarted node caught up).
func waitClusterHealthy(t *testing.T, cc *redis.ClusterClient) {
	t.Helper()
	testenv.Eventually(t, 60*time.Second, "cluster ok, every master with a replica in sync", func() bool {
		healthy := true
		err := cc.ForEachMaster(context.Background(), func(ctx context.Context, c *redis.Client) error {
			info, err := c.ClusterInfo(ctx).Result()
			if err != nil || !strings.Contains(info, "cluster_state:ok") {
				healthy = false
				return nil
			}
			repl, err := c.Info(ctx, "replication").Result()
			if err != nil || !strings.Contains(repl, "connected_slaves:1") || !strings.Contains(repl, "state=online") {
				healthy = false
			}
			return nil
		})
		return err == nil && healthy
	})
}

// killMaster kills the master at addr (kill -9 of its process, whose
// directory is node), first cutting its replica off for 150 ms when replica
// is not nil: a wrong masterauth keeps the replica from reconnecting (the
// master has no password), so it is behind by what the master took
// meanwhile. before runs just before the kill. As an orchestrator would,
// the dead node comes back (empty) once its replica has taken over, and
// becomes the new master's replica.
func killMaster(cc *redis.ClusterClient, master, replica *redis.Client, node, addr string, slot int64, before func()) failoverResult {
	ctx := context.Background()
	if replica != nil {
		if err := replica.ConfigSet(ctx, "masterauth", "not-the-password").Err(); err != nil {
			return failoverResult{err: err}
		}
		if err := master.ClientKillByFilter(ctx, "TYPE", "replica").Err(); err != nil {
			return failoverResult{err: err}
		}
		time.Sleep(150 * time.Millisecond)
	}
	before()
	if err := killNode(node); err != nil {
		return failoverResult{err: err}
	}
	return failOver(cc, node, addr, slot, time.Now())
}

// replicaFor is the address of the replica of slot's master.
func replicaFor(t *testing.T, cc *redis.ClusterClient, slot int64) string {
	t.Helper()
	shards, err := cc.ClusterShards(context.Background()).Result()
	if err != nil {
		t.Fatal(err)
	}
	for _, sh := range shards {
		owns := false
		for _, r := range sh.Slots {
			owns = owns || r.Start <= slot && slot <= r.End
		}
		for _, n := range sh.Nodes {
			if owns && n.Role == "replica" && n.Health == "online" {
				return net.JoinHostPort(n.IP, strconv.FormatInt(n.Port, 10))
			}
		}
	}
	t.Fatalf("no replica online for slot %d", slot)
	return ""
}

// killNode kill -9s the node whose directory (scripts/redis-cluster.sh) is dir.
func killNode(dir string) error {
	raw, err := os.ReadFile(filepath.Join(dir, "pid"))
	if err != nil {
		return err
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(raw)))
	if err != nil {
		return err
	}
	return syscall.Kill(pid, syscall.SIGKILL)
}

type failoverResult struct {
	took time.Duration // from the kill to a new master for the slot
	err  error
}

// failOver waits until a surviving node names another master than addr for
// slot, then starts the killed node again with its command line (empty: no
// persistence) and waits until it is the new master's replica, in sync.
func failOver(cc *redis.ClusterClient, dir, addr string, slot int64, killedAt time.Time) failoverResult {
	var took time.Duration
	for took == 0 {
		if time.Since(killedAt) > time.Minute {
			return failoverResult{err: fmt.Errorf("no replica promoted in place of %s within a minute", addr)}
		}
		var mu sync.Mutex
		_ = cc.ForEachShard(context.Background(), func(ctx context.Context, c *redis.Client) error {
			if c.Options().Addr == addr {
				return nil
			}
			shards, err := c.ClusterShards(ctx).Result()
			if err != nil {
				return nil //nolint:nilerr // a node that does not answer is skipped: another may
			}
			for _, sh := range shards {
				owns := false
				for _, r := range sh.Slots {
					owns = owns || r.Start <= slot && slot <= r.End
				}
				for _, n := range sh.Nodes {
					if owns && n.Role == "master" && n.Health == "online" && net.JoinHostPort(n.IP, strconv.FormatInt(n.Port, 10)) != addr {
						mu.Lock()
						if took == 0 {
							took = time.Since(killedAt)
						}
						mu.Unlock()
					}
				}
			}
			return nil
		})
		time.Sleep(20 * time.Millisecond)
	}
	raw, err := os.ReadFile(filepath.Join(dir, "args"))
	if err != nil {
		return failoverResult{err: err}
	}
	args := strings.Split(strings.TrimSuffix(string(raw), "\n"), "\n")
	cmd := exec.Command(args[0], args[1:]...) //nolint:noctx // outlives the test: the cluster script stops it by its pid file
	if err := cmd.Start(); err != nil {
		return failoverResult{err: err}
	}
	pid := cmd.Process.Pid
	// Not waited for (a goroutine waiting would outlive the test): the
	// script's cleanup stops it by its pid file.
	_ = cmd.Process.Release()
	if err := os.WriteFile(filepath.Join(dir, "pid"), []byte(strconv.Itoa(pid)+"\n"), 0o600); err != nil {
		return failoverResult{err: err}
	}
	c := redis.NewClient(&redis.Options{Addr: addr})
	defer c.Close()
	for start := time.Now(); ; time.Sleep(50 * time.Millisecond) {
		info, err := c.Info(context.Background(), "replication").Result()
		if err == nil && strings.Contains(info, "role:slave") && strings.Contains(info, "master_link_status:up") {
			return failoverResult{took: took}
		}
		if time.Since(start) > time.Minute {
			return failoverResult{err: fmt.Errorf("%s did not come back as a replica in sync within a minute", addr)}
		}
	}
}

// orderEvents are the orderUpdates events the buyers' subscriptions heard.
type orderEvents struct {
	mu   sync.Mutex
	seen map[string]map[string]bool // order id -> statuses
}

func (e *orderEvents) saw(id, status string) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.seen[id][status]
}

// subscribeOrderUpdates opens one orderUpdates subscription per token,
// spread over the servers, and records what they hear until the test ends.
func subscribeOrderUpdates(t *testing.T, servers []*testServer, tokens []string) *orderEvents {
	t.Helper()
	ev := &orderEvents{seen: map[string]map[string]bool{}}
	for i, tok := range tokens {
		c, err := dialWS(t, servers[i%len(servers)].URL, "graphql-transport-ws", map[string]any{"authorization": "Bearer " + tok}, nil)
		if err != nil {
			t.Fatal(err)
		}
		c.subscribe("o", orderUpdatesSubscription, nil)
		_ = c.conn.SetReadDeadline(time.Time{}) // dialWS's read deadline: this reader waits for the test's end
		go func() {
			for {
				var m wsMessage
				if err := c.conn.ReadJSON(&m); err != nil {
					return // closed at the end of the test
				}
				switch m.Type {
				case "ping":
					_ = c.conn.WriteJSON(wsMessage{Type: "pong"})
				case "next":
					var r struct {
						Data struct{ OrderUpdates orderEvent }
					}
					if json.Unmarshal(m.Payload, &r) == nil && r.Data.OrderUpdates.ID != "" {
						ev.mu.Lock()
						if ev.seen[r.Data.OrderUpdates.ID] == nil {
							ev.seen[r.Data.OrderUpdates.ID] = map[string]bool{}
						}
						ev.seen[r.Data.OrderUpdates.ID][r.Data.OrderUpdates.Status] = true
						ev.mu.Unlock()
					}
				}
			}
		}()
	}
	for _, ts := range servers {
		ts.waitSubscriptions("orderUpdates", float64(len(tokens)/len(servers)))
	}
	return ev
}
