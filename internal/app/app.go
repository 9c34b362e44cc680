package app

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"path/filepath"
	"strings"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/redis/go-redis/v9"

	"github.com/hmdp/hmdp/ent"
	"github.com/hmdp/hmdp/graph"
	"github.com/hmdp/hmdp/internal/auth"
	"github.com/hmdp/hmdp/internal/binlog"
	"github.com/hmdp/hmdp/internal/blog"
	"github.com/hmdp/hmdp/internal/comment"
	"github.com/hmdp/hmdp/internal/config"
	"github.com/hmdp/hmdp/internal/database"
	"github.com/hmdp/hmdp/internal/dataloader"
	"github.com/hmdp/hmdp/internal/edge"
	"github.com/hmdp/hmdp/internal/embedded"
	"github.com/hmdp/hmdp/internal/feed"
	"github.com/hmdp/hmdp/internal/follow"
	"github.com/hmdp/hmdp/internal/idgen"
	"github.com/hmdp/hmdp/internal/image"
	"github.com/hmdp/hmdp/internal/like"
	"github.com/hmdp/hmdp/internal/lock"
	"github.com/hmdp/hmdp/internal/order"
	"github.com/hmdp/hmdp/internal/payment"
	"github.com/hmdp/hmdp/internal/pubsub"
	"github.com/hmdp/hmdp/internal/ratelimit"
	"github.com/hmdp/hmdp/internal/reconcile"
	"github.com/hmdp/hmdp/internal/redisx"
	"github.com/hmdp/hmdp/internal/review"
	"github.com/hmdp/hmdp/internal/seckill"
	"github.com/hmdp/hmdp/internal/shop"
	"github.com/hmdp/hmdp/internal/signin"
	"github.com/hmdp/hmdp/internal/stockwatch"
	"github.com/hmdp/hmdp/internal/tracing"
	"github.com/hmdp/hmdp/internal/user"
	"github.com/hmdp/hmdp/internal/voucher"
)

// App is one server instance: its connections, services and HTTP handler.
type App struct {
	cfg   config.Config
	log   *slog.Logger
	db    *database.DB
	redis *redisx.Conn

	// vouchers' cache subscription and outbox poller run until Close.
	vouchers *voucher.Service
	// hotBlogs is the kept hot list; its subscription runs until Close.
	hotBlogs *blog.Hot
	// shopPosts are the kept post lists per shop; the same.
	shopPosts *blog.ShopPosts
	// reviews keeps each viewed shop's first reviews; the same.
	reviews *review.Service

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
	saleWatch *stockwatch.Watcher
	broker    *pubsub.Broker
	poster    *pubsub.Poster
	resolver  *graph.Resolver
	handler   http.Handler
	seckill   *seckill.Service
	// binlog tails the primary's binlog into cache invalidations (nil when off).
	binlog      *binlog.Tailer
	binlogLocks *lock.Locker
	orders      *order.Service
	// reconcile is the reconciliation job; reconcileSchedule runs it every
	// HMDP_RECONCILE_EVERY (nil when off, and in operator commands).
	reconcile         *reconcile.Job
	reconcileSchedule *reconcile.Schedule
	// heartbeat: how often idle websockets are pinged (edge.Websocket).
	heartbeat time.Duration
	wsLimits  *edge.WebsocketLimits
	// readyKey is this instance's own key, written by each /readyz.
	readyKey string
	ops      *opsMetrics

	// tracing is the instance's tracer provider (nil: off; tracing.go);
	// ownTracing: New made it, so Close flushes and stops it.
	tracing    *tracing.Tracing
	ownTracing bool

	// shutdown is cancelled first on stop: it ends websocket subscriptions,
	// which http.Server.Shutdown cannot see.
	shutdown       context.Context
	cancelShutdown context.CancelFunc
	// sockets counts the websockets being served, until each has written
	// its close frame (Stop waits for them).
	sockets edge.Served
}

