// Package config is the server's configuration: every HMDP_* setting, read
// from the environment and the command line (Load), and described once in a
// table that the docs' settings tables are generated from (SettingDocs).
package config

import (
	"errors"
	"flag"
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"
	_ "time/tzdata" // HMDP_TIME_ZONE works on hosts without a zone database (slim containers)

	"github.com/go-sql-driver/mysql"

	"github.com/hmdp/hmdp/internal/auth"
	"github.com/hmdp/hmdp/internal/database"
	"github.com/hmdp/hmdp/internal/payment"
	"github.com/hmdp/hmdp/internal/ratelimit"
	"github.com/hmdp/hmdp/internal/tracing"
)

// Config is the server configuration, read from HMDP_* environment variables
// (the settings table below, which docs/API.md is generated from), each
// mirrored by a flag that wins over it.
type Config struct {
	// Env is "development" or "production", which turns introspection and
	// the playground off unless set explicitly and refuses the log-only SMS
	// sender unless HMDP_SMS_SENDER=log allows it.
	Env string
	// SMSSender is how login codes are delivered: "log" (written to the log;
	// there is no SMS provider) or "" (log in development, refused in production).
	SMSSender      string
	Addr           string
	PprofAddr      string // net/http/pprof's listener; empty = none
	MySQLDSN       string
	MySQLMaxConns  int
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
	TrustedProxies []netip.Prefix
	MaxDepth       int
	MaxComplexity  int
	FeedPushLimit  int
	MaxBodyBytes   int64
	// MaxQueryBytes, MaxQueryTokens and MaxFieldComparisons bound a document
	// before gqlgen validates it (internal/graphapi's document limit).
	MaxQueryBytes       int
	MaxQueryTokens      int
	MaxFieldComparisons int
	ShutdownGrace       time.Duration
	LogLevel            string
	// ReadTimeout, WriteTimeout and IdleTimeout are the HTTP server's
	// (websockets are exempt once upgraded).
	ReadTimeout, WriteTimeout, IdleTimeout time.Duration
	// WSMaxOperations caps the operations running at once on one websocket.
	WSMaxOperations int
	// WSMaxSocketsPerUser caps one user's logged-in websockets on an instance.
	WSMaxSocketsPerUser int
	// WSMaxAnonymousOperations caps the operations running at once on one
	// anonymous websocket.
	WSMaxAnonymousOperations int
	// WSMaxSockets, WSMaxSocketsPerAddress and WSMaxAnonymousSockets cap an
	// instance's websockets: all, from one client address, anonymous.
	WSMaxSockets           int
	WSMaxSocketsPerAddress int
	WSMaxAnonymousSockets  int
	// NearCacheTTL is the in-process near cache's lifetime (0 = off).
	NearCacheTTL time.Duration
	// ResponseCache answers from memory what cannot have changed
	// (internal/responsecache, graph/cacheable.go).
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
	// ReconcileEvery is how often one instance runs the reconciliation job
	// (internal/reconcile); 0 = never on a schedule.
	ReconcileEvery time.Duration
	// Payment chooses and configures the payment provider (HMDP_PAY_*).
	Payment payment.Settings
	// ImageSweepAge is how long an upload may stay unattached to a blog or
	// profile before it is removed.
	ImageSweepAge time.Duration
	// ImageQuotaBytes bounds the bytes of each user's live uploads.
	ImageQuotaBytes int64
	// ImageStore is where uploads are kept: files under DataDir, or (with a
	// Bucket) an S3-compatible object store (HMDP_IMAGE_STORE, HMDP_S3_*).
	ImageStore ImageStore
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
	// MetricsAddr is the Prometheus metrics' own listener (empty = none);
	// the API's port serves /metrics in development only.
	MetricsAddr string
	// MetricsOperations are operation names labelled in the metrics besides
	// the web app's (any other counts as "other").
	MetricsOperations []string
	// AllowEmbedded lets production run on the embedded SQLite and Redis.
	AllowEmbedded bool
	// OTLPEndpoint is the OTLP/HTTP collector traces go to (empty = off);
	// TraceSample the share of new traces recorded; TraceService their
	// service.name (internal/tracing).
	OTLPEndpoint string
	TraceSample  float64
	TraceService string
}

// ImageStore is HMDP_IMAGE_STORE and the HMDP_S3_* settings of its bucket.
type ImageStore struct {
	// Bucket and Prefix (empty or ending in "/") are s3://BUCKET/PREFIX;
	// no Bucket: local files.
	Bucket, Prefix string
	// Endpoint is http(s)://host[:port]; Region is empty to ask the store.
	Endpoint, Region string
	// AccessKey and SecretKey are both set or both empty (the AWS
	// variables, else the IAM role).
	AccessKey, SecretKey string
	// Timeout bounds each call to the store.
	Timeout time.Duration
}

