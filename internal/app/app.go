// Package app is the hmdp API server: configuration, back ends, services and
// the HTTP handler; server/ is its thin main.
package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"path/filepath"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/hmdp/hmdp/ent"
	"github.com/hmdp/hmdp/graph"
	"github.com/hmdp/hmdp/internal/auth"
	"github.com/hmdp/hmdp/internal/binlog"
	"github.com/hmdp/hmdp/internal/blog"
	"github.com/hmdp/hmdp/internal/comment"
	"github.com/hmdp/hmdp/internal/database"
	"github.com/hmdp/hmdp/internal/dataloader"
	"github.com/hmdp/hmdp/internal/embedded"
	"github.com/hmdp/hmdp/internal/feed"
	"github.com/hmdp/hmdp/internal/follow"
	"github.com/hmdp/hmdp/internal/idgen"
	"github.com/hmdp/hmdp/internal/image"
	"github.com/hmdp/hmdp/internal/like"
	"github.com/hmdp/hmdp/internal/lock"
	"github.com/hmdp/hmdp/internal/order"
	"github.com/hmdp/hmdp/internal/pubsub"
	"github.com/hmdp/hmdp/internal/ratelimit"
	"github.com/hmdp/hmdp/internal/redisx"
	"github.com/hmdp/hmdp/internal/seckill"
	"github.com/hmdp/hmdp/internal/shop"
	"github.com/hmdp/hmdp/internal/signin"
	"github.com/hmdp/hmdp/internal/user"
	"github.com/hmdp/hmdp/internal/voucher"
)

// App is one server instance: its connections, services and HTTP handler.
type App struct {
	cfg   Config
	log   *slog.Logger
	db    *database.DB
	redis *redisx.Conn
	// miniRedis is the embedded Redis engine (nil on a real Redis), for tests.
	miniRedis *miniredis.Miniredis
	registry  *prometheus.Registry
	auth      *auth.Service
	shops     *shop.Service
	likes     *like.Service   // its outbox poller runs until Close
	follows   *follow.Service // its outbox poller runs until Close
	locker    *lock.Locker
	images    *image.Store
	collector *image.Collector // its removals and sweeps run until Close
	broker    *pubsub.Broker
	poster    *pubsub.Poster
	resolver  *graph.Resolver
	handler   http.Handler
	seckill   *seckill.Service
	// binlog tails the primary's binlog into cache invalidations (nil when off).
	binlog      *binlog.Tailer
	binlogLocks *lock.Locker
	orders      *order.Service
	// heartbeat: how often idle websockets are pinged (gorillaWebsocket).
	heartbeat time.Duration
	wsLimits  *wsLimits

	// shutdown is cancelled first on stop: it ends websocket subscriptions,
	// which http.Server.Shutdown cannot see.
	shutdown       context.Context
	cancelShutdown context.CancelFunc
}

// Options replace parts of the app in tests.
type Options struct {
	Sender auth.Sender
	// Now replaces the clock of this instance's session cache and, as their
	// test-only override (see ratelimit.Limiter.Now), of the rate limiters,
	// which otherwise decide by Redis's clock: tests let minutes pass at once
	// even on a real Redis, whose clock they cannot move.
	Now func() time.Time
	// Seckill tunes the flash sale (tests shorten the stream consumers'
	// timings): its tunables are kept, its dependencies set by New.
	Seckill seckill.Config
	// Orders tunes the order service (payment-deadline timings, a fake
	// payment provider tests inspect): its tunables are kept.
	Orders order.Config
	// EntOptions are added to the database client (tests count statements).
	EntOptions []ent.Option
	// DataloaderWait replaces the dataloaders' batching pause (see internal/dataloader).
	DataloaderWait time.Duration
	// WebsocketHeartbeat replaces the 15 s ping interval of websockets.
	WebsocketHeartbeat time.Duration
}

