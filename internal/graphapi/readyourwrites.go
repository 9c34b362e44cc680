package graphapi

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/99designs/gqlgen/graphql"
	"github.com/redis/go-redis/v9"
	"github.com/vektah/gqlparser/v2/ast"

	"github.com/hmdp/hmdp/internal/auth"
	"github.com/hmdp/hmdp/internal/database"
)

// ReadYourWrites sends a logged-in user's reads to the primary for Window
// after each of their mutations (HMDP_READ_YOUR_WRITES), so a replica's lag
// never hides a user's own write from them.
type ReadYourWrites struct {
	Redis  redis.UniversalClient
	Prefix string // the server's Redis key prefix
	Window time.Duration
	Log    *slog.Logger
}

// key marks that a user wrote within the window; it lives in Redis so the
// user's next request reads the primary on any instance.
func (rw ReadYourWrites) key(userID int64) string {
	return fmt.Sprintf("%sryw:{%d}", rw.Prefix, userID)
}

// AroundOperations routes the operation's reads. It needs the viewer, so it
// runs after the websocket's live session is loaded.
func (rw ReadYourWrites) AroundOperations(ctx context.Context, next graphql.OperationHandler) graphql.ResponseHandler {
	v := auth.ViewerFrom(ctx)
	oc := graphql.GetOperationContext(ctx)
	if v == nil || oc == nil || oc.Operation == nil {
		return next(ctx)
	}
	key := rw.key(v.UserID)
	switch oc.Operation.Operation {
	case ast.Mutation:
		// Marked before the write (covering the moment it commits) and again
		// after it, so the window counts from the write's end.
		rw.markWrite(ctx, key)
		h := next(database.PrimaryOnly(ctx))
		return func(ctx context.Context) *graphql.Response {
			resp := h(ctx)
			rw.markWrite(ctx, key)
			return resp
		}
	case ast.Query:
		n, err := rw.Redis.Exists(ctx, key).Result()
		if err != nil || n > 0 { // unknown counts as recent: the primary is always right
			ctx = database.PrimaryOnly(ctx)
		}
	case ast.Subscription:
		// It outlives any window checked at its start: its reads are routed
		// as usual.
	}
	return next(ctx)
}

func (rw ReadYourWrites) markWrite(ctx context.Context, key string) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Second)
	defer cancel()
	if err := rw.Redis.Set(ctx, key, 1, rw.Window).Err(); err != nil {
		rw.Log.WarnContext(ctx, "read-your-writes: mark the write", "err", err)
	}
}
