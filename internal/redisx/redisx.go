// Package redisx connects to Redis: a server or a Redis Cluster
// (internal/embedded starts the in-process one of `make run`).
package redisx

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
)

// Conn is an open Redis connection.
type Conn struct {
	Client redis.UniversalClient
	// Describe is a one-line description for the start-up log.
	Describe string
	// Breaker fails calls fast while Redis is unreachable (nil for the
	// embedded Redis, which is in the process).
	Breaker *Breaker
	stop    func()
}

// Wrap makes a Conn of an open client; stop, when not nil, runs after the
// client closes (internal/embedded stops its server there).
func Wrap(c redis.UniversalClient, describe string, stop func()) *Conn {
	return &Conn{Client: c, Describe: describe, stop: stop}
}

// Close closes the client and stops the embedded server.
func (c *Conn) Close() error {
	if c.Breaker != nil {
		c.Breaker.Close()
	}
	err := c.Client.Close()
	if c.stop != nil {
		c.stop()
	}
	return err
}

// PoolSize is the most connections a client keeps (per node on a Cluster).
// go-redis's default, 10 per CPU, is meant for short commands; the flash-sale
// consumers (internal/seckill) add their own: up to seckill.ConnBound of the
// default MaxHot (34: 16 hot sales blocked in XREADGROUP, 16 handlers, the
// poller of all other sales and the discovery), however many sales they
// consume, so requests never queue behind them. Connections are opened only
// when needed, so the headroom costs nothing until it is used.
func PoolSize() int { return 10*runtime.GOMAXPROCS(0) + 64 }

// Open connects to addrs (one address: a single server; several: a Redis
// Cluster) and checks that it answers.
func Open(ctx context.Context, addrs []string) (*Conn, error) {
	if len(addrs) == 0 {
		return nil, fmt.Errorf("no address")
	}
	opts := &redis.UniversalOptions{
		Addrs: addrs,
		// go-redis ignores context deadlines unless told otherwise.
		ContextTimeoutEnabled: true,
		DialTimeout:           CallTimeout,
		ReadTimeout:           CallTimeout,
		WriteTimeout:          CallTimeout,
		IsClusterMode:         len(addrs) > 1,
		PoolSize:              PoolSize(),
	}
	c := redis.NewUniversalClient(opts)
	pctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if err := c.Ping(pctx).Err(); err != nil {
		_ = c.Close()
		return nil, fmt.Errorf("cannot reach %s: %w", strings.Join(addrs, ","), err)
	}
	kind := "redis"
	if len(addrs) > 1 {
		kind = "redis cluster"
	}
	b := NewBreaker(c, 0)
	c.AddHook(b)
	return &Conn{Client: c, Describe: kind + " " + strings.Join(addrs, ","), Breaker: b}, nil
}

// OpenSentinel connects to the master the sentinels know as master, through
// go-redis's failover client: it asks the sentinels for the master's address,
// follows their +switch-master announcements and reconnects after a failover,
// so every feature (Lua, streams, pub/sub, locks) runs unchanged on top.
func OpenSentinel(ctx context.Context, sentinels []string, master string) (*Conn, error) {
	if len(sentinels) == 0 || master == "" {
		return nil, fmt.Errorf("need sentinel addresses and a master name")
	}
	c := redis.NewFailoverClient(&redis.FailoverOptions{
		MasterName:            master,
		SentinelAddrs:         sentinels,
		ContextTimeoutEnabled: true,
		DialTimeout:           CallTimeout,
		ReadTimeout:           CallTimeout,
		WriteTimeout:          CallTimeout,
		PoolSize:              PoolSize(),
	})
	pctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if err := c.Ping(pctx).Err(); err != nil {
		_ = c.Close()
		return nil, fmt.Errorf("cannot reach master %q through sentinels %s: %w", master, strings.Join(sentinels, ","), err)
	}
	stop := watchSwitchMaster(context.WithoutCancel(ctx), sentinels, master)
	b := NewBreaker(c, 0)
	c.AddHook(b)
	return &Conn{Client: c, Describe: "redis master " + master + " via sentinels " + strings.Join(sentinels, ","), Breaker: b, stop: stop}, nil
}

// watchSwitchMaster listens for the sentinels' +switch-master and then
// disconnects the Pub/Sub clients of the old master. go-redis moves pooled
// connections to the new master but leaves a PubSub where it is, and
// Sentinel, demoting the old master, closes only its normal clients: the
// subscribers would go on listening to a server nobody publishes to. Once
// cut off they resubscribe through the failover client, on the new master.
// It returns the function that stops the watch.
func watchSwitchMaster(ctx context.Context, sentinels []string, master string) func() {
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	var mu sync.Mutex
	var cur *redis.PubSub // closed by stop: a blocked receive ignores ctx
	go func() {
		defer close(done)
		for i := 0; ctx.Err() == nil; i++ {
			// Any sentinel will do; on an error, the next one.
			sc := redis.NewSentinelClient(&redis.Options{Addr: sentinels[i%len(sentinels)], DialTimeout: 3 * time.Second})
			ps := sc.Subscribe(ctx, "+switch-master")
			mu.Lock()
			cur = ps
			mu.Unlock()
			if ctx.Err() != nil {
				_ = ps.Close()
			}
			for {
				msg, err := ps.ReceiveMessage(ctx)
				if err != nil {
					break
				}
				// "<name> <old ip> <old port> <new ip> <new port>"
				f := strings.Fields(msg.Payload)
				if len(f) == 5 && f[0] == master {
					kickSubscribers(ctx, f[1]+":"+f[2])
				}
			}
			_ = ps.Close()
			_ = sc.Close()
			select {
			case <-ctx.Done():
			case <-time.After(500 * time.Millisecond):
			}
		}
	}()
	return func() {
		cancel()
		mu.Lock()
		if cur != nil {
			_ = cur.Close()
		}
		mu.Unlock()
		<-done
	}
}

func kickSubscribers(ctx context.Context, addr string) {
	c := redis.NewClient(&redis.Options{Addr: addr, DialTimeout: time.Second, ReadTimeout: time.Second, MaxRetries: -1})
	defer func() { _ = c.Close() }()
	// The old master may be dead (kill -9): its subscribers then see the
	// connection fail on their own.
	_ = c.ClientKillByFilter(ctx, "TYPE", "pubsub").Err()
}
