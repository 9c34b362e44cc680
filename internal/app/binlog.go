package app

import (
	"context"
	"fmt"
	"time"

	"github.com/hmdp/hmdp/internal/binlog"
	"github.com/hmdp/hmdp/internal/lock"
)

// binlogLease bounds how long a dead tailer holds the binlog up: another
// instance takes over once its lease runs out.
const binlogLease, binlogRenew = 5 * time.Second, 1500 * time.Millisecond

// startBinlog tails the primary's binlog (HMDP_BINLOG) so changes made
// outside the app (an operator's UPDATE) invalidate the caches too. Without
// a usable binlog, "auto" logs why and keeps the outbox path alone.
func (a *App) startBinlog(ctx context.Context) error {
	if a.cfg.Binlog == "off" {
		return nil
	}
	if a.cfg.MySQLDSN == "" {
		a.log.Info("binlog: the embedded database has none; caches are invalidated by the app's own writes (outbox)")
		return nil
	}
	a.binlogLocks = lock.New(a.redis.Client, a.cfg.RedisPrefix, lock.WithWatchdog(binlogLease, binlogRenew), lock.WithLogger(a.log))
	t, err := binlog.New(binlog.Config{
		DSN: a.cfg.MySQLDSN, Redis: a.redis.Client, Prefix: a.cfg.RedisPrefix, Locker: a.binlogLocks,
		Tables: map[string]binlog.Handler{
			"tb_shop":      a.again(a.shops.ShopsChanged),
			"tb_shop_type": a.again(func(ctx context.Context, _ []int64) error { return a.shops.InvalidateTypes(ctx) }),
		},
		OnGap: a.shops.InvalidateAll, Registerer: a.registry, Log: a.log,
	})
	if err != nil {
		return fmt.Errorf("HMDP_BINLOG: %w", err)
	}
	cctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if err := t.Check(cctx); err != nil {
		t.Close()
		if a.cfg.Binlog == "on" {
			return fmt.Errorf("HMDP_BINLOG=on: %w", err)
		}
		a.log.Info("binlog: not tailing; caches are invalidated by the app's own writes (outbox)", "why", err.Error())
		return nil
	}
	a.binlog = t
	t.Start() //nolint:contextcheck // tails in the background until Close
	return nil
}

// again runs h now and, with read replicas, once more when the replicas have
// caught up (their measured lag + 1 s): a cache miss served by a lagging
// replica between the change and its arrival there would otherwise put the
// old row back in the cache until its TTL.
func (a *App) again(h binlog.Handler) binlog.Handler {
	if len(a.cfg.ReplicaDSNs) == 0 {
		return h
	}
	return func(ctx context.Context, ids []int64) error {
		if err := h(ctx, ids); err != nil {
			return err
		}
		//nolint:contextcheck // runs after the handler's context is gone, with its own timeout
		time.AfterFunc(a.db.ReplicaLag()+time.Second, func() {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			if err := h(ctx, ids); err != nil {
				a.log.Warn("binlog: second invalidation after the replicas' lag", "ids", ids, "err", err)
			}
		})
		return nil
	}
}
