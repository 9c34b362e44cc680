package rediscache

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/redis/go-redis/v9"
	"golang.org/x/sync/singleflight"

	"github.com/hmdp/hmdp/internal/lock"
	"github.com/hmdp/hmdp/internal/nearcache"
)

// Strategy is the defence against breakdown (击穿) of a hot key.
type Strategy int

const (
	// Mutex means: on a miss one loader runs across all instances; the others wait
	// for it and re-read. Readers never see stale data.
	Mutex Strategy = iota
	// LogicalExpiry means: the value carries its own expiry; an expired value is
	// served at once while one background rebuild runs. Readers never wait
	// (once the key has been loaded or preloaded).
	LogicalExpiry
)

// LoadFunc reads one row from the source of truth; found=false means it does
// not exist (and a null marker is cached).
type LoadFunc[K comparable, V any] func(ctx context.Context, id K) (v V, found bool, err error)

// Config configures a Cache. Zero values take the defaults.
type Config struct {
	// Name is the cache label in metrics and part of every key ("shop").
	Name   string
	Prefix string // the configured Redis prefix ("hmdp:")
	// TTL of a cached value (default 30 min); with LogicalExpiry, the logical
	// lifetime, and the key itself lives TTL+MaxStale.
	TTL time.Duration
	// NullTTL of a null marker (default 2 min).
	NullTTL time.Duration
	// Jitter is the fraction every TTL is spread by (default 0.1 = ±10%;
	// negative turns it off).
	Jitter   float64
	Strategy Strategy
	// MaxStale is how long past its logical expiry an unread value stays in
	// Redis (LogicalExpiry only, default 1 h).
	MaxStale time.Duration
	// NearTTL turns the in-process near cache on (0 = off; 1 s is a good value).
	NearTTL time.Duration
	// NearMax bounds the near cache's entries (default 10000).
	NearMax int
	// LockWait is how long a reader waits for another instance's loader
	// before reading the database itself (default 3 s).
	LockWait time.Duration
	// LockTTL bounds a loader's hold on the rebuild lock (default 10 s).
	LockTTL time.Duration
	// Bloom, when set, rejects ids it knows cannot exist.
	Bloom *Bloom
	// Locker takes the cross-instance rebuild lock (required).
	Locker     *lock.Locker
	Registerer prometheus.Registerer
	Log        *slog.Logger
	// Now is the clock of logical expiry and the near cache (default
	// time.Now). It stays this instance's clock, unlike the rate limiter's
	// and the flash sale's, which Lua scripts take from Redis: the near cache
	// is this instance's own, and a logical expiry decides only when a stale
	// value is refreshed (one rebuild at a time, under the rebuild lock), so
	// a skewed clock refreshes a little early or late but never admits or
	// refuses anything. Tests move it to let a value go stale at once.
	Now func() time.Time
}

// Cache is one cache-aside cache of V by id K.
type Cache[K comparable, V any] struct {
	cfg     Config
	client  redis.UniversalClient
	load    LoadFunc[K, V]
	metrics *metrics
	near    *nearcache.Cache[V]
	sf      singleflight.Group

	refreshing sync.Map // id -> struct{}: background rebuilds running here
	wg         sync.WaitGroup
}

