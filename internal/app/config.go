package app

import (
	"errors"
	"flag"
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"time"
	_ "time/tzdata" // HMDP_TIME_ZONE works on hosts without a zone database (slim containers)

	"github.com/go-sql-driver/mysql"

	"github.com/hmdp/hmdp/internal/auth"
	"github.com/hmdp/hmdp/internal/ratelimit"
)

// Config is the server configuration, read from HMDP_* environment variables
// (docs/API.md lists them), each mirrored by a flag that wins over it.
type Config struct {
	// Env is "development" (the default) or "production", which turns
	// introspection and the playground off unless set explicitly and refuses
	// the log-only SMS sender unless HMDP_SMS_SENDER=log allows it.
	Env string
	// SMSSender is how login codes are delivered: "log" (written to the log;
	// there is no SMS provider) or "" (log in development, refused in production).
	SMSSender      string
	Addr           string
	PprofAddr      string // net/http/pprof's listener; empty = none
	MySQLDSN       string
	RedisAddrs     []string
	RedisPrefix    string
	DataDir        string
	AdminPhones    []string
	Seed           bool
	Introspection  bool
	Playground     bool
	RateLimits     bool
	AllowedOrigins []string
	// TrustedProxies are the reverse proxies whose X-Forwarded-For is believed.
	TrustedProxies trustedProxies
	MaxDepth       int
	MaxComplexity  int
	FeedPushLimit  int
	MaxBodyBytes   int64
	ShutdownGrace  time.Duration
	LogLevel       string
	// ReadTimeout, WriteTimeout and IdleTimeout are the HTTP server's
	// (websockets are exempt once upgraded).
	ReadTimeout, WriteTimeout, IdleTimeout time.Duration
	// WSMaxOperations caps the operations running at once on one websocket.
	WSMaxOperations int
	// WSMaxSocketsPerUser caps one user's logged-in websockets on an instance.
	WSMaxSocketsPerUser int
	// NearCacheTTL is the in-process near cache's lifetime (0 = off).
	NearCacheTTL time.Duration
	// ResponseCache answers from memory what cannot have changed
	// (internal/respcache, graph/cacheable.go).
	ResponseCache bool
	// HotShops are served with logical expiry; HotShopsTop adds the most-read
	// shops of the last HotShopsWindow (0 = none).
	HotShops       []int64
	HotShopsTop    int
	HotShopsWindow time.Duration
	// SessionCacheTTL is how long an instance trusts a session it read (0 = off).
	SessionCacheTTL time.Duration
	// SessionTTL is how long a session lives after its last use.
	SessionTTL time.Duration
	// OrderClaimIdle is how long an accepted flash-sale order may sit with a
	// silent consumer before another instance takes it over.
	OrderClaimIdle time.Duration
	// OrderPayTimeout is how long an order may stay unpaid before the
	// server cancels it and puts its unit back on sale.
	OrderPayTimeout time.Duration
	// ImageSweepAge is how long an upload may stay unattached to a blog or
	// profile before it is removed.
	ImageSweepAge time.Duration
	// SignMakeUpsPerMonth bounds make-up sign-ins per user per month.
	SignMakeUpsPerMonth int
	// TimeZone is the one zone of every "today" (sign-in days, daily visitor counts).
	TimeZone *time.Location
	// BlogRateLimit bounds each user's createBlog calls (a post by an author
	// with many followers costs the most fan-out of any call).
	BlogRateLimit ratelimit.Limit
	// RedisSentinels and RedisMaster, when set, reach Redis through Sentinel
	// (instead of RedisAddrs) and follow its failovers.
	RedisSentinels []string
	RedisMaster    string
	// SeckillWaitReplicas > 0 acknowledges a flash-sale admission only once
	// that many replicas have it (Redis WAIT), waiting at most SeckillWaitTimeout.
	SeckillWaitReplicas int
	SeckillWaitTimeout  time.Duration
	// SeckillToken makes seckillVoucher require a token from seckillToken
	// (anti-bot), each valid for SeckillTokenTTL.
	SeckillToken    bool
	SeckillTokenTTL time.Duration
	// ReplicaDSNs are MySQL read replicas for lag-tolerant reads.
	ReplicaDSNs []string
	// ReplicaMaxLag: a replica further behind is skipped until it catches up.
	ReplicaMaxLag time.Duration
	// ReadYourWrites is how long after a user's write that user's reads all
	// go to the primary (on every instance: the mark is in Redis).
	ReadYourWrites time.Duration
	// Binlog is whether cache invalidation tails the MySQL binlog: "auto"
	// (when available), "on" (refuse to start without it) or "off".
	Binlog string
}