// New connects to MySQL (or the embedded SQLite) and Redis (or the embedded
// one), migrates, seeds when asked, and builds the HTTP handler.
func New(ctx context.Context, cfg Config, log *slog.Logger, opt Options) (a *App, err error) {
	if opt.Sender == nil && cfg.Env == "production" && cfg.SMSSender != "log" {
		// LoadConfig refuses this too; a Config built in code must not slip by.
		return nil, errors.New("HMDP_SMS_SENDER: production refuses the log-only SMS sender unless HMDP_SMS_SENDER=log")
	}
	a = &App{cfg: cfg, log: log, registry: newRegistry(), heartbeat: 15 * time.Second, wsLimits: newWSLimits(cfg)}
	if opt.WebsocketHeartbeat > 0 {
		a.heartbeat = opt.WebsocketHeartbeat
	}
	// The failure paths return nil for a, so the deferred Close must keep
	// its own reference to what was opened.
	opened := a
	defer func() { //nolint:contextcheck // Close takes no context: it bounds its own shutdown steps
		if err != nil {
			opened.Close()
		}
	}()
	if err = a.openDatabase(ctx, opt.EntOptions); err != nil {
		return nil, err
	}
	if err = a.openRedis(ctx); err != nil {
		return nil, err
	}
	log.Info("back ends", "database", a.db.Describe, "redis", a.redis.Describe)
	if err = a.buildServices(ctx, opt); err != nil {
		return nil, err
	}
	// Every instance persists flash-sale orders: the consumer group shares the
	// stream, so a sale keeps draining while any instance runs.
	a.seckill.Start()
	// Every instance runs the payment-deadline worker: the claim script
	// hands each due order to one of them.
	a.orders.Start() //nolint:contextcheck // the worker outlives New's context; StopWorkers ends it
	a.shutdown, a.cancelShutdown = context.WithCancel(context.Background())
	a.handler = a.routes()
	return a, nil
}

// buildServices wires the services on the open back ends, each given its
// collaborators in its Config, and the GraphQL resolver over them.
func (a *App) buildServices(ctx context.Context, opt Options) (err error) {
	limiter := a.newLimiter(opt.Now)
	if err = a.startShops(ctx); err != nil {
		return err
	}
	if err = a.startBinlog(ctx); err != nil {
		return err
	}
	if err = a.startAuth(ctx, limiter, opt); err != nil {
		return err
	}
	if a.images, err = image.New(a.cfg.DataDir); err != nil {
		return err
	}
	a.images.Admit = admitUpload(limiter)
	a.images.DB = a.db.Client
	a.collector = image.NewCollector(a.images, image.CollectorConfig{SweepAge: a.cfg.ImageSweepAge, Log: a.log})
	a.collector.Start() //nolint:contextcheck // removals retry and sweeps run in the background until Close
	a.broker = pubsub.New(a.redis.Client, a.cfg.RedisPrefix, a.registry, pubsub.Options{Log: a.log})
	//nolint:contextcheck // the poster sends in the background until Close
	a.poster = pubsub.NewPoster(a.broker, pubsub.PosterOptions{Log: a.log})
	orderUpdates := order.NewUpdates(order.UpdatesConfig{Broker: a.broker, Poster: a.poster, Log: a.log})
	a.seckill = a.newSeckill(limiter, orderUpdates, opt.Seckill)
	if err = a.seckill.FollowReleases(ctx); err != nil {
		return err
	}
	oc := opt.Orders
	oc.DB, oc.Sales, oc.Notifier = a.db.Client, a.seckill, orderUpdates
	oc.Redis, oc.Prefix, oc.Log = a.redis.Client, a.cfg.RedisPrefix, a.log
	if oc.PayTimeout == 0 {
		oc.PayTimeout = a.cfg.OrderPayTimeout
	}
	a.orders = order.New(oc)
	//nolint:contextcheck // the like and follow outboxes retry in the background until Close
	a.resolver = a.newResolver(orderUpdates, limiter, opt)
	return nil
}