// New returns a cache. Call Start to receive near-cache invalidations (needed
// only with NearTTL) and Close to stop.
func New[K comparable, V any](client redis.UniversalClient, cfg Config, load LoadFunc[K, V]) *Cache[K, V] {
	if cfg.TTL <= 0 {
		cfg.TTL = 30 * time.Minute
	}
	if cfg.NullTTL <= 0 {
		cfg.NullTTL = 2 * time.Minute
	}
	if cfg.Jitter == 0 {
		cfg.Jitter = 0.1
	}
	if cfg.MaxStale <= 0 {
		cfg.MaxStale = time.Hour
	}
	if cfg.NearMax <= 0 {
		cfg.NearMax = 10000
	}
	if cfg.LockWait <= 0 {
		cfg.LockWait = 3 * time.Second
	}
	if cfg.LockTTL <= 0 {
		cfg.LockTTL = 10 * time.Second
	}
	if cfg.Log == nil {
		cfg.Log = slog.Default()
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Locker == nil {
		panic("rediscache: Config.Locker is required")
	}
	c := &Cache[K, V]{cfg: cfg, client: client, load: load, metrics: newMetrics(cfg.Registerer)}
	if cfg.NearTTL > 0 {
		c.near = nearcache.New[V](cfg.NearTTL, cfg.NearMax)
	}
	return c
}

// Name is the cache's name.
func (c *Cache[K, V]) Name() string { return c.cfg.Name }

// Key is the Redis key of id.
func (c *Cache[K, V]) Key(id K) string { return c.key(idString(id)) }

func (c *Cache[K, V]) key(id string) string { return c.cfg.Prefix + "cache:" + c.cfg.Name + ":" + id }

func (c *Cache[K, V]) channel() string { return c.cfg.Prefix + "cache:" + c.cfg.Name + ":invalidate" }

func (c *Cache[K, V]) lockName(id string) string { return "cache:" + c.cfg.Name + ":" + id }

func (c *Cache[K, V]) count(result string) {
	c.metrics.requests.WithLabelValues(c.cfg.Name, result).Inc()
}

// Get returns the value of id; found is false when the row does not exist.
func (c *Cache[K, V]) Get(ctx context.Context, id K) (v V, found bool, err error) {
	sid := idString(id)
	var epoch uint64
	if c.near != nil {
		if v, found, ok := c.near.Get(sid, c.cfg.Now()); ok {
			if found {
				c.count(ResultHit)
			} else {
				c.count(ResultNullHit)
			}
			return v, found, nil
		}
		epoch = c.near.Epoch()
	}
	if c.cfg.Bloom != nil {
		maybe, err := c.cfg.Bloom.MightContain(ctx, sid)
		if err != nil {
			c.cfg.Log.Warn("bloom filter check", "cache", c.cfg.Name, "err", err)
		}
		if !maybe {
			c.count(ResultRejected)
			return v, false, nil
		}
	}
	if c.cfg.Strategy == LogicalExpiry {
		v, found, err = c.getLogical(ctx, id, sid)
	} else {
		v, found, err = c.getMutex(ctx, id, sid)
	}
	if err == nil && c.near != nil {
		c.near.Put(sid, v, found, epoch, c.cfg.Now())
	}
	return v, found, err
}

// cached is what one Redis read found.
type cached[V any] struct {
	present bool // the key exists
	found   bool // it holds a value (not a null marker)
	v       V
	exp     time.Time // logical expiry (LogicalExpiry only)
}

// envelope is the stored form under LogicalExpiry.
type envelope struct {
	Exp  int64           `json:"exp"` // unix ms
	Null bool            `json:"null,omitempty"`
	V    json.RawMessage `json:"v,omitempty"`
}

func (c *Cache[K, V]) read(ctx context.Context, sid string) (cached[V], error) {
	var r cached[V]
	raw, err := c.client.Get(ctx, c.key(sid)).Bytes()
	if errors.Is(err, redis.Nil) {
		return r, nil
	}
	if err != nil {
		return r, err
	}
	r.present = true
	if c.cfg.Strategy == LogicalExpiry {
		var e envelope
		if err := json.Unmarshal(raw, &e); err != nil {
			return cached[V]{}, nil // unreadable (an older format): treat as missing
		}
		r.exp = time.UnixMilli(e.Exp)
		if e.Null {
			return r, nil
		}
		raw = e.V
	} else if len(raw) == 0 {
		return r, nil // null marker
	}
	if err := json.Unmarshal(raw, &r.v); err != nil {
		return cached[V]{}, nil
	}
	r.found = true
	return r, nil
}

// write stores a loaded value (or a null marker) with a jittered TTL.
func (c *Cache[K, V]) write(ctx context.Context, sid string, v V, found bool) error {
	ttl := c.cfg.TTL
	if !found {
		ttl = c.cfg.NullTTL
	}
	ttl = Jitter(ttl, c.cfg.Jitter)
	var raw []byte
	if found {
		var err error
		if raw, err = json.Marshal(v); err != nil {
			return err
		}
	}
	if c.cfg.Strategy == LogicalExpiry {
		e := envelope{Exp: c.cfg.Now().Add(ttl).UnixMilli(), Null: !found, V: raw}
		var err error
		if raw, err = json.Marshal(e); err != nil {
			return err
		}
		if found {
			ttl += c.cfg.MaxStale
		}
	}
	return c.client.Set(ctx, c.key(sid), raw, ttl).Err()
}

func (c *Cache[K, V]) getMutex(ctx context.Context, id K, sid string) (V, bool, error) {
	r, err := c.read(ctx, sid)
	if err != nil {
		// Redis is an accelerator: without it, read the database (still
		// collapsed per process) and cache nothing.
		c.cfg.Log.Warn("cache read", "cache", c.cfg.Name, "err", err)
		c.count(ResultMiss)
		return c.loadShared(ctx, id, sid, false)
	}
	if r.present {
		if r.found {
			c.count(ResultHit)
		} else {
			c.count(ResultNullHit)
		}
		return r.v, r.found, nil
	}
	c.count(ResultMiss)
	return c.loadShared(ctx, id, sid, true)
}

type loaded[V any] struct {
	v     V
	found bool
}

// loadShared is the mutex rebuild: singleflight collapses this process's
// callers into one, which takes the rebuild lock, re-reads (another instance
// may have loaded meanwhile), and only then loads and writes.
func (c *Cache[K, V]) loadShared(ctx context.Context, id K, sid string, useRedis bool) (V, bool, error) {
	ch := c.sf.DoChan(sid, func() (any, error) {
		// One caller's cancellation must not fail the others.
		ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), c.cfg.LockWait+c.cfg.LockTTL)
		defer cancel()
		if !useRedis {
			return c.loadOnly(ctx, id)
		}
		return c.rebuild(ctx, id, sid, false)
	})
	select {
	case res := <-ch:
		if res.Err != nil {
			var zero V
			return zero, false, res.Err
		}
		l := res.Val.(loaded[V])
		return l.v, l.found, nil
	case <-ctx.Done():
		var zero V
		return zero, false, ctx.Err()
	}
}

