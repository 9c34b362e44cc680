package main

import (
	"errors"
	"io"
	"net/http"
	"slices"
	"sync"
	"time"

	"github.com/99designs/gqlgen/graphql/handler/transport"
	"github.com/gorilla/websocket"
)

// gorillaWebsocket adapts gorilla/websocket to gqlgen's websocket transport.
type gorillaWebsocket struct {
	// CheckOrigin is the Origin allow-list.
	CheckOrigin func(r *http.Request) bool
}

var _ transport.WebsocketImplementation = gorillaWebsocket{}

func (g gorillaWebsocket) Accept(w http.ResponseWriter, r *http.Request, opts transport.WebsocketAcceptOptions) (transport.WebsocketConn, error) {
	up := websocket.Upgrader{
		// Idle subscriptions are the common case: share write buffers
		// instead of holding 4 KB per connection.
		WriteBufferPool:  wsWriteBuffers,
		HandshakeTimeout: 10 * time.Second,
		Subprotocols:     slices.Clone(opts.Subprotocols),
		CheckOrigin:      g.CheckOrigin,
	}
	c, err := up.Upgrade(w, r, opts.ResponseHeader)
	if err != nil {
		return nil, err // Upgrade has already written the HTTP error
	}
	return &gorillaConn{c: c}, nil
}

var wsWriteBuffers = &sync.Pool{}

// gorillaConn serialises writes: gorilla allows one concurrent writer, while
// gqlgen writes from its reader, its ping loop and each subscription.
type gorillaConn struct {
	c  *websocket.Conn
	mu sync.Mutex
}

var (
	_ transport.WebsocketConn          = (*gorillaConn)(nil)
	_ transport.WebsocketReadLimiter   = (*gorillaConn)(nil)
	_ transport.WebsocketReadDeadliner = (*gorillaConn)(nil)
)

const writeWait = 10 * time.Second

func (g *gorillaConn) NextReader() (int, io.Reader, error) {
	t, r, err := g.c.NextReader()
	if websocket.IsCloseError(err, websocket.CloseNormalClosure, websocket.CloseGoingAway, websocket.CloseNoStatusReceived) {
		return t, nil, transport.ErrWebsocketClosed
	}
	return t, r, err
}

func (g *gorillaConn) WriteJSON(v any) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	// A client that stops reading must not hold a writer forever.
	_ = g.c.SetWriteDeadline(time.Now().Add(writeWait))
	return g.c.WriteJSON(v)
}

func (g *gorillaConn) WriteClose(code int, message string) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	err := g.c.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(code, message), time.Now().Add(time.Second))
	if errors.Is(err, websocket.ErrCloseSent) {
		return nil
	}
	return err
}

func (g *gorillaConn) Close() error                      { return g.c.Close() }
func (g *gorillaConn) Subprotocol() string               { return g.c.Subprotocol() }
func (g *gorillaConn) SetReadLimit(limit int64)          { g.c.SetReadLimit(limit) }
func (g *gorillaConn) SetReadDeadline(t time.Time) error { return g.c.SetReadDeadline(t) }
