package edge

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/handler/transport"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/hmdp/hmdp/internal/apperr"
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

// CloseSessionEnded is the graphql-transport-ws close code for a connection
// whose authentication no longer holds (4403 Forbidden).
const CloseSessionEnded = 4403

// WebsocketSessions authenticates websockets at connection_init (Init) and
// runs each operation on one as its session is now (LiveSession).
type WebsocketSessions struct {
	Auth   *auth.Service
	Limits *WebsocketLimits
	Log    *slog.Logger
}

// Init authenticates a websocket client from its connection_init
// payload ("authorization" as in the HTTP header). A token that is not a live
// session refuses the connection; no token means an anonymous connection.
func (ws WebsocketSessions) Init(ctx context.Context, p transport.InitPayload) (context.Context, *transport.InitPayload, error) {
	token := bearerToken(p.Authorization())
	if token == "" {
		token = bearerToken(p.GetString("token"))
	}
	// The ack carries no payload: echoing the init payload would send the
	// token back down the socket, into client logs and devtools.
	if token == "" {
		if !ws.Limits.holdAnonymous(ctx) {
			return refuse(ctx, CloseTooManySockets, fmt.Sprintf("too many anonymous websockets on this server: at most %d; log in or try later", ws.Limits.maxAnon))
		}
		return ctx, nil, nil
	}
	v, err := ws.Auth.Authenticate(ctx, token)
	if err != nil {
		ws.Log.ErrorContext(ctx, "websocket init", "err", err)
		return refuse(ctx, CloseTryAgainLater, "session store unavailable")
	}
	if v == nil {
		return refuse(ctx, 4403, "invalid or expired token")
	}
	if !ws.Limits.holdSocket(ctx, v.UserID) {
		return refuse(ctx, CloseTooManySockets, fmt.Sprintf("too many websockets for this user: at most %d", ws.Limits.maxPerUser))
	}
	return auth.WithViewer(ws.holdSession(ctx, v), v), nil, nil
}

// refuse ends a websocket at connection_init with a close code: 4403
// (Forbidden, of the graphql-transport-ws protocol: the client must not
// retry with that token), CloseTooManySockets, or CloseTryAgainLater.
func refuse(ctx context.Context, code int, reason string) (context.Context, *transport.InitPayload, error) {
	ctx = transport.WithWebsocketCloseCode(ctx, code)
	ctx = transport.AppendCloseReason(ctx, reason)
	return ctx, nil, errors.New(reason)
}

// socket is one upgraded websocket, known from Detach on.
type socket struct {
	mu      sync.Mutex
	code    int
	message string
	ops     int // operations running (WebsocketLimits)
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
func (ws WebsocketSessions) holdSession(ctx context.Context, v *auth.Viewer) context.Context {
	ctx, cancel := context.WithCancel(ctx)
	s := &socketSession{token: v.Token, group: pubsub.NewGroup(), socket: socketFrom(ctx), cancel: cancel}
	w := ws.Auth.Watch(v, func() bool { return s.group.Len() > 0 }, s.end)
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
			s.socket.closeWith(CloseSessionEnded, "session ended")
		}
		s.cancel()
	})
}

// LiveSession runs each websocket operation as the socket's session as it is
// now (its profile may have changed); once the session has ended, the
// operation is refused and the socket closed.
func (ws WebsocketSessions) LiveSession(ctx context.Context, next graphql.OperationHandler) graphql.ResponseHandler {
	s := socketSessionFrom(ctx)
	if s == nil {
		return next(ctx)
	}
	v, err := ws.Auth.Authenticate(ctx, s.token)
	if err != nil && ctx.Err() != nil {
		// The socket is closing (its session ended, or the server stops) while
		// the session was read: not a failure of the session store, and the
		// socket's close code is already decided.
		return graphql.OneShot(&graphql.Response{Errors: gqlerror.List{{
			Message: auth.ErrSessionEnded.Error(), Extensions: map[string]any{"code": string(apperr.Unauthenticated)}}}})
	}
	if err != nil {
		ws.Log.ErrorContext(ctx, "websocket operation: load session", "err", err)
		return graphql.OneShot(&graphql.Response{Errors: gqlerror.List{{
			Message: "session store unavailable", Extensions: map[string]any{"code": string(apperr.Internal)}}}})
	}
	if v == nil {
		//nolint:contextcheck // ending the socket outlives the refused operation
		go s.end()
		return graphql.OneShot(&graphql.Response{Errors: gqlerror.List{{
			Message: auth.ErrSessionEnded.Error(), Extensions: map[string]any{"code": string(apperr.Unauthenticated)}}}})
	}
	return next(auth.WithViewer(ctx, v))
}