func (c *Cache[K, V]) loadOnly(ctx context.Context, id K) (loaded[V], error) {
	c.metrics.loads.WithLabelValues(c.cfg.Name).Inc()
	v, found, err := c.load(ctx, id)
	return loaded[V]{v, found}, err
}

// rebuild loads id under the cross-instance lock. When the lock stays busy
// past LockWait it reads what the holder wrote, or else the database without
// writing. force reloads even when a value is present (a stale one).
func (c *Cache[K, V]) rebuild(ctx context.Context, id K, sid string, force bool) (loaded[V], error) {
	h, err := c.cfg.Locker.Simple(c.lockName(sid)).TryLock(ctx, c.cfg.LockWait, c.cfg.LockTTL)
	if err != nil {
		if r, rerr := c.read(ctx, sid); rerr == nil && r.present {
			return loaded[V]{r.v, r.found}, nil
		}
		c.cfg.Log.Warn("cache rebuild lock", "cache", c.cfg.Name, "id", sid, "err", err)
		return c.loadOnly(ctx, id)
	}
	defer func() { _ = h.Unlock(context.WithoutCancel(ctx)) }()
	if r, err := c.read(ctx, sid); err == nil && r.present && (!force || c.fresh(r)) {
		return loaded[V]{r.v, r.found}, nil // loaded by someone else meanwhile
	}
	l, err := c.loadOnly(ctx, id)
	if err != nil {
		return l, err
	}
	if err := c.write(ctx, sid, l.v, l.found); err != nil {
		c.cfg.Log.Warn("cache write", "cache", c.cfg.Name, "id", sid, "err", err)
	}
	return l, nil
}

