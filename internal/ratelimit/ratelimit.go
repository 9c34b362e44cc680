// Package ratelimit limits how often something may happen, shared by every server
// instance through Redis, with GCRA (generic cell rate algorithm): one key per
// limited thing holding its "theoretical arrival time", updated atomically in Lua.
//
// The time the script decides by is Redis's own (TIME inside the script), not
// the calling instance's: instances whose clocks disagree still share one
// notion of "now" for the arrival times they write and compare.
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
	// Now is for tests only and nil by default, which is what servers must
	// use: the script then reads Redis's clock, shared by every instance.
	// When set, its time is sent to the script in place of Redis's, so a
	// test can let hours pass at once even on a real Redis, whose clock it
	// cannot move (on the embedded one, prefer miniredis's SetTime).
	Now func() time.Time
}

// New returns a limiter whose keys start with prefix + "rl:".
func New(rdb redis.UniversalClient, prefix string, enabled bool) *Limiter {
	return &Limiter{rdb: rdb, prefix: prefix + "rl:", disabled: !enabled}
}

var gcra = lua.Script("ratelimit_gcra")

// Enabled reports whether limits are checked (HMDP_RATE_LIMITS); scripts that
// fold a limit into their own work (seckill_admit.lua) ask it.
func (l *Limiter) Enabled() bool { return !l.disabled }

// Allow records one event for key under lim if the limit allows it.
func (l *Limiter) Allow(ctx context.Context, key string, lim Limit) (Result, error) {
	if l.disabled {
		return Result{Allowed: true}, nil
	}
	if lim.Events <= 0 || lim.Per <= 0 {
		return Result{}, fmt.Errorf("ratelimit: bad limit %v", lim)
	}
	interval := lim.Per.Milliseconds() / int64(lim.Events)
	args := []any{interval, lim.Events}
	if l.Now != nil {
		args = append(args, l.Now().UnixMilli())
	}
	res, err := gcra.Run(ctx, l.rdb, []string{l.prefix + key}, args...).Int64Slice()
	if err != nil {
		return Result{}, fmt.Errorf("ratelimit %s: %w", key, err)
	}
	return Result{Allowed: res[0] == 1, RetryAfter: time.Duration(res[1]) * time.Millisecond}, nil
}

// Check is one limit of an event limited several ways at once (AllowAll).
type Check struct {
	Key   string
	Limit Limit
}

var gcraAll = lua.Script("ratelimit_gcra_all")

// AllowAll records one event under every check if every limit allows it, and
// under none otherwise, in one script: a caller refused by one limit spends
// nothing of the others (an address over its limit cannot use up a phone's).
// When refused, refused is the index of the check that allows an event last
// and RetryAfter is when it will (so every check will); refused is -1 when
// the event was allowed.
//
// On Redis Cluster the keys must share a hash tag ("{code}:…"), since one
// script touches them all.
func (l *Limiter) AllowAll(ctx context.Context, checks ...Check) (res Result, refused int, err error) {
	if l.disabled || len(checks) == 0 {
		return Result{Allowed: true}, -1, nil
	}
	keys := make([]string, len(checks))
	args := make([]any, 0, 2*len(checks)+1)
	for i, c := range checks {
		if c.Limit.Events <= 0 || c.Limit.Per <= 0 {
			return Result{}, -1, fmt.Errorf("ratelimit: bad limit %v for %s", c.Limit, c.Key)
		}
		keys[i] = l.prefix + c.Key
		args = append(args, c.Limit.Per.Milliseconds()/int64(c.Limit.Events), c.Limit.Events)
	}
	if l.Now != nil {
		args = append(args, l.Now().UnixMilli())
	}
	out, err := gcraAll.Run(ctx, l.rdb, keys, args...).Int64Slice()
	if err != nil {
		return Result{}, -1, fmt.Errorf("ratelimit %s: %w", keys[0], err)
	}
	if out[0] == 1 {
		return Result{Allowed: true}, -1, nil
	}
	return Result{RetryAfter: time.Duration(out[1]) * time.Millisecond}, int(out[2]) - 1, nil
}
