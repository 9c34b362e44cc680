package ratelimit

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/hmdp/hmdp/lua"
)

// Failure budgets limit failed attempts (wrong passwords) rather than all
// attempts: lim.Events failures in a window of lim.Per, the window starting
// with its first failure. CheckFailures looks before an attempt;
// RecordFailure counts one that failed. Successes cost nothing.

var recordFailure = lua.Script("ratelimit_failure")

func (l *Limiter) failureKey(key string) string { return l.prefix + "fail:" + key }

// CheckFailures reports whether another attempt is allowed for every key (in
// one round trip); when not, RetryAfter is when the longest window ends.
func (l *Limiter) CheckFailures(ctx context.Context, lim Limit, keys ...string) (Result, error) {
	if l.disabled || len(keys) == 0 {
		return Result{Allowed: true}, nil
	}
	type look struct {
		n   *redis.StringCmd
		ttl *redis.DurationCmd
	}
	looks := make([]look, len(keys))
	// A pipeline, not MGET: on Redis Cluster the keys live on different slots.
	pipe := l.rdb.Pipeline()
	for i, k := range keys {
		looks[i] = look{pipe.Get(ctx, l.failureKey(k)), pipe.PTTL(ctx, l.failureKey(k))}
	}
	if _, err := pipe.Exec(ctx); err != nil && !errors.Is(err, redis.Nil) {
		return Result{}, fmt.Errorf("ratelimit: failures: %w", err)
	}
	res := Result{Allowed: true}
	for _, lk := range looks {
		n, _ := strconv.Atoi(lk.n.Val())
		if n < lim.Events {
			continue
		}
		res.Allowed = false
		if left := lk.ttl.Val(); left > res.RetryAfter {
			res.RetryAfter = left
		}
	}
	if !res.Allowed && res.RetryAfter <= 0 {
		res.RetryAfter = time.Millisecond // the window is ending now
	}
	return res, nil
}

// RecordFailure counts one failed attempt for each key.
func (l *Limiter) RecordFailure(ctx context.Context, lim Limit, keys ...string) error {
	if l.disabled || len(keys) == 0 {
		return nil
	}
	pipe := l.rdb.Pipeline()
	for _, k := range keys {
		// EVAL, not EVALSHA: a pipeline cannot fall back when the script is not loaded.
		recordFailure.Eval(ctx, pipe, []string{l.failureKey(k)}, lim.Per.Milliseconds())
	}
	if _, err := pipe.Exec(ctx); err != nil {
		return fmt.Errorf("ratelimit: record failure: %w", err)
	}
	return nil
}