// newLimiter is the rate limiter of login codes and flash-sale attempts,
// on the tests' clock when they give one.
func (a *App) newLimiter(now func() time.Time) *ratelimit.Limiter {
	limiter := ratelimit.New(a.redis.Client, a.cfg.RedisPrefix, a.cfg.RateLimits)
	if now != nil {
		limiter.Now = now
	}
	return limiter
}

// startShops builds the shop service (and the locker of its cache) and
// starts it.
func (a *App) startShops(ctx context.Context) error {
	a.locker = lock.New(a.redis.Client, a.cfg.RedisPrefix, lock.WithRegisterer(a.registry), lock.WithLogger(a.log))
	//nolint:contextcheck // the service's background work (visit counting) outlives New's context
	a.shops = shop.New(shop.Config{DB: a.db.Client, Redis: a.redis.Client, Locker: a.locker, Prefix: a.cfg.RedisPrefix,
		NearTTL: a.cfg.NearCacheTTL, Registerer: a.registry, Log: a.log, Location: a.cfg.TimeZone,
		HotShops: a.cfg.HotShops, HotTop: a.cfg.HotShopsTop, HotWindow: a.cfg.HotShopsWindow})
	return a.shops.Start(ctx)
}

// startAuth builds the login service and starts it.
func (a *App) startAuth(ctx context.Context, limiter *ratelimit.Limiter, opt Options) error {
	a.auth = auth.New(auth.Config{DB: a.db.Client, Redis: a.redis.Client, Prefix: a.cfg.RedisPrefix,
		Limiter: limiter, Sender: opt.Sender, Log: a.log,
		AdminPhones: a.cfg.AdminPhones, SessionTTL: a.cfg.SessionTTL, SessionCacheTTL: a.cfg.SessionCacheTTL, Now: opt.Now})
	return a.auth.Start(ctx)
}

// newSeckill builds the flash-sale service with the tunables of sc; the
// orders its consumers persist are announced to their buyers through updates.
func (a *App) newSeckill(limiter *ratelimit.Limiter, updates *order.Updates, sc seckill.Config) *seckill.Service {
	if sc.Consumer.ClaimIdle == 0 {
		sc.Consumer.ClaimIdle = a.cfg.OrderClaimIdle
	}
	sc.DB, sc.Redis, sc.Prefix = a.db.Client, a.redis.Client, a.cfg.RedisPrefix
	sc.IDs = idgen.New(a.redis.Client, a.cfg.RedisPrefix, "order", 0)
	sc.Locks, sc.Limiter, sc.Log, sc.Registerer = a.locker, limiter, a.log, a.registry
	announce := order.AnnouncePersisted(updates)
	sc.OnPersisted = func(ctx context.Context, ps []seckill.Persisted) {
		announce(ctx, ps)
		ids := make([]int64, len(ps))
		for i, p := range ps {
			ids[i] = p.OrderID
		}
		a.orders.Schedule(ctx, ids...) // set by buildServices before the consumers start
	}
	sc.OnRejected = order.AnnounceRejected(updates)
	if sc.WaitReplicas == 0 {
		sc.WaitReplicas, sc.WaitTimeout = a.cfg.SeckillWaitReplicas, a.cfg.SeckillWaitTimeout
	}
	if sc.Tokens == (seckill.TokenConfig{}) {
		sc.Tokens = seckill.TokenConfig{Required: a.cfg.SeckillToken, TTL: a.cfg.SeckillTokenTTL}
	}
	return seckill.New(sc)
}

