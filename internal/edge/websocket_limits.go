package edge

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/hmdp/hmdp/internal/apperr"
	"github.com/hmdp/hmdp/internal/auth"
)

// Websocket caps (docs/API.md, 2.9), all per instance:
//   - sockets in all (HMDP_WS_MAX_SOCKETS) and from one client address
//     (HMDP_WS_MAX_SOCKETS_PER_ADDRESS), counted from the upgrade, before
//     the client says who it is: one more is upgraded and closed at once
//     with 4429;
//   - anonymous sockets in all (HMDP_WS_MAX_ANONYMOUS_SOCKETS), counted from
//     a connection_init without a token: one more is closed with 4429;
//   - logged-in sockets per user (HMDP_WS_MAX_SOCKETS_PER_USER), one more
//     closed at connection_init with 4429;
//   - operations running at once on one socket (HMDP_WS_MAX_OPERATIONS, or
//     HMDP_WS_MAX_ANONYMOUS_OPERATIONS on an anonymous one), refused one by
//     one with TOO_MANY_OPERATIONS.
// Without the address and total caps one anonymous client held 300 sockets
// with 100 subscriptions each: 30 000 goroutines and 1 GB.

// CloseTooManySockets is the close code of a socket over a cap.
const CloseTooManySockets = 4429

// Close codes that graphql-ws clients retry on (they treat 4500 and most of
// 1000 to 1999 as fatal, 1000 as "done": neither would ever reconnect).
const (
	// CloseServiceRestart ends every socket of an instance shutting down,
	// after each subscription got its SUBSCRIPTION_CLOSED error.
	CloseServiceRestart = 1012
	// CloseTryAgainLater refuses a socket while the session store (Redis)
	// cannot be read.
	CloseTryAgainLater = 1013
)

// WebsocketLimits counts what the caps limit.
type WebsocketLimits struct {
	maxOps, maxAnonOps, maxPerUser, maxPerAddr, maxTotal, maxAnon int

	mu      sync.Mutex
	perUser map[int64]int
	perAddr map[string]int
	total   int
	anon    int
	ending  atomic.Int64 // operations ended by the server whose end is not yet told (WaitEnded)
}

// operation is one admitted websocket operation: whether the server ended it
// (Ending) and whether it is over (its context ended, after gqlgen wrote what
// ended it).
type operation struct {
	limits *WebsocketLimits
	mu     sync.Mutex
	ending bool
	over   bool
}

type operationKey struct{}

// Ending records that the server has ended the websocket operation of ctx
// (a subscription's context, or one derived from it) and that the message
// saying why is on its way to the client: WaitEnded waits for it. Nothing
// happens for a context of no websocket operation, or twice.
func Ending(ctx context.Context) {
	o, _ := ctx.Value(operationKey{}).(*operation)
	if o == nil {
		return
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	if !o.ending && !o.over {
		o.ending = true
		o.limits.ending.Add(1)
	}
}

// WebsocketCaps are the caps of one instance's websockets (HMDP_WS_*).
type WebsocketCaps struct {
	// Operations and AnonymousOperations: at once on one socket, logged in
	// or anonymous.
	Operations, AnonymousOperations int
	// SocketsPerUser: one user's logged-in sockets (0 = no cap).
	SocketsPerUser int
	// Sockets, SocketsPerAddress and AnonymousSockets: all, from one client
	// address, anonymous.
	Sockets, SocketsPerAddress, AnonymousSockets int
}

// NewWebsocketLimits counts against caps.
func NewWebsocketLimits(caps WebsocketCaps) *WebsocketLimits {
	return &WebsocketLimits{
		maxOps: caps.Operations, maxAnonOps: caps.AnonymousOperations,
		maxPerUser: caps.SocketsPerUser, maxPerAddr: caps.SocketsPerAddress,
		maxTotal: caps.Sockets, maxAnon: caps.AnonymousSockets,
		perUser: map[int64]int{}, perAddr: map[string]int{},
	}
}

// HoldConnection counts one more socket from addr until ctx (the
// connection's) ends; otherwise it returns why not, counting nothing.
func (l *WebsocketLimits) HoldConnection(ctx context.Context, addr string) (refused string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.total >= l.maxTotal {
		return fmt.Sprintf("too many websockets on this server: at most %d", l.maxTotal)
	}
	if l.perAddr[addr] >= l.maxPerAddr {
		return fmt.Sprintf("too many websockets from this address: at most %d", l.maxPerAddr)
	}
	l.total++
	l.perAddr[addr]++
	context.AfterFunc(ctx, func() {
		l.mu.Lock()
		defer l.mu.Unlock()
		l.total--
		if l.perAddr[addr]--; l.perAddr[addr] <= 0 {
			delete(l.perAddr, addr)
		}
	})
	return ""
}

// holdAnonymous counts one more anonymous socket until ctx ends; false,
// counting nothing, when the most are open already.
func (l *WebsocketLimits) holdAnonymous(ctx context.Context) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.anon >= l.maxAnon {
		return false
	}
	l.anon++
	context.AfterFunc(ctx, func() {
		l.mu.Lock()
		defer l.mu.Unlock()
		l.anon--
	})
	return true
}

// holdSocket counts one more socket of user until ctx (the connection's)
// ends; false, counting nothing, when the user holds the most already.
func (l *WebsocketLimits) holdSocket(ctx context.Context, user int64) bool {
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

// Operations refuses a websocket operation while its socket runs the most
// already; an admitted one counts until its context ends (gqlgen ends it when
// the operation completes or the client stops it).
func (l *WebsocketLimits) Operations(ctx context.Context, next graphql.OperationHandler) graphql.ResponseHandler {
	s := socketFrom(ctx)
	if s == nil {
		return next(ctx)
	}
	most, whose := l.maxOps, "this websocket"
	if auth.ViewerFrom(ctx) == nil {
		most, whose = l.maxAnonOps, "an anonymous websocket (log in for more)"
	}
	s.mu.Lock()
	if s.ops >= most {
		s.mu.Unlock()
		return graphql.OneShot(&graphql.Response{Errors: gqlerror.List{{
			Message:    fmt.Sprintf("too many operations on %s: at most %d at once; complete one first", whose, most),
			Extensions: map[string]any{"code": string(apperr.TooManyOperations), "max": most},
		}}})
	}
	s.ops++
	s.mu.Unlock()
	o := &operation{limits: l}
	context.AfterFunc(ctx, func() {
		s.mu.Lock()
		s.ops--
		s.mu.Unlock()
		o.mu.Lock()
		o.over = true
		if o.ending {
			l.ending.Add(-1)
		}
		o.mu.Unlock()
	})
	return next(context.WithValue(ctx, operationKey{}, o))
}

// WaitEnded waits until every operation the server ended (Ending) has told
// its client why, or for at most within, and returns how many had not: on
// shutdown, the subscriptions the broker ended send their goodbye before the
// sockets close. Operations the server did not end (a subscription to
// something that does not end with the broker) are not waited for.
func (l *WebsocketLimits) WaitEnded(within time.Duration) int64 {
	deadline := time.Now().Add(within)
	for l.ending.Load() > 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	return l.ending.Load()
}