// The forms of HMDP_IMAGE_STORE's parts and HMDP_S3_REGION: S3's rules for
// bucket names; a key prefix's parts (between slashes), none . or ..
var (
	s3Bucket     = regexp.MustCompile(`^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$`)
	s3PrefixPart = regexp.MustCompile(`^[A-Za-z0-9._-]{1,100}$`)
	s3Region     = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,31}$`)
)

// setting is one configuration variable. The table below is the one place
// each is described: Load reads it, and `make generate` writes the
// configuration tables of docs/API.md (all settings) and README.md (the
// newcomer ones) from it (internal/config/configdocs, through SettingDocs).
type setting struct {
	env, flag string
	// def is the value an unset or empty variable takes, read by set like
	// any other value. The docs show it formatted by kind.
	def string
	// defDoc says what the default is where set works it out from other
	// settings (def is then empty); the docs show it instead of def.
	defDoc string
	kind   kind
	// values says which values are accepted (markdown, one phrase).
	values string
	// help is one sentence (markdown, no links): the flag's usage, the
	// meaning README.md shows, and the first sentence of docs/API.md's.
	help string
	// more is the rest of docs/API.md's meaning (markdown; links are
	// relative to docs/).
	more string
	// newcomer marks the few settings a first run needs: README.md's table.
	newcomer bool
	set      func(c *Config, v string) error
}

// kind is how a setting's default reads to people in the docs.
type kind int

const (
	kindText     kind = iota // as written
	kindBool                 // as written (true/false or on/off)
	kindInt                  // as written
	kindBytes                // a whole number of bytes, also in KiB or MiB
	kindDuration             // Go's duration syntax, shortest: 1m rather than 60s
)

//go:generate go run ./configdocs

var settings = []setting{
	// HMDP_ENV comes first: other defaults depend on it.
	{
		env: "HMDP_ENV", flag: "env", kind: kindText,
		def:      "development",
		values:   "`development` or `production`",
		help:     "Whether this is a development or a production deployment.",
		more:     "Production turns introspection and the playground off unless `HMDP_INTROSPECTION` / `HMDP_PLAYGROUND` are set explicitly, refuses to start with the log-only SMS sender unless `HMDP_SMS_SENDER=log`, and on the embedded back ends unless `HMDP_ALLOW_EMBEDDED=true`. The `listening` line at start-up says which mode runs (`env`), with `playground`, `introspection` and `sms_sender`.",
		newcomer: true,
		set: func(c *Config, v string) error {
			switch v {
			case "development", "production":
				c.Env = v
				return nil
			}
			return fmt.Errorf("must be development or production, got %q", v)
		},
	},
	{
		env: "HMDP_SMS_SENDER", flag: "sms-sender", kind: kindText,
		values:   "`log`, or empty: `log` in development, refused in production",
		help:     "How login codes are delivered.",
		more:     "The only sender is `log`: codes are written to the server log (there is no SMS provider). In production it must be set to `log` explicitly, else start-up fails with `config: HMDP_SMS_SENDER: …`.",
		newcomer: true,
		set: func(c *Config, v string) error {
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
		},
	},
	{
		env: "HMDP_ADDR", flag: "addr", kind: kindText,
		def:      ":8080",
		values:   "`host:port`",
		help:     "Listen address of the API.",
		newcomer: true,
		set: func(c *Config, v string) error {
			if _, _, err := net.SplitHostPort(v); err != nil {
				return fmt.Errorf("must be host:port, e.g. :8080")
			}
			c.Addr = v
			return nil
		},
	},
	{
		env: "HMDP_PPROF_ADDR", flag: "pprof-addr", kind: kindText,
		values: "`host:port`; empty = off",
		help:   "Listen address of a separate listener serving Go's profiler (`/debug/pprof/`), for profiling under load.",
		more:   "For example `go tool pprof http://127.0.0.1:6060/debug/pprof/profile?seconds=15`. Not behind the API's middleware or timeouts; keep it on loopback.",
		set: func(c *Config, v string) error {
			if v != "" {
				if _, _, err := net.SplitHostPort(v); err != nil {
					return fmt.Errorf("must be host:port, e.g. 127.0.0.1:6060")
				}
			}
			c.PprofAddr = v
			return nil
		},
	},
	{
		env: "HMDP_METRICS_ADDR", flag: "metrics-addr", kind: kindText,
		values: "`host:port`; empty = none",
		help:   "Listen address of a separate listener serving the Prometheus metrics at `/metrics`, apart from the API's middleware and timeouts.",
		more:   "See [5](#5-metrics). The API's port serves `/metrics` in development only: in production the metrics (business counters included) are served only here, and not at all when this is empty. Keep it off the public network.",
		set: func(c *Config, v string) error {
			if v != "" {
				if _, _, err := net.SplitHostPort(v); err != nil {
					return fmt.Errorf("must be host:port, e.g. 127.0.0.1:9090")
				}
			}
			c.MetricsAddr = v
			return nil
		},
	},
	{
		env: "HMDP_METRICS_OPERATIONS", flag: "metrics-operations", kind: kindText,
		values: "comma-separated operation names (letters, digits, `_`; at most 64 characters), at most 500",
		help:   "Operation names labelled in the `hmdp_graphql_*` metrics besides the web app's own.",
		more:   "Any other name counts as `other`.",
		set: func(c *Config, v string) error {
			c.MetricsOperations = nil
			for _, n := range splitList(v) {
				if !operationName.MatchString(n) {
					return fmt.Errorf("%q is not an operation name (letters, digits, _; at most 64)", n)
				}
				c.MetricsOperations = append(c.MetricsOperations, n)
			}
			if len(c.MetricsOperations) > 500 {
				return fmt.Errorf("at most 500 names, got %d", len(c.MetricsOperations))
			}
			return nil
		},
	},
	{
		env: "HMDP_MYSQL_DSN", flag: "mysql-dsn", kind: kindText,
		values:   "go-sql-driver DSN (`user:pass@tcp(host:3306)/db`); empty = embedded SQLite",
		help:     "The MySQL 8 or MariaDB ≥ 10.6 database.",
		more:     "Empty uses the embedded SQLite file `hmdp.db` under `HMDP_DATA_DIR`. `parseTime` is forced on, the session time zone is UTC, and the charset is `utf8mb4` unless the DSN names one. Missing tables and indexes are created at start-up. Tables of the original `hmdp.sql` only ever get new indexes, never changed or dropped columns.",
		newcomer: true,
		set: func(c *Config, v string) error {
			if v != "" {
				if _, err := mysql.ParseDSN(v); err != nil {
					return fmt.Errorf("not a go-sql-driver DSN (user:pass@tcp(host:3306)/db): %w", err)
				}
			}
			c.MySQLDSN = v
			return nil
		},
	},
	{
		env: "HMDP_MYSQL_MAX_CONNS", flag: "mysql-max-conns", kind: kindInt,
		def:    strconv.Itoa(database.DefaultMaxConns),
		values: "`1` to `10000`",
		help:   "Most connections this instance opens to MySQL (and to each read replica); half of them are kept idle.",
		more:   "Size MySQL's `max_connections` for every instance's pools at once, plus the operators' own sessions: N instances need N × this.",
		set: func(c *Config, v string) error {
			n, err := strconv.Atoi(v)
			if err != nil || n < 1 || n > 10000 {
				return fmt.Errorf("must be a whole number from 1 to 10000, got %q", v)
			}
			c.MySQLMaxConns = n
			return nil
		},
	},
	{
		env: "HMDP_REDIS_ADDR", flag: "redis-addr", kind: kindText,
		values:   "`host:port`; several comma-separated = Redis Cluster; empty = embedded",
		help:     "The Redis server, or the nodes of a Redis Cluster.",
		more:     "Empty starts an embedded in-process Redis, which keeps everything in memory only.",
		newcomer: true,
		set: func(c *Config, v string) error {
			c.RedisAddrs = nil
			for _, a := range splitList(v) {
				if _, _, err := net.SplitHostPort(a); err != nil {
					return fmt.Errorf("%q is not host:port", a)
				}
				c.RedisAddrs = append(c.RedisAddrs, a)
			}
			return nil
		},
	},
	{
		env: "HMDP_REDIS_PREFIX", flag: "redis-prefix", kind: kindText,
		def:    "hmdp:",
		values: "no braces or whitespace",
		help:   "Prefix of every Redis key and Pub/Sub channel the server uses.",
		more:   "Braces would break cluster hash tags. Several deployments can share one Redis with different prefixes.",
		set: func(c *Config, v string) error {
			if strings.ContainsAny(v, "{} \t\n") {
				return fmt.Errorf("must not contain braces or spaces (braces would break cluster hash tags)")
			}
			c.RedisPrefix = v
			return nil
		},
	},
	{
		env: "HMDP_REDIS_SENTINELS", flag: "redis-sentinels", kind: kindText,
		values: "comma-separated `host:port`; not with `HMDP_REDIS_ADDR`",
		help:   "Redis Sentinels through which Redis is reached (with `HMDP_REDIS_MASTER`), following a failover without a restart.",
		more:   "The connection is go-redis's failover client.",
		set: func(c *Config, v string) error {
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
		},
	},
	{
		env: "HMDP_REDIS_MASTER", flag: "redis-master", kind: kindText,
		values: "a name; set with `HMDP_REDIS_SENTINELS`",
		help:   "The name of the master the sentinels monitor.",
		more:   "Set both it and `HMDP_REDIS_SENTINELS`, or neither.",
		set: func(c *Config, v string) error {
			switch {
			case v == "" && len(c.RedisSentinels) > 0:
				// The variable that was set is the one to name, not the unset one.
				return blame{"HMDP_REDIS_SENTINELS", errors.New("needs HMDP_REDIS_MASTER, the master's name the sentinels monitor")}
			case v != "" && len(c.RedisSentinels) == 0:
				return fmt.Errorf("needs HMDP_REDIS_SENTINELS: the master's name is only used through Sentinel")
			}
			c.RedisMaster = v
			return nil
		},
	},
	{
		env: "HMDP_ALLOW_EMBEDDED", flag: "allow-embedded", kind: kindBool,
		def:      "false",
		values:   "boolean",
		help:     "Let production run on the embedded SQLite and Redis.",
		more:     "With `HMDP_ENV=production`, start-up fails while `HMDP_MYSQL_DSN` or `HMDP_REDIS_ADDR` (and `HMDP_REDIS_SENTINELS`) is empty, naming it (`config: HMDP_MYSQL_DSN: production needs a MySQL server …`), unless this is `true`: the embedded back ends are for development (the embedded Redis loses everything on restart). The embedded Redis listens on a loopback port and requires a random password, new at each start.",
		newcomer: true,
		set: func(c *Config, v string) error {
			if err := parseBool(v, &c.AllowEmbedded); err != nil {
				return err
			}
			if c.Env != "production" || c.AllowEmbedded {
				return nil
			}
			if c.MySQLDSN == "" {
				return blame{"HMDP_MYSQL_DSN", errors.New("production needs a MySQL server: empty means the embedded SQLite file, for development; set it, or HMDP_ALLOW_EMBEDDED=true to run on the embedded back ends anyway")}
			}
			if len(c.RedisAddrs) == 0 && len(c.RedisSentinels) == 0 {
				return blame{"HMDP_REDIS_ADDR", errors.New("production needs a Redis server (or HMDP_REDIS_SENTINELS): empty means the embedded in-memory Redis, for development, which loses every session and sale on restart; set it, or HMDP_ALLOW_EMBEDDED=true to run on the embedded back ends anyway")}
			}
			return nil
		},
	},
	{
		env: "HMDP_SECKILL_WAIT_REPLICAS", flag: "seckill-wait-replicas", kind: kindInt,
		def:    "0",
		values: "`0` to `16`; `0` = off",
		help:   "How many Redis replicas must confirm a flash-sale admission (Redis `WAIT`) before it is acknowledged, so an acknowledged order survives a failover.",
		more:   "Unconfirmed in time, `seckillVoucher` answers `UNAVAILABLE`. On a Cluster the replicas are those of the master holding the sale's slot. Needs Sentinel, a single `HMDP_REDIS_ADDR` or a Cluster (not the embedded Redis). Off, each instance watches the orders it acknowledged until they are persisted and ends one Redis lost as `REJECTED` (`lost`).",
		set: func(c *Config, v string) error {
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 || n > 16 {
				return fmt.Errorf("must be a whole number from 0 to 16, got %q", v)
			}
			if n > 0 && len(c.RedisAddrs) == 0 && len(c.RedisSentinels) == 0 {
				return fmt.Errorf("needs a Redis with replicas: HMDP_REDIS_SENTINELS, HMDP_REDIS_ADDR or a Cluster (not the embedded Redis)")
			}
			c.SeckillWaitReplicas = n
			return nil
		},
	},
	{
		env: "HMDP_SECKILL_WAIT_TIMEOUT", flag: "seckill-wait-timeout", kind: kindDuration,
		def:    "1s",
		values: "duration, `1ms` to `1m`",
		help:   "Longest an admission waits for `HMDP_SECKILL_WAIT_REPLICAS` replicas before answering `UNAVAILABLE`.",
		set: func(c *Config, v string) error {
			d, err := time.ParseDuration(v)
			if err != nil || d < time.Millisecond || d > time.Minute {
				return fmt.Errorf("must be a duration from 1ms to 1m, like 1s, got %q", v)
			}
			c.SeckillWaitTimeout = d
			return nil
		},
	},
	{
		env: "HMDP_SECKILL_TOKEN", flag: "seckill-token", kind: kindBool,
		def:    "off",
		values: "boolean",
		help:   "Whether `seckillVoucher` needs a single-use `token` from `seckillToken`, which is handed out only while the sale is open (anti-bot).",
		more:   "See [3.2](#32-a-flash-sale-purchase-watched-live).",
		set: func(c *Config, v string) error {
			return parseBool(v, &c.SeckillToken)
		},
	},
	{
		env: "HMDP_SECKILL_TOKEN_TTL", flag: "seckill-token-ttl", kind: kindDuration,
		def:    "10s",
		values: "duration, `1s` to `10m`",
		help:   "How long a `seckillToken` token stays valid.",
		set: func(c *Config, v string) error {
			d, err := time.ParseDuration(v)
			if err != nil || d < time.Second || d > 10*time.Minute {
				return fmt.Errorf("must be a duration from 1s to 10m, like 10s, got %q", v)
			}
			c.SeckillTokenTTL = d
			return nil
		},
	},
	{
		env: "HMDP_DATA_DIR", flag: "data-dir", kind: kindText,
		def:      "./data",
		values:   "a directory; not empty",
		help:     "Directory of the embedded database file and of uploaded images (`images/`, unless `HMDP_IMAGE_STORE` puts them in an object store).",
		newcomer: true,
		set: func(c *Config, v string) error {
			if v == "" {
				return fmt.Errorf("must not be empty")
			}
			c.DataDir = v
			return nil
		},
	},
	{
		env: "HMDP_ADMIN_PHONES", flag: "admin-phones", kind: kindText,
		values:   "comma-separated 11-digit mobile numbers",
		help:     "Phones whose users are admins.",
		newcomer: true,
		set: func(c *Config, v string) error {
			c.AdminPhones = nil
			for _, p := range splitList(v) {
				if !auth.ValidPhone(p) {
					return fmt.Errorf("%q is not an 11-digit mobile number", p)
				}
				c.AdminPhones = append(c.AdminPhones, p)
			}
			return nil
		},
	},
	{
		env: "HMDP_SEED", flag: "seed", kind: kindBool,
		defDoc:   "`true` when `HMDP_MYSQL_DSN` is empty, else `false`",
		values:   "boolean",
		help:     "Load the demo data into an empty database (no shop types and no users).",
		newcomer: true,
		set: func(c *Config, v string) error {
			if v == "" {
				c.Seed = c.MySQLDSN == ""
				return nil
			}
			return parseBool(v, &c.Seed)
		},
	},
	{
		env: "HMDP_INTROSPECTION", flag: "introspection", kind: kindBool,
		defDoc: "`true` in development, `false` in production",
		values: "boolean",
		help:   "Allow schema introspection.",
		set: func(c *Config, v string) error {
			return parseBoolOr(v, c.Env != "production", &c.Introspection)
		},
	},
	{
		env: "HMDP_PLAYGROUND", flag: "playground", kind: kindBool,
		defDoc: "`true` in development, `false` in production",
		values: "boolean",
		help:   "Serve the GraphiQL playground at `/`.",
		set: func(c *Config, v string) error {
			return parseBoolOr(v, c.Env != "production", &c.Playground)
		},
	},
	{
		env: "HMDP_RATE_LIMITS", flag: "rate-limits", kind: kindBool,
		def:    "on",
		values: "boolean",
		help:   "Whether the rate limits are enforced; turn them off for load tests only.",
		more:   "See [2.6](#26-rate-limits).",
		set:    func(c *Config, v string) error { return parseBool(v, &c.RateLimits) },
	},
	{
		env: "HMDP_ALLOWED_ORIGINS", flag: "allowed-origins", kind: kindText,
		values: "comma-separated origins (`scheme://host[:port]`), or `*` (any); empty = same origin only",
		help:   "Browser origins allowed for CORS and websockets.",
		more:   "See [2.10](#210-browsers-origins-and-cors).",
		set: func(c *Config, v string) error {
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
		},
	},
	{
		env: "HMDP_TRUSTED_PROXIES", flag: "trusted-proxies", kind: kindText,
		values: "comma-separated CIDRs (`10.0.0.0/8`, `fd00::/8`) or single addresses; empty = none",
		help:   "Reverse proxies whose `X-Forwarded-For` gives the client address.",
		more:   "See [2.6](#26-rate-limits). Without any, the TCP peer is always the client.",
		set: func(c *Config, v string) error {
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
		},
	},
	{
		env: "HMDP_MAX_DEPTH", flag: "max-depth", kind: kindInt,
		def:    "12",
		values: "positive integer",
		help:   "Deepest selection nesting an operation may have.",
		set:    func(c *Config, v string) error { return parsePositive(v, &c.MaxDepth) },
	},
	{
		env: "HMDP_MAX_COMPLEXITY", flag: "max-complexity", kind: kindInt,
		def:    "2000",
		values: "positive integer",
		help:   "Highest complexity an operation may have.",
		more:   "See [2.7](#27-request-limits-depth-complexity-body-size-uploads): lists count their length.",
		set:    func(c *Config, v string) error { return parsePositive(v, &c.MaxComplexity) },
	},
	{
		env: "HMDP_FEED_PUSH_LIMIT", flag: "feed-push-limit", kind: kindInt,
		def:    "5000",
		values: "positive integer",
		help:   "Authors with more followers than this are not pushed into their followers' feed inboxes; feeds pull their posts at read time instead.",
		set:    func(c *Config, v string) error { return parsePositive(v, &c.FeedPushLimit) },
	},
	{
		env: "HMDP_BLOG_RATE_LIMIT", flag: "blog-rate-limit", kind: kindText,
		def:    "20/1h",
		values: "*N*/*period*: *N* > 0, *period* a duration of at least `1s` and *N* ms",
		help:   "`createBlog` calls each user may make: a burst of *N*, then one every *period*/*N*.",
		more:   "Past it, `RATE_LIMITED` with `retryAfterMs`.",
		set: func(c *Config, v string) error {
			return parseLimit(v, &c.BlogRateLimit)
		},
	},
	{
		env: "HMDP_MAX_QUERY_BYTES", flag: "max-query-bytes", kind: kindBytes,
		def:    "32768",
		values: "positive integer (bytes)",
		help:   "Longest GraphQL document (query text); a longer one is refused with `DOCUMENT_TOO_LARGE` before it is parsed.",
		set: func(c *Config, v string) error {
			return parsePositive(v, &c.MaxQueryBytes)
		},
	},
	{
		env: "HMDP_MAX_QUERY_TOKENS", flag: "max-query-tokens", kind: kindInt,
		def:    "5000",
		values: "positive integer",
		help:   "Most lexer tokens a GraphQL document may have (`DOCUMENT_TOO_LARGE`).",
		set: func(c *Config, v string) error {
			return parsePositive(v, &c.MaxQueryTokens)
		},
	},
	{
		env: "HMDP_MAX_FIELD_COMPARISONS", flag: "max-field-comparisons", kind: kindInt,
		def:    "10000",
		values: "positive integer",
		help:   "Most field comparisons validating a document may need, estimated before validation (`DOCUMENT_TOO_LARGE`).",
		more:   "Pairs of fields sharing a response name count, fragment spreads as the fields they bring; see [2.7](#27-request-limits-depth-complexity-body-size-uploads).",
		set: func(c *Config, v string) error {
			return parsePositive(v, &c.MaxFieldComparisons)
		},
	},
	{
		env: "HMDP_MAX_BODY_BYTES", flag: "max-body-bytes", kind: kindBytes,
		def:    "65536",
		values: "positive integer (bytes)",
		help:   "Largest body of a JSON GraphQL request, and of an upload's `operations` and `map` parts each.",
		more:   "Multipart uploads have their own fixed limit of 6 MiB.",
		set: func(c *Config, v string) error {
			var n int
			err := parsePositive(v, &n)
			c.MaxBodyBytes = int64(n)
			return err
		},
	},
	{
		env: "HMDP_SHUTDOWN_GRACE", flag: "shutdown-grace", kind: kindDuration,
		def:    "15s",
		values: "positive duration",
		help:   "On SIGTERM or SIGINT, how long to wait for in-flight requests and for the flash-sale consumers to finish the batches they hold.",
		set: func(c *Config, v string) error {
			d, err := time.ParseDuration(v)
			if err != nil || d <= 0 {
				return fmt.Errorf("must be a positive duration like 15s")
			}
			c.ShutdownGrace = d
			return nil
		},
	},
	{
		env: "HMDP_READ_TIMEOUT", flag: "read-timeout", kind: kindDuration,
		def:    "60s",
		values: "duration, at least `1s`",
		help:   "Longest time the server waits for a whole request, body included.",
		more:   "Headers must arrive within the smaller of this and 10 s. It must let the largest upload (6 MiB) arrive: the default allows clients down to about 100 KB/s. Upgraded websockets are exempt.",
		set: func(c *Config, v string) error {
			return parseTimeout(v, &c.ReadTimeout)
		},
	},
	{
		env: "HMDP_WRITE_TIMEOUT", flag: "write-timeout", kind: kindDuration,
		def:    "60s",
		values: "duration, at least `1s`",
		help:   "Longest time from the end of a request's headers to the end of its response.",
		more:   "Upgraded websockets are exempt (each of their messages has its own 10 s write deadline).",
		set: func(c *Config, v string) error {
			return parseTimeout(v, &c.WriteTimeout)
		},
	},
	{
		env: "HMDP_IDLE_TIMEOUT", flag: "idle-timeout", kind: kindDuration,
		def:    "2m",
		values: "duration, at least `1s`",
		help:   "How long an idle keep-alive HTTP connection is kept open.",
		set: func(c *Config, v string) error {
			return parseTimeout(v, &c.IdleTimeout)
		},
	},
	{
		env: "HMDP_WS_MAX_OPERATIONS", flag: "ws-max-operations", kind: kindInt,
		def:    "100",
		values: "positive integer",
		help:   "Operations (subscriptions included) one websocket may run at once.",
		more:   "One more is refused with `TOO_MANY_OPERATIONS`.",
		set: func(c *Config, v string) error {
			return parsePositive(v, &c.WSMaxOperations)
		},
	},
	{
		env: "HMDP_WS_MAX_SOCKETS_PER_USER", flag: "ws-max-sockets-per-user", kind: kindInt,
		def:    "16",
		values: "positive integer",
		help:   "Logged-in websockets one user may hold open on one instance.",
		more:   "One more is closed with 4429 at `connection_init`.",
		set: func(c *Config, v string) error {
			return parsePositive(v, &c.WSMaxSocketsPerUser)
		},
	},
	{
		env: "HMDP_WS_MAX_ANONYMOUS_OPERATIONS", flag: "ws-max-anonymous-operations", kind: kindInt,
		def:    "5",
		values: "positive integer",
		help:   "Operations (subscriptions included) running at once on one anonymous websocket.",
		more:   "One more gets `TOO_MANY_OPERATIONS`.",
		set: func(c *Config, v string) error {
			return parsePositive(v, &c.WSMaxAnonymousOperations)
		},
	},
	{
		env: "HMDP_WS_MAX_SOCKETS", flag: "ws-max-sockets", kind: kindInt,
		def:    "20000",
		values: "positive integer",
		help:   "Websockets one instance holds open in all.",
		more:   "One more is closed with 4429 right after the upgrade.",
		set: func(c *Config, v string) error {
			return parsePositive(v, &c.WSMaxSockets)
		},
	},
	{
		env: "HMDP_WS_MAX_SOCKETS_PER_ADDRESS", flag: "ws-max-sockets-per-address", kind: kindInt,
		def:    "32",
		values: "positive integer",
		help:   "Websockets one client address (IPv6: its /64) may hold open on one instance, logged in or not.",
		more:   "One more is closed with 4429 right after the upgrade.",
		set: func(c *Config, v string) error {
			return parsePositive(v, &c.WSMaxSocketsPerAddress)
		},
	},
	{
		env: "HMDP_WS_MAX_ANONYMOUS_SOCKETS", flag: "ws-max-anonymous-sockets", kind: kindInt,
		def:    "2000",
		values: "positive integer",
		help:   "Anonymous websockets (no token in `connection_init`) one instance holds open in all.",
		more:   "One more is closed with 4429.",
		set: func(c *Config, v string) error {
			return parsePositive(v, &c.WSMaxAnonymousSockets)
		},
	},
	{
		env: "HMDP_NEAR_CACHE_TTL", flag: "near-cache-ttl", kind: kindDuration,
		def:    "1s",
		values: "duration; `0` = off",
		help:   "Lifetime of the in-process copies of hot reads (`shop(id)`, `shopTypes`).",
		more:   "A change made on any instance drops the copies everywhere at once; the lifetime only bounds staleness when that message is lost.",
		set: func(c *Config, v string) error {
			d, err := time.ParseDuration(v)
			if err != nil || d < 0 {
				return fmt.Errorf("must be a duration like 1s, or 0 to turn the near cache off")
			}
			c.NearCacheTTL = d
			return nil
		},
	},
	{
		env: "HMDP_RESPONSE_CACHE", flag: "response-cache", kind: kindBool,
		def:    "on",
		values: "boolean",
		help:   "Answer a repeated anonymous query of public data from memory without running it.",
		more:   "Today `shop(id)` selecting only the shop's own fields (`id name images area address x y avgPrice sold comments score openHours __typename`, through fragments too, no directives), by the exact request (POST body or GET query string) and the content type its `Accept` header picks (`application/json` or `application/graphql-response+json`; the header itself is not part of the key), at most 32 MiB of answers. The kept answer is used only while the near cache still holds the very shop it was made from, so it is never staler than running the query; each answer from memory still counts as a visit (`uvToday`) and as an operation in `hmdp_graphql_requests_total`. Logged-in requests, answers with errors, and queries of anything else (`type`, `vouchers`, `uvToday`, `distance`, other roots) always run. The one logged-in answer kept: the `OUT_OF_STOCK` of `seckillVoucher` (alone in its mutation) while this instance knows the sale sold out (see flash sales: every buyer would get it without Redis being asked); it is given to any logged-in buyer sending the same request bytes, still counted in `hmdp_seckill_requests_total{result=\"out_of_stock\"}`, and a unit given back ends it at once on every instance. Anonymous GET answers that are kept carry `Cache-Control: public, no-cache` and an `ETag` (`If-None-Match` gets 304, the visit still counted); every other answer is `no-store`, and `private, no-store` when a viewer is logged in (also with this setting off). `hmdp_response_cache_total{result=\"hit\"|\"stored\"|\"pass\"}` counts what it did. The shop part needs `HMDP_NEAR_CACHE_TTL` above 0.",
		set: func(c *Config, v string) error {
			return parseBool(v, &c.ResponseCache)
		},
	},
	{
		env: "HMDP_HOT_SHOPS", flag: "hot-shops", kind: kindText,
		values: "comma-separated positive shop ids",
		help:   "Shops always served with logical expiry: preloaded at start, a stale copy is answered at once while one rebuild runs, so their `shop(id)` never waits for MySQL.",
		more:   "An id with no shop is cached as missing. Start-up fails if one cannot be preloaded (MySQL unreachable).",
		set: func(c *Config, v string) error {
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
		},
	},
	{
		env: "HMDP_HOT_SHOPS_TOP", flag: "hot-shops-top", kind: kindInt,
		def:    "10",
		values: "`0` to `10000`; `0` = only `HMDP_HOT_SHOPS`",
		help:   "How many of the most-read shops (by `shop(id)` reads over `HMDP_HOT_SHOPS_WINDOW`, recomputed every 30 s) are also served with logical expiry.",
		set: func(c *Config, v string) error {
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 || n > 10000 {
				return fmt.Errorf("must be an integer from 0 to 10000")
			}
			c.HotShopsTop = n
			return nil
		},
	},
	{
		env: "HMDP_HOT_SHOPS_WINDOW", flag: "hot-shops-window", kind: kindDuration,
		def:    "10m",
		values: "duration, `1m` to `24h` (counted in whole minutes)",
		help:   "The sliding window over which shop reads are counted to find the most-read shops.",
		set: func(c *Config, v string) error {
			d, err := time.ParseDuration(v)
			if err != nil || d < time.Minute || d > 24*time.Hour {
				return fmt.Errorf("must be a duration from 1m to 24h")
			}
			c.HotShopsWindow = d
			return nil
		},
	},
	{
		env: "HMDP_SESSION_CACHE_TTL", flag: "session-cache-ttl", kind: kindDuration,
		def:    "5s",
		values: "duration, at most `1m`; `0` = off (the session is read on every request)",
		help:   "How long an instance reuses a session it read from Redis, saving a round trip per request.",
		more:   "Logout and profile changes reach every instance at once. The bound is there because a session's sliding expiry only moves when Redis is read.",
		set: func(c *Config, v string) error {
			d, err := time.ParseDuration(v)
			if err != nil || d < 0 {
				return fmt.Errorf("must be a duration like 5s, or 0 to read the session on every request")
			}
			if d > time.Minute {
				return fmt.Errorf("must be at most 1m: sessions slide only when read from Redis")
			}
			c.SessionCacheTTL = d
			return nil
		},
	},
	{
		env: "HMDP_SESSION_TTL", flag: "session-ttl", kind: kindDuration,
		def:    "30m",
		values: "duration, `1s` to `720h`",
		help:   "How long a session lives after its last use.",
		more:   "Every request slides it, and so does a websocket that holds subscriptions.",
		set: func(c *Config, v string) error {
			d, err := time.ParseDuration(v)
			if err != nil || d < time.Second || d > 30*24*time.Hour {
				return fmt.Errorf("must be a duration from 1s to 720h, e.g. 30m")
			}
			c.SessionTTL = d
			return nil
		},
	},
	{
		env: "HMDP_ORDER_CLAIM_IDLE", flag: "order-claim-idle", kind: kindDuration,
		def:    "30s",
		values: "positive duration",
		help:   "How long an accepted flash-sale order may wait with an instance that has gone silent (dead or hung) before another instance takes it over.",
		set: func(c *Config, v string) error {
			d, err := time.ParseDuration(v)
			if err != nil || d <= 0 {
				return fmt.Errorf("must be a positive duration like 30s")
			}
			c.OrderClaimIdle = d
			return nil
		},
	},
	{
		env: "HMDP_ORDER_PAY_TIMEOUT", flag: "order-pay-timeout", kind: kindDuration,
		def:    "15m",
		values: "duration, `10s` to `24h`",
		help:   "How long a flash-sale order may stay `UNPAID` before the server cancels it (`cancelReason` `PAY_TIMEOUT`) and puts its unit back on sale.",
		set: func(c *Config, v string) error {
			d, err := time.ParseDuration(v)
			if err != nil || d < 10*time.Second || d > 24*time.Hour {
				return fmt.Errorf("must be a duration from 10s to 24h, e.g. 15m")
			}
			c.OrderPayTimeout = d
			return nil
		},
	},
	{
		env: "HMDP_RECONCILE_EVERY", flag: "reconcile-every", kind: kindDuration,
		def:    "10m",
		values: "`0` (off) or a duration, `1m` to `24h`",
		help:   "How often one instance (elected by a Redis lock) compares the Redis copies with MySQL and repairs what is safe (`hmdp reconcile` runs it once by hand; see ARCHITECTURE.md, Reconciliation). `0` turns the schedule off.",
		set: func(c *Config, v string) error {
			d, err := time.ParseDuration(v)
			if err != nil || (d != 0 && (d < time.Minute || d > 24*time.Hour)) {
				return fmt.Errorf("must be 0 or a duration from 1m to 24h")
			}
			c.ReconcileEvery = d
			return nil
		},
	},
	{
		env: "HMDP_PAY_PROVIDER", flag: "pay-provider", kind: kindText,
		def:    "sandbox",
		values: "`sandbox` or `instant`",
		help:   "The payment provider `payOrder` and `refundOrder` go through.",
		more:   "`sandbox`: a provider speaking the sandbox's protocol (`cmd/paysandbox`, started by `make run`) at `HMDP_PAY_PROVIDER_URL`, whose signed notifies reach `POST /pay/notify`. `instant`: in process, every payment charged and every refund paid at once, no money moves; refused in production.",
		set: func(c *Config, v string) error {
			c.Payment.Provider = v
			return payment.Settings{Provider: v}.ValidateProvider(c.Env == "production")
		},
	},
	{
		env: "HMDP_PAY_PROVIDER_URL", flag: "pay-provider-url", kind: kindText,
		def:    "http://localhost:8090",
		values: "an `http(s)` URL",
		help:   "The payment provider's base URL (`HMDP_PAY_PROVIDER=sandbox`).",
		set: func(c *Config, v string) error {
			c.Payment.URL = v
			return payment.ValidateURL(v)
		},
	},
	{
		env: "HMDP_PAY_NOTIFY_URL", flag: "pay-notify-url", kind: kindText,
		def:    "http://localhost:8080/pay/notify",
		values: "an `http(s)` URL",
		help:   "Where the payment provider sends its notifies: this server's public address plus `/pay/notify`.",
		set: func(c *Config, v string) error {
			c.Payment.NotifyURL = v
			return payment.ValidateURL(v)
		},
	},
	{
		env: "HMDP_PAY_PUBLIC_KEY", flag: "pay-public-key", kind: kindText,
		defDoc: "the sandbox's development key (refused in production)",
		values: "an Ed25519 public key, 32 bytes in base64",
		help:   "The payment provider's public key: notifies whose signature it does not verify are refused.",
		more:   "`make paysandbox` signs with a development key known to everyone (its public key is the default here); a sandbox started with `PAYSANDBOX_KEY` (an Ed25519 seed in base64) prints its public key at start-up. In production (with `HMDP_PAY_PROVIDER=sandbox`) it must be set, and not to the development key.",
		set: func(c *Config, v string) error {
			if v == "" && c.Env != "production" {
				v = payment.DevPublicKey()
			}
			c.Payment.PublicKey = v
			if c.Payment.Provider == "instant" {
				return nil
			}
			return payment.ValidateKey(v, c.Env == "production")
		},
	},
	{
		env: "HMDP_IMAGE_SWEEP_AGE", flag: "image-sweep-age", kind: kindDuration,
		def:    "24h",
		values: "duration, `1s` to `720h`",
		help:   "How long an upload may wait to be shown by a blog or a profile icon before it is removed.",
		more:   "The record and the file of an upload that nothing has shown by then are removed by a sweep that runs every quarter of this age, at most hourly.",
		set: func(c *Config, v string) error {
			d, err := time.ParseDuration(v)
			if err != nil || d < time.Second || d > 30*24*time.Hour {
				return fmt.Errorf("must be a duration from 1s to 720h, e.g. 24h")
			}
			c.ImageSweepAge = d
			return nil
		},
	},
	{
		env: "HMDP_IMAGE_QUOTA_BYTES", flag: "image-quota-bytes", kind: kindBytes,
		def:    "209715200",
		values: "positive integer (bytes)",
		help:   "Bytes of live uploaded images each user may keep.",
		more:   "`uploadImage` past it is `UPLOAD_QUOTA_EXCEEDED` until some are deleted.",
		set: func(c *Config, v string) error {
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil || n <= 0 {
				return fmt.Errorf("must be a positive whole number of bytes, e.g. 209715200 (200 MB)")
			}
			c.ImageQuotaBytes = n
			return nil
		},
	},
	{
		env: "HMDP_IMAGE_STORE", flag: "image-store", kind: kindText,
		defDoc: "empty: files under `HMDP_DATA_DIR/images`",
		values: "empty, or `s3://BUCKET` or `s3://BUCKET/PREFIX`",
		help:   "Where uploaded images and their variants are kept: local files, or a bucket of an S3-compatible object store that every instance shares.",
		more:   "With `s3://` every instance stores and serves every upload through the bucket (at `HMDP_S3_ENDPOINT`, signed with `HMDP_S3_ACCESS_KEY` / `HMDP_S3_SECRET_KEY`), so instances need no shared directory; images are still served by the server at `/images/`, never by the store. The bucket must exist: start-up checks it. A `PREFIX` (letters, digits, `.`, `_`, `-`, `/`) is put before every object name, so one bucket can hold several deployments. Images kept locally are not moved: copy the files of `HMDP_DATA_DIR/images` into the bucket (under the prefix) before switching. See SCALING.md, Step 1.",
		set: func(c *Config, v string) error {
			c.ImageStore = ImageStore{}
			if v == "" {
				return nil
			}
			rest, ok := strings.CutPrefix(v, "s3://")
			bucket, prefix, _ := strings.Cut(rest, "/")
			if !ok || !s3Bucket.MatchString(bucket) {
				return fmt.Errorf("must be empty (local files) or s3://BUCKET[/PREFIX] with a bucket name of 3 to 63 lowercase letters, digits, dots and hyphens, got %q", v)
			}
			if prefix = strings.TrimSuffix(prefix, "/"); prefix != "" {
				for part := range strings.SplitSeq(prefix, "/") {
					if !s3PrefixPart.MatchString(part) || part == "." || part == ".." {
						return fmt.Errorf("the prefix after the bucket may hold letters, digits and . _ - / (no empty, . or .. part), got %q", prefix)
					}
				}
				prefix += "/"
			}
			c.ImageStore.Bucket, c.ImageStore.Prefix = bucket, prefix
			return nil
		},
	},
	{
		env: "HMDP_S3_ENDPOINT", flag: "s3-endpoint", kind: kindText,
		def:    "https://s3.amazonaws.com",
		values: "an `http(s)://host[:port]` URL",
		help:   "The S3-compatible object store of `HMDP_IMAGE_STORE=s3://…`.",
		more:   "AWS S3 is the default (set `HMDP_S3_REGION`); for MinIO, SeaweedFS, Ceph and the like, their S3 API's address (`http://` for one on a private network). Buckets are addressed by path on other endpoints than AWS's.",
		set: func(c *Config, v string) error {
			u, err := url.Parse(v)
			if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.User != nil {
				return fmt.Errorf("must be http(s)://host[:port] and nothing more, got %q", v)
			}
			c.ImageStore.Endpoint = u.Scheme + "://" + u.Host
			return nil
		},
	},
	{
		env: "HMDP_S3_REGION", flag: "s3-region", kind: kindText,
		defDoc: "empty: the bucket's, asked of the store once",
		values: "a region name, like `us-east-1`",
		help:   "The region of the `HMDP_IMAGE_STORE` bucket.",
		set: func(c *Config, v string) error {
			if v != "" && !s3Region.MatchString(v) {
				return fmt.Errorf("must be a region name like us-east-1, got %q", v)
			}
			c.ImageStore.Region = v
			return nil
		},
	},
	{
		env: "HMDP_S3_ACCESS_KEY", flag: "s3-access-key", kind: kindText,
		defDoc: "empty: `AWS_ACCESS_KEY_ID` and the others of AWS, else the machine's IAM role",
		values: "an access key id; set with `HMDP_S3_SECRET_KEY`",
		help:   "The access key id that signs the requests to the `HMDP_IMAGE_STORE` bucket.",
		more:   "Set both it and `HMDP_S3_SECRET_KEY`, or neither: the standard `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY` and `AWS_SESSION_TOKEN` variables are then used, else the IAM role of the machine (EC2, ECS or EKS). The keys are never logged; prefer the variables to the flags, which other users of the machine can see.",
		set: func(c *Config, v string) error {
			c.ImageStore.AccessKey = v
			return nil
		},
	},
	{
		env: "HMDP_S3_SECRET_KEY", flag: "s3-secret-key", kind: kindText,
		values: "the secret of `HMDP_S3_ACCESS_KEY`",
		help:   "The secret access key of `HMDP_S3_ACCESS_KEY`.",
		set: func(c *Config, v string) error {
			switch {
			case v == "" && c.ImageStore.AccessKey != "":
				return blame{"HMDP_S3_ACCESS_KEY", errors.New("needs HMDP_S3_SECRET_KEY, its secret")}
			case v != "" && c.ImageStore.AccessKey == "":
				return fmt.Errorf("needs HMDP_S3_ACCESS_KEY, the key id it is the secret of")
			}
			c.ImageStore.SecretKey = v
			return nil
		},
	},
	{
		env: "HMDP_S3_TIMEOUT", flag: "s3-timeout", kind: kindDuration,
		def:    "10s",
		values: "duration, `100ms` to `5m`",
		help:   "Longest wait for the object store of `HMDP_IMAGE_STORE`, in each call.",
		more:   "It bounds each Put, Stat and Remove of a blob (one request, its retry included), the wait for the first byte of a read, and each read of a blob's body after that; the time a slow client takes to download an image is not counted (it is bounded by `HMDP_WRITE_TIMEOUT`). A store that does not answer in time fails the call: an upload is refused (`INTERNAL_SERVER_ERROR`), an image answers 503.",
		set: func(c *Config, v string) error {
			d, err := time.ParseDuration(v)
			if err != nil || d < 100*time.Millisecond || d > 5*time.Minute {
				return fmt.Errorf("must be a duration from 100ms to 5m, like 10s, got %q", v)
			}
			c.ImageStore.Timeout = d
			return nil
		},
	},
	{
		env: "HMDP_SIGN_MAKEUPS_PER_MONTH", flag: "sign-makeups-per-month", kind: kindInt,
		def:    "3",
		values: "`0` to `31`; `0` = none",
		help:   "Make-up sign-ins (`makeUpSignIn`, 补签) a user may make per calendar month.",
		set: func(c *Config, v string) error {
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 || n > 31 {
				return fmt.Errorf("must be a whole number from 0 to 31, got %q", v)
			}
			c.SignMakeUpsPerMonth = n
			return nil
		},
	},
	{
		env: "HMDP_LOG_LEVEL", flag: "log-level", kind: kindText,
		def:      "info",
		values:   "`debug`, `info`, `warn` or `error`",
		help:     "The lowest level of log lines written.",
		more:     "Logs are JSON lines on standard output; what the Redis and MySQL drivers log themselves (failed dials, bad idle connections) goes through the same logger, as warnings with `msg` `redis driver` or `mysql driver` and the driver's text in `text`.",
		newcomer: true,
		set: func(c *Config, v string) error {
			switch v {
			case "debug", "info", "warn", "error":
				c.LogLevel = v
				return nil
			}
			return fmt.Errorf("must be debug, info, warn or error")
		},
	},
	{
		env: "HMDP_OTLP_ENDPOINT", flag: "otlp-endpoint", kind: kindText,
		values: "`http://` or `https://` URL of an OTLP/HTTP collector (`http://127.0.0.1:4318`); empty = tracing off",
		help:   "Where OpenTelemetry traces are sent; tracing is off without it.",
		more:   "Spans are posted to the URL's `/v1/traces` unless it names a path, batched in the background. A trace covers the HTTP request, the GraphQL operation, the resolvers that do I/O, Redis commands and SQL statements, and a flash-sale order from admission to the batch that persisted it; JSON log lines of a traced request carry its `trace_id`. Off, none of it is installed. See [OPERATIONS.md, Tracing](OPERATIONS.md#5-tracing).",
		set: func(c *Config, v string) error {
			if v != "" {
				if _, err := tracing.TracesURL(v); err != nil {
					return err
				}
			}
			c.OTLPEndpoint = v
			return nil
		},
	},
	{
		env: "HMDP_TRACE_SAMPLE", flag: "trace-sample", kind: kindText,
		def:    "1",
		values: "a fraction from `0` to `1`",
		help:   "The share of new traces recorded when tracing is on.",
		more:   "A request that a trusted proxy (`HMDP_TRUSTED_PROXIES`) sent with a `traceparent` keeps the proxy's decision instead.",
		set: func(c *Config, v string) error {
			f, err := strconv.ParseFloat(v, 64)
			if err != nil || f < 0 || f > 1 {
				return fmt.Errorf("must be a fraction from 0 to 1, got %q", v)
			}
			c.TraceSample = f
			return nil
		},
	},
	{
		env: "HMDP_TRACE_SERVICE", flag: "trace-service", kind: kindText,
		def:    "hmdp",
		values: "a name (letters, digits, `.`, `_`, `-`; at most 64 characters)",
		help:   "The `service.name` the traces are filed under.",
		set: func(c *Config, v string) error {
			if !serviceName.MatchString(v) {
				return fmt.Errorf("must be letters, digits, ., _ or - (at most 64), got %q", v)
			}
			c.TraceService = v
			return nil
		},
	},
	{
		env: "HMDP_TIME_ZONE", flag: "time-zone", kind: kindText,
		def:    "Asia/Shanghai",
		values: "an IANA zone name (`Asia/Shanghai`, `UTC`, ...), not `Local`",
		help:   "The zone of every \"today\": sign-in days and months (`signIn`, `makeUpSignIn`, `signInStatus`) and the daily visitor count (`Shop.uvToday`).",
		more:   "The server's own time zone plays no part; the zone database is built into the binary.",
		set: func(c *Config, v string) error {
			if v == "" || v == "Local" {
				return fmt.Errorf("must be an IANA zone name such as Asia/Shanghai or UTC, got %q", v)
			}
			loc, err := time.LoadLocation(v)
			if err != nil {
				return fmt.Errorf("must be an IANA zone name such as Asia/Shanghai or UTC, got %q", v)
			}
			c.TimeZone = loc
			return nil
		},
	},
	{
		env: "HMDP_MYSQL_REPLICA_DSNS", flag: "mysql-replica-dsns", kind: kindText,
		values: "comma-separated go-sql-driver DSNs; needs `HMDP_MYSQL_DSN`",
		help:   "Read replicas of `HMDP_MYSQL_DSN`, which take the reads that tolerate lag, round robin.",
		more:   "Those reads are cache misses of `shop(id)` and `shopTypes`, `shops`, `searchShops`, `feed`, follower/followee lists; writes, transactions and every other read stay on the primary. Each replica's `SHOW SLAVE STATUS` is read every second (its user needs `REPLICATION CLIENT`, `SLAVE MONITOR` on MariaDB); one that is down, not replicating or behind by more than `HMDP_REPLICA_MAX_LAG` is skipped until it recovers, and a read it fails is retried on the primary. See [SCALING.md](SCALING.md).",
		set: func(c *Config, v string) error {
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
		},
	},
	{
		env: "HMDP_REPLICA_MAX_LAG", flag: "replica-max-lag", kind: kindDuration,
		def:    "5s",
		values: "duration, `0s` to `1h`",
		help:   "A replica whose `Seconds_Behind_Master` exceeds this is skipped until it catches up.",
		set: func(c *Config, v string) error {
			d, err := time.ParseDuration(v)
			if err != nil || d < 0 || d > time.Hour {
				return fmt.Errorf("must be a duration from 0s to 1h, like 5s, got %q", v)
			}
			c.ReplicaMaxLag = d
			return nil
		},
	},
	{
		env: "HMDP_READ_YOUR_WRITES", flag: "read-your-writes", kind: kindDuration,
		def:    "2s",
		values: "duration, `0s` to `1h`; `0` = off",
		help:   "With replicas: after a logged-in user's mutation, that user's operations read only the primary for this long, on every instance.",
		more:   "The mark `p ryw:{<userId>}` is in Redis; if Redis cannot be read, the primary is used.",
		set: func(c *Config, v string) error {
			d, err := time.ParseDuration(v)
			if err != nil || d < 0 || d > time.Hour {
				return fmt.Errorf("must be a duration from 0s to 1h, like 2s, got %q", v)
			}
			c.ReadYourWrites = d
			return nil
		},
	},
	{
		env: "HMDP_BINLOG", flag: "binlog", kind: kindText,
		def:    "auto",
		values: "`auto`, `on` (needs `HMDP_MYSQL_DSN`) or `off`",
		help:   "Whether the shop caches are invalidated from the primary's binlog, so that changes made outside the API (an operator's `UPDATE tb_shop ...`) reach `shop(id)` on every instance within a second.",
		more:   "`auto`: when the server has `log_bin`, `binlog_format=ROW`, `binlog_row_image=FULL` and lets the user read it (`REPLICATION SLAVE`, `REPLICATION CLIENT`/`BINLOG MONITOR`); otherwise it logs why and the API's own writes still invalidate through the outbox. `on`: refuse to start without it. `off`: never.",
		set: func(c *Config, v string) error {
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
		},
	},
}

// Load reads the environment and the command line. The error names the
// variable (or flag) that is wrong, in one line.
func Load(args []string, getenv func(string) string) (Config, error) {
	fs := flag.NewFlagSet("hmdp", flag.ContinueOnError)
	flags := make(map[string]*string, len(settings))
	for _, s := range settings {
		flags[s.flag] = fs.String(s.flag, s.def, usage(s))
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

// operationName is a well-formed operation name, as HMDP_METRICS_OPERATIONS takes them.
var operationName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]{0,63}$`)

// serviceName is what HMDP_TRACE_SERVICE accepts: a plain name, as tracing back ends list them.
var serviceName = regexp.MustCompile(`^[A-Za-z0-9._-]{1,64}$`)

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
