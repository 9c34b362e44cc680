package edge

import (
	"context"
	"net/http"
	"time"

	"github.com/gorilla/websocket"

	"github.com/hmdp/hmdp/internal/auth"
)

// gqlgenSubprotocols are the subprotocols gqlgen's transport speaks, in its
// order of preference.
var gqlgenSubprotocols = []string{"graphql-ws", "graphql-transport-ws"}

type upgradedKey struct{}

// upgradedHeader is the request header gqlgen sees on every websocket. Shared:
// nothing may write to it (gqlgen and our resolvers only read headers).
var upgradedHeader = http.Header{"Upgrade": {"websocket"}}

// Detach upgrades websocket requests on net/http's connection goroutine, then
// serves them with next (gqlgen's transport, whose Accept takes the upgraded
// connection) on a goroutine of its own and returns at once. net/http's
// goroutine then ends and drops what it would otherwise hold for the life of
// the websocket: the connection's 4 KB read and write buffers (gorilla reads
// through its own small buffer) and its deep stack.
//
// The websocket's context keeps the request's values but not its
// cancellation (net/http cancels it when this handler returns): it ends with
// the connection, or when shutdown is cancelled, since http.Server.Shutdown
// does not close hijacked connections.
func (ws Websocket) Detach(shutdown context.Context, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !websocket.IsWebSocketUpgrade(r) {
			next.ServeHTTP(w, r)
			return
		}
		c, err := ws.upgrader(gqlgenSubprotocols).Upgrade(w, r, nil)
		if err != nil {
			return // Upgrade has written the HTTP error
		}
		ctx, cancel := context.WithCancel(context.WithoutCancel(r.Context()))
		if ws.Admit != nil {
			// Refused after the upgrade, so that the client reads why in a
			// close frame (a browser shows nothing of an HTTP refusal).
			if why := ws.Admit(ctx, auth.ClientIP(ctx)); why != "" { //nolint:contextcheck // the socket's own context: the count must last as long as the socket, not the upgrade request
				cancel()
				_ = c.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(CloseTooManySockets, why), time.Now().Add(time.Second))
				_ = c.Close()
				return
			}
		}
		sock := &socket{}
		stop := context.AfterFunc(shutdown, func() {
			// 1012, which clients retry on, not gqlgen's 1000 ("done").
			sock.closeWith(CloseServiceRestart, "the server is restarting: reconnect")
			cancel()
		})
		ctx = context.WithValue(ctx, socketKey{}, sock)
		r = r.WithContext(context.WithValue(ctx, upgradedKey{}, c)) //nolint:contextcheck // r's values without its cancellation, as said above
		// The body (an upgrade has none) may wrap the ResponseWriter
		// (http.MaxBytesReader), which would keep net/http's buffers.
		r.Body, r.GetBody = http.NoBody, nil
		// gqlgen keeps the request's headers for the connection's life and
		// needs only Upgrade (to pick its websocket transport); everything a
		// subscription needs comes in connection_init. So every websocket
		// shares one read-only header map instead of keeping its own.
		r.Header = upgradedHeader
		if ws.Served != nil {
			ws.Served.wg.Add(1)
		}
		go func() {
			if ws.Served != nil {
				defer ws.Served.wg.Done()
			}
			defer cancel()
			defer stop()
			next.ServeHTTP(hijacked{}, r)
		}()
	})
}

// hijacked is the ResponseWriter of an upgraded request: nothing more can be
// written through HTTP (gqlgen writes only when Accept fails, which it cannot
// for an upgraded connection).
type hijacked struct{}

func (hijacked) Header() http.Header       { return http.Header{} }
func (hijacked) Write([]byte) (int, error) { return 0, http.ErrHijacked }
func (hijacked) WriteHeader(int)           {}