// newResolver builds the remaining services and the resolver over all of
// them. The follow sets are built first and given to both the feed (which
// reads them) and the follow service (which writes them and tells the feed
// of each change), so neither needs the other at construction.
func (a *App) newResolver(orderUpdates *order.Updates, limiter *ratelimit.Limiter, opt Options) *graph.Resolver {
	db, rdb, prefix := a.db.Client, a.redis.Client, a.cfg.RedisPrefix
	likes := like.New(like.Config{DB: db, Redis: rdb, Prefix: prefix, Log: a.log})
	a.likes = likes
	likes.Start()
	sets := follow.NewSets(follow.SetsConfig{DB: db, Redis: rdb, Prefix: prefix})
	feeds := feed.New(feed.Config{DB: db, Redis: rdb, Prefix: prefix, Follows: sets, Broker: a.broker,
		PushLimit: a.cfg.FeedPushLimit, Log: a.log})
	follows := follow.New(follow.Config{DB: db, Redis: rdb, Prefix: prefix, Sets: sets, Listener: feeds, Log: a.log})
	a.follows = follows
	follows.Start()
	vouchers := voucher.New(voucher.Config{DB: db, Publisher: a.seckill})
	blogs := blog.New(blog.Config{DB: db, Images: a.images, ImageUse: a.collector, Likes: likes, Fanout: feeds, Log: a.log,
		Limiter: limiter, PerUser: a.cfg.BlogRateLimit})
	return &graph.Resolver{
		Ent:            db,
		AuthService:    a.auth,
		UserService:    user.New(user.Config{DB: db, Images: a.images, ImageUse: a.collector}),
		ShopService:    a.shops,
		VoucherService: vouchers,
		OrderService:   a.orders,
		SeckillService: a.seckill,

		OrderEvents:   orderUpdates,
		BlogService:   blogs,
		LikeService:   likes,
		FollowService: follows,
		FeedService:   feeds,
		SignInService: signin.New(signin.Config{DB: db, Redis: rdb, Prefix: prefix, MakeUpsPerMonth: a.cfg.SignMakeUpsPerMonth, Location: a.cfg.TimeZone}),
		ImageStore:    a.images,
		Dataloaders:   dataloader.Factory{DB: db, Likes: likes, Follows: follows, Shops: a.shops, Vouchers: vouchers, Wait: opt.DataloaderWait},

		CommentService: comment.New(comment.Config{DB: db, Limiter: limiter, Broker: a.broker, Log: a.log, Now: opt.Now}),
	}
}

// openDatabase opens MySQL (the embedded SQLite without HMDP_MYSQL_DSN),
// migrates it and loads the demo data when HMDP_SEED asks.
func (a *App) openDatabase(ctx context.Context, opts []ent.Option) (err error) {
	switch {
	case len(a.cfg.ReplicaDSNs) > 0:
		a.db, err = database.OpenMySQLReplicas(ctx, a.cfg.MySQLDSN, database.ReplicaConfig{DSNs: a.cfg.ReplicaDSNs,
			MaxLag: a.cfg.ReplicaMaxLag, Registerer: a.registry, Log: a.log}, opts...)
	case a.cfg.MySQLDSN != "":
		a.db, err = database.OpenMySQL(a.cfg.MySQLDSN, opts...)
	default:
		a.db, err = embedded.OpenSQLite(filepath.Join(a.cfg.DataDir, "hmdp.db"), opts...)
	}
	if err != nil {
		return fmt.Errorf("HMDP_MYSQL_DSN: %w", err)
	}
	pctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err = a.db.Ping(pctx); err != nil {
		return fmt.Errorf("HMDP_MYSQL_DSN: cannot connect to %s: %w", a.db.Describe, err)
	}
	if err = a.db.Migrate(ctx); err != nil {
		return err
	}
	if !a.cfg.Seed {
		return nil
	}
	seeded, err := a.db.Seed(ctx, time.Now())
	if seeded {
		a.log.Info("loaded demo data into the empty database")
	}
	return err
}