func (c *Cache[K, V]) fresh(r cached[V]) bool {
	return c.cfg.Strategy != LogicalExpiry || c.cfg.Now().Before(r.exp)
}

func (c *Cache[K, V]) getLogical(ctx context.Context, id K, sid string) (V, bool, error) {
	r, err := c.read(ctx, sid)
	if err != nil {
		c.cfg.Log.Warn("cache read", "cache", c.cfg.Name, "err", err)
		c.count(ResultMiss)
		return c.loadShared(ctx, id, sid, false)
	}
	if !r.present {
		// Not preloaded (or evicted): load it once like the mutex strategy.
		c.count(ResultMiss)
		return c.loadShared(ctx, id, sid, true)
	}
	switch {
	case !c.fresh(r):
		c.count(ResultStale)
		c.refresh(id, sid) //nolint:contextcheck // the rebuild runs in the background, past this read's context
	case r.found:
		c.count(ResultHit)
	default:
		c.count(ResultNullHit)
	}
	return r.v, r.found, nil
}

// refresh starts the background rebuild of a stale key unless one already
// runs here; the lock (taken without waiting) and the re-read under it make
// it one across instances.
func (c *Cache[K, V]) refresh(id K, sid string) {
	if _, running := c.refreshing.LoadOrStore(sid, struct{}{}); running {
		return
	}
	c.wg.Add(1)
	go func() {
		defer c.wg.Done()
		defer c.refreshing.Delete(sid)
		ctx, cancel := context.WithTimeout(context.Background(), c.cfg.LockTTL)
		defer cancel()
		h, err := c.cfg.Locker.Simple(c.lockName(sid)).TryLock(ctx, 0, c.cfg.LockTTL)
		if err != nil {
			return // another instance is rebuilding it
		}
		defer func() { _ = h.Unlock(context.WithoutCancel(ctx)) }()
		if r, err := c.read(ctx, sid); err == nil && r.present && c.fresh(r) {
			return
		}
		l, err := c.loadOnly(ctx, id)
		if err != nil {
			c.cfg.Log.Warn("cache refresh", "cache", c.cfg.Name, "id", sid, "err", err)
			return
		}
		if err := c.write(ctx, sid, l.v, l.found); err != nil {
			c.cfg.Log.Warn("cache write", "cache", c.cfg.Name, "id", sid, "err", err)
		}
	}()
}

// Preload loads ids and writes them (hot keys, before the first read).
func (c *Cache[K, V]) Preload(ctx context.Context, ids ...K) error {
	for _, id := range ids {
		l, err := c.loadOnly(ctx, id)
		if err != nil {
			return err
		}
		if err := c.write(ctx, idString(id), l.v, l.found); err != nil {
			return err
		}
	}
	return nil
}

// Invalidate deletes id's key and tells every instance to drop its near copy.
// Call it after the transaction that changed the row has committed; when it
// fails, the outbox row written in that transaction makes it retried.
func (c *Cache[K, V]) Invalidate(ctx context.Context, id K) error {
	return c.InvalidateID(ctx, idString(id))
}