// setting is one configuration variable: its name, flag, default and parser.
type setting struct {
	env, flag, def, help string
	set                  func(c *Config, v string) error
}

var settings = []setting{
	// HMDP_ENV comes first: other defaults depend on it.
	{"HMDP_ENV", "env", "development", "development, or production (introspection and playground off unless set, log-only SMS sender refused unless HMDP_SMS_SENDER=log)", func(c *Config, v string) error {
		switch v {
		case "development", "production":
			c.Env = v
			return nil
		}
		return fmt.Errorf("must be development or production, got %q", v)
	}},
	{"HMDP_SMS_SENDER", "sms-sender", "", "how login codes are sent: log (written to the log; the only sender, there is no SMS provider); empty = log in development, refused in production", func(c *Config, v string) error {
		switch v {
		case "":
			if c.Env == "production" {
				return fmt.Errorf("production needs it set: the only sender writes login codes to the log (there is no SMS provider); set HMDP_SMS_SENDER=log to run with it anyway")
			}
		case "log":
		default:
			return fmt.Errorf("must be log (the only sender), got %q", v)
		}
		c.SMSSender = v
		return nil
	}},
	{"HMDP_ADDR", "addr", ":8080", "listen address", func(c *Config, v string) error {
		if _, _, err := net.SplitHostPort(v); err != nil {
			return fmt.Errorf("must be host:port, e.g. :8080")
		}
		c.Addr = v
		return nil
	}},
	{"HMDP_PPROF_ADDR", "pprof-addr", "", "listen address of Go's profiler (/debug/pprof/) on its own listener, for profiling under load; empty = off; keep it on loopback", func(c *Config, v string) error {
		if v != "" {
			if _, _, err := net.SplitHostPort(v); err != nil {
				return fmt.Errorf("must be host:port, e.g. 127.0.0.1:6060")
			}
		}
		c.PprofAddr = v
		return nil
	}},
	{"HMDP_MYSQL_DSN", "mysql-dsn", "", "go-sql-driver DSN; empty = embedded SQLite", func(c *Config, v string) error {
		if v != "" {
			if _, err := mysql.ParseDSN(v); err != nil {
				return fmt.Errorf("not a go-sql-driver DSN (user:pass@tcp(host:3306)/db): %w", err)
			}
		}
		c.MySQLDSN = v
		return nil
	}},
	{"HMDP_REDIS_ADDR", "redis-addr", "", "host:port; several comma-separated = Redis Cluster; empty = embedded", func(c *Config, v string) error {
		c.RedisAddrs = nil
		for _, a := range splitList(v) {
			if _, _, err := net.SplitHostPort(a); err != nil {
				return fmt.Errorf("%q is not host:port", a)
			}
			c.RedisAddrs = append(c.RedisAddrs, a)
		}
		return nil
	}},
	{"HMDP_REDIS_PREFIX", "redis-prefix", "hmdp:", "prefix of every Redis key and channel", func(c *Config, v string) error {
		if strings.ContainsAny(v, "{} \t\n") {
			return fmt.Errorf("must not contain braces or spaces (braces would break cluster hash tags)")
		}
		c.RedisPrefix = v
		return nil
	}},
	{"HMDP_REDIS_SENTINELS", "redis-sentinels", "", "comma-separated host:port of Redis Sentinels; with HMDP_REDIS_MASTER, Redis is reached through them and failovers are followed (instead of HMDP_REDIS_ADDR)", func(c *Config, v string) error {
		c.RedisSentinels = nil
		for _, a := range splitList(v) {
			host, port, err := net.SplitHostPort(a)
			if n, perr := strconv.Atoi(port); err != nil || host == "" || perr != nil || n < 1 || n > 65535 {
				return fmt.Errorf("%q is not host:port", a)
			}
			c.RedisSentinels = append(c.RedisSentinels, a)
		}
		if len(c.RedisSentinels) > 0 && len(c.RedisAddrs) > 0 {
			return fmt.Errorf("set either it or HMDP_REDIS_ADDR, not both")
		}
		return nil
	}},
	{"HMDP_REDIS_MASTER", "redis-master", "", "the master's name the sentinels know (needed with HMDP_REDIS_SENTINELS)", func(c *Config, v string) error {
		switch {
		case v == "" && len(c.RedisSentinels) > 0:
			// The variable that was set is the one to name, not the unset one.
			return blame{"HMDP_REDIS_SENTINELS", errors.New("needs HMDP_REDIS_MASTER, the master's name the sentinels monitor")}
		case v != "" && len(c.RedisSentinels) == 0:
			return fmt.Errorf("needs HMDP_REDIS_SENTINELS: the master's name is only used through Sentinel")
		}
		c.RedisMaster = v
		return nil
	}},
	{"HMDP_SECKILL_WAIT_REPLICAS", "seckill-wait-replicas", "0", "acknowledge a flash-sale admission only after this many Redis replicas have it (WAIT), so it survives a failover (0 = off)", func(c *Config, v string) error {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 || n > 16 {
			return fmt.Errorf("must be a whole number from 0 to 16, got %q", v)
		}
		if n > 0 && len(c.RedisAddrs) != 1 && len(c.RedisSentinels) == 0 {
			return fmt.Errorf("needs a Redis with replicas: HMDP_REDIS_SENTINELS or a single HMDP_REDIS_ADDR (not the embedded Redis, not a Cluster)")
		}
		c.SeckillWaitReplicas = n
		return nil
	}},
	{"HMDP_SECKILL_WAIT_TIMEOUT", "seckill-wait-timeout", "1s", "longest an admission waits for HMDP_SECKILL_WAIT_REPLICAS replicas before failing with UNAVAILABLE", func(c *Config, v string) error {
		d, err := time.ParseDuration(v)
		if err != nil || d < time.Millisecond || d > time.Minute {
			return fmt.Errorf("must be a duration from 1ms to 1m, like 1s, got %q", v)
		}
		c.SeckillWaitTimeout = d
		return nil
	}},
	{"HMDP_SECKILL_TOKEN", "seckill-token", "off", "on: seckillVoucher needs a single-use token from seckillToken, handed out only while the sale is open (anti-bot)", func(c *Config, v string) error {
		return parseBool(v, &c.SeckillToken)
	}},
	{"HMDP_SECKILL_TOKEN_TTL", "seckill-token-ttl", "10s", "how long a seckillToken token stays valid", func(c *Config, v string) error {
		d, err := time.ParseDuration(v)
		if err != nil || d < time.Second || d > 10*time.Minute {
			return fmt.Errorf("must be a duration from 1s to 10m, like 10s, got %q", v)
		}
		c.SeckillTokenTTL = d
		return nil
	}},
	{"HMDP_DATA_DIR", "data-dir", "./data", "embedded database file and uploaded images", func(c *Config, v string) error {
		if v == "" {
			return fmt.Errorf("must not be empty")
		}
		c.DataDir = v
		return nil
	}},
	{"HMDP_ADMIN_PHONES", "admin-phones", "", "comma-separated phones of admins", func(c *Config, v string) error {
		c.AdminPhones = nil
		for _, p := range splitList(v) {
			if !auth.ValidPhone(p) {
				return fmt.Errorf("%q is not an 11-digit mobile number", p)
			}
			c.AdminPhones = append(c.AdminPhones, p)
		}
		return nil
	}},
	{"HMDP_SEED", "seed", "", "load demo data into an empty database (default: true when embedded)", func(c *Config, v string) error {
		if v == "" {
			c.Seed = c.MySQLDSN == ""
			return nil
		}
		return parseBool(v, &c.Seed)
	}},
	{"HMDP_INTROSPECTION", "introspection", "", "allow schema introspection (default: true in development, false in production)", func(c *Config, v string) error {
		return parseBoolOr(v, c.Env != "production", &c.Introspection)
	}},
	{"HMDP_PLAYGROUND", "playground", "", "serve the GraphiQL playground at / (default: true in development, false in production)", func(c *Config, v string) error {
		return parseBoolOr(v, c.Env != "production", &c.Playground)
	}},
	{"HMDP_RATE_LIMITS", "rate-limits", "on", "on, or off for load tests", func(c *Config, v string) error { return parseBool(v, &c.RateLimits) }},
	{"HMDP_ALLOWED_ORIGINS", "allowed-origins", "", "websocket and CORS origins (scheme://host[:port]); empty = same origin; * = any", func(c *Config, v string) error {
		c.AllowedOrigins = nil
		for _, o := range splitList(v) {
			if o != "*" {
				u, err := url.Parse(o)
				if err != nil || u.Scheme == "" || u.Host == "" || (u.Path != "" && u.Path != "/") {
					return fmt.Errorf("%q is not an origin like https://example.com", o)
				}
				o = u.Scheme + "://" + u.Host
			}
			c.AllowedOrigins = append(c.AllowedOrigins, o)
		}
		return nil
	}},
	{"HMDP_TRUSTED_PROXIES", "trusted-proxies", "", "comma-separated CIDRs (or addresses) of reverse proxies whose X-Forwarded-For gives the client address; empty = the TCP peer is the client", func(c *Config, v string) error {
		c.TrustedProxies = nil
		for _, p := range splitList(v) {
			pre, err := netip.ParsePrefix(p)
			if err != nil {
				a, aerr := netip.ParseAddr(p)
				if aerr != nil || a.Zone() != "" {
					return fmt.Errorf("%q is not a CIDR like 10.0.0.0/8 or an address", p)
				}
				pre = netip.PrefixFrom(a.Unmap(), a.Unmap().BitLen())
			}
			if pre.Addr().Is4In6() && pre.Bits() >= 96 {
				pre = netip.PrefixFrom(pre.Addr().Unmap(), pre.Bits()-96)
			}
			c.TrustedProxies = append(c.TrustedProxies, pre.Masked())
		}
		return nil
	}},
	{"HMDP_MAX_DEPTH", "max-depth", "12", "deepest selection a query may nest", func(c *Config, v string) error { return parsePositive(v, &c.MaxDepth) }},
	{"HMDP_MAX_COMPLEXITY", "max-complexity", "2000", "highest complexity an operation may have", func(c *Config, v string) error { return parsePositive(v, &c.MaxComplexity) }},
	{"HMDP_FEED_PUSH_LIMIT", "feed-push-limit", "5000", "authors with more followers are pulled into feeds at read time instead of pushed to inboxes", func(c *Config, v string) error { return parsePositive(v, &c.FeedPushLimit) }},
	{"HMDP_BLOG_RATE_LIMIT", "blog-rate-limit", "20/1h", "createBlog calls each user may make: N/period (a burst of N, then one every period/N)", func(c *Config, v string) error {
		return parseLimit(v, &c.BlogRateLimit)
	}},
	{"HMDP_MAX_BODY_BYTES", "max-body-bytes", "1048576", "largest request body of a GraphQL request", func(c *Config, v string) error {
		var n int
		err := parsePositive(v, &n)
		c.MaxBodyBytes = int64(n)
		return err
	}},
	{"HMDP_SHUTDOWN_GRACE", "shutdown-grace", "15s", "how long shutdown waits for in-flight requests", func(c *Config, v string) error {
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			return fmt.Errorf("must be a positive duration like 15s")
		}
		c.ShutdownGrace = d
		return nil
	}},
	{"HMDP_READ_TIMEOUT", "read-timeout", "60s", "longest time to read a whole request, body included (headers: at most 10s); must let a 6 MB upload arrive", func(c *Config, v string) error {
		return parseTimeout(v, &c.ReadTimeout)
	}},
	{"HMDP_WRITE_TIMEOUT", "write-timeout", "60s", "longest time from the end of a request's headers to the end of its response", func(c *Config, v string) error {
		return parseTimeout(v, &c.WriteTimeout)
	}},
	{"HMDP_IDLE_TIMEOUT", "idle-timeout", "2m", "how long an idle keep-alive HTTP connection is kept", func(c *Config, v string) error {
		return parseTimeout(v, &c.IdleTimeout)
	}},
	{"HMDP_WS_MAX_OPERATIONS", "ws-max-operations", "100", "operations (subscriptions included) running at once on one websocket", func(c *Config, v string) error {
		return parsePositive(v, &c.WSMaxOperations)
	}},
	{"HMDP_WS_MAX_SOCKETS_PER_USER", "ws-max-sockets-per-user", "16", "logged-in websockets one user may hold open on one instance", func(c *Config, v string) error {
		return parsePositive(v, &c.WSMaxSocketsPerUser)
	}},
	{"HMDP_NEAR_CACHE_TTL", "near-cache-ttl", "1s", "lifetime of the in-process near cache of hot reads (0 = off)", func(c *Config, v string) error {
		d, err := time.ParseDuration(v)
		if err != nil || d < 0 {
			return fmt.Errorf("must be a duration like 1s, or 0 to turn the near cache off")
		}
		c.NearCacheTTL = d
		return nil
	}},
	{"HMDP_RESPONSE_CACHE", "response-cache", "on", "answer from memory what cannot have changed: repeated anonymous shop(id) queries of the shop's own fields while the near cache holds the same shop, and flash-sale attempts while this instance knows the sale sold out", func(c *Config, v string) error {
		return parseBool(v, &c.ResponseCache)
	}},
	{"HMDP_HOT_SHOPS", "hot-shops", "", "comma-separated shop ids always served with logical expiry (preloaded; never wait for MySQL)", func(c *Config, v string) error {
		c.HotShops = nil
		for _, f := range strings.Split(v, ",") {
			if f = strings.TrimSpace(f); f == "" {
				continue
			}
			id, err := strconv.ParseInt(f, 10, 64)
			if err != nil || id <= 0 {
				return fmt.Errorf("must be comma-separated positive shop ids, got %q", f)
			}
			c.HotShops = append(c.HotShops, id)
		}
		return nil
	}},
	{"HMDP_HOT_SHOPS_TOP", "hot-shops-top", "10", "how many of the most-read shops are also served with logical expiry (0 = only HMDP_HOT_SHOPS)", func(c *Config, v string) error {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 || n > 10000 {
			return fmt.Errorf("must be an integer from 0 to 10000")
		}
		c.HotShopsTop = n
		return nil
	}},
	{"HMDP_HOT_SHOPS_WINDOW", "hot-shops-window", "10m", "the sliding window over which shop reads are counted to find the most-read shops (whole minutes, 1m to 24h)", func(c *Config, v string) error {
		d, err := time.ParseDuration(v)
		if err != nil || d < time.Minute || d > 24*time.Hour {
			return fmt.Errorf("must be a duration from 1m to 24h")
		}
		c.HotShopsWindow = d
		return nil
	}},
	{"HMDP_SESSION_CACHE_TTL", "session-cache-ttl", "5s", "how long an instance reuses a session it read from Redis before reading (and sliding) it again; logout and profile changes reach every instance at once (0 = off)", func(c *Config, v string) error {
		d, err := time.ParseDuration(v)
		if err != nil || d < 0 {
			return fmt.Errorf("must be a duration like 5s, or 0 to read the session on every request")
		}
		if d > time.Minute {
			return fmt.Errorf("must be at most 1m: sessions slide only when read from Redis")
		}
		c.SessionCacheTTL = d
		return nil
	}},
	{"HMDP_SESSION_TTL", "session-ttl", "30m", "how long a session lives after its last use (requests, and websockets holding subscriptions, slide it)", func(c *Config, v string) error {
		d, err := time.ParseDuration(v)
		if err != nil || d < time.Second || d > 30*24*time.Hour {
			return fmt.Errorf("must be a duration from 1s to 720h, e.g. 30m")
		}
		c.SessionTTL = d
		return nil
	}},
	{"HMDP_ORDER_CLAIM_IDLE", "order-claim-idle", "30s", "how long a flash-sale order may wait with a silent consumer before another instance takes it over", func(c *Config, v string) error {
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			return fmt.Errorf("must be a positive duration like 30s")
		}
		c.OrderClaimIdle = d
		return nil
	}},
	{"HMDP_ORDER_PAY_TIMEOUT", "order-pay-timeout", "15m", "how long a flash-sale order may stay unpaid before the server cancels it (unit back on sale)", func(c *Config, v string) error {
		d, err := time.ParseDuration(v)
		if err != nil || d < 10*time.Second || d > 24*time.Hour {
			return fmt.Errorf("must be a duration from 10s to 24h, e.g. 15m")
		}
		c.OrderPayTimeout = d
		return nil
	}},
	{"HMDP_IMAGE_SWEEP_AGE", "image-sweep-age", "24h", "how long an uploaded image may wait to be shown by a blog or profile before it is removed", func(c *Config, v string) error {
		d, err := time.ParseDuration(v)
		if err != nil || d < time.Second || d > 30*24*time.Hour {
			return fmt.Errorf("must be a duration from 1s to 720h, e.g. 24h")
		}
		c.ImageSweepAge = d
		return nil
	}},
	{"HMDP_SIGN_MAKEUPS_PER_MONTH", "sign-makeups-per-month", "3", "make-up sign-ins a user may make per month (0 = none)", func(c *Config, v string) error {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 || n > 31 {
			return fmt.Errorf("must be a whole number from 0 to 31, got %q", v)
		}
		c.SignMakeUpsPerMonth = n
		return nil
	}},
	{"HMDP_LOG_LEVEL", "log-level", "info", "debug, info, warn or error", func(c *Config, v string) error {
		switch v {
		case "debug", "info", "warn", "error":
			c.LogLevel = v
			return nil
		}
		return fmt.Errorf("must be debug, info, warn or error")
	}},
	{"HMDP_TIME_ZONE", "time-zone", "Asia/Shanghai", "IANA zone of every \"today\": sign-in days, daily visitor counts", func(c *Config, v string) error {
		if v == "" || v == "Local" {
			return fmt.Errorf("must be an IANA zone name such as Asia/Shanghai or UTC, got %q", v)
		}
		loc, err := time.LoadLocation(v)
		if err != nil {
			return fmt.Errorf("must be an IANA zone name such as Asia/Shanghai or UTC, got %q", v)
		}
		c.TimeZone = loc
		return nil
	}},
	{"HMDP_MYSQL_REPLICA_DSNS", "mysql-replica-dsns", "", "comma-separated go-sql-driver DSNs of read replicas of HMDP_MYSQL_DSN: lag-tolerant reads (cache misses, lists, search, feeds, followers) go to them round robin", func(c *Config, v string) error {
		c.ReplicaDSNs = nil
		for i, d := range splitList(v) {
			if _, err := mysql.ParseDSN(d); err != nil {
				return fmt.Errorf("replica %d is not a go-sql-driver DSN (user:pass@tcp(host:3306)/db): %w", i+1, err)
			}
			c.ReplicaDSNs = append(c.ReplicaDSNs, d)
		}
		if len(c.ReplicaDSNs) > 0 && c.MySQLDSN == "" {
			return fmt.Errorf("replicas need HMDP_MYSQL_DSN (the primary); the embedded database has none")
		}
		return nil
	}},
	{"HMDP_REPLICA_MAX_LAG", "replica-max-lag", "5s", "a replica whose Seconds_Behind_Master exceeds this is skipped until it catches up", func(c *Config, v string) error {
		d, err := time.ParseDuration(v)
		if err != nil || d < 0 || d > time.Hour {
			return fmt.Errorf("must be a duration from 0s to 1h, like 5s, got %q", v)
		}
		c.ReplicaMaxLag = d
		return nil
	}},
	{"HMDP_READ_YOUR_WRITES", "read-your-writes", "2s", "after a user's mutation, that user's reads go to the primary for this long, on every instance (0 = off)", func(c *Config, v string) error {
		d, err := time.ParseDuration(v)
		if err != nil || d < 0 || d > time.Hour {
			return fmt.Errorf("must be a duration from 0s to 1h, like 2s, got %q", v)
		}
		c.ReadYourWrites = d
		return nil
	}},
	{"HMDP_BINLOG", "binlog", "auto", "invalidate caches from the MySQL binlog: auto (when the server has a row binlog and grants it), on (refuse to start without it) or off", func(c *Config, v string) error {
		switch v {
		case "auto", "on", "off":
		default:
			return fmt.Errorf("must be auto, on or off, got %q", v)
		}
		if v == "on" && c.MySQLDSN == "" {
			return fmt.Errorf("on needs HMDP_MYSQL_DSN: the embedded database has no binlog")
		}
		c.Binlog = v
		return nil
	}},
}