// openRedis connects to Redis (starts the embedded one without HMDP_REDIS_ADDR).
func (a *App) openRedis(ctx context.Context) (err error) {
	if len(a.cfg.RedisAddrs) == 0 && len(a.cfg.RedisSentinels) == 0 {
		r, err := embedded.StartRedis()
		if err != nil {
			return err
		}
		a.redis, a.miniRedis = r.Conn, r.Server
		return nil
	}
	if len(a.cfg.RedisSentinels) > 0 {
		if a.redis, err = redisx.OpenSentinel(ctx, a.cfg.RedisSentinels, a.cfg.RedisMaster); err != nil {
			return fmt.Errorf("HMDP_REDIS_SENTINELS: %w", err)
		}
		return nil
	}
	if a.redis, err = redisx.Open(ctx, a.cfg.RedisAddrs); err != nil {
		return fmt.Errorf("HMDP_REDIS_ADDR: %w", err)
	}
	return nil
}

// Handler is the root HTTP handler.
func (a *App) Handler() http.Handler { return a.handler }

// Stop ends subscriptions, each with a message saying the server is shutting
// down, then closes the websockets; in-flight HTTP requests are drained by
// the http.Server. Events can still be published meanwhile (to the other
// instances' subscribers).
func (a *App) Stop() {
	if a.broker != nil {
		if err := a.broker.Close(); err != nil {
			a.log.Warn("close event broker", "err", err)
		}
	}
	if a.cancelShutdown != nil { // nil when New failed before building the handler
		a.cancelShutdown()
	}
}

// StopWorkers stops the background workers (flash-sale stream consumers),
// letting each finish the batch it holds until ctx ends. Call it after the
// HTTP server has drained, so no accepted order is left without a consumer
// here (other instances, or this one restarted, take over what remains).
func (a *App) StopWorkers(ctx context.Context) {
	if a.orders != nil {
		a.orders.Stop()
	}
	if a.seckill != nil {
		a.seckill.Stop(ctx)
	}
}

// Close releases the connections.
func (a *App) Close() {
	a.Stop()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	a.StopWorkers(ctx)
	cancel()
	var errs []error
	if a.poster != nil {
		a.poster.Close() // after the workers: it sends what they announced
	}
	if a.binlog != nil {
		a.binlog.Close() // before the shops: it invalidates their caches
	}
	if a.binlogLocks != nil {
		errs = append(errs, a.binlogLocks.Close())
	}
	if a.shops != nil {
		a.shops.Close()
	}
	if a.likes != nil {
		a.likes.Close()
	}
	if a.collector != nil {
		a.collector.Close()
	}
	if a.follows != nil {
		a.follows.Close()
	}
	if a.auth != nil {
		errs = append(errs, a.auth.Close())
	}
	if a.seckill != nil {
		errs = append(errs, a.seckill.StopFollowing())
	}
	if a.locker != nil {
		errs = append(errs, a.locker.Close())
	}
	if a.redis != nil {
		errs = append(errs, a.redis.Close())
	}
	if a.db != nil {
		errs = append(errs, a.db.Close())
	}
	if err := errors.Join(errs...); err != nil {
		a.log.Warn("close", "err", err)
	}
}

// readiness is the answer of /readyz: whether the instance can serve its core
// paths, and the state of each back end.
type readiness struct {
	// Status is "ready", "degraded" (ready, but the database does not
	// answer: what needs it fails, flash-sale buying and sessions still
	// work) or "not ready" (Redis does not answer: sessions, rate limits
	// and flash-sale admission all need it).
	Status   string `json:"status"`
	Redis    string `json:"redis"`
	Database string `json:"database"`
}

// ready pings Redis and the database at once, each within 2 s.
func (a *App) ready(ctx context.Context) readiness {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	dbErr := make(chan error, 1)
	go func() { dbErr <- a.db.Ping(ctx) }()
	redisErr := a.redis.Client.Ping(ctx).Err()
	r := readiness{Status: "ready", Redis: "ok", Database: "ok"}
	if err := <-dbErr; err != nil {
		a.log.Warn("readiness: database unreachable (degraded)", "err", err)
		r.Status, r.Database = "degraded", "unreachable"
	}
	if redisErr != nil {
		a.log.Warn("readiness: redis unreachable (not ready)", "err", redisErr)
		r.Status, r.Redis = "not ready", "unreachable"
	}
	return r
}
