package app

import (
	"context"
	"fmt"
	"time"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"

	"github.com/hmdp/hmdp/internal/auth"
	"github.com/hmdp/hmdp/internal/database"
)

// rywKey marks that a user wrote within HMDP_READ_YOUR_WRITES; it lives in
// Redis so the user's next request reads the primary on any instance.
func (a *App) rywKey(userID int64) string {
	return fmt.Sprintf("%sryw:{%d}", a.cfg.RedisPrefix, userID)
}

// readYourWrites sends a logged-in user's reads to the primary for
// HMDP_READ_YOUR_WRITES after each of their mutations, so a replica's lag
// never hides a user's own write from them.
func (a *App) readYourWrites(ctx context.Context, next graphql.OperationHandler) graphql.ResponseHandler {
	v := auth.ViewerFrom(ctx)
	oc := graphql.GetOperationContext(ctx)
	if v == nil || oc == nil || oc.Operation == nil {
		return next(ctx)
	}
	key := a.rywKey(v.UserID)
	switch oc.Operation.Operation {
	case ast.Mutation:
		// Marked before the write (covering the moment it commits) and again
		// after it, so the window counts from the write's end.
		a.markWrite(ctx, key)
		h := next(database.PrimaryOnly(ctx))
		return func(ctx context.Context) *graphql.Response {
			resp := h(ctx)
			a.markWrite(ctx, key)
			return resp
		}
	case ast.Query:
		n, err := a.redis.Client.Exists(ctx, key).Result()
		if err != nil || n > 0 { // unknown counts as recent: the primary is always right
			ctx = database.PrimaryOnly(ctx)
		}
	}
	return next(ctx)
}

func (a *App) markWrite(ctx context.Context, key string) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Second)
	defer cancel()
	if err := a.redis.Client.Set(ctx, key, 1, a.cfg.ReadYourWrites).Err(); err != nil {
		a.log.WarnContext(ctx, "read-your-writes: mark the write", "err", err)
	}
}
