package main

import (
	"flag"
	"fmt"
	"net"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/go-sql-driver/mysql"

	"github.com/hmdp/hmdp/internal/auth"
)

// Config is the server configuration, read from HMDP_* environment variables
// (API.md), each mirrored by a flag that wins over it.
type Config struct {
	Addr           string
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
	MaxDepth       int
	MaxComplexity  int
	FeedPushLimit  int
	MaxBodyBytes   int64
	ShutdownGrace  time.Duration
	LogLevel       string
	// NearCacheTTL is the in-process near cache's lifetime (0 = off).
	NearCacheTTL time.Duration
	// SessionCacheTTL is how long an instance trusts a session it read (0 = off).
	SessionCacheTTL time.Duration
	// OrderClaimIdle is how long an accepted flash-sale order may sit with a
	// silent consumer before another instance takes it over.
	OrderClaimIdle time.Duration
}

// setting is one configuration variable: its name, flag, default and parser.
type setting struct {
	env, flag, def, help string
	set                  func(c *Config, v string) error
}

var settings = []setting{
	{"HMDP_ADDR", "addr", ":8080", "listen address", func(c *Config, v string) error {
		if _, _, err := net.SplitHostPort(v); err != nil {
			return fmt.Errorf("must be host:port, e.g. :8080")
		}
		c.Addr = v
		return nil
	}},
	{"HMDP_MYSQL_DSN", "mysql-dsn", "", "go-sql-driver DSN; empty = embedded SQLite", func(c *Config, v string) error {
		if v != "" {
			if _, err := mysql.ParseDSN(v); err != nil {
				return fmt.Errorf("not a go-sql-driver DSN (user:pass@tcp(host:3306)/db): %v", err)
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
	{"HMDP_INTROSPECTION", "introspection", "true", "allow schema introspection", func(c *Config, v string) error { return parseBool(v, &c.Introspection) }},
	{"HMDP_PLAYGROUND", "playground", "true", "serve the GraphiQL playground at /", func(c *Config, v string) error { return parseBool(v, &c.Playground) }},
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
	{"HMDP_MAX_DEPTH", "max-depth", "12", "deepest selection a query may nest", func(c *Config, v string) error { return parsePositive(v, &c.MaxDepth) }},
	{"HMDP_MAX_COMPLEXITY", "max-complexity", "1000", "highest complexity an operation may have", func(c *Config, v string) error { return parsePositive(v, &c.MaxComplexity) }},
	{"HMDP_FEED_PUSH_LIMIT", "feed-push-limit", "5000", "authors with more followers are pulled into feeds at read time instead of pushed to inboxes", func(c *Config, v string) error { return parsePositive(v, &c.FeedPushLimit) }},
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
	{"HMDP_NEAR_CACHE_TTL", "near-cache-ttl", "1s", "lifetime of the in-process near cache of hot reads (0 = off)", func(c *Config, v string) error {
		d, err := time.ParseDuration(v)
		if err != nil || d < 0 {
			return fmt.Errorf("must be a duration like 1s, or 0 to turn the near cache off")
		}
		c.NearCacheTTL = d
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
	{"HMDP_ORDER_CLAIM_IDLE", "order-claim-idle", "30s", "how long a flash-sale order may wait with a silent consumer before another instance takes it over", func(c *Config, v string) error {
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			return fmt.Errorf("must be a positive duration like 30s")
		}
		c.OrderClaimIdle = d
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
			return Config{}, fmt.Errorf("%s: %v", name, err)
		}
	}
	return c, nil
}

func splitList(v string) []string {
	var out []string
	for _, p := range strings.Split(v, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
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

func parsePositive(v string, dst *int) error {
	n, err := strconv.Atoi(v)
	if err != nil || n <= 0 {
		return fmt.Errorf("must be a positive whole number, got %q", v)
	}
	*dst = n
	return nil
}
