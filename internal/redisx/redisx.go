// Package redisx connects to Redis: a real server, a Redis Cluster, or an
// embedded in-process Redis for running without any server.
package redisx

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"
)

// Conn is an open Redis connection.
type Conn struct {
	Client redis.UniversalClient
	// Describe is a one-line description for the start-up log.
	Describe string
	// Embedded is the in-process server, nil for a real one.
	Embedded *miniredis.Miniredis
	stop     func()
}

// Close closes the client and stops the embedded server.
func (c *Conn) Close() error {
	err := c.Client.Close()
	if c.stop != nil {
		c.stop()
	}
	return err
}

// Open connects to addrs (one address: a single server; several: a Redis
// Cluster) and checks that it answers. No address starts an embedded Redis.
func Open(ctx context.Context, addrs []string) (*Conn, error) {
	if len(addrs) == 0 {
		return openEmbedded()
	}
	opts := &redis.UniversalOptions{
		Addrs: addrs,
		// go-redis ignores context deadlines unless told otherwise.
		ContextTimeoutEnabled: true,
		DialTimeout:           3 * time.Second,
		ReadTimeout:           3 * time.Second,
		WriteTimeout:          3 * time.Second,
		IsClusterMode:         len(addrs) > 1,
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
	return &Conn{Client: c, Describe: kind + " " + strings.Join(addrs, ",")}, nil
}

// openEmbedded starts miniredis on a loopback port. miniredis only expires keys
// when told that time passed, so a ticker moves its clock with the wall clock.
func openEmbedded() (*Conn, error) {
	m := miniredis.NewMiniRedis()
	if err := m.StartAddr("127.0.0.1:0"); err != nil {
		return nil, fmt.Errorf("start embedded redis: %w", err)
	}
	c := redis.NewClient(&redis.Options{Addr: m.Addr(), ContextTimeoutEnabled: true})
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() { advanceClock(m, done) })
	stop := func() {
		close(done)
		wg.Wait()
		m.Close()
	}
	return &Conn{Client: c, Embedded: m, Describe: "embedded redis " + m.Addr(), stop: stop}, nil
}

func advanceClock(m *miniredis.Miniredis, done <-chan struct{}) {
	t := time.NewTicker(50 * time.Millisecond)
	defer t.Stop()
	last := time.Now()
	for {
		select {
		case <-done:
			return
		case now := <-t.C:
			m.SetTime(now)
			m.FastForward(now.Sub(last))
			last = now
		}
	}
}
