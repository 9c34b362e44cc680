package lock

import (
	"log/slog"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/redis/go-redis/v9"
)

// Defaults follow Redisson: a 30 s watchdog lease renewed every 10 s.
const (
	DefaultLease      = 30 * time.Second
	DefaultRenewEvery = DefaultLease / 3
)

// fenceTTL bounds how long a lock name's fencing counter outlives its last
// acquisition. Losing the counter is harmless (the scripts reseed it from the
// server clock), so this only caps memory for names that are no longer used.
const fenceTTL = 24 * time.Hour

// Locker makes locks on one Redis (a node, or a cluster through
// UniversalClient). It is safe for concurrent use. Close it when done: it owns
// a Pub/Sub connection (opened on the first wait) and the watchdogs.
type Locker struct {
	client     redis.UniversalClient
	prefix     string
	lease      time.Duration
	renewEvery time.Duration
	log        *slog.Logger
	metrics    *metrics
	sub        *subscriber

	mu       sync.Mutex
	holdings map[holdingKey]*holding // reentrant locks held through this Locker
}

// Option configures a Locker.
type Option func(*lockerConfig)

type lockerConfig struct {
	lease, renewEvery time.Duration
	reg               prometheus.Registerer
	log               *slog.Logger
}

// WithWatchdog sets the watchdog lease (the TTL a reentrant lock taken without
// a lease gets) and how often the watchdog renews it; renewEvery must be
// shorter than lease. The default is 30 s renewed every 10 s. It is also the
// TTL of a simple lock taken with ttl 0.
func WithWatchdog(lease, renewEvery time.Duration) Option {
	return func(c *lockerConfig) { c.lease, c.renewEvery = lease, renewEvery }
}

// WithRegisterer registers the lock metrics (hmdp_lock_acquisitions_total,
// hmdp_lock_waits_total, hmdp_lock_losses_total, labelled by kind) on reg.
// Without it they are counted but not exposed. Lockers may share a registry.
func WithRegisterer(reg prometheus.Registerer) Option {
	return func(c *lockerConfig) { c.reg = reg }
}

// WithLogger sets where watchdog and Pub/Sub errors are logged (default slog.Default()).
func WithLogger(l *slog.Logger) Option {
	return func(c *lockerConfig) { c.log = l }
}

// New returns a Locker whose keys all start with prefix (e.g. "hmdp:").
func New(client redis.UniversalClient, prefix string, opts ...Option) *Locker {
	cfg := lockerConfig{lease: DefaultLease, renewEvery: DefaultRenewEvery}
	for _, o := range opts {
		o(&cfg)
	}
	if cfg.lease <= 0 || cfg.renewEvery <= 0 || cfg.renewEvery >= cfg.lease {
		panic("lock: WithWatchdog needs 0 < renewEvery < lease")
	}
	if cfg.log == nil {
		cfg.log = slog.Default()
	}
	return &Locker{
		client:     client,
		prefix:     prefix,
		lease:      cfg.lease,
		renewEvery: cfg.renewEvery,
		log:        cfg.log,
		metrics:    newMetrics(cfg.reg),
		sub:        newSubscriber(client, cfg.log),
		holdings:   map[holdingKey]*holding{},
	}
}

// Close stops the Pub/Sub listener and any watchdog still running; holds not
// yet unlocked are reported lost (their keys expire within a lease). Waiters
// still inside TryLock fall back to their timers.
func (l *Locker) Close() error {
	l.mu.Lock()
	hs := make([]*holding, 0, len(l.holdings))
	for _, h := range l.holdings {
		hs = append(hs, h)
	}
	l.mu.Unlock()
	for _, h := range hs {
		l.lose(h, "locker closed")
	}
	return l.sub.close()
}

// lostHook counts and logs the loss of a lock of kind called name.
func (l *Locker) lostHook(kind, name string) func(why string) {
	return func(why string) {
		l.metrics.losses.WithLabelValues(kind).Inc()
		l.log.Warn("lock: lost", "kind", kind, "lock", name, "why", why)
	}
}

// keys names the Redis keys of lock name. All of them carry the hash tag
// {name}, so a script touching several of them stays in one cluster slot;
// the release channel carries it too, which keeps PUBLISH inside a script legal.
type keys struct {
	name, lock, fence, channel string
}

func (l *Locker) keys(name string) keys {
	if name == "" {
		// An empty tag "{}" would hash the lock and its counter to different slots.
		panic("lock: empty lock name")
	}
	k := l.prefix + "lock:{" + name + "}"
	return keys{name: name, lock: k, fence: k + ":fence", channel: k + ":released"}
}
