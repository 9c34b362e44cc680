package seckill

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/hmdp/hmdp/internal/apperr"
	"github.com/hmdp/hmdp/internal/testenv"
)

// On a Redis Cluster, WaitReplicas waits for the replica of the master that
// holds the sale's slot: with that replica stopped (SIGSTOP) an admission is
// UNAVAILABLE; with another master's replica stopped it is confirmed, and
// the sale's replica has it at once. Runs under scripts/redis-cluster.sh
// (make test-cluster), which says where each node's pid is.
func TestWaitReplicasOnCluster(t *testing.T) {
	dir := os.Getenv("HMDP_TEST_REDIS_CLUSTER_DIR")
	if dir == "" || !testenv.RealRedisIsCluster() {
		t.Skip("needs the Redis Cluster of scripts/redis-cluster.sh (make test-cluster)")
	}
	ctx := context.Background()
	r := testenv.NewRealRedis(t)
	db := testenv.NewSQLite(t)
	if testenv.RealMySQLDSN() != "" {
		db = testenv.NewMySQL(t)
	}
	b := testenv.Backends{Name: "cluster", DB: db, Redis: r}
	cfg := fast
	cfg.WaitReplicas, cfg.WaitTimeout = 1, 300*time.Millisecond
	f := newService(t, b, cfg)
	v := f.sale(t, 1000, time.Now().Add(-time.Minute), time.Now().Add(time.Hour))
	k := KeysOf(r.Prefix, v)

	cc := r.Client.(*redis.ClusterClient)
	slot, err := cc.ClusterKeySlot(ctx, k.Buyers).Result()
	if err != nil {
		t.Fatal(err)
	}
	shards, err := cc.ClusterShards(ctx).Result()
	if err != nil {
		t.Fatal(err)
	}
	var own, other string // the sale's replica, another master's
	for _, sh := range shards {
		if len(sh.Slots) == 0 {
			continue
		}
		replica := ""
		for _, n := range sh.Nodes {
			if n.Role == "replica" && n.Health == "online" {
				replica = net.JoinHostPort(n.IP, strconv.FormatInt(n.Port, 10))
			}
		}
		if replica == "" {
			t.Fatalf("a shard without a replica online: %+v", sh)
		}
		owns := false
		for _, r := range sh.Slots {
			owns = owns || r.Start <= slot && slot <= r.End
		}
		if owns {
			own = replica
		} else {
			other = replica
		}
	}
	if own == "" || other == "" || own == other {
		t.Fatalf("replicas: the sale's %q, another %q", own, other)
	}
	ownReplica := redis.NewClient(&redis.Options{Addr: own, OnConnect: func(ctx context.Context, c *redis.Conn) error {
		return c.ReadOnly(ctx).Err()
	}})
	defer ownReplica.Close()

	stop := func(addr string) (cont func()) {
		_, port, _ := net.SplitHostPort(addr)
		raw, err := os.ReadFile(filepath.Join(dir, port, "pid"))
		if err != nil {
			t.Fatal(err)
		}
		pid, err := strconv.Atoi(strings.TrimSpace(string(raw)))
		if err != nil {
			t.Fatal(err)
		}
		if err := syscall.Kill(pid, syscall.SIGSTOP); err != nil {
			t.Fatal(err)
		}
		var once sync.Once
		cont = func() { once.Do(func() { _ = syscall.Kill(pid, syscall.SIGCONT) }) }
		t.Cleanup(cont)
		return cont
	}

	// Scripts loaded first: go-redis loads a script on every node of a
	// Cluster, replicas included, so a stopped replica would hold that up.
	if _, err := f.s.Seckill(ctx, 50, v); err != nil {
		t.Fatal(err)
	}
	cont := stop(other)
	id, err := f.s.Seckill(ctx, 1, v)
	cont()
	if err != nil {
		t.Fatalf("with another master's replica stopped: %v", err)
	}
	if got, err := ownReplica.HGet(ctx, k.Buyers, "1").Int64(); err != nil || got != id {
		t.Fatalf("the sale's replica holds %d (%v), want the acknowledged order %d", got, err, id)
	}

	cont = stop(own)
	_, err = f.s.Seckill(ctx, 2, v)
	cont()
	wantCode(t, err, apperr.Unavailable)

	// Concurrent admissions share rounds and are all confirmed.
	var wg sync.WaitGroup
	for u := int64(100); u < 300; u++ {
		wg.Go(func() {
			id, err := f.s.Seckill(ctx, u, v)
			if err != nil {
				t.Error(err)
				return
			}
			if got, err := ownReplica.HGet(ctx, k.Buyers, strconv.FormatInt(u, 10)).Int64(); err != nil || got != id {
				t.Errorf("user %d: the sale's replica holds %d (%v), want %d", u, got, err, id)
			}
		})
	}
	wg.Wait()
}