// LoadConfig reads the environment and the command line. The error names the
// variable (or flag) that is wrong, in one line.
func LoadConfig(args []string, getenv func(string) string) (Config, error) {
	fs := flag.NewFlagSet("hmdp", flag.ContinueOnError)
	flags := make(map[string]*string, len(settings))
	for _, s := range settings {
		flags[s.flag] = fs.String(s.flag, "", s.help+" ("+s.env+")")
	}
	if err := fs.Parse(args); err != nil {
		return Config{}, err
	}
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	var c Config
	for _, s := range settings {
		// An empty variable counts as unset, so it takes the default.
		v, name := getenv(s.env), s.env
		if given[s.flag] {
			v, name = *flags[s.flag], "-"+s.flag
		} else if v == "" {
			v = s.def
		}
		if err := s.set(&c, strings.TrimSpace(v)); err != nil {
			var b blame
			if errors.As(err, &b) {
				name, err = b.env, b.err
			}
			// One line: a value's control characters come back in some
			// parsers' messages (the DSN parser's), and would split the log line.
			return Config{}, fmt.Errorf("%s: %s", name, oneLine.Replace(err.Error()))
		}
	}
	return c, nil
}

var oneLine = strings.NewReplacer("\r", `\r`, "\n", `\n`)

// blame is a setting's error that is about another, earlier variable: the one
// the operator set, where the setting checking it was left unset.
type blame struct {
	env string
	err error
}