// Options replace parts of the app in tests.
type Options struct {
	Sender auth.Sender
	// Operator builds the services without starting the background workers
	// (flash-sale consumers, payment deadlines, the reconciliation
	// schedule): the hmdp reconcile and deadletters commands.
	Operator bool
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
	// SubscriberBuffer replaces pubsub.DefaultBuffer, the events a
	// subscriber may fall behind before it is dropped.
	SubscriberBuffer int
	// Tracing replaces the tracer provider of HMDP_OTLP_ENDPOINT (tests
	// record spans in memory); its owner shuts it down.
	Tracing *tracing.Tracing
}

// New connects to MySQL (or the embedded SQLite) and Redis (or the embedded
// one), migrates, seeds when asked, and builds the HTTP handler.
func New(ctx context.Context, cfg config.Config, log *slog.Logger, opt Options) (a *App, err error) {
	if opt.Sender == nil && cfg.Env == "production" && cfg.SMSSender != "log" {
		// config.Load refuses this too; a configuration built in code must not slip by.
		return nil, errors.New("HMDP_SMS_SENDER: production refuses the log-only SMS sender unless HMDP_SMS_SENDER=log")
	}
	a = &App{cfg: cfg, log: log, registry: newRegistry(), heartbeat: 15 * time.Second, wsLimits: newWebsocketLimits(cfg)}
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
	if err = a.startTracing(ctx, opt); err != nil {
		return nil, err
	}
	if err = a.openDatabase(ctx, a.tracedEnt(opt.EntOptions)); err != nil {
		return nil, err
	}
	if err = a.openRedis(ctx); err != nil {
		return nil, err
	}
	a.traceRedis()
	log.Info("back ends", "database", a.db.Describe, "redis", a.redis.Describe)
	a.ops = a.newOpsMetrics()
	if err = a.buildServices(ctx, opt); err != nil {
		return nil, err
	}
	a.reconcile = a.newReconcile()
	if !opt.Operator {
		// Every instance persists flash-sale orders: the consumer group shares the
		// stream, so a sale keeps draining while any instance runs.
		a.seckill.Start()
		// Every instance runs the payment-deadline worker: the claim script
		// hands each due order to one of them.
		a.orders.Start()   //nolint:contextcheck // the worker outlives New's context; StopWorkers ends it
		a.startReconcile() //nolint:contextcheck // the schedule outlives New's context; StopWorkers ends it
	}
	a.shutdown, a.cancelShutdown = context.WithCancel(context.Background())
	a.readyKey = a.cfg.RedisPrefix + "ready:" + rand.Text()
	a.handler = a.traceHTTP(a.ops.count(a.routes()))
	return a, nil
}

// newWebsocketLimits counts against cfg's websocket caps.
func newWebsocketLimits(cfg config.Config) *edge.WebsocketLimits {
	return edge.NewWebsocketLimits(edge.WebsocketCaps{
		Operations: cfg.WSMaxOperations, AnonymousOperations: cfg.WSMaxAnonymousOperations,
		SocketsPerUser: cfg.WSMaxSocketsPerUser,
		Sockets:        cfg.WSMaxSockets, SocketsPerAddress: cfg.WSMaxSocketsPerAddress, AnonymousSockets: cfg.WSMaxAnonymousSockets,
	})
}

