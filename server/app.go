package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"path/filepath"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/hmdp/hmdp/ent"
	"github.com/hmdp/hmdp/graph"
	"github.com/hmdp/hmdp/internal/auth"
	"github.com/hmdp/hmdp/internal/blog"
	"github.com/hmdp/hmdp/internal/feed"
	"github.com/hmdp/hmdp/internal/follow"
	"github.com/hmdp/hmdp/internal/idgen"
	"github.com/hmdp/hmdp/internal/image"
	"github.com/hmdp/hmdp/internal/like"
	"github.com/hmdp/hmdp/internal/loader"
	"github.com/hmdp/hmdp/internal/lock"
	"github.com/hmdp/hmdp/internal/order"
	"github.com/hmdp/hmdp/internal/pubsub"
	"github.com/hmdp/hmdp/internal/ratelimit"
	"github.com/hmdp/hmdp/internal/redisx"
	"github.com/hmdp/hmdp/internal/seckill"
	"github.com/hmdp/hmdp/internal/shop"
	"github.com/hmdp/hmdp/internal/signin"
	"github.com/hmdp/hmdp/internal/store"
	"github.com/hmdp/hmdp/internal/user"
	"github.com/hmdp/hmdp/internal/voucher"
)

// App is one server instance: its connections, services and HTTP handler.
type App struct {
	cfg      Config
	log      *slog.Logger
	db       *store.DB
	redis    *redisx.Conn
	registry *prometheus.Registry
	auth     *auth.Service
	shops    *shop.Service
	locker   *lock.Locker
	images   *image.Store
	broker   *pubsub.Broker
	poster   *pubsub.Poster
	resolver *graph.Resolver
	handler  http.Handler
	seckill  *seckill.Service
	// heartbeat: how often idle websockets are pinged (gorillaWebsocket).
	heartbeat time.Duration

	// shutdown is cancelled first on stop: it ends websocket subscriptions,
	// which http.Server.Shutdown cannot see.
	shutdown       context.Context
	cancelShutdown context.CancelFunc
}

// Options replace parts of the app in tests.
type Options struct {
	Sender auth.Sender
	Now    func() time.Time
	// Seckill tunes the flash sale (tests shorten the stream consumers' timings).
	Seckill seckill.Config
	// EntOptions are added to the database client (tests count statements).
	EntOptions []ent.Option
	// LoaderWait replaces the dataloaders' batching pause (see internal/loader).
	LoaderWait time.Duration
	// WebsocketHeartbeat replaces the 15 s ping interval of websockets.
	WebsocketHeartbeat time.Duration
}

