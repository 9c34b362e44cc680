package app

import (
	"context"
	"encoding/json"
	"net"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/hmdp/hmdp/internal/testenv"
)

// Two instances reach Redis through Sentinel (HMDP_REDIS_SENTINELS): a login
// (Lua), a flash-sale purchase (Lua, stream, consumers) and its status events
// on the other instance (pub/sub) work; after SENTINEL FAILOVER the same
// websocket subscription hears a new purchase's events, without a restart.
// Runs under `make test-sentinel` (scripts/redis-sentinel.sh).
func TestAppThroughSentinel(t *testing.T) {
	t.Parallel()
	sentinels, master := os.Getenv("HMDP_TEST_REDIS_SENTINELS"), os.Getenv("HMDP_TEST_REDIS_MASTER")
	if sentinels == "" || master == "" {
		t.Skip("HMDP_TEST_REDIS_SENTINELS / HMDP_TEST_REDIS_MASTER not set (make test-sentinel)")
	}
	ctx := context.Background()
	sc := redis.NewSentinelClient(&redis.Options{Addr: strings.Split(sentinels, ",")[0]})
	defer func() { _ = sc.Close() }()
	old := sentinelMaster(t, sc, master, true)

	cfg := testConfig(t, "embedded") // one SQLite file for both instances
	if testenv.RealMySQLDSN() != "" {
		cfg.MySQLDSN = testenv.NewMySQLDatabase(t)
	}
	cfg.RedisSentinels, cfg.RedisMaster = strings.Split(sentinels, ","), master
	cfg.RedisPrefix = "t" + testenv.RandomHex(4) + ":"
	a := startSaleServer(t, "sentinel", cfg, fastSeckill)
	b := startSaleServer(t, "sentinel", cfg, fastSeckill)
	buyer := a.login("13800000081")
	onB, err := dialWS(t, b.URL, "graphql-transport-ws", map[string]any{"authorization": "Bearer " + buyer}, nil)
	if err != nil {
		t.Fatal(err)
	}
	onB.subscribe("b", orderUpdatesSubscription, nil)
	b.waitSubscriptions("orderUpdates", 1)

	buyAndHear := func() {
		t.Helper()
		v := a.createSale(5, time.Now().Add(-time.Minute), time.Now().Add(time.Hour))
		id := a.seckill(buyer, v)
		for {
			if e := onB.nextOrderEvent("b"); e.ID == id {
				return
			}
		}
	}
	buyAndHear()

	if err := sc.Failover(ctx, master).Err(); err != nil {
		t.Fatal(err)
	}
	testenv.Eventually(t, 30*time.Second, "a new master", func() bool { return sentinelMaster(t, sc, master, false) != old })
	// The instances' clients and the subscription move over on their own;
	// give the subscription's reconnect a moment (pub/sub does not replay).
	time.Sleep(3 * time.Second)
	buyAndHear()
	var me json.RawMessage
	a.ok(buyer, meQuery, nil, &me) // the session (in Redis) survived too
}

// sentinelMaster returns the master's address; with healthy it first waits
// until the master has an online replica.
func sentinelMaster(t *testing.T, sc *redis.SentinelClient, master string, healthy bool) string {
	t.Helper()
	ctx := context.Background()
	var addr string
	testenv.Eventually(t, 60*time.Second, "the sentinels' master", func() bool {
		a, err := sc.GetMasterAddrByName(ctx, master).Result()
		if err != nil {
			return false
		}
		addr = net.JoinHostPort(a[0], a[1])
		if !healthy {
			return true
		}
		c := redis.NewClient(&redis.Options{Addr: addr})
		defer func() { _ = c.Close() }()
		info, err := c.Info(ctx, "replication").Result()
		return err == nil && strings.Contains(info, "role:master") && regexp.MustCompile(`slave0:.*state=online`).MatchString(info)
	})
	return addr
}