// buildServices wires the services on the open back ends, each given its
// collaborators in its Config, and the GraphQL resolver over them.
func (a *App) buildServices(ctx context.Context, opt Options) (err error) {
	limiter := a.newLimiter(opt.Now)
	if err = a.startShops(ctx, limiter); err != nil {
		return err
	}
	if err = a.startBinlog(ctx); err != nil {
		return err
	}
	if err = a.startAuth(ctx, limiter, opt); err != nil {
		return err
	}
	if a.images, err = a.newImageStore(ctx); err != nil {
		return err
	}
	a.images.Log = a.log
	a.images.Admit = admitUpload(limiter)
	a.images.DB = a.db.Client
	a.images.Quota = a.cfg.ImageQuotaBytes
	a.collector = image.NewCollector(a.images, image.CollectorConfig{SweepAge: a.cfg.ImageSweepAge, Log: a.log})
	a.collector.Start() //nolint:contextcheck // removals retry and sweeps run in the background until Close
	a.broker = pubsub.New(a.redis.Client, a.cfg.RedisPrefix, a.registry, pubsub.Options{Log: a.log, Buffer: opt.SubscriberBuffer})
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
	oc.Limiter = limiter // buyVoucher's per-buyer rate limit
	if oc.PayTimeout == 0 {
		oc.PayTimeout = a.cfg.OrderPayTimeout
	}
	if oc.Payments == nil { // the provider of HMDP_PAY_* (config.Load refused what production may not use)
		if oc.Payments, err = payment.New(a.cfg.Payment, false); err != nil {
			return err
		}
	}
	a.orders = order.New(oc)
	//nolint:contextcheck // the like and follow outboxes retry in the background until Close
	a.resolver = a.newResolver(orderUpdates, limiter, opt)
	if err = a.hotBlogs.Start(ctx); err != nil {
		return err
	}
	if err = a.shopPosts.Start(ctx); err != nil {
		return err
	}
	if err = a.reviews.Start(ctx); err != nil {
		return err
	}
	return a.vouchers.Start(ctx)
}

