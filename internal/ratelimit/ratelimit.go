// Package ratelimit limits how often something may happen, shared by every server
// instance through Redis, with GCRA (generic cell rate algorithm): one key per
// limited thing holding its "theoretical arrival time", updated atomically in Lua.
package ratelimit

import (
	"context"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/hmdp/hmdp/lua"
)

// Limit allows Events per Per, sustained, with up to Events at once.
type Limit struct {
	Events int
	Per    time.Duration
}

func (l Limit) String() string { return fmt.Sprintf("%d per %s", l.Events, l.Per) }

// Result says whether an event was allowed and, if not, when one will be.
type Result struct {
	Allowed    bool
	RetryAfter time.Duration
}

// Limiter checks limits in Redis. A disabled limiter allows everything (load tests).
type Limiter struct {
	rdb      redis.UniversalClient
	prefix   string
	disabled bool
	// Now is the clock; instances must keep their clocks in sync (NTP) since
	// the arrival times they write are compared across instances.
	Now func() time.Time
}

// New returns a limiter whose keys start with prefix + "rl:".
func New(rdb redis.UniversalClient, prefix string, enabled bool) *Limiter {
	return &Limiter{rdb: rdb, prefix: prefix + "rl:", disabled: !enabled, Now: time.Now}
}

var gcra = lua.Script("ratelimit_gcra")

// Allow records one event for key under lim if the limit allows it.
func (l *Limiter) Allow(ctx context.Context, key string, lim Limit) (Result, error) {
	if l.disabled {
		return Result{Allowed: true}, nil
	}
	if lim.Events <= 0 || lim.Per <= 0 {
		return Result{}, fmt.Errorf("ratelimit: bad limit %v", lim)
	}
	interval := lim.Per.Milliseconds() / int64(lim.Events)
	now := l.Now().UnixMilli()
	res, err := gcra.Run(ctx, l.rdb, []string{l.prefix + key}, now, interval, lim.Events).Int64Slice()
	if err != nil {
		return Result{}, fmt.Errorf("ratelimit %s: %w", key, err)
	}
	return Result{Allowed: res[0] == 1, RetryAfter: time.Duration(res[1]) * time.Millisecond}, nil
}