// NewApp connects to MySQL (or the embedded SQLite) and Redis (or the embedded
// one), migrates, seeds when asked, and builds the HTTP handler.
func NewApp(ctx context.Context, cfg Config, log *slog.Logger, opt Options) (a *App, err error) {
	a = &App{cfg: cfg, log: log, registry: newRegistry(), heartbeat: 15 * time.Second}
	if opt.WebsocketHeartbeat > 0 {
		a.heartbeat = opt.WebsocketHeartbeat
	}
	defer func() {
		if err != nil {
			a.Close()
		}
	}()
	if cfg.MySQLDSN != "" {
		a.db, err = store.OpenMySQL(cfg.MySQLDSN, opt.EntOptions...)
	} else {
		a.db, err = store.OpenSQLite(filepath.Join(cfg.DataDir, "hmdp.db"), opt.EntOptions...)
	}
	if err != nil {
		return nil, fmt.Errorf("HMDP_MYSQL_DSN: %w", err)
	}
	pctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err = a.db.Ping(pctx); err != nil {
		return nil, fmt.Errorf("HMDP_MYSQL_DSN: cannot connect to %s: %w", a.db.Describe, err)
	}
	if err = a.db.Migrate(ctx); err != nil {
		return nil, err
	}
	if cfg.Seed {
		seeded, err := a.db.Seed(ctx, time.Now())
		if err != nil {
			return nil, err
		}
		if seeded {
			log.Info("loaded demo data into the empty database")
		}
	}
	if a.redis, err = redisx.Open(ctx, cfg.RedisAddrs); err != nil {
		return nil, fmt.Errorf("HMDP_REDIS_ADDR: %w", err)
	}
	log.Info("back ends", "database", a.db.Describe, "redis", a.redis.Describe)

	sender := opt.Sender
	if sender == nil {
		sender = auth.LogSender{Log: log}
	}
	limiter := ratelimit.New(a.redis.Client, cfg.RedisPrefix, cfg.RateLimits)
	if opt.Now != nil {
		limiter.Now = opt.Now
	}
	near := cfg.NearCacheTTL
	if near == 0 {
		near = -1 // off
	}
	a.locker = lock.New(a.redis.Client, cfg.RedisPrefix, lock.WithRegisterer(a.registry), lock.WithLogger(log))
	a.shops = shop.New(a.db.Client, a.redis.Client, a.locker, shop.Config{Prefix: cfg.RedisPrefix, NearTTL: near, Registerer: a.registry, Log: log})
	if err = a.shops.Start(ctx); err != nil {
		return nil, err
	}
	a.auth = auth.New(a.db.Client, a.redis.Client, cfg.RedisPrefix, limiter, sender,
		auth.Config{AdminPhones: cfg.AdminPhones, SessionCacheTTL: cfg.SessionCacheTTL, Now: opt.Now})
	if err = a.auth.Start(ctx); err != nil {
		return nil, err
	}
	if opt.Seckill.Consumer.ClaimIdle == 0 {
		opt.Seckill.Consumer.ClaimIdle = cfg.OrderClaimIdle
	}
	a.seckill = seckill.New(a.db.Client, a.redis.Client, cfg.RedisPrefix,
		idgen.New(a.redis.Client, cfg.RedisPrefix, "order", 0), a.locker, limiter, log, a.registry, opt.Seckill)
	if a.images, err = image.New(cfg.DataDir); err != nil {
		return nil, err
	}
	a.broker = pubsub.New(a.redis.Client, cfg.RedisPrefix, a.registry, pubsub.Options{Log: log})
	likes := like.New(a.db.Client, a.redis.Client, cfg.RedisPrefix)
	blogs := blog.New(a.db.Client, a.images, likes, log)
	follows := follow.New(a.db.Client, a.redis.Client, cfg.RedisPrefix)
	feeds := feed.New(a.db.Client, a.redis.Client, cfg.RedisPrefix, follows, a.broker, cfg.FeedPushLimit, log)
	blogs.Fanout = feeds
	follows.Listener = feeds
	a.poster = pubsub.NewPoster(a.broker, pubsub.PosterOptions{Log: log})
	orderUpdates := order.NewUpdates(a.broker, a.poster, log)
	a.resolver = &graph.Resolver{
		Ent:      a.db.Client,
		Auth:     a.auth,
		Users:    user.New(a.db.Client),
		Shops:    a.shops,
		Vouchers: voucher.New(a.db.Client, a.seckill),
		Orders:   order.New(a.db.Client, a.seckill, orderUpdates),

		OrderUpdates: orderUpdates,
		Blogs:        blogs,
		Likes:        likes,
		Follows:      follows,
		Feeds:        feeds,
		SignIns:      signin.New(a.redis.Client, cfg.RedisPrefix),
		Images:       a.images,
		Loaders:      loader.Sources{DB: a.db.Client, Likes: likes, Follows: follows},
	}
	// Every instance persists flash-sale orders (DESIGN.md principle 4).
	a.seckill.Start()
	a.shutdown, a.cancelShutdown = context.WithCancel(context.Background())
	a.handler = a.routes()
	return a, nil
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
	if a.cancelShutdown != nil { // nil when NewApp failed before building the handler
		a.cancelShutdown()
	}
}

// StopWorkers stops the background workers (flash-sale stream consumers),
// letting each finish the batch it holds until ctx ends. Call it after the
// HTTP server has drained, so no accepted order is left without a consumer
// here (other instances, or this one restarted, take over what remains).
func (a *App) StopWorkers(ctx context.Context) {
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
	if a.shops != nil {
		a.shops.Close()
	}
	if a.auth != nil {
		errs = append(errs, a.auth.Close())
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

// ready reports whether MySQL and Redis answer.
func (a *App) ready(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	if err := a.db.Ping(ctx); err != nil {
		return fmt.Errorf("mysql: %w", err)
	}
	if err := a.redis.Client.Ping(ctx).Err(); err != nil {
		return fmt.Errorf("redis: %w", err)
	}
	return nil
}
