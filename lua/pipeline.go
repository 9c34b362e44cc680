package lua

import (
	"context"
	"strings"

	"github.com/redis/go-redis/v9"
)

// RunPipelined runs fill's EVALSHA calls of script in one pipeline. A script
// the server has not seen yet answers NOSCRIPT (redis.Script's own fallback
// works per call, not per pipeline): then the script is loaded and the batch
// sent once more, so it costs two round trips the first time and one after.
func RunPipelined(ctx context.Context, rdb redis.UniversalClient, script *redis.Script, fill func(redis.Pipeliner)) error {
	pipe := rdb.Pipeline()
	fill(pipe)
	_, err := pipe.Exec(ctx)
	if err == nil || !strings.HasPrefix(err.Error(), "NOSCRIPT") {
		return err
	}
	if err := script.Load(ctx, rdb).Err(); err != nil {
		return err
	}
	pipe = rdb.Pipeline()
	fill(pipe)
	_, err = pipe.Exec(ctx)
	return err
}
