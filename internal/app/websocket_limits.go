package app

import (
	"context"
	"fmt"
	"sync"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/gqlerror"
)

// Websocket caps (docs/API.md, 2.9): operations running at once on one socket
// (HMDP_WS_MAX_OPERATIONS), refused one by one with TOO_MANY_OPERATIONS, and
// logged-in sockets per user on one instance (HMDP_WS_MAX_SOCKETS_PER_USER),
// one more refused at connection_init with close code 4429.

// closeTooManySockets is the close code of a socket over its user's cap.
const closeTooManySockets = 4429

// wsLimits counts what the caps limit.
type wsLimits struct {
	maxOps, maxPerUser int

	mu      sync.Mutex
	perUser map[int64]int
}

func newWSLimits(cfg Config) *wsLimits {
	return &wsLimits{maxOps: cfg.WSMaxOperations, maxPerUser: cfg.WSMaxSocketsPerUser, perUser: map[int64]int{}}
}

// holdSocket counts one more socket of user until ctx (the connection's)
// ends; false, counting nothing, when the user holds the most already.
func (l *wsLimits) holdSocket(ctx context.Context, user int64) bool {
	if l.maxPerUser <= 0 {
		return true
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.perUser[user] >= l.maxPerUser {
		return false
	}
	l.perUser[user]++
	context.AfterFunc(ctx, func() {
		l.mu.Lock()
		defer l.mu.Unlock()
		if l.perUser[user]--; l.perUser[user] <= 0 {
			delete(l.perUser, user)
		}
	})
	return true
}

// operations refuses a websocket operation while its socket runs the most
// already; an admitted one counts until its context ends (gqlgen ends it when
// the operation completes or the client stops it).
func (l *wsLimits) operations(ctx context.Context, next graphql.OperationHandler) graphql.ResponseHandler {
	s := socketFrom(ctx)
	if s == nil || l.maxOps <= 0 {
		return next(ctx)
	}
	s.mu.Lock()
	if s.ops >= l.maxOps {
		s.mu.Unlock()
		return graphql.OneShot(&graphql.Response{Errors: gqlerror.List{{
			Message:    fmt.Sprintf("too many operations on this websocket: at most %d at once; complete one first", l.maxOps),
			Extensions: map[string]any{"code": "TOO_MANY_OPERATIONS", "max": l.maxOps},
		}}})
	}
	s.ops++
	s.mu.Unlock()
	context.AfterFunc(ctx, func() {
		s.mu.Lock()
		s.ops--
		s.mu.Unlock()
	})
	return next(ctx)
}
