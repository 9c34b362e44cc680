package app

import (
	"context"
	"sync"
	"time"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/hmdp/hmdp/internal/auth"
	"github.com/hmdp/hmdp/internal/pubsub"
)

// A websocket authenticates once, at connection_init, but every operation on
// it must run as a live session: when the session ends (logout or a new
// password, on any instance, or expiry) the server ends the socket's
// subscriptions with SUBSCRIPTION_CLOSED (reason "session_ended") and closes
// it with 4403; an operation that arrives before that is refused as
// UNAUTHENTICATED. While the socket holds subscriptions the session slides,
// as requests would slide it.

// closeSessionEnded is the graphql-transport-ws close code for a connection
// whose authentication no longer holds (4403 Forbidden).
const closeSessionEnded = 4403

// socket is one upgraded websocket, known from Detach on.
type socket struct {
	mu      sync.Mutex
	code    int
	message string
	ops     int // operations running (wsLimits)
}

type socketKey struct{}

func socketFrom(ctx context.Context) *socket {
	s, _ := ctx.Value(socketKey{}).(*socket)
	return s
}

// closeWith makes the connection close with code and message instead of
// gqlgen's 1000 when its context ends.
func (s *socket) closeWith(code int, message string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.code, s.message = code, message
}

func (s *socket) closeCode() (int, string, bool) {
	if s == nil {
		return 0, "", false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.code, s.message, s.code != 0
}

// socketSession is the session an authenticated websocket holds.
type socketSession struct {
	token  string
	group  *pubsub.Group // the socket's subscriptions
	socket *socket
	cancel context.CancelFunc // ends the connection
	once   sync.Once
}

type socketSessionKey struct{}

func socketSessionFrom(ctx context.Context) *socketSession {
	s, _ := ctx.Value(socketSessionKey{}).(*socketSession)
	return s
}

// holdSession makes ctx, the connection's context after connection_init,
// end with the session of v.
func (a *App) holdSession(ctx context.Context, v *auth.Viewer) context.Context {
	ctx, cancel := context.WithCancel(ctx)
	s := &socketSession{token: v.Token, group: pubsub.NewGroup(), socket: socketFrom(ctx), cancel: cancel}
	w := a.auth.Watch(v, func() bool { return s.group.Len() > 0 }, s.end)
	context.AfterFunc(ctx, w.Stop)
	ctx = pubsub.WithGroup(ctx, s.group)
	return context.WithValue(ctx, socketSessionKey{}, s)
}

// sessionEndedWait bounds how long the socket waits for its subscriptions to
// send their SUBSCRIPTION_CLOSED messages before it closes.
const sessionEndedWait = time.Second

// end ends the subscriptions, each told why, then closes the socket with 4403.
func (s *socketSession) end() {
	s.once.Do(func() {
		idle := s.group.End(auth.ErrSessionEnded)
		t := time.NewTimer(sessionEndedWait)
		defer t.Stop()
		select {
		case <-idle:
		case <-t.C:
		}
		if s.socket != nil {
			s.socket.closeWith(closeSessionEnded, "session ended")
		}
		s.cancel()
	})
}

// liveSession runs each websocket operation as the socket's session as it is
// now (its profile may have changed); once the session has ended, the
// operation is refused and the socket closed.
func (a *App) liveSession(ctx context.Context, next graphql.OperationHandler) graphql.ResponseHandler {
	s := socketSessionFrom(ctx)
	if s == nil {
		return next(ctx)
	}
	v, err := a.auth.Authenticate(ctx, s.token)
	if err != nil && ctx.Err() != nil {
		// The socket is closing (its session ended, or the server stops) while
		// the session was read: not a failure of the session store, and the
		// socket's close code is already decided.
		return graphql.OneShot(&graphql.Response{Errors: gqlerror.List{{
			Message: auth.ErrSessionEnded.Error(), Extensions: map[string]any{"code": "UNAUTHENTICATED"}}}})
	}
	if err != nil {
		a.log.ErrorContext(ctx, "websocket operation: load session", "err", err)
		return graphql.OneShot(&graphql.Response{Errors: gqlerror.List{{
			Message: "session store unavailable", Extensions: map[string]any{"code": "INTERNAL_SERVER_ERROR"}}}})
	}
	if v == nil {
		//nolint:contextcheck // ending the socket outlives the refused operation
		go s.end()
		return graphql.OneShot(&graphql.Response{Errors: gqlerror.List{{
			Message: auth.ErrSessionEnded.Error(), Extensions: map[string]any{"code": "UNAUTHENTICATED"}}}})
	}
	return next(auth.WithViewer(ctx, v))
}