func (b blame) Error() string { return b.env + ": " + b.err.Error() }

func splitList(v string) []string {
	var out []string
	for _, p := range strings.Split(v, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// parseLimit reads "N/period" (20/1h): N events per period, N at once.
func parseLimit(v string, dst *ratelimit.Limit) error {
	n, per, ok := strings.Cut(v, "/")
	events, err := strconv.Atoi(n)
	d, derr := time.ParseDuration(per)
	if !ok || err != nil || derr != nil || events <= 0 || d < time.Second || d/time.Duration(events) < time.Millisecond {
		return fmt.Errorf("must be N/period with N > 0 and period at least 1s and N ms (20/1h), got %q", v)
	}
	*dst = ratelimit.Limit{Events: events, Per: d}
	return nil
}

func parseBool(v string, dst *bool) error {
	switch strings.ToLower(v) {
	case "true", "1", "on", "yes":
		*dst = true
	case "false", "0", "off", "no":
		*dst = false
	default:
		return fmt.Errorf("must be true or false (or on/off), got %q", v)
	}
	return nil
}

func parseTimeout(v string, dst *time.Duration) error {
	d, err := time.ParseDuration(v)
	if err != nil || d < time.Second {
		return fmt.Errorf("must be a duration of at least 1s, like 60s, got %q", v)
	}
	*dst = d
	return nil
}

// parseBoolOr is parseBool with def for an unset (empty) value.
func parseBoolOr(v string, def bool, dst *bool) error {
	if v == "" {
		*dst = def
		return nil
	}
	return parseBool(v, dst)
}

func parsePositive(v string, dst *int) error {
	n, err := strconv.Atoi(v)
	if err != nil || n <= 0 {
		return fmt.Errorf("must be a positive whole number, got %q", v)
	}
	*dst = n
	return nil
}