// InvalidateID is Invalidate with the id as its string form (for the outbox).
//
// It deletes under the rebuild lock: a loader that read the row before the
// change committed holds that lock until it has written, so its old value is
// deleted here rather than written after the delete (the classic cache-aside
// race). If the lock stays busy the key is deleted anyway and an error asks
// the caller (the outbox) to delete again later.
func (c *Cache[K, V]) InvalidateID(ctx context.Context, sid string) error {
	if c.near != nil {
		c.near.Drop(sid)
	}
	h, lerr := c.cfg.Locker.Simple(c.lockName(sid)).TryLock(ctx, c.cfg.LockWait, c.cfg.LockTTL)
	if lerr == nil {
		defer func() { _ = h.Unlock(context.WithoutCancel(ctx)) }()
	}
	if err := c.client.Del(ctx, c.key(sid)).Err(); err != nil {
		return fmt.Errorf("cache %s: delete %s: %w", c.cfg.Name, sid, err)
	}
	if c.near != nil {
		if err := c.announce(ctx, sid); err != nil {
			return err
		}
	}
	if lerr != nil {
		return fmt.Errorf("cache %s: deleted %s without the rebuild lock, delete again later: %w", c.cfg.Name, sid, lerr)
	}
	return nil
}

// Start subscribes to near-cache invalidations (a no-op without a near cache)
// and returns once the subscription is active.
func (c *Cache[K, V]) Start(ctx context.Context) error {
	if c.near == nil {
		return nil
	}
	received := c.metrics.invalidations.WithLabelValues(c.cfg.Name, "received")
	if err := c.near.FollowCounted(ctx, c.client, c.channel(), received.Inc); err != nil {
		return fmt.Errorf("cache %s: %w", c.cfg.Name, err)
	}
	return nil
}

// announce tells every instance (this one too) to drop sid's near copy, and
// counts it sent.
func (c *Cache[K, V]) announce(ctx context.Context, sid string) error {
	if err := nearcache.Announce(ctx, c.client, c.channel(), sid); err != nil {
		return fmt.Errorf("cache %s: publish invalidation of %s: %w", c.cfg.Name, sid, err)
	}
	c.metrics.invalidations.WithLabelValues(c.cfg.Name, "sent").Inc()
	return nil
}

// Close stops the subscription and waits for background rebuilds.
func (c *Cache[K, V]) Close() error {
	var err error
	if c.near != nil {
		err = c.near.Close()
	}
	c.wg.Wait()
	return err
}

// Rewrite reloads id under the rebuild lock and writes it over its entry,
// for keys that must never miss (hot keys under LogicalExpiry): a change
// replaces the entry instead of deleting it. Holding the lock orders it with
// any rebuild that read the row before the change. With onlyIfPresent it
// does nothing when the key is absent (it was never preloaded). Every
// instance drops its near copy.
func (c *Cache[K, V]) Rewrite(ctx context.Context, id K, onlyIfPresent bool) error {
	sid := idString(id)
	if c.near != nil {
		c.near.Drop(sid)
	}
	h, err := c.cfg.Locker.Simple(c.lockName(sid)).TryLock(ctx, c.cfg.LockWait, c.cfg.LockTTL)
	if err != nil {
		return fmt.Errorf("cache %s: rewrite %s: %w", c.cfg.Name, sid, err)
	}
	defer func() { _ = h.Unlock(context.WithoutCancel(ctx)) }()
	if onlyIfPresent {
		n, err := c.client.Exists(ctx, c.key(sid)).Result()
		if err != nil {
			return fmt.Errorf("cache %s: rewrite %s: %w", c.cfg.Name, sid, err)
		}
		if n == 0 {
			return nil
		}
	}
	l, err := c.loadOnly(ctx, id)
	if err != nil {
		return err
	}
	if err := c.write(ctx, sid, l.v, l.found); err != nil {
		return fmt.Errorf("cache %s: rewrite %s: %w", c.cfg.Name, sid, err)
	}
	if c.near != nil {
		if err := c.announce(ctx, sid); err != nil {
			return err
		}
	}
	return nil
}

// idString is an id's text in keys and near-cache entries: fmt.Sprint's, made
// without reflection for the common id types (every read starts with it).
func idString[K comparable](id K) string {
	switch v := any(id).(type) {
	case int64:
		return strconv.FormatInt(v, 10)
	case int:
		return strconv.Itoa(v)
	case string:
		return v
	}
	return fmt.Sprint(id)
}
