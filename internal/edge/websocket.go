package edge

import (
	"context"
	"errors"
	"io"
	"net/http"
	"slices"
	"sync"
	"time"

	"github.com/99designs/gqlgen/graphql/handler/transport"
	"github.com/gorilla/websocket"
)

// Websocket adapts gorilla/websocket to gqlgen's websocket transport.
type Websocket struct {
	// CheckOrigin is the Origin allow-list.
	CheckOrigin func(r *http.Request) bool
	// Heartbeat is how often a connection hears from the server when idle:
	// "ping" in graphql-transport-ws, which must be answered with "pong"
	// within two intervals or the connection is dropped (as gqlgen's
	// PingPongInterval does); "ka" in graphql-ws (its KeepAlivePingInterval).
	// A timer per connection instead of gqlgen's goroutine and ticker per
	// connection: an idle subscription costs a few kilobytes less.
	Heartbeat time.Duration
	// Admit, when set, is asked before a websocket is served: a reason
	// closes it at once with 4429; "" admits it, counted until ctx ends.
	Admit func(ctx context.Context, clientAddr string) (refused string)
	// Served, when set, counts the websockets Detach serves until each has
	// ended, its close frame written (see Served).
	Served *Served
}

// Served counts the websockets being served. Shutdown waits on it
// (WaitClosed), or a process exiting under load cuts sockets with no close
// frame: clients see 1006, not the 1012 they retry on.
type Served struct{ wg sync.WaitGroup }

// WaitClosed waits until every socket counted has ended, or for at most
// within.
func (s *Served) WaitClosed(within time.Duration) {
	done := make(chan struct{})
	go func() {
		s.wg.Wait()
		close(done)
	}()
	t := time.NewTimer(within)
	defer t.Stop()
	select {
	case <-done:
	case <-t.C:
	}
}

var _ transport.WebsocketImplementation = Websocket{}

// Accept takes the connection Detach upgraded, or upgrades r itself.
func (ws Websocket) Accept(w http.ResponseWriter, r *http.Request, opts transport.WebsocketAcceptOptions) (transport.WebsocketConn, error) {
	c, ok := r.Context().Value(upgradedKey{}).(*websocket.Conn)
	if !ok {
		var err error
		if c, err = ws.upgrader(opts.Subprotocols).Upgrade(w, r, opts.ResponseHeader); err != nil {
			return nil, err // Upgrade has already written the HTTP error
		}
	}
	g := &gorillaConn{c: c, every: ws.Heartbeat, closing: socketFrom(r.Context())}
	if g.every > 0 {
		if c.Subprotocol() == "graphql-transport-ws" {
			_ = c.SetReadDeadline(time.Now().Add(2 * g.every))
		}
		g.beat = time.AfterFunc(g.every, g.heartbeat)
	}
	return g, nil
}

func (ws Websocket) upgrader(subprotocols []string) *websocket.Upgrader {
	return &websocket.Upgrader{
		// Idle subscriptions are the common case: a small read buffer (a
		// longer message is read in several pieces), and write buffers
		// shared instead of 4 KB held per connection.
		ReadBufferSize:   512,
		WriteBufferPool:  wsWriteBuffers,
		HandshakeTimeout: 10 * time.Second,
		Subprotocols:     slices.Clone(subprotocols),
		CheckOrigin:      ws.CheckOrigin,
	}
}

var wsWriteBuffers = &sync.Pool{}

// gorillaConn serialises writes: gorilla allows one concurrent writer, while
// gqlgen writes from its reader and each subscription, and the heartbeat from
// its timer.
type gorillaConn struct {
	c  *websocket.Conn
	mu sync.Mutex // guards writes and the fields below

	every   time.Duration
	beat    *time.Timer // nil without a heartbeat
	pong    bool        // a pong came since the last ping
	closed  bool
	closing *socket // how the server wants the connection closed; nil when not detached
}

var (
	pingMessage      = []byte(`{"type":"ping"}`)
	keepAliveMessage = []byte(`{"type":"ka"}`)
)

// heartbeat runs on the connection's timer: it sends the idle message and,
// in graphql-transport-ws, moves the read deadline two intervals on if the
// client answered the last ping (else the deadline set then stands and ends
// the connection), then sets the timer again.
func (g *gorillaConn) heartbeat() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.closed {
		return
	}
	msg := keepAliveMessage
	if g.c.Subprotocol() == "graphql-transport-ws" {
		msg = pingMessage
		if g.pong {
			_ = g.c.SetReadDeadline(time.Now().Add(2 * g.every))
		}
		g.pong = false
	}
	_ = g.c.SetWriteDeadline(time.Now().Add(WebsocketWriteWait))
	if err := g.c.WriteMessage(websocket.TextMessage, msg); err != nil {
		_ = g.c.Close() // broken: the reader fails then, and gqlgen ends the connection
		return
	}
	g.beat.Reset(g.every)
}

var (
	_ transport.WebsocketConn          = (*gorillaConn)(nil)
	_ transport.WebsocketReadLimiter   = (*gorillaConn)(nil)
	_ transport.WebsocketReadDeadliner = (*gorillaConn)(nil)
)

// WebsocketWriteWait bounds each write to a websocket: a client that stops
// reading is cut after it.
const WebsocketWriteWait = 10 * time.Second

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
	_ = g.c.SetWriteDeadline(time.Now().Add(WebsocketWriteWait))
	err := g.c.WriteJSON(v)
	if err != nil {
		// gorilla fails every later write on this connection, but gqlgen
		// only reports a write error and keeps the socket open: close it, so
		// the client is cut (not left waiting on a silent socket) and the
		// reader ends the connection.
		_ = g.c.Close()
	}
	return err
}

func (g *gorillaConn) WriteClose(code int, message string) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	// gqlgen closes every connection whose context ended with 1000; the
	// server may have ended it for a reason the client must see.
	if c, m, ok := g.closing.closeCode(); ok {
		code, message = c, m
	}
	err := g.c.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(code, message), time.Now().Add(time.Second))
	if errors.Is(err, websocket.ErrCloseSent) {
		return nil
	}
	return err
}

func (g *gorillaConn) Close() error {
	g.mu.Lock()
	g.closed = true
	if g.beat != nil {
		g.beat.Stop()
	}
	g.mu.Unlock()
	return g.c.Close()
}

// SetReadDeadline: gqlgen clears the deadline when a pong arrives.
func (g *gorillaConn) SetReadDeadline(t time.Time) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if t.IsZero() {
		g.pong = true
	}
	return g.c.SetReadDeadline(t)
}

func (g *gorillaConn) Subprotocol() string      { return g.c.Subprotocol() }
func (g *gorillaConn) SetReadLimit(limit int64) { g.c.SetReadLimit(limit) }