// newImageStore keeps the uploads in HMDP_IMAGE_STORE's bucket, or in
// files under HMDP_DATA_DIR.
func (a *App) newImageStore(ctx context.Context) (*image.Store, error) {
	st := a.cfg.ImageStore
	if st.Bucket == "" {
		a.log.Info("image store", "store", "files under "+filepath.Join(a.cfg.DataDir, "images"))
		return image.New(a.cfg.DataDir)
	}
	s3, err := image.NewS3(ctx, image.S3Config{Endpoint: st.Endpoint, Region: st.Region, Bucket: st.Bucket, Prefix: st.Prefix,
		AccessKey: st.AccessKey, SecretKey: st.SecretKey, Timeout: st.Timeout})
	if err != nil {
		return nil, err
	}
	a.log.Info("image store", "store", s3.Describe)
	return image.NewWithBlobs(s3), nil
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
func (a *App) startShops(ctx context.Context, limiter *ratelimit.Limiter) error {
	a.locker = lock.New(a.redis.Client, a.cfg.RedisPrefix, lock.WithRegisterer(a.registry), lock.WithLogger(a.log))
	//nolint:contextcheck // the service's background work (visit counting) outlives New's context
	a.shops = shop.New(shop.Config{DB: a.db.Client, Redis: a.redis.Client, Locker: a.locker, Prefix: a.cfg.RedisPrefix,
		NearTTL: a.cfg.NearCacheTTL, Registerer: a.registry, Log: a.log, Location: a.cfg.TimeZone,
		HotShops: a.cfg.HotShops, HotTop: a.cfg.HotShopsTop, HotWindow: a.cfg.HotShopsWindow, Limiter: limiter})
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
	sc.Tracing = a.tracing
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
	// The hot blogs are dropped by every write that changes what they show.
	a.hotBlogs = blog.NewHot(blog.HotConfig{DB: db, Redis: rdb, Locker: a.locker, Prefix: prefix,
		NearTTL: a.cfg.NearCacheTTL, Registerer: a.registry, Log: a.log})
	a.reviews = review.New(review.Config{DB: db, Shops: a.shops, Limiter: limiter, Kept: review.KeptConfig{
		Redis: rdb, Locker: a.locker, Prefix: prefix, NearTTL: a.cfg.NearCacheTTL, Registerer: a.registry, Log: a.log}})
	// A shop's reviews are its posts with stars: they go with its post lists.
	a.shopPosts = blog.NewShopPosts(blog.ShopPostsConfig{DB: db, Redis: rdb, Locker: a.locker, Prefix: prefix,
		NearTTL: a.cfg.NearCacheTTL, Registerer: a.registry, Log: a.log, AlsoDrop: a.reviews.ShopChanged})
	blogChanged := func(ctx context.Context, blogID int64) {
		a.hotBlogs.Changed(ctx)
		a.shopPosts.BlogChanged(ctx, blogID)
	}
	authorChanged := func(ctx context.Context, userID int64) {
		a.hotBlogs.Changed(ctx)
		a.shopPosts.AuthorChanged(ctx, userID)
	}
	likes := like.New(like.Config{DB: db, Redis: rdb, Prefix: prefix, Log: a.log, Limiter: limiter, Changed: blogChanged})
	a.likes = likes
	likes.Start()
	sets := follow.NewSets(follow.SetsConfig{DB: db, Redis: rdb, Prefix: prefix})
	a.saleWatch = stockwatch.New(stockwatch.Config{DB: db, Redis: rdb, Prefix: prefix, Log: a.log})
	feeds := feed.New(feed.Config{DB: db, Redis: rdb, Prefix: prefix, Follows: sets, Broker: a.broker,
		PushLimit: a.cfg.FeedPushLimit, Log: a.log})
	follows := follow.New(follow.Config{DB: db, Redis: rdb, Prefix: prefix, Sets: sets, Listener: feeds, Log: a.log,
		Limiter: limiter})
	a.follows = follows
	follows.Start()
	vouchers := voucher.New(voucher.Config{DB: db, Publisher: a.seckill, Stocks: a.seckill, Cache: voucher.CacheConfig{
		Redis: rdb, Locker: a.locker, Prefix: prefix, NearTTL: a.cfg.NearCacheTTL, Registerer: a.registry, Log: a.log,
		Bloom: a.shops.Bloom()}})
	a.vouchers = vouchers
	reviews := a.reviews
	blogs := blog.New(blog.Config{DB: db, Images: a.images, ImageUse: a.collector, Likes: likes, Ratings: reviews,
		Fanout: feeds, Log: a.log, Limiter: limiter, PerUser: a.cfg.BlogRateLimit, Hot: a.hotBlogs,
		ShopPosts: a.shopPosts})
	users := user.New(user.Config{DB: db, Images: a.images, ImageUse: a.collector, Sessions: a.auth, Log: a.log,
		BriefChanged: authorChanged})
	comments := comment.New(comment.Config{DB: db, Limiter: limiter, Broker: a.broker, Log: a.log, Now: opt.Now,
		Counted: blogChanged})
	return &graph.Resolver{
		Ent:            db,
		AuthService:    a.auth,
		UserService:    users,
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

		CommentService: comments,
		SaleWatch:      a.saleWatch,
		ReviewService:  reviews,
	}
}

// openDatabase opens MySQL (the embedded SQLite without HMDP_MYSQL_DSN),
// migrates it and loads the demo data when HMDP_SEED asks.
func (a *App) openDatabase(ctx context.Context, opts []ent.Option) (err error) {
	switch {
	case len(a.cfg.ReplicaDSNs) > 0:
		a.db, err = database.OpenMySQLReplicas(ctx, a.cfg.MySQLDSN, database.ReplicaConfig{DSNs: a.cfg.ReplicaDSNs,
			MaxLag: a.cfg.ReplicaMaxLag, MaxConns: a.cfg.MySQLMaxConns, Registerer: a.registry, Log: a.log}, opts...)
	case a.cfg.MySQLDSN != "":
		a.db, err = database.OpenMySQL(a.cfg.MySQLDSN, a.cfg.MySQLMaxConns, opts...)
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

// newRegistry returns the server's own registry (not the global one, so tests
// can run several servers in one process), with Go and process metrics.
func newRegistry() *prometheus.Registry {
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return reg
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
	if a.wsLimits != nil {
		// The subscriptions the broker ended send their SUBSCRIPTION_CLOSED
		// error before their sockets close (with 1012, which clients retry
		// on): on a loaded machine a few hundred of them took more than a
		// second. Those that do not end with the broker are not waited for.
		if left := a.wsLimits.WaitEnded(5 * time.Second); left > 0 {
			a.log.Warn("shutdown: subscriptions not yet told why they ended; their sockets close anyway", "subscriptions", left)
		}
	}
	if a.cancelShutdown != nil { // nil when New failed before building the handler
		a.cancelShutdown()
		// Each socket writes its 1012 close frame (within a second: the
		// write's deadline) before the process may exit.
		a.sockets.WaitClosed(2 * time.Second)
	}
}

// StopWorkers stops the background workers (flash-sale stream consumers),
// letting each finish the batch it holds until ctx ends. Call it after the
// HTTP server has drained, so no accepted order is left without a consumer
// here (other instances, or this one restarted, take over what remains).
func (a *App) StopWorkers(ctx context.Context) {
	if a.reconcileSchedule != nil {
		a.reconcileSchedule.Stop()
		a.reconcileSchedule = nil
	}
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
	if a.vouchers != nil {
		a.vouchers.Close()
	}
	if a.hotBlogs != nil {
		a.hotBlogs.Close()
	}
	if a.shopPosts != nil {
		a.shopPosts.Close()
	}
	if a.reviews != nil {
		a.reviews.Close()
	}
	if a.collector != nil {
		a.collector.Close()
	}
	if a.images != nil {
		a.images.Close() // after the collector, which removes through it
	}
	if a.saleWatch != nil {
		a.saleWatch.Close()
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
	errs = append(errs, a.stopTracing()) // last: it sends the spans of all the above
	if err := errors.Join(errs...); err != nil {
		a.log.Warn("close", "err", err)
	}
}

// readiness is the answer of /readyz: whether the instance can serve its core
// paths, and the state of each back end.
type readiness struct {
	// Status is "ready", "degraded" (ready, but the database does not
	// answer: what needs it fails, flash-sale buying and sessions still
	// work) or "not ready" (Redis cannot take writes: sessions, rate limits
	// and flash-sale admission all need them).
	Status string `json:"status"`
	// Redis is "ok", "unreachable", "full" (at its memory limit with
	// noeviction: it answers reads and refuses writes) or "cluster down"
	// (a master says cluster_state:fail).
	Redis    string `json:"redis"`
	Database string `json:"database"`
}

// errClusterDown is a Redis Cluster master reporting cluster_state:fail.
var errClusterDown = errors.New("cluster_state is not ok")

// ready checks Redis and the database at once, each within 2 s. Redis must
// take a write of this instance's own key (a PING is answered by a full
// Redis, and on a Cluster by any live node while the cluster is down), and
// on a Cluster every master must say cluster_state:ok.
func (a *App) ready(ctx context.Context) readiness {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	dbErr := make(chan error, 1)
	go func() { dbErr <- a.db.Ping(ctx) }()
	redisErr := a.redis.Client.Set(ctx, a.readyKey, time.Now().UnixMilli(), 10*time.Second).Err()
	if cc, ok := a.redis.Client.(*redis.ClusterClient); ok && redisErr == nil {
		redisErr = cc.ForEachMaster(ctx, func(ctx context.Context, n *redis.Client) error {
			info, err := n.ClusterInfo(ctx).Result()
			if err == nil && !strings.Contains(info, "cluster_state:ok") {
				err = errClusterDown
			}
			return err
		})
	}
	r := readiness{Status: "ready", Redis: "ok", Database: "ok"}
	if err := <-dbErr; err != nil {
		a.log.Warn("readiness: database unreachable (degraded)", "err", err)
		r.Status, r.Database = "degraded", "unreachable"
	}
	if redisErr != nil {
		r.Status, r.Redis = "not ready", "unreachable"
		switch {
		case redisx.Full(redisErr):
			r.Redis = "full"
		case errors.Is(redisErr, errClusterDown) || redisx.ClusterDown(redisErr):
			r.Redis = "cluster down"
		}
		a.log.Warn("readiness: redis cannot take writes (not ready)", "redis", r.Redis, "err", redisErr)
	}
	a.ops.observe(r)
	return r
}
